import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { datamark, type PrincipalKind, systemPromptFor } from "#contract/model-context";
import type { ChangeToolName, ToolName } from "#contract/tools";
import { spotlightResult } from "#controller/context/spotlight";
import {
  type ConversationState,
  newConversationState,
  noteOrder,
  noteOrdersIn,
  noteReadResult,
  principalMessages,
} from "#controller/conversation-state";
import { gate } from "#controller/gate/gate";
import type { OrderFacts, ReplyKind, TurnOutcome } from "#controller/gate/outcomes";
import { foreignStrings, foreignTexts } from "#controller/context/taint";
import { isAffirmation } from "#controller/guard/affirmation";
import { confirmationIdOf, confirmationQuestion, confirmationValues, type PendingConfirmation } from "#controller/guard/confirmation";
import { type ProvenanceCount, type ProvenanceInput, provenance } from "#controller/guard/provenance";
import { type ConfirmationKey, confirmationMessages } from "#controller/i18n/confirmation-messages";
import { formatMessage } from "#controller/i18n/format";
import { type Locale, localeOf } from "#controller/i18n/locale";
import { beforeDispatchFaults, type Fault, type FaultEvent, faultyFetch, type OrderWriter } from "#controller/http/faults";
import { classifyChange, classifyStatus, type Definite } from "#controller/http/outcome";
import { type Exchange, type ExchangeListener, ServiceClient, type ServiceOptions } from "#controller/http/service-client";
import { finalStates, type Intent, type IntentState, moved } from "#controller/intents/intent";
import { MemoryIntentStore } from "#controller/intents/memory";
import { IntentConflictError, type IntentStore } from "#controller/intents/store";
import type { ModelAdapter, ModelResponse, ToolCall } from "#controller/model/types";
import { checkProposal, sameChange } from "#controller/proposal";
import { defaultReconcile, type ReconcileOptions, reconcileIntent } from "#controller/reconcile";
import { applicationField, type ModelTool, modelTools } from "#contract/model-tools";
import { type ApplicationTrace, callTraceHeaders, TraceRecorder, type TraceSink, type TurnTrace } from "#controller/trace";
import { acquireTurnLease, withTurnLease } from "#controller/turn-lease";

export { defaultReconcile, type ReconcileOptions } from "#controller/reconcile";

export interface Limits {
  /** Tool calls the model may make in one turn. Default 8. */
  maxToolCalls: number;
  /** Seconds one turn may take — model calls, every HTTP call and reconciliation included. Default 60. */
  maxSeconds: number;
}

/**
 * Changes that always wait for the principal's "yes", whatever their provenance: an application's own policy
 * (say, every cancellation). The provenance control asks on its own whenever a change does not trace to the
 * principal's words; this is only for asking more often.
 */
export type ConfirmationPolicy = Partial<Record<ToolName, boolean>> | ((tool: ToolName, request: Record<string, unknown>) => boolean);

export interface ControllerOptions {
  /** The service over HTTP, with the signed-in principal's own token. */
  service: ServiceOptions;
  model: ModelAdapter;
  /** Who signs in: a customer (default), support staff or a seller. It decides whose text is third-party. */
  principal?: PrincipalKind;
  /** Default: in memory (lost on restart). */
  intents?: IntentStore;
  limits?: Partial<Limits>;
  reconcile?: Partial<ReconcileOptions>;
  confirm?: ConfirmationPolicy;
  /**
   * The provenance control (on by default): a change is sent only when it traces to the principal's own
   * words. `false` switches it off, `{ skip: [...] }` some of its counts — for measuring what it prevents
   * (the evaluation's defects), never for production.
   */
  provenance?: boolean | { skip: readonly ProvenanceCount[] };
  /** Faults for tests and evaluation (lost responses, lost status lookups, 503s, order changes in between). */
  faults?: readonly Fault[];
  /** Needed by set_before_dispatch faults: writes the stored order directly. */
  orderWriter?: OrderWriter;
  /** Runs after an intent is persisted and before its request is sent. */
  beforeDispatch?: (intent: Intent) => Promise<void>;
  /** Where each turn's trace goes. */
  trace?: TraceSink;
  /**
   * The application's trace that a turn joins, asked at the start of each turn (and of `resume`): its `traceparent`
   * and/or X-Ray header. Default: inside a Lambda function, the invocation's `_X_AMZN_TRACE_ID`; elsewhere none, and
   * each turn starts a trace of its own. Every service call carries the turn's trace (contract §8.1).
   */
  traceContext?: () => ApplicationTrace | undefined;
  /** The model's instructions; default `systemPromptFor` today and this principal. */
  system?: string;
  /** The tools offered to the model; default every model-facing tool of the registry. */
  tools?: readonly ModelTool[];
  /**
   * The principal's language for conversations that do not name one (a BCP 47 tag of en, de, fr, es, it, pt, nl or
   * pl; default en): confirmation questions and every text the controller writes itself are rendered in it.
   */
  locale?: string;
  /** How long a held change can be confirmed, in seconds; default 900. */
  confirmationTtlSeconds?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface ConversationOptions {
  /** The principal's language for this conversation (BCP 47; en, de, fr, es, it, pt, nl or pl). Default: the controller's. */
  locale?: string;
}

export interface TurnOptions {
  /** Progress lines as they happen ("Checking…"); never a confirmation. */
  onProgress?: (text: string) => void;
  /** The reply, once the gate has passed it. */
  onReply?: (text: string) => void;
}

export interface TurnResult {
  /** What the principal sees. */
  reply: string;
  replyKind: ReplyKind;
  /** The recorded outcomes the gate judged the reply by. */
  outcomes: TurnOutcome[];
  /**
   * The changes this turn left waiting for the principal's confirmation, as data to render (a confirm and a decline
   * button each): settle one with `conversation.confirm(confirmationId)` or `decline(confirmationId)`.
   */
  confirmations: PendingConfirmation[];
  /** The first of `confirmations`, when there is one. */
  confirmation?: PendingConfirmation;
  trace: TurnTrace;
}

export type { PendingConfirmation } from "#controller/guard/confirmation";

/** A confirm() or decline() that names no change waiting in this conversation, or names it with other values. */
export class ConfirmationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfirmationError";
  }
}

