import type { ChangeToolName } from "#contract/tools";
import type { ConversationState } from "#controller/conversation-state";
import { noteOrder } from "#controller/conversation-state";
import type { OrderFacts } from "#controller/gate/outcomes";
import { confirmationIdOf, confirmationQuestion } from "#controller/guard/confirmation";
import { classifyChange, classifyStatus } from "#controller/http/outcome";
import type { Exchange, ServiceClient } from "#controller/http/service-client";
import { finalStates, type Intent, type IntentState, moved } from "#controller/intents/intent";
import { IntentConflictError, type IntentStore } from "#controller/intents/store";
import { outcomeFields, outcomeOf } from "#controller/intent-views";
import { type ReconcileOptions, reconcileIntent } from "#controller/reconcile";
import { deadlineOf, exchangeListener, type Run, remaining, runs, say } from "#controller/run";

/**
 * The life of an intended change (contract §8.2), as a small state machine: proposed → persisted → sent →
 * completed | rejected | unknown → reconciled, or held (awaiting_confirmation) and then sent or declined. Each move
 * is written to the intent store before the next step and to the trace; what happens between turns (an earlier
 * intent finished, a held one confirmed or declined) is settlement.ts.
 */

/** Below this much time left, a change is not sent: its answer could not come back within the turn. */
const minimumSendMs = 50;

