import type { ModelAdapter, ModelRequest, ModelResponse } from "#controller/model/types";

/**
 * One step of a scripted model (contract §8.3 `script`): a proposal, or a reply, which ends the turn.
 */
export type ScriptStep = { call: string; input: unknown } | { say: string };

/** A script as a function: called once per model request, with the request and how many came before. */
export type ScriptFunction = (request: ModelRequest, index: number) => ScriptStep | ModelResponse;

export class ScriptExhaustedError extends Error {
  constructor(used: number) {
    super(
      `The script has no step left after ${used}: a real model would have answered here. End each turn of the script with a {"say": …} step.`,
    );
    this.name = "ScriptExhaustedError";
  }
}

/**
 * A model that proposes what it is told to, in order, across the turns of a conversation: each `call` step
 * is one response with one tool call; a `say` step is the reply that ends the turn.
 */
export function scriptedModel(script: readonly ScriptStep[] | ScriptFunction, name = "scripted"): ModelAdapter & { readonly used: number } {
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