export const defaultLimits: Limits = { maxToolCalls: 8, maxSeconds: 60 };

/** The system prompt for today and a customer; `systemPromptFor` makes it for any day and principal. */
export const defaultSystemPrompt = (now = new Date(), principal: PrincipalKind = "customer") =>
  systemPromptFor({ today: now.toISOString().slice(0, 10), principal });

/** A request for more than the tool-call bound, answered instead of run. */
const notRun = (limit: number) =>
  JSON.stringify({ error: { code: "NOT_RUN", message: `Not run: this turn reached its limit of ${limit} tool calls.`, retryable: false } });

/** Below this much time left, a change is not sent: its answer could not come back within the turn. */
const minimumSendMs = 50;

/** Everything one running turn (or resume) shares. */
interface Run {
  recorder: TraceRecorder;
  /** performance.now() after which the turn must stop. */
  deadline: number;
  progress(text: string): void;
  /** The turn's outcomes, in the order they happened. */
  outcomes: TurnOutcome[];
  /** Intents this turn settled or reported: a re-proposal of one of them in the same turn is that intent. */
  settled: Set<string>;
  /** The conversation's locale, for the texts the controller writes itself. */
  locale: Locale;
}

/**
 * The run a controller's code is executing in, for every controller of the process: one AsyncLocalStorage, not
 * one per controller. Node keeps every AsyncLocalStorage ever used and visits each one for every promise the
 * process creates, so one per controller made every promise in the process slower with each controller
 * created (docs/benchmarks.md, the controller). `run()` scopes the store to one call's async context, so
 * controllers sharing it never see each other's runs.
 */
const runs = new AsyncLocalStorage<Run>();

/**
 * The controller: runs a conversation's turns against a model, dispatches the model's proposals to the service
 * over HTTP, keeps each intended change as a persisted intent, reconciles unknown outcomes, and passes every
 * reply through the response gate. The steps a proposal passes are modules of their own, called in order:
 * proposal.ts (validation), guard/provenance.ts (intent, target, values; the ambiguity guard), the intent
 * store, reconcile.ts, gate/gate.ts; turn-lease.ts serialises a conversation's turns across processes.
 */
export class Controller {
  readonly store: IntentStore;
  readonly limits: Limits;
  readonly reconcileOptions: ReconcileOptions;
  readonly tools: readonly ModelTool[];
  readonly principal: PrincipalKind;
  readonly locale: Locale;
  /** This controller's name on the turn leases it takes. */
  readonly holder = `controller-${randomUUID()}`;
  private readonly client: ServiceClient;
  private readonly faultHook: ReturnType<typeof beforeDispatchFaults>;
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /** Intents `transition` handed back as another controller left them, instead of moving them. */
  private readonly reloaded = new WeakSet<Intent>();

