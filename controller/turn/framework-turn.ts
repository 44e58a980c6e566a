import type { ModelTool } from "#contract/model-tools";
import { type ConversationState, noteForeign } from "#controller/state/conversation";
import type { TurnOutcome } from "#controller/outcomes";
import type { PendingConfirmation } from "#controller/guard/confirmation";
import type { Intent } from "#controller/intents/intent";
import type { IntentLifecycle } from "#controller/changes/lifecycle";
import type { ModelAdapter, ToolCall } from "#controller/model/types";
import { answerCall, type Conversed, type Limit, type ModelTurnDeps } from "#controller/turn/model-turn";
import { type Run, runs, type ToolResult, type DispatchContext } from "#controller/state/run";
import { pendingConfirmations, type Settlement } from "#controller/changes/settlement";

/**
 * The seam the agent-framework adapters share (frameworks/ai-sdk.ts, frameworks/openai-agents.ts): a turn whose model runs in the
 * framework's own loop. The controller opens it as it opens any turn — the principal's message read and earlier
 * intents settled, or the buttons pressed settled — and holds the conversation's lease; the framework's model then
 * proposes, and each tool call goes through `call`, the very dispatch the controller's own loop uses (validation, the
 * read path, or the change path with its provenance control, intents persisted before they are sent, reconciliation,
 * one intent per change). `call` answers the tool result, and for a change it held, the confirmation to ask for.
 * `finish` gates the framework's reply and ends the turn. Neither adapter re-implements any of it.
 */

/** What the framework's model is told of one tool call, and the held change it left waiting, if it did. */
export interface FrameworkToolResult extends ToolResult {
  confirmation?: PendingConfirmation;
}

/** A change a button press of this turn settled, for the framework's tool call that asked for it. */
export interface SettledByButton {
  confirmationId: string;
  /** The id of the model's tool call that proposed it (the intent's `toolUseId`). */
  toolUseId: string;
  intent: Intent;
  /** What the model is told of it, as a tool result. */
  result: ToolResult;
}

export interface FrameworkTurnParts<Result> {
  turn: DispatchContext;
  life: IntentLifecycle;
  deps: Pick<ModelTurnDeps, "limits" | "steps">;
  tools: readonly ModelTool[];
  system: string;
  notes: readonly string[];
  settled: readonly SettledByButton[];
  /** Gates the reply and ends the turn (the controller's own end of a turn, the lease released). */
  end: (conversed: Conversed) => Promise<Result>;
  /** Ends a turn that cannot keep its record: the conversation as it was before it, the lease released; rethrows. */
  abort: (error: unknown) => Promise<never>;
}

/** `Result` is the controller's TurnResult (controller.ts opens these turns; this file does not import it back). */
export class FrameworkTurn<Result> {
  /** The controller's instructions for the model this turn (today's date, the principal, how to read marked text). */
  readonly system: string;
  /** The model-facing tools, from the registry. */
  readonly tools: readonly ModelTool[];
  /** What the application tells the model before it reads the message: earlier outcomes, answers, expiries. */
  readonly notes: readonly string[];
  /** What this turn's button presses settled. */
  readonly settled: readonly SettledByButton[];
  /** The first tool call the controller could not answer (its intent store failed): the turn cannot keep its record. */
  failure: { error: unknown } | undefined;
  private readonly calls = new Map<string, Promise<FrameworkToolResult>>();
  private readonly made = { made: 0 };
  private limit: Limit | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private finished: Promise<Result> | undefined;
  private ended!: () => void;
  /** Settles when the turn is finished or aborted: the conversation's next turn waits for it. */
  readonly done = new Promise<void>((resolve) => {
    this.ended = resolve;
  });

  constructor(private readonly parts: FrameworkTurnParts<Result>) {
    this.system = parts.system;
    this.tools = parts.tools;
    this.notes = parts.notes;
    this.settled = parts.settled;
  }

  get state(): ConversationState {
    return this.parts.turn.state;
  }

