import type { Model, ModelRequest, ModelResponse, StreamEvent } from "@openai/agents";
import type { RecordedModelCall, ScriptedModel } from "@openai/agents/testing";
import type { LanguageModel } from "ai";
import { importOptionalPeer } from "#controller/optional-peers";
import type { ScriptStep } from "#controller/model/scripted";

/**
 * Each framework's own mock model following a case's script (contract §8.3), for an application's tests of its
 * agent, the adapters' tests, the evaluation run through the adapters, and the examples: the AI SDK's
 * `MockLanguageModelV3` (`ai/test`) and the Agents SDK's `ScriptedModel` (`@openai/agents/testing`). Exported from
 * `order-tools/controller/testing`, whose other exports need neither framework: each framework is imported on the
 * model's first request (an optional peer: if it is missing, the error names it and its range).
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

/** The AI SDK's model interface (version 3), as `generateText` takes it. */
export type AiSdkLanguageModel = Extract<LanguageModel, { specificationVersion: "v3" }>;

/** A value made once, on first use. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/** The AI SDK's mock model following a script: `MockLanguageModelV3`, made on the first request. */
export function scriptedAiSdkModel(script: readonly ScriptStep[]): { model: AiSdkLanguageModel; cursor: ScriptCursor } {
  const cursor = new ScriptCursor(script);
  const mock = once(async () => {
    const { MockLanguageModelV3 } = await importOptionalPeer("ai", "scriptedAiSdkModel", () => import("ai/test"));
    return new MockLanguageModelV3({
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
  });
  const model: AiSdkLanguageModel = {
    specificationVersion: "v3",
    provider: "scripted",
    modelId: "scripted",
    supportedUrls: {},
    doGenerate: async (options) => (await mock()).doGenerate(options),
    doStream: async (options) => (await mock()).doStream(options),
  };
  return { model, cursor };
}

/** The Agents SDK's scripted model, as a run takes it, with the requests it answered (its `calls`, in order). */
export interface ScriptedAgentsModel extends Model {
  readonly calls: readonly RecordedModelCall[];
  readonly lastCall: RecordedModelCall | undefined;
}

/**
 * The Agents SDK's scripted model following a script: its `ScriptedModel`, made on the first request, with one
 * responder always queued, answering from the cursor.
 */
export function scriptedAgentsModel(script: readonly ScriptStep[]): { model: ScriptedAgentsModel; cursor: ScriptCursor } {
  const cursor = new ScriptCursor(script);
  let made: ScriptedModel | undefined;
  const scripted = once(async () => {
    const { assistantMessage, functionCall, modelResponder, ScriptedModel } = await importOptionalPeer(
      "@openai/agents",
      "scriptedAgentsModel",
      () => import("@openai/agents/testing"),
    );
    const inner = new ScriptedModel();
    const responder = modelResponder(() => {
      inner.enqueue(responder);
      const next = cursor.next();
      return "say" in next
        ? [assistantMessage(next.say)]
        : next.calls.map((c) => functionCall(c.name, c.input as Record<string, unknown>, { callId: c.id }));
    });
    inner.enqueue(responder);
    made = inner;
    return inner;
  });
  const model: ScriptedAgentsModel = {
    getResponse: async (request: ModelRequest): Promise<ModelResponse> => (await scripted()).getResponse(request),
    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      yield* (await scripted()).getStreamedResponse(request);
    },
    get calls() {
      return made?.calls ?? [];
    },
    get lastCall() {
      return made?.lastCall;
    },
  };
  return { model, cursor };
}