  constructor(private readonly options: ControllerOptions) {
    this.store = options.intents ?? new MemoryIntentStore();
    this.limits = { ...defaultLimits, ...options.limits };
    this.reconcileOptions = { ...defaultReconcile, ...options.reconcile };
    for (const [name, value] of Object.entries({ ...this.limits, ...this.reconcileOptions })) {
      if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, not ${String(value)}.`);
    }
    if (this.limits.maxToolCalls < 1 || this.limits.maxSeconds <= 0)
      throw new Error("limits.maxToolCalls must be ≥ 1 and limits.maxSeconds > 0.");
    this.principal = options.principal ?? "customer";
    if (!["customer", "support", "seller"].includes(this.principal))
      throw new Error(`principal is customer, support or seller, not ${JSON.stringify(options.principal)}.`);
    this.tools = options.tools ?? modelTools();
    this.locale = localeOf(options.locale);
    const ttl = options.confirmationTtlSeconds ?? 900;
    if (!Number.isFinite(ttl) || ttl <= 0) throw new Error(`confirmationTtlSeconds must be a number > 0, not ${String(ttl)}.`);
    this.faultHook = beforeDispatchFaults(options.faults ?? [], options.orderWriter);
    const fetch = options.service.fetch ?? globalThis.fetch;
    this.client = new ServiceClient({
      ...options.service,
      fetch: options.faults?.length ? faultyFetch(fetch, options.faults, (event) => this.onFault(event)) : fetch,
    });
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  /** A conversation: new, or continued from a state the application kept. */
  conversation(conversationId: string, state?: ConversationState, options: ConversationOptions = {}): Conversation {
    if (conversationId === "") throw new Error("A conversation needs a non-empty id.");
    if (state && state.conversationId !== conversationId)
      throw new Error(`The state is of conversation ${state.conversationId}, not ${conversationId}.`);
    const current = structuredClone(state ?? newConversationState(conversationId));
    if (options.locale !== undefined) current.locale = localeOf(options.locale);
    else if (current.locale === undefined && this.locale !== "en") current.locale = this.locale;
    return new Conversation(this, current);
  }

  /** The texts the controller writes itself, in a locale. */
  private say(locale: Locale, key: ConfirmationKey, values: Record<string, string> = {}): string {
    return formatMessage(confirmationMessages, locale, key, values);
  }

  /**
   * After a restart: finishes every intent the store holds as persisted, sent or unknown, each with its own
   * operationId (a persisted one is sent; the others are reconciled), within one time bound for the whole call.
   * A conversation whose turn lease another live controller holds is skipped: that controller is driving it.
   * An intent another controller moved on meanwhile is reloaded and carried on from where it is.
   */
  async resume(): Promise<Intent[]> {
    const settled: Intent[] = [];
    const deadline = performance.now() + this.limits.maxSeconds * 1000;
    for (const listed of await this.store.resumable()) {
      const recorder = new TraceRecorder({
        kind: "resume",
        conversationId: listed.conversationId,
        turn: 0,
        model: this.options.model.name,
        now: this.now(),
        trace: this.applicationTrace(),
      });
      const run: Run = {
        recorder,
        deadline,
        progress: (text) => recorder.add({ type: "progress", text }),
        outcomes: [],
        settled: new Set(),
        locale: this.locale,
      };
      const lease = {
        store: this.store,
        conversationId: listed.conversationId,
        holder: this.holder,
        ttlMs: this.leaseTtlMs(),
        waitMs: 0,
        now: () => this.now().getTime(),
        sleep: this.sleep,
      };
      if (!(await acquireTurnLease(lease))) {
        recorder.add({ type: "lease", decision: "skipped", holder: "another controller" });
        await this.options.trace?.(recorder.finish());
        continue;
      }
      try {
        const finished = await runs.run(run, async () => this.drive((await this.reload(listed)) ?? listed, run));
        recorder.trace.outcomes.push(outcomeOf(finished));
        settled.push(finished);
      } finally {
        await this.store.releaseLease(listed.conversationId, this.holder);
      }
      await this.options.trace?.(recorder.finish());
    }
    return settled;
  }

  private applicationTrace(): ApplicationTrace | undefined {
    return this.options.traceContext ? this.options.traceContext() : { xrayTraceHeader: process.env._X_AMZN_TRACE_ID };
  }

  private leaseTtlMs(): number {
    return this.limits.maxSeconds * 1000 + 5_000;
  }

  // ——— one turn ———

  /** @internal Conversation.turn. */
  async runTurn(state: ConversationState, message: string | Settlement, turnOptions: TurnOptions): Promise<TurnResult> {
    // A turn that throws (its intent store failed, say) leaves the conversation as it was before it, not with
    // a proposal whose result the model never got; whatever it persisted is reconciled by the next turn.
    const before = structuredClone(state);
    const lease = {
      store: this.store,
      conversationId: state.conversationId,
      // The lease is the conversation's, not this controller's: each turn holds it under a name of its own, so two
      // Conversation objects of one conversation, even in one controller, never run their turns together.
      holder: `${this.holder}/turn-${randomUUID()}`,
      ttlMs: this.leaseTtlMs(),
      waitMs: this.limits.maxSeconds * 1000,
      now: () => this.now().getTime(),
      sleep: this.sleep,
    };
    try {
      return await withTurnLease(lease, async () => {
        // Another Conversation object of this conversation may have run turns meanwhile: continue from the store's
        // intents, and from the turn count the lease-holder before us reached, never from a stale copy.
        return typeof message === "string"
          ? this.startTurn(state, message, turnOptions)
          : this.startSettlement(state, message, turnOptions);
      });
    } catch (error) {
      Object.assign(state, before);
      throw error;
    }
  }

  private startSettlement(state: ConversationState, settlement: Settlement, turnOptions: TurnOptions): Promise<TurnResult> {
    const run = this.newRun(state, `(${settlement.action} ${settlement.confirmationId})`, turnOptions);
    return runs.run(run, () => this.settle(state, settlement, run, turnOptions));
  }

  /**
   * The principal pressed confirm or decline on a held change (contract §8.5): the id must name a change waiting
   * in this conversation, and be the id of its exact request. Confirmed, it is sent with its own operationId; the
   * reply is the gate's status sentence for what happened. The model is not asked: it is told at the next turn.
   */
  private async settle(state: ConversationState, settlement: Settlement, run: Run, turnOptions: TurnOptions): Promise<TurnResult> {
    const { recorder } = run;
    const waiting = (await this.store.forConversation(state.conversationId)).find(
      (i) => i.state === "awaiting_confirmation" && i.confirmationId === settlement.confirmationId,
    );
    if (!waiting)
      throw new ConfirmationError(
        `There is no change waiting for confirmation ${settlement.confirmationId} in conversation ${state.conversationId}: it was settled already, or belongs to another conversation. Use the confirmationId of a change this conversation's last turn returned.`,
      );
    if (confirmationIdOf(state.conversationId, waiting.operationId, waiting.tool, waiting.request) !== settlement.confirmationId)
      throw new ConfirmationError(
        `Confirmation ${settlement.confirmationId} does not match the request of the change it names: it cannot confirm other values. Ask the principal again.`,
      );
    let settled: Intent;
    let note: string;
    if (settlement.action === "decline") {
      recorder.add({
        type: "confirmation",
        operationId: waiting.operationId,
        decision: "declined",
        confirmationId: settlement.confirmationId,
        via: "button",
      });
      settled = await this.transition(waiting, "declined");
      note = `The principal declined ${waiting.tool} for ${waiting.orderId}: ${modelView(settled)}`;
    } else if (waiting.confirmable === false) {
      throw new ConfirmationError(
        `The change of confirmation ${settlement.confirmationId} holds words the principal did not write and was not shown to them, so it cannot be confirmed as it is: ask for the exact words instead.`,
      );
    } else if (waiting.confirmationExpiresAt !== undefined && this.now().toISOString() > waiting.confirmationExpiresAt) {
      recorder.add({
        type: "confirmation",
        operationId: waiting.operationId,
        decision: "expired",
        confirmationId: settlement.confirmationId,
        via: "button",
      });
      settled = await this.transition(waiting, "declined");
      note = `The principal's confirmation of ${waiting.tool} for ${waiting.orderId} came after it expired: ${modelView(settled)}`;
    } else {
      recorder.add({
        type: "confirmation",
        operationId: waiting.operationId,
        decision: "confirmed",
        confirmationId: settlement.confirmationId,
        via: "button",
      });
      settled = await this.execute(await this.transition(waiting, "persisted"), run);
      note = `The principal confirmed ${waiting.tool} for ${waiting.orderId}; outcome: ${modelView(settled)}`;
    }
    run.outcomes.push(outcomeOf(settled));
    run.settled.add(settled.operationId);
    if (settled.state === "completed") this.noteCompleted(state, settled);
    if (finalStates.has(settled.state)) state.reported.push(settled.operationId);
    state.messages.push({ role: "note", text: note });
    recorder.add({ type: "note", text: note });
    const expired = recorder.trace.events.some((e) => e.type === "confirmation" && e.decision === "expired");
    const decision = expired
      ? {
          reply: this.say(run.locale, "expired", { orderId: waiting.orderId }),
          replyKind: "information" as const,
          decision: "template" as const,
          flags: [],
          problems: [],
          judgedAgainst: "expired confirmation",
        }
      : gate({
          outcomes: run.outcomes,
          modelFailed: false,
          orders: state.orders,
          today: this.now().toISOString().slice(0, 10),
          locale: run.locale,
        });
    return this.finishTurn(state, run, decision, turnOptions);
  }

