import { assistantMessage, functionCall, modelResponder, ScriptedModel } from "@openai/agents/testing";
import { MockLanguageModelV3 } from "ai/test";
import type { ScriptStep } from "#controller/model/scripted";

/**
 * Each framework's own mock model following a case's script (contract §8.3), for the adapters' tests, the evaluation
 * run through the adapters, and the examples: the AI SDK's `MockLanguageModelV3` (`ai/test`) and the Agents SDK's
 * `ScriptedModel` (`@openai/agents/testing`). Not in the package: the frameworks are devDependencies here.
 *
 * One script runs across the turns, as with the controller's scriptedModel; each turn takes its steps up to its `say`.
 * A turn's calls come as one response (parallel tool calls), which both frameworks run in order: a held change ends
 * the framework's run where it is, so one response per call would leave the calls after it unmade, while the
 * controller's own loop makes them. A turn opened by buttons takes no step (the controller's own button turn asks no
 * model): the framework's model says nothing after the approved calls have run, and the reply is the gate's account of
 * what became of them, as the controller's own button turn gives it.
 */

type ScriptCall = { id: string; name: string; input: unknown };
type Next = { calls: ScriptCall[] } | { say: string };

/** Where a conversation is in its script. `startTurn` before each turn; `next` for each model request. */
export class ScriptCursor {
  private readonly turns: ScriptStep[][] = [];
  private current: ScriptStep[] = [];
  private index = -1;
  private button = false;
  private callIds = 0;
  /**
   * The steps of the turns begun so far. A framework ends its run at an approval request, so the steps after a held
   * change (the model's text on it, which the controller's own loop asks for and the gate replaces with the question)
   * were reached and never asked for: they count, as the controller's own loop counts them.
   */
  used = 0;

  constructor(script: readonly ScriptStep[]) {
    let turn: ScriptStep[] = [];
    for (const step of script) {
      turn.push(step);
      if ("say" in step) {
        this.turns.push(turn);
        turn = [];
      }
    }
    if (turn.length > 0) this.turns.push(turn);
  }

  startTurn(kind: "message" | "button"): void {
    this.current = [];
    this.button = kind === "button";
    if (this.button) return;
    this.index += 1;
    this.current = [...(this.turns[this.index] ?? [])];
    this.used += this.current.length;
  }

  next(): Next {
    if (this.button) return { say: "" };
    const calls: ScriptCall[] = [];
    while (this.current[0] && "call" in this.current[0]) {
      const step = this.current.shift() as { call: string; input: unknown };
      this.callIds += 1;
      calls.push({ id: `call_scripted_${this.callIds}`, name: step.call, input: step.input });
    }
    if (calls.length > 0) return { calls };
    const step = this.current.shift();
    if (step === undefined) throw new Error(`the script has no step left for turn ${this.index + 1}: each turn ends at a {"say": …} step.`);
    return { say: (step as { say: string }).say };
  }
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The AI SDK's mock model following a script. */
export function scriptedAiSdkModel(script: readonly ScriptStep[]): { model: MockLanguageModelV3; cursor: ScriptCursor } {
  const cursor = new ScriptCursor(script);
  const model = new MockLanguageModelV3({
    provider: "scripted",
    modelId: "scripted",
    doGenerate: async () => {
      const next = cursor.next();
      return "say" in next
        ? {
            content: next.say === "" ? [] : [{ type: "text", text: next.say }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          }
        : {
            content: next.calls.map((c) => ({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) })),
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          };
    },
  });
  return { model, cursor };
}

/** The Agents SDK's scripted model following a script: one responder always queued, answering from the cursor. */
export function scriptedAgentsModel(script: readonly ScriptStep[]): { model: ScriptedModel; cursor: ScriptCursor } {
  const cursor = new ScriptCursor(script);
  const model = new ScriptedModel();
  const responder = modelResponder(() => {
    model.enqueue(responder);
    const next = cursor.next();
    return "say" in next
      ? [assistantMessage(next.say)]
      : next.calls.map((c) => functionCall(c.name, c.input as Record<string, unknown>, { callId: c.id }));
  });
  model.enqueue(responder);
  return { model, cursor };
}