  /**
   * One tool call of the framework's model, dispatched as the controller's own loop dispatches it. A framework may
   * ask about one call twice (the AI SDK asks whether it needs approval, then executes it): the same call id is
   * answered once, and calls are dispatched one at a time in the order they came, whatever the framework runs at once.
   */
  call(call: ToolCall): Promise<FrameworkToolResult> {
    if (this.finished) return Promise.reject(new Error(`This turn of conversation ${this.state.conversationId} has finished.`));
    const known = this.calls.get(call.id);
    if (known) return known;
    const settled = this.settled.find((s) => s.toolUseId === call.id);
    const answer = settled
      ? Promise.resolve<FrameworkToolResult>(settled.result)
      : this.queue.then(() => runs.run(this.run, () => this.dispatch(call)));
    this.calls.set(call.id, answer);
    this.queue = answer.catch((error: unknown) => {
      this.failure ??= { error };
    });
    return answer;
  }

  /**
   * Text the controller did not dispatch or write reached the model (an application tool's result, a history the
   * application kept): the conversation is tainted by it, as by a seller's words (contract §8.5), and every change
   * from here on waits for the principal's confirmation.
   */
  foreign(what: string, origin: string): void {
    const sources = noteForeign(this.state, what, [{ path: "", origin }]);
    if (sources.length > 0) this.run.recorder.add({ type: "taint", tool: what, sources });
  }

  /**
   * The framework's reply: gated against the turn's recorded outcomes, and the turn ended. The reply the principal
   * sees is the result's `reply`, never the model's text as it came.
   */
  finish(candidate: string | undefined, options: { modelFailed?: boolean; failure?: string } = {}): Promise<Result> {
    this.finished ??= this.queue
      .then(() =>
        runs.run(this.run, () => {
          const modelFailed = options.modelFailed === true;
          if (!modelFailed && candidate !== undefined) {
            this.state.messages.push({ role: "assistant", text: candidate, toolCalls: [] });
            this.run.recorder.add({ type: "model_reply", text: candidate });
          }
          if (modelFailed) {
            this.run.recorder.add({ type: "model_error", message: options.failure ?? "the framework's run failed" });
            this.run.recorder.flag("model_error");
          }
          return this.parts.end({
            ...(candidate !== undefined && !modelFailed ? { candidate } : {}),
            ...(this.limit ? { limit: this.limit } : {}),
            modelFailed,
          });
        }),
      )
      .finally(() => this.ended());
    return this.finished;
  }

  /**
   * Ends the turn when it cannot keep its own record (its intent store failed): the conversation is left as it was
   * before the turn, and `error` is thrown on, as a turn of the controller's own would throw it.
   */
  async abort(error: unknown): Promise<never> {
    this.finished ??= Promise.reject(error);
    this.finished.catch(() => undefined);
    try {
      return await this.parts.abort(error);
    } finally {
      this.ended();
    }
  }

  private get run(): Run {
    return this.parts.turn.run;
  }

  private async dispatch(call: ToolCall): Promise<FrameworkToolResult> {
    const { turn, deps, life } = this.parts;
    turn.state.messages.push({ role: "assistant", text: "", toolCalls: [call] });
    const before = this.run.outcomes.length;
    const { result, limit } = await answerCall(deps, turn, call, this.made, this.limit);
    this.limit ??= limit;
    const held = heldBy(this.run.outcomes.slice(before));
    if (held.length === 0) return result;
    const [confirmation] = await pendingConfirmations(life, turn.state, held);
    return confirmation ? { ...result, confirmation } : result;
  }
}

/** The awaiting_confirmation outcomes one call added: the change it held, or the waiting one it proposed again. */
function heldBy(outcomes: readonly TurnOutcome[]): TurnOutcome[] {
  return outcomes.filter((o) => o.kind === "awaiting_confirmation");
}

/**
 * The controller's model slot when the model runs in a framework: it names the framework in every trace, and a turn
 * the controller itself would run fails as the model's failure, saying why.
 */
export function frameworkModel(name: string): ModelAdapter {
  return {
    name,
    respond: () => Promise.reject(new Error(`This controller's model runs in ${name}: its turns are opened by that adapter.`)),
  };
}

export type { Settlement };