  private startTurn(state: ConversationState, message: string, turnOptions: TurnOptions): Promise<TurnResult> {
    const run = this.newRun(state, message, turnOptions);
    return runs.run(run, () => this.turn(state, message, run, turnOptions));
  }

  /** A turn's run, a message's or a button press's alike: its trace (joined to the application's), bound and locale. */
  private newRun(state: ConversationState, customerMessage: string, turnOptions: TurnOptions): Run {
    state.turns += 1;
    const recorder = new TraceRecorder({
      kind: "turn",
      conversationId: state.conversationId,
      turn: state.turns,
      model: this.options.model.name,
      customerMessage,
      now: this.now(),
      trace: this.applicationTrace(),
    });
    return {
      recorder,
      deadline: performance.now() + this.limits.maxSeconds * 1000,
      progress: (text) => {
        recorder.add({ type: "progress", text });
        turnOptions.onProgress?.(text);
      },
      outcomes: [],
      settled: new Set(),
      locale: state.locale ?? "en",
    };
  }

  private async turn(state: ConversationState, message: string, run: Run, turnOptions: TurnOptions): Promise<TurnResult> {
    const { recorder, outcomes } = run;
    recorder.add({ type: "customer_message", text: message });
    noteOrdersIn(state, message);
    const notes = await this.settleEarlierIntents(state, message, run);
    for (const text of notes) {
      state.messages.push({ role: "note", text });
      recorder.add({ type: "note", text });
    }
    state.messages.push({ role: "customer", text: message });
    const askedWhichOrder = state.askedWhichOrder?.turn === state.turns - 1 ? state.askedWhichOrder : undefined;
    delete state.askedWhichOrder;

    let candidate: string | undefined;
    let limit: { kind: "tool_calls" | "time"; value: number } | undefined;
    let modelFailed = false;
    let toolCalls = 0;
    const timeLimit = () => ({ kind: "time" as const, value: this.limits.maxSeconds });
    while (limit === undefined) {
      if (toolCalls >= this.limits.maxToolCalls) {
        limit = { kind: "tool_calls", value: this.limits.maxToolCalls };
        break;
      }
      if (remaining(run) <= 0) {
        limit = timeLimit();
        break;
      }
      recorder.add({ type: "model_request", n: recorder.trace.counts.modelRequests + 1, messages: state.messages.length });
      let response: ModelResponse;
      try {
        response = await this.options.model.respond({
          system: this.options.system ?? defaultSystemPrompt(this.now(), this.principal),
          messages: state.messages,
          tools: this.tools,
          signal: AbortSignal.timeout(Math.max(1, Math.floor(remaining(run)))),
        });
      } catch (error) {
        if (remaining(run) <= 0) limit = timeLimit();
        else {
          modelFailed = true;
          recorder.add({ type: "model_error", message: describeError(error) });
          recorder.flag("model_error");
        }
        break;
      }
      state.messages.push({ role: "assistant", text: response.text, toolCalls: response.toolCalls });
      if (response.toolCalls.length === 0) {
        candidate = response.text;
        recorder.add({ type: "model_reply", text: response.text });
        break;
      }
      for (const call of response.toolCalls) {
        recorder.add({ type: "model_proposal", toolUseId: call.id, tool: call.name, input: call.input ?? call.rawArguments ?? null });
        if (limit !== undefined || toolCalls >= this.limits.maxToolCalls || remaining(run) <= 0) {
          limit ??= toolCalls >= this.limits.maxToolCalls ? { kind: "tool_calls", value: this.limits.maxToolCalls } : timeLimit();
          state.messages.push({ role: "tool", toolCallId: call.id, content: notRun(this.limits.maxToolCalls), isError: true });
          continue;
        }
        toolCalls += 1;
        recorder.trace.counts.toolCalls = toolCalls;
        const result = await this.dispatch(state, message, askedWhichOrder, call, run);
        state.messages.push({ role: "tool", toolCallId: call.id, content: result.content, isError: result.isError });
      }
    }
    if (limit) recorder.add({ type: "limit", limit: limit.kind, value: limit.value });

    const decision = gate({
      ...(candidate !== undefined ? { candidate } : {}),
      outcomes,
      ...(limit ? { limit } : {}),
      modelFailed,
      orders: state.orders,
      today: this.now().toISOString().slice(0, 10),
      locale: run.locale,
    });
    const clarification = [...outcomes].reverse().find((o) => o.kind === "clarification");
    if (clarification && decision.replyKind === "clarification")
      state.askedWhichOrder = { tool: clarification.tool, message, turn: state.turns };
    return this.finishTurn(state, run, decision, turnOptions);
  }

  /** The gate's decision recorded and shown; the history keeps what the principal saw. */
  private async finishTurn(
    state: ConversationState,
    run: Run,
    decision: Pick<ReturnType<typeof gate>, "reply" | "replyKind" | "decision" | "flags" | "problems" | "judgedAgainst">,
    turnOptions: TurnOptions,
  ): Promise<TurnResult> {
    const { recorder, outcomes } = run;
    recorder.add({
      type: "gate",
      decision: decision.decision,
      replyKind: decision.replyKind,
      judgedAgainst: decision.judgedAgainst,
      flags: decision.flags,
      problems: decision.problems,
    });
    for (const flag of decision.flags) recorder.flag(flag);
    recorder.add({ type: "reply", text: decision.reply });
    // History holds what the principal saw, so the model's next turn starts from the truth.
    const last = state.messages.at(-1);
    if (last?.role === "assistant" && last.toolCalls.length === 0) last.text = decision.reply;
    else state.messages.push({ role: "assistant", text: decision.reply, toolCalls: [] });

    recorder.trace.outcomes = outcomes;
    recorder.trace.reply = decision.reply;
    recorder.trace.replyKind = decision.replyKind;
    const trace = recorder.finish();
    await this.options.trace?.(trace);
    turnOptions.onReply?.(decision.reply);
    const confirmations = await this.pendingConfirmations(state, outcomes);
    return {
      reply: decision.reply,
      replyKind: decision.replyKind,
      outcomes,
      confirmations,
      ...(confirmations[0] ? { confirmation: confirmations[0] } : {}),
      trace,
    };
  }

