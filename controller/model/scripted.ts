import { modelTools } from "#contract/model-tools";
import type { ModelAdapter, ModelRequest, ModelResponse } from "#controller/model/types";

/**
 * One step of a scripted model (contract §8.3 `script`): a proposal, or a reply, which ends the turn.
 */
export type ScriptStep = { call: string; input: unknown } | { say: string };

/** A script as a function: called once per model request, with the request and how many came before. */
export type ScriptFunction = (request: ModelRequest, index: number) => ScriptStep | ModelResponse | undefined;

/**
 * The controller asked a scripted model for a step its script does not have. A turn whose model fails ends with
 * the honest "I couldn't finish" reply, and the turn's `problem` is `model_failed` with this message.
 */
export class ScriptExhaustedError extends Error {
  constructor(used: number) {
    super(
      `the script has ${used} step${used === 1 ? "" : "s"} and the controller asked for step ${used + 1}. One script runs across all the turns of a conversation, and each turn ends at a {"say": …} step (a real model would have replied here): add the steps this turn needs.`,
    );
    this.name = "ScriptExhaustedError";
  }
}

/**
 * A model that proposes what it is told to, in order, across the turns of a conversation: each `call` step
 * is one response with one tool call; a `say` step is the reply that ends the turn.
 *
 * A list of steps is checked here, so a mistake fails where the script is written: each step is `{call, input}`
 * or `{say}`, and a call names one of the tools the registry offers a model. To script a model that proposes a
 * tool that does not exist (the controller answers it UNKNOWN_TOOL), give the script as a function.
 */
export function scriptedModel(script: readonly ScriptStep[] | ScriptFunction, name = "scripted"): ModelAdapter & { readonly used: number } {
  if (typeof script !== "function") checkSteps(script);
  let index = 0;
  return {
    name,
    get used() {
      return index;
    },
    async respond(request) {
      const step = typeof script === "function" ? script(request, index) : script[index];
      if (step === undefined) throw new ScriptExhaustedError(index);
      const n = index++;
      if ("toolCalls" in step) return step;
      if ("say" in step) return { text: step.say, toolCalls: [], stopReason: "end_turn" };
      return { text: "", toolCalls: [{ id: `call_scripted_${n + 1}`, name: step.call, input: step.input }], stopReason: "tool_use" };
    },
  };
}

function checkSteps(script: readonly ScriptStep[]): void {
  if (!Array.isArray(script))
    throw new TypeError(`scriptedModel takes a list of steps ({call, input} or {say}) or a function, not ${typeof script}.`);
  const tools = modelTools().map((t) => t.name as string);
  for (const [i, step] of (script as readonly unknown[]).entries()) {
    const at = `scriptedModel: step ${i + 1} (${JSON.stringify(step)?.slice(0, 80)})`;
    const fields = step !== null && typeof step === "object" ? Object.keys(step) : [];
    const s = step as Record<string, unknown>;
    const isCall = fields.length === 2 && fields.includes("call") && fields.includes("input");
    const isSay = fields.length === 1 && fields[0] === "say";
    if (!isCall && !isSay)
      throw new TypeError(`${at} is neither {"call": <tool>, "input": <arguments>} nor {"say": <reply>}: a step is exactly one of these.`);
    if (isSay && typeof s.say !== "string") throw new TypeError(`${at}: say is the model's reply, a string.`);
    if (isCall && !tools.includes(s.call as string))
      throw new TypeError(
        `${at} calls ${JSON.stringify(s.call)}, which is not a tool the controller offers a model; they are ${tools.join(", ")}. (A script whose model invents a tool is a function: scriptedModel((request, i) => steps[i]).)`,
      );
  }
}