export interface LifecycleDeps {
  store: IntentStore;
  client: ServiceClient;
  reconcile: ReconcileOptions;
  /** How long a held change can be confirmed, in milliseconds. */
  confirmationTtlMs: number;
  /** Runs after an intent is persisted and before its request is sent (the faults of the tests and evaluation). */
  beforeSend: (intent: Intent) => Promise<void>;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export class IntentLifecycle {
  readonly store: IntentStore;
  readonly now: () => Date;
  /** Intents `transition` handed back as another controller left them, instead of moving them. */
  private readonly reloaded = new WeakSet<Intent>();

  constructor(private readonly deps: LifecycleDeps) {
    this.store = deps.store;
    this.now = deps.now;
  }

  /**
   * Writes the intent's next state to the store, then to the trace; nothing proceeds before the write. When
   * another controller moved the intent on meanwhile, its stored state is reloaded and returned instead: the
   * caller carries on from there (a turn whose intent was moved elsewhere still gets its reply).
   */
  async transition(intent: Intent, to: IntentState, changes: Partial<Intent> = {}): Promise<Intent> {
    const next = moved(intent, to, changes, this.now());
    try {
      await this.store.save(next);
    } catch (error) {
      if (!(error instanceof IntentConflictError)) throw error;
      const stored = await this.reload(intent);
      runs.getStore()?.recorder.add({
        type: "intent_conflict",
        operationId: intent.operationId,
        wanted: to,
        found: stored?.state ?? "missing",
        revision: stored?.revision ?? 0,
      });
      if (!stored) throw error;
      this.reloaded.add(stored);
      return stored;
    }
    runs.getStore()?.recorder.add({
      type: "intent",
      operationId: next.operationId,
      tool: next.tool,
      orderId: next.orderId,
      from: intent.state,
      to,
      revision: next.revision,
      ...(intent.state === "awaiting_confirmation" && to !== intent.state && intent.heldIn ? { heldIn: intent.heldIn } : {}),
    });
    return next;
  }

  async reload(intent: Intent): Promise<Intent | undefined> {
    return (await this.store.forConversation(intent.conversationId)).find((i) => i.operationId === intent.operationId);
  }

  /** Drives an open intent as far as it goes now: a persisted one is sent, a sent or unknown one reconciled. */
  async drive(intent: Intent, run: Run): Promise<Intent> {
    if (intent.state === "persisted") return this.execute(intent, run);
    if (intent.state === "sent") {
      const unknown = await this.transition(intent, "unknown");
      return this.reloaded.has(unknown) ? unknown : this.reconcile(unknown, run);
    }
    if (intent.state === "unknown") return this.reconcile(intent, run);
    return intent;
  }

  /** Sends a persisted intent's request once, then settles what came back. */
  async execute(intent: Intent, run: Run): Promise<Intent> {
    if (remaining(run) < minimumSendMs) return intent;
    await this.deps.beforeSend(intent);
    const sent = await this.transition(intent, "sent", { sends: intent.sends + 1 });
    if (this.reloaded.has(sent)) return sent;
    run.progress(say(run, "progressSending", { orderId: sent.orderId }));
    const exchange = await this.deps.client.call(sent.tool, sent.request, exchangeListener(sent.operationId, run), deadlineOf(run));
    const settled = await this.settleChange(sent, exchange, "response");
    return settled.state === "unknown" && !settled.mismatch ? this.reconcile(settled, run) : settled;
  }

  /**
   * Holds a change for the principal's yes: what the held intent carries is its question in the conversation's
   * locale, its confirmation id and its expiry.
   */
  heldFields(state: ConversationState, tool: ChangeToolName, request: Record<string, unknown>, operationId: string, quoteNote: boolean) {
    return {
      confirmationQuestion: confirmationQuestion(tool, request, factsOf(state, String(request.orderId)), {
        quoteNote,
        locale: state.locale ?? "en",
      }),
      confirmationId: confirmationIdOf(state.conversationId, operationId, tool, request),
      confirmationExpiresAt: new Date(this.now().getTime() + this.deps.confirmationTtlMs).toISOString(),
      ...heldInThisTurn(),
    };
  }

  /** Whether a held intent's confirmation has expired. */
  expired(intent: Intent): boolean {
    return intent.confirmationExpiresAt !== undefined && this.now().toISOString() > intent.confirmationExpiresAt;
  }

  private async settleChange(intent: Intent, exchange: Exchange, via: "response" | "reconciliation"): Promise<Intent> {
    const result = classifyChange(intent, exchange);
    const { recorder } = runs.getStore() ?? {};
    if (result.kind === "definite") {
      recorder?.add({ type: "outcome", operationId: intent.operationId, classification: "definite", ...outcomeFields(result.outcome) });
      return this.transition(intent, result.outcome.status, { outcome: { ...result.outcome, via } });
    }
    recorder?.add({ type: "outcome", operationId: intent.operationId, classification: result.kind, why: result.why });
    if (result.kind === "mismatch") {
      recorder?.flag("result_mismatch");
      return this.transition(intent, "unknown", { mismatch: result.why });
    }
    return this.transition(intent, "unknown");
  }

  /** Reconciliation (reconcile.ts), with this controller's client, store and trace. */
  private reconcile(start: Intent, run: Run): Promise<Intent> {
    const { recorder } = run;
    const { client } = this.deps;
    run.progress(say(run, "progressChecking", { orderId: start.orderId }));
    return reconcileIntent(start, {
      options: this.deps.reconcile,
      random: this.deps.random,
      sleep: this.deps.sleep,
      remaining: () => remaining(run),
      status: async (intent) => {
        const exchange = await client.call(
          "get_operation_status",
          { operationId: intent.operationId },
          exchangeListener(intent.operationId, run),
          deadlineOf(run),
        );
        const status = classifyStatus(intent, exchange);
        if (status.kind === "definite")
          recorder.add({ type: "outcome", operationId: intent.operationId, classification: "definite", ...outcomeFields(status.outcome) });
        return status;
      },
      resend: async (intent) => {
        const sent = await this.transition(intent, "sent", { sends: intent.sends + 1 });
        const exchange = await client.call(sent.tool, sent.request, exchangeListener(sent.operationId, run), deadlineOf(run));
        const result = classifyChange(sent, exchange);
        recorder.add({
          type: "outcome",
          operationId: sent.operationId,
          classification: result.kind,
          ...(result.kind === "definite" ? outcomeFields(result.outcome) : { why: result.why }),
        });
        return { sent, result };
      },
      move: (intent, to, changes) => this.transition(intent, to, changes),
      note: (step, action, result, ms) =>
        recorder.add({
          type: "reconcile",
          operationId: start.operationId,
          step,
          action,
          ...(result !== undefined ? { result } : {}),
          ...(ms !== undefined ? { ms } : {}),
        }),
      mismatch: (why) => {
        recorder.add({ type: "outcome", operationId: start.operationId, classification: "mismatch", why });
        recorder.flag("result_mismatch");
      },
    });
  }
}

/**
 * An intent this turn settled or reported: the gate judges the reply by its outcome, a re-proposal in the same turn
 * is that intent, and the conversation remembers the orders a change completed on and what the model was told.
 */
export function noteSettled(state: ConversationState, intent: Intent, run: Run): void {
  run.outcomes.push(outcomeOf(intent));
  run.settled.add(intent.operationId);
  if (intent.state === "completed") noteCompleted(state, intent);
  if (finalStates.has(intent.state)) state.reported.push(intent.operationId);
}

function noteCompleted(state: ConversationState, intent: Intent): void {
  if (!state.completedOrders.includes(intent.orderId)) state.completedOrders.push(intent.orderId);
  const status = intent.outcome?.body.orderStatus;
  if (typeof status === "string") noteOrder(state, { orderId: intent.orderId, status });
}

export function factsOf(state: ConversationState, orderId: string): OrderFacts | undefined {
  return state.orders.find((o) => o.orderId === orderId);
}

/** The running turn, as a held change records it: the turn and trace where its question was asked. */
function heldInThisTurn(): { heldIn?: { turn: number; traceId: string } } {
  const trace = runs.getStore()?.recorder.trace;
  return trace ? { heldIn: { turn: trace.turn, traceId: trace.traceId } } : {};
}