  /** The changes a turn's outcomes leave waiting, as the application renders them. */
  private async pendingConfirmations(state: ConversationState, outcomes: readonly TurnOutcome[]): Promise<PendingConfirmation[]> {
    const waiting = new Set(composeWaiting(outcomes));
    if (waiting.size === 0) return [];
    const intents = await this.store.forConversation(state.conversationId);
    return intents
      .filter((i) => waiting.has(i.operationId) && i.state === "awaiting_confirmation" && i.confirmationId !== undefined)
      .map((i) => ({
        confirmationId: i.confirmationId as string,
        operationId: i.operationId,
        tool: i.tool,
        orderId: i.orderId,
        values: confirmationValues(i.tool, i.request, factsOf(state, i.orderId), { quoteNote: i.confirmable !== false }),
        question: i.confirmationQuestion ?? "",
        expiresAt: i.confirmationExpiresAt ?? "",
      }));
  }

  /** What a held intent carries: its question in the conversation's locale, its confirmation id and expiry. */
  private heldFields(
    state: ConversationState,
    tool: ChangeToolName,
    request: Record<string, unknown>,
    operationId: string,
    quoteNote: boolean,
  ) {
    const ttl = (this.options.confirmationTtlSeconds ?? 900) * 1000;
    return {
      confirmationQuestion: confirmationQuestion(tool, request, factsOf(state, String(request.orderId)), {
        quoteNote,
        locale: state.locale ?? "en",
      }),
      confirmationId: confirmationIdOf(state.conversationId, operationId, tool, request),
      confirmationExpiresAt: new Date(this.now().getTime() + ttl).toISOString(),
    };
  }

  /**
   * Before the model reads the new message: intents of this conversation still open are finished (an unknown
   * outcome reconciled), outcomes settled elsewhere (by resume) are reported, a change waiting for the
   * principal's yes is sent or declined on this message, and a change persisted in an earlier turn but never
   * sent is asked about again rather than sent unseen. Returns notes for the model.
   */
  private async settleEarlierIntents(state: ConversationState, message: string, run: Run): Promise<string[]> {
    const notes: string[] = [];
    const report = (intent: Intent, what: string) => {
      run.outcomes.push(outcomeOf(intent));
      run.settled.add(intent.operationId);
      if (intent.state === "completed") this.noteCompleted(state, intent);
      if (finalStates.has(intent.state)) state.reported.push(intent.operationId);
      notes.push(`${what} ${intent.tool} for ${intent.orderId}: ${modelView(intent)}`);
    };
    const intents = await this.store.forConversation(state.conversationId);
    // A free-text yes names no change: it confirms one only when exactly one is waiting (the button names its own).
    const waitingCount = intents.filter((i) => i.state === "awaiting_confirmation" && i.turn !== state.turns).length;
    for (const stored of intents) {
      if (stored.state === "persisted" && stored.sends === 0) {
        const fields = this.heldFields(state, stored.tool, stored.request, stored.operationId, stored.confirmable !== false);
        const held = await this.transition(stored, "awaiting_confirmation", {
          ...fields,
          heldFor: [...(stored.heldFor ?? []), "stale"],
          turn: state.turns,
        });
        const question = fields.confirmationQuestion;
        run.recorder.add({
          type: "confirmation",
          operationId: held.operationId,
          decision: "asked",
          text: question,
          confirmationId: fields.confirmationId,
        });
        report(held, "Not sent in an earlier turn, so the principal is asked again:");
      } else if (stored.state === "persisted" || stored.state === "sent" || stored.state === "unknown") {
        run.progress(this.say(run.locale, "progressCheckingEarlier", { orderId: stored.orderId }));
        report(await this.drive(stored, run), "Update on the earlier");
      } else if (finalStates.has(stored.state) && !state.reported.includes(stored.operationId)) {
        report(stored, "Outcome of the earlier");
      } else if (stored.state === "awaiting_confirmation" && stored.turn !== state.turns) {
        const yes = isAffirmation(message);
        const expired = stored.confirmationExpiresAt !== undefined && this.now().toISOString() > stored.confirmationExpiresAt;
        if (yes && waitingCount > 1 && !expired) {
          // Which one? A bare yes to several questions confirms none of them; each is asked again, for its button.
          run.recorder.add({ type: "confirmation", operationId: stored.operationId, decision: "asked_again", text: message });
          const again = await this.transition(stored, "awaiting_confirmation", { turn: state.turns });
          run.outcomes.push(outcomeOf(again));
          notes.push(
            `${stored.tool} for ${stored.orderId} is still waiting: the principal's yes did not say which of the ${waitingCount} waiting changes it was for, so none was sent and each is asked again.`,
          );
          continue;
        }
        const confirmed = yes && stored.confirmable !== false && !expired;
        run.recorder.add({
          type: "confirmation",
          operationId: stored.operationId,
          decision: confirmed ? "confirmed" : expired ? "expired" : "declined",
          text: message,
          via: "message",
        });
        if (confirmed) {
          const persisted = await this.transition(stored, "persisted");
          report(await this.execute(persisted, run), "The principal confirmed; outcome of");
        } else {
          const why = yes
            ? "a yes does not send words the principal did not write, so nothing was sent:"
            : "The principal did not confirm, so nothing was sent:";
          report(await this.transition(stored, "declined"), why);
        }
      }
    }
    return notes;
  }

  // ——— dispatch of one proposal ———

  private async dispatch(
    state: ConversationState,
    message: string,
    askedWhichOrder: ConversationState["askedWhichOrder"],
    call: ToolCall,
    run: Run,
  ): Promise<{ content: string; isError: boolean }> {
    const { recorder } = run;
    const proposal = checkProposal(call, this.tools);
    if (proposal.kind === "unknown_tool" || proposal.kind === "invalid") {
      recorder.add({
        type: "validation",
        toolUseId: call.id,
        tool: proposal.kind === "invalid" ? proposal.tool : call.name,
        decision: proposal.kind === "invalid" ? "invalid_input" : "unknown_tool",
        body: proposal.body,
      });
      // The very body the service would send: same error class, same serialisation.
      return { content: JSON.stringify(proposal.body), isError: true };
    }
    recorder.add({ type: "validation", toolUseId: call.id, tool: proposal.tool, decision: "accepted" });

    if (proposal.kind === "read") {
      run.progress(
        proposal.tool === "search_orders"
          ? this.say(run.locale, "progressSearching")
          : this.say(run.locale, "progressReading", { orderId: String(proposal.input.orderId) }),
      );
      const exchange = await this.client.call(proposal.tool, proposal.input, this.listener(undefined, run), deadlineOf(run));
      if (exchange.kind === "failure" || exchange.status >= 500 || exchange.body === undefined) {
        const why = exchange.kind === "failure" ? exchange.failure : `HTTP ${exchange.status}`;
        return {
          content: JSON.stringify({
            error: {
              code: "SERVICE_UNAVAILABLE",
              message: `The order service did not answer (${why}); nothing was read. Try again.`,
              retryable: true,
            },
          }),
          isError: true,
        };
      }
      if (exchange.status === 200) noteReadResult(state, proposal.tool, proposal.input, exchange.body, message);
      // Taint (contract §8.5): from here on the model's context holds text the principal did not write.
      const foreign = foreignTexts(exchange.body, this.principal);
      if (foreign.length > 0) {
        const what = String(proposal.input.orderId ?? proposal.input.email ?? "search");
        const sources = foreign.map((f) => `${proposal.tool} ${what}: ${f.path} (${f.origin})`);
        state.taint = [...new Set([...(state.taint ?? []), ...sources])].slice(0, 20);
        recorder.add({ type: "taint", tool: proposal.tool, sources });
      }
      return { content: spotlightResult(exchange.text, this.principal), isError: exchange.status !== 200 };
    }

    // A change. The same change proposed again is the same intent: an open one is reconciled (never a second
    // operationId), one that completed is reported, one waiting for a yes is asked about again.
    const { tool, request, orderId } = proposal;
    const earlier = (await this.store.forConversation(state.conversationId)).filter((i) => i.tool === tool && i.orderId === orderId);
    const open = earlier.find((i) => !finalStates.has(i.state));
    if (open && (open.state !== "awaiting_confirmation" || sameChange(tool, open.request, request))) {
      recorder.add({ type: "same_change", toolUseId: call.id, operationId: open.operationId, state: open.state });
      return this.settleAgain(state, message, askedWhichOrder, open, run);
    }
    if (open) {
      // Waiting for a yes, and now proposed with other values: the new proposal replaces it.
      await this.transition(open, "declined");
    }
    // Settled in this very turn (reconciled at its start, or sent a moment ago): the principal has not been
    // told yet, so proposing it again is still that change, not a new one.
    const justSettled = earlier.find(
      (i) => i.state === "completed" && run.settled.has(i.operationId) && sameChange(tool, i.request, request),
    );
    if (justSettled) {
      recorder.add({ type: "same_change", toolUseId: call.id, operationId: justSettled.operationId, state: justSettled.state });
      return { content: JSON.stringify(modelResult(justSettled)), isError: false };
    }

    const now = this.now().toISOString();
    const proposed: Intent = {
      operationId: String(request[applicationField]),
      conversationId: state.conversationId,
      toolUseId: call.id,
      tool,
      orderId,
      request,
      state: "proposed",
      revision: 0,
      createdAt: now,
      updatedAt: now,
      sends: 0,
      turn: state.turns,
    };

    const retrying = earlier.some((i) => i.state === "rejected" && i.sends > 0 && i.turn !== state.turns);
    const check =
      this.options.provenance === false
        ? ({ decision: "dispatch", target: "single_order" } as const)
        : provenance(this.provenanceInput(state, message, askedWhichOrder, tool, request, retrying));
    recorder.add({
      type: "provenance",
      toolUseId: call.id,
      orderId,
      decision: check.decision,
      ...(check.decision === "confirm" ? { failed: check.failed, reasons: check.reasons } : {}),
    });
    if (check.decision !== "clarify")
      recorder.add({ type: "intent", operationId: proposed.operationId, tool, orderId, from: null, to: "proposed", revision: 0 });
    if (check.decision === "clarify") {
      const candidates = check.candidates;
      run.outcomes.push({ kind: "clarification", tool, orderId, candidates });
      return {
        content: JSON.stringify({
          status: "not_sent",
          reason: "clarification_needed",
          candidates: candidates.map((c) => c.orderId),
          message: `Not sent: more than one order is in play (${candidates.map((c) => c.orderId).join(", ")}) and the principal's latest message does not say which one. Ask which order they mean.`,
        }),
        isError: true,
      };
    }
    const policy = this.needsConfirmation(tool, request);
    if (check.decision === "confirm" || policy) {
      const quoteNote = check.decision === "confirm" ? check.quoteNote : true;
      const fields = this.heldFields(state, tool, request, proposed.operationId, quoteNote);
      const heldFor = [...(check.decision === "confirm" ? check.failed : []), ...(policy ? (["policy"] as const) : [])];
      const waiting = await this.transition(proposed, "awaiting_confirmation", {
        ...fields,
        heldFor,
        confirmable: quoteNote,
      });
      recorder.add({
        type: "confirmation",
        operationId: waiting.operationId,
        decision: "asked",
        text: fields.confirmationQuestion,
        confirmationId: fields.confirmationId,
      });
      run.outcomes.push(outcomeOf(waiting));
      return { content: JSON.stringify(modelResult(waiting)), isError: false };
    }
    const persisted = await this.transition(proposed, "persisted");
    return this.reportChange(state, await this.execute(persisted, run), run);
  }

  /** A re-proposal of an open intent: drive it on with its own operationId and request. */
  private async settleAgain(
    state: ConversationState,
    message: string,
    askedWhichOrder: ConversationState["askedWhichOrder"],
    open: Intent,
    run: Run,
  ) {
    if (open.state === "awaiting_confirmation") {
      // Proposed again in a later turn, and now it traces to the principal's words: send it as it was made.
      const check = provenance(this.provenanceInput(state, message, askedWhichOrder, open.tool, open.request, false));
      if (open.turn === state.turns || check.decision !== "dispatch" || open.heldFor?.includes("policy")) {
        run.outcomes.push(outcomeOf(open));
        return { content: JSON.stringify(modelResult(open)), isError: false };
      }
      return this.reportChange(state, await this.execute(await this.transition(open, "persisted"), run), run);
    }
    return this.reportChange(state, await this.drive(open, run), run);
  }

  private provenanceInput(
    state: ConversationState,
    message: string,
    askedWhichOrder: ConversationState["askedWhichOrder"],
    tool: ToolName,
    request: Record<string, unknown>,
    retrying: boolean,
  ): ProvenanceInput {
    const said = principalMessages(state);
    return {
      tool,
      request,
      orderId: String(request.orderId),
      message,
      ...(askedWhichOrder?.tool === tool ? { askedBefore: askedWhichOrder.message } : {}),
      ...(said.length >= 2 ? { previousMessage: said[said.length - 2] as string } : {}),
      retrying,
      principalMessages: said,
      orders: state.orders,
      incomplete: state.incomplete ?? false,
      resolvedFragments: state.resolvedFragments ?? {},
      taint: state.taint ?? [],
      ...(state.taint?.length ? { foreignTexts: this.foreignTextsRead(state) } : {}),
      locale: state.locale ?? "en",
      today: this.now().toISOString().slice(0, 10),
      ...(typeof this.options.provenance === "object" ? { skip: this.options.provenance.skip } : {}),
    };
  }

  /** The foreign texts the model has read in this conversation: its tool results, the datamark taken out. */
  private foreignTextsRead(state: ConversationState): string[] {
    return state.messages.flatMap((m) => {
      if (m.role !== "tool") return [];
      try {
        return foreignStrings(JSON.parse(m.content), this.principal, datamark);
      } catch {
        return [];
      }
    });
  }

  private reportChange(state: ConversationState, settled: Intent, run: Run): { content: string; isError: boolean } {
    run.outcomes.push(outcomeOf(settled));
    run.settled.add(settled.operationId);
    if (settled.state === "completed") this.noteCompleted(state, settled);
    if (finalStates.has(settled.state)) state.reported.push(settled.operationId);
    return { content: JSON.stringify(modelResult(settled)), isError: settled.state !== "completed" };
  }

  private needsConfirmation(tool: ToolName, request: Record<string, unknown>): boolean {
    const policy = this.options.confirm;
    if (policy === undefined) return false;
    return typeof policy === "function" ? policy(tool, request) : policy[tool] === true;
  }

  private noteCompleted(state: ConversationState, intent: Intent): void {
    if (!state.completedOrders.includes(intent.orderId)) state.completedOrders.push(intent.orderId);
    const status = intent.outcome?.body.orderStatus;
    if (typeof status === "string") noteOrder(state, { orderId: intent.orderId, status });
  }

  // ——— the intent state machine ———

  /**
   * Writes the intent's next state to the store, then to the trace; nothing proceeds before the write. When
   * another controller moved the intent on meanwhile, its stored state is reloaded and returned instead: the
   * caller carries on from there (a turn whose intent was moved elsewhere still gets its reply).
   */
  private async transition(intent: Intent, to: IntentState, changes: Partial<Intent> = {}): Promise<Intent> {
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
    });
    return next;
  }

  private async reload(intent: Intent): Promise<Intent | undefined> {
    return (await this.store.forConversation(intent.conversationId)).find((i) => i.operationId === intent.operationId);
  }

  /** Drives an open intent as far as it goes now: a persisted one is sent, a sent or unknown one reconciled. */
  private async drive(intent: Intent, run: Run): Promise<Intent> {
    if (intent.state === "persisted") return this.execute(intent, run);
    if (intent.state === "sent") {
      const unknown = await this.transition(intent, "unknown");
      return this.reloaded.has(unknown) ? unknown : this.reconcile(unknown, run);
    }
    if (intent.state === "unknown") return this.reconcile(intent, run);
    return intent;
  }

  /** Sends a persisted intent's request once, then settles what came back. */
  private async execute(intent: Intent, run: Run): Promise<Intent> {
    if (remaining(run) < minimumSendMs) return intent;
    await this.faultHook(intent, (event) => this.onFault(event));
    await this.options.beforeDispatch?.(intent);
    const sent = await this.transition(intent, "sent", { sends: intent.sends + 1 });
    if (this.reloaded.has(sent)) return sent;
    run.progress(this.say(run.locale, "progressSending", { orderId: sent.orderId }));
    const exchange = await this.client.call(sent.tool, sent.request, this.listener(sent.operationId, run), deadlineOf(run));
    const settled = await this.settleChange(sent, exchange, "response");
    return settled.state === "unknown" && !settled.mismatch ? this.reconcile(settled, run) : settled;
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
    run.progress(this.say(run.locale, "progressChecking", { orderId: start.orderId }));
    return reconcileIntent(start, {
      options: this.reconcileOptions,
      random: this.random,
      sleep: this.sleep,
      remaining: () => remaining(run),
      status: async (intent) => {
        const exchange = await this.client.call(
          "get_operation_status",
          { operationId: intent.operationId },
          this.listener(intent.operationId, run),
          deadlineOf(run),
        );
        const status = classifyStatus(intent, exchange);
        if (status.kind === "definite")
          recorder.add({ type: "outcome", operationId: intent.operationId, classification: "definite", ...outcomeFields(status.outcome) });
        return status;
      },
      resend: async (intent) => {
        const sent = await this.transition(intent, "sent", { sends: intent.sends + 1 });
        const exchange = await this.client.call(sent.tool, sent.request, this.listener(sent.operationId, run), deadlineOf(run));
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

  private listener(operationId: string | undefined, run: Run): ExchangeListener {
    return {
      request: (info) =>
        run.recorder.add({
          type: "http_request",
          tool: info.tool,
          method: info.method,
          path: info.path,
          ...(operationId ? { operationId } : {}),
          ...(info.traceHeaders ? { traceparent: info.traceHeaders.traceparent } : {}),
          body: info.body,
        }),
      exchange: (info, exchange) =>
        exchange.kind === "response"
          ? run.recorder.add({
              type: "http_response",
              tool: info.tool,
              status: exchange.status,
              idempotentReplayed: exchange.replayed,
              body: exchange.body ?? exchange.text,
              ms: exchange.ms,
            })
          : run.recorder.add({
              type: "http_failure",
              tool: info.tool,
              failure: exchange.failure,
              message: exchange.message,
              ms: exchange.ms,
            }),
    };
  }

  private onFault(event: FaultEvent): void {
    runs.getStore()?.recorder.add({
      type: "fault",
      kind: event.kind,
      tool: event.tool,
      detail: event.detail,
      ...(event.dropped !== undefined ? { dropped: event.dropped } : {}),
    });
  }
}

/** One conversation with one principal. Turns run one at a time (and, through the lease, one process at a time). */
export class Conversation {
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly controller: Controller,
    private readonly current: ConversationState,
  ) {}

  get id(): string {
    return this.current.conversationId;
  }

  /** A copy of the state, for the application to keep between sessions. */
  state(): ConversationState {
    return structuredClone(this.current);
  }

  /** The principal's language. */
  get locale(): Locale {
    return this.current.locale ?? "en";
  }

  /** The principal's next message: runs the turn and resolves with the reply they see. */
  turn(message: string, options: TurnOptions = {}): Promise<TurnResult> {
    return this.queue(message, options);
  }

  /**
   * The principal confirmed a held change (the application's confirm button): the id a turn returned in
   * `confirmations`, bound to that exact request. Sends it, and resolves with the reply for its outcome. An id that
   * names no change waiting in this conversation, or other values than the change's, throws ConfirmationError.
   */
  confirm(confirmationId: string, options: TurnOptions = {}): Promise<TurnResult> {
    return this.queue({ action: "confirm", confirmationId }, options);
  }

  /** The principal declined a held change (the decline button): nothing is sent. */
  decline(confirmationId: string, options: TurnOptions = {}): Promise<TurnResult> {
    return this.queue({ action: "decline", confirmationId }, options);
  }

  private queue(input: string | Settlement, options: TurnOptions): Promise<TurnResult> {
    const next = this.running.then(() => this.controller.runTurn(this.current, input, options));
    this.running = next.catch(() => undefined);
    return next;
  }
}

/** A press of the application's confirm or decline button on a held change. */
interface Settlement {
  action: "confirm" | "decline";
  confirmationId: string;
}

/** The operationIds a turn's outcomes leave waiting for a confirmation (the last outcome of each change). */
function composeWaiting(outcomes: readonly TurnOutcome[]): string[] {
  const last = new Map<string, TurnOutcome>();
  for (const o of outcomes) if ("operationId" in o) last.set(o.operationId, o);
  return [...last.values()].filter((o) => o.kind === "awaiting_confirmation").map((o) => ("operationId" in o ? o.operationId : ""));
}

export function createController(options: ControllerOptions): Controller {
  return new Controller(options);
}

/** An error with its causes ("Connection error.: <what the fetch said>"): SDKs wrap the part that explains it. */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.length > 0 ? parts.join(": ") : String(error);
}

function remaining(run: Run): number {
  return run.deadline - performance.now();
}

/** The turn's deadline as an epoch-ms time, for the HTTP client: T bounds every call. */
/** What bounds one service call, and the trace headers it carries. */
function deadlineOf(run: Run): { deadlineMs: number; traceHeaders: ReturnType<typeof callTraceHeaders> } {
  return { deadlineMs: Date.now() + Math.max(0, remaining(run)), traceHeaders: callTraceHeaders(run.recorder.traceContext) };
}

function factsOf(state: ConversationState, orderId: string): OrderFacts | undefined {
  return state.orders.find((o) => o.orderId === orderId);
}

function outcomeFields(outcome: Definite): { status: string; code?: string; reason?: string } {
  return { status: outcome.status, ...(outcome.code ? { code: outcome.code } : {}), ...(outcome.reason ? { reason: outcome.reason } : {}) };
}

/** What the gate judges an intent by. */
export function outcomeOf(intent: Intent): TurnOutcome {
  const { tool, orderId, operationId } = intent;
  switch (intent.state) {
    case "completed":
      return { kind: "completed", tool, orderId, operationId, body: intent.outcome?.body ?? {} };
    case "rejected":
      return {
        kind: "rejected",
        tool,
        orderId,
        operationId,
        code: intent.outcome?.code ?? "UNKNOWN",
        ...(intent.outcome?.reason ? { reason: intent.outcome.reason } : {}),
        body: intent.outcome?.body ?? {},
      };
    case "awaiting_confirmation":
      return {
        kind: "awaiting_confirmation",
        tool,
        orderId,
        operationId,
        question: intent.confirmationQuestion ?? `Shall I go ahead with ${tool} on order ${orderId}? Reply yes to confirm.`,
      };
    case "declined":
      return { kind: "declined", tool, orderId, operationId };
    default:
      return intent.mismatch
        ? { kind: "mismatch", tool, orderId, operationId, why: intent.mismatch }
        : { kind: "unknown", tool, orderId, operationId };
  }
}

/** Bodies as the model may see them: no operationId anywhere (the application's, never the model's). */
function withoutOperationIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOperationIds);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== applicationField)
      .map(([key, v]) => [key, withoutOperationIds(v)]),
  );
}

/** The tool result a model gets for a change it proposed. */
function modelResult(intent: Intent): Record<string, unknown> {
  switch (intent.state) {
    case "completed":
    case "rejected":
      return withoutOperationIds(intent.outcome?.body ?? {}) as Record<string, unknown>;
    case "awaiting_confirmation":
      return {
        status: "awaiting_confirmation",
        orderId: intent.orderId,
        message: `Not sent: the principal must confirm first, and the application asks them itself: ${JSON.stringify(intent.confirmationQuestion)} Do not say it happened.`,
      };
    case "declined":
      return {
        status: "not_sent",
        orderId: intent.orderId,
        message: "The principal did not confirm, so nothing was sent and nothing changed.",
      };
    case "persisted":
      return { status: "not_sent", orderId: intent.orderId, message: "Not sent yet: this turn ran out of time first. Nothing changed." };
    default:
      return {
        status: "unknown",
        orderId: intent.orderId,
        message: intent.mismatch
          ? "The answer did not match the request, so the outcome is not confirmed. The application is checking. Do not say it happened or that it failed."
          : "The request was sent but no answer came back, so whether it took effect is not known yet. The application keeps checking. Say it is not confirmed yet; do not say it happened or that it failed.",
      };
  }
}

function modelView(intent: Intent): string {
  return JSON.stringify(modelResult(intent));
}
