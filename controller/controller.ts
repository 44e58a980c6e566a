import { randomUUID } from "node:crypto";
import { type PrincipalKind, systemPromptFor } from "#contract/model-context";
import { type ModelTool, modelTools } from "#contract/model-tools";
import { type ConversationState, newConversationState, noteOrdersIn, principalMessages } from "#controller/state/conversation";
import type { OrderFact } from "#controller/gate/facts";
import { type GateDecision, gate } from "#controller/gate/gate";
import type { ReplyKind, TurnOutcome } from "#controller/outcomes";
import type { PendingConfirmation } from "#controller/guard/confirmation";
import { readMessage } from "#controller/guard/message";
import { beforeDispatchFaults, faultyFetch } from "#controller/http/faults";
import { type ServiceOptions, ServiceClient } from "#controller/http/service-client";
import type { Locale } from "#controller/i18n/locale";
import { messageOverBound } from "#controller/turn/message-bound";
import { dayIn, timeZoneOf } from "#controller/text/days";
import { localeOf } from "#controller/i18n/locale";
import type { Intent } from "#controller/intents/intent";
import { MemoryIntentStore } from "#controller/intents/memory";
import type { IntentStore } from "#controller/intents/store";
import { modelText, outcomeOf } from "#controller/changes/intent-views";
import { type ControllerOptions, checkOptions } from "#controller/options";
import { IntentLifecycle } from "#controller/changes/lifecycle";
import { type Conversed, converse, defaultLimits, type Limits, type ModelTurnDeps } from "#controller/turn/model-turn";
import { FrameworkTurn, type SettledByButton } from "#controller/turn/framework-turn";
import { defaultReconcile, type ReconcileOptions } from "#controller/changes/reconcile";
import { noteFault, type Run, runs, type DispatchContext } from "#controller/state/run";
import { problemReply, serviceProblem, turnProblem } from "#controller/turn/problem";
import { type TestSeams, testSeamsOf } from "#controller/seams";
import {
  askAgain,
  pendingConfirmations,
  type Settlement,
  noteAsked,
  settleByButton,
  settleByButtons,
  settleEarlierIntents,
  type TurnDecision,
} from "#controller/changes/settlement";
import type { ApplicationTrace } from "#controller/http/trace-context";
import { TraceRecorder, type TurnTrace } from "#controller/trace/record";
import { acquireTurnLease, ConversationBusyError, withTurnLease } from "#controller/turn/lease";
import type { TurnProblem } from "#controller/outcomes";

export type { ControllerOptions } from "#controller/options";

export interface ConversationOptions {
  /** The principal's language for this conversation (BCP 47; en, de, fr, es, it, pt, nl or pl). Default: the controller's. */
  locale?: string;
  /** The principal's time zone (IANA, "Europe/Lisbon"): "tomorrow", "Monday" are their days. Default UTC. */
  timeZone?: string;
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
   * The facts of the orders this turn read or changed, rendered from the record (contract §8.2), as data for a card
   * in the application's UI: each with its kind, its values, its sentence in the principal's language, and whether
   * the reply's text tells it. Empty when the turn read and changed nothing.
   */
  facts: OrderFact[];
  /**
   * The changes this turn left waiting for the principal's confirmation, as data to render (a confirm and a decline
   * button each): settle one with `conversation.confirm(confirmationId)` or `decline(confirmationId)`. After a button
   * press, the changes still waiting beside the one it settled follow, so their buttons stay.
   */
  confirmations: PendingConfirmation[];
  /** The first of `confirmations`, when there is one. */
  confirmation?: PendingConfirmation;
  /**
   * Set when the turn met something the application must act on (outcomes.ts, contract §8.1): its token
   * refused (`unauthenticated`, `forbidden`), the service not there or not answering as the contract says
   * (`unreachable`, `incompatible`), or the model failing (`model_failed`). For the four service codes the reply
   * says, in the principal's language, that their orders could not be reached right now.
   */
  problem?: TurnProblem;
  trace: TurnTrace;
}

/** The system prompt for today and a customer; `systemPromptFor` makes it for any day and principal. */
export const defaultSystemPrompt = (now = new Date(), principal: PrincipalKind = "customer") =>
  systemPromptFor({ today: now.toISOString().slice(0, 10), principal });

/**
 * The controller: runs a conversation's turns against a model, dispatches the model's proposals to the service
 * over HTTP, keeps each intended change as a persisted intent, reconciles unknown outcomes, and passes every
 * reply through the response gate. A turn is its steps, each a module of its own called in order: earlier
 * intents settled (changes/settlement.ts), the model asked, each proposal dispatched (turn/dispatch.ts: validated by
 * changes/proposal.ts, then the read path, turn/read-path.ts, or the change path, changes/change-path.ts, whose guards are
 * guard/provenance.ts and whose intents live by changes/lifecycle.ts and changes/reconcile.ts), and the reply gated (gate/gate.ts);
 * turn/lease.ts serialises a conversation's turns across processes.
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
  private readonly life: IntentLifecycle;
  private readonly modelTurn: ModelTurnDeps;
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

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
    const seams = testSeamsOf(options);
    const beforeSend = sendHook(seams);
    const client = serviceClient(options.service, seams.faults);
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.life = new IntentLifecycle({
      store: this.store,
      client,
      reconcile: this.reconcileOptions,
      confirmationTtlMs: ttl * 1000,
      beforeSend,
      now: this.now,
      sleep: this.sleep,
      random: options.random ?? Math.random,
    });
    this.modelTurn = {
      model: options.model,
      system: () => options.system ?? defaultSystemPrompt(this.now(), this.principal),
      tools: this.tools,
      limits: this.limits,
      steps: {
        tools: this.tools,
        client,
        principal: this.principal,
        life: this.life,
        confirm: options.confirm,
        provenance: seams.provenance,
      },
    };
  }

  /** A conversation: new, or continued from a state the application kept. */
  conversation(conversationId: string, state?: ConversationState, options: ConversationOptions = {}): Conversation {
    if (conversationId === "") throw new Error("A conversation needs a non-empty id.");
    if (state && state.conversationId !== conversationId)
      throw new Error(`The state is of conversation ${state.conversationId}, not ${conversationId}.`);
    const current = structuredClone(state ?? newConversationState(conversationId));
    if (options.locale !== undefined) current.locale = localeOf(options.locale);
    if (options.timeZone !== undefined) current.timeZone = timeZoneOf(options.timeZone);
    else if (current.locale === undefined && this.locale !== "en") current.locale = this.locale;
    return new Conversation(this, current);
  }

  /**
   * After a restart: finishes every intent the store holds as sent or unknown, each with its own operationId
   * (reconciled), within one time bound for the whole call. A change persisted and never sent is not sent: it is
   * held, and the principal's next turn asks about it again.
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
        principal: this.principal,
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
        const finished = await runs.run(run, async () => this.resumeOne((await this.life.reload(listed)) ?? listed, run));
        recorder.trace.outcomes.push(outcomeOf(finished));
        settled.push(finished);
      } finally {
        await this.store.releaseLease(listed.conversationId, this.holder);
      }
      await this.options.trace?.(recorder.finish());
    }
    return settled;
  }

  /**
   * One intent after a restart: a change persisted and never sent is held and asked about at the principal's next
   * turn — never sent unseen; one that may have left is reconciled.
   */
  private async resumeOne(intent: Intent, run: Run): Promise<Intent> {
    if (intent.state !== "persisted" || intent.sends > 0) return this.life.drive(intent, run);
    // Held as a turn holds a stale change, in a conversation of no turns yet: turn 0, asked in no turn, so the
    // conversation's next turn asks (its number may be the crashed turn's).
    return askAgain(this.life, { ...newConversationState(intent.conversationId), locale: this.locale }, intent, run, "stale");
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
    // The lease is the conversation's, not this controller's: each turn holds it under a name of its own, so two
    // Conversation objects of one conversation, even in one controller, never run their turns together.
    const lease = this.turnLease(state.conversationId);
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

  /** A press of the confirm or decline button: settled (changes/settlement.ts), and the reply shown. */
  private startSettlement(state: ConversationState, settlement: Settlement, turnOptions: TurnOptions): Promise<TurnResult> {
    const run = this.newRun(state, `(${settlement.action} ${settlement.confirmationId})`, turnOptions);
    return runs.run(run, async () => this.finishTurn(state, run, await settleByButton(this.life, state, settlement, run), turnOptions));
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
      principal: this.principal,
    };
  }

  /** A message turn: earlier intents settled, the model's side of the turn, then the gate's reply. */
  private async turn(state: ConversationState, text: string, run: Run, turnOptions: TurnOptions): Promise<TurnResult> {
    const tooLong = messageOverBound(text, this.limits, run);
    if (tooLong) return this.finishTurn(state, run, tooLong, turnOptions);
    const { turn } = await this.beginMessageTurn(state, text, run);
    return this.endModelTurn(state, text, run, await converse(this.modelTurn, turn), turnOptions);
  }

  /** A message turn up to its model: the message read once, earlier intents settled; the notes the model reads first. */
  private async beginMessageTurn(state: ConversationState, text: string, run: Run): Promise<{ turn: DispatchContext; notes: string[] }> {
    const { recorder } = run;
    recorder.add({ type: "customer_message", text });
    // Read once: every guard of this turn reads this one reading of the principal's words.
    const message = readMessage(text);
    noteOrdersIn(state, message);
    const notes = await settleEarlierIntents(this.life, state, message, run);
    for (const text of notes) {
      state.messages.push({ role: "note", text });
      recorder.add({ type: "note", text });
    }
    state.messages.push({ role: "customer", text });
    const asked = state.askedWhichOrder?.turn === state.turns - 1 ? state.askedWhichOrder : undefined;
    delete state.askedWhichOrder;
    const said = principalMessages(state).map((m) => (m === text ? message : readMessage(m)));
    const askedWhichOrder = asked ? { askedWhichOrder: { tool: asked.tool, message: readMessage(asked.message) } } : {};
    return { turn: { state, message, said, ...askedWhichOrder, run }, notes };
  }

  /** The model's side of a turn is over: its reply gated, and the turn finished. */
  private endModelTurn(
    state: ConversationState,
    text: string,
    run: Run,
    conversed: Conversed,
    turnOptions: TurnOptions,
  ): Promise<TurnResult> {
    const { recorder, outcomes } = run;
    const { candidate, limit, modelFailed } = conversed;
    if (limit) recorder.add({ type: "limit", limit: limit.kind, value: limit.value });
    const decision = gate({
      ...(candidate !== undefined ? { candidate } : {}),
      outcomes,
      ...(limit ? { limit } : {}),
      modelFailed,
      orders: state.orders,
      turn: state.turns,
      today: dayIn(this.now(), state.timeZone),
      locale: run.locale,
    });
    const clarification = [...outcomes].reverse().find((o) => o.kind === "clarification");
    if (clarification && decision.replyKind === "clarification")
      state.askedWhichOrder = { tool: clarification.tool, message: text, turn: state.turns };
    return this.finishTurn(state, run, decision, turnOptions);
  }

  // ——— a turn whose model runs in an agent framework ———

  /**
   * @internal Conversation.open: a turn whose model runs in an agent framework (turn/framework-turn.ts), opened by the
   * principal's message or by buttons pressed on held changes. It holds the conversation's lease until it is finished
   * or aborted; a turn that cannot keep its record leaves the conversation as it was before it.
   */
  async openTurn(
    state: ConversationState,
    input: string | readonly Settlement[],
    turnOptions: TurnOptions,
  ): Promise<FrameworkTurn<TurnResult>> {
    const before = structuredClone(state);
    const lease = this.turnLease(state.conversationId);
    const started = this.now().getTime();
    if (!(await acquireTurnLease(lease))) throw new ConversationBusyError(state.conversationId, this.now().getTime() - started);
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await this.store.releaseLease(state.conversationId, lease.holder);
    };
    const abort = async (error: unknown): Promise<never> => {
      Object.assign(state, before);
      await release();
      throw error;
    };
    try {
      const text = typeof input === "string" ? input : "";
      const label = typeof input === "string" ? input : input.map((s) => `(${s.action} ${s.confirmationId})`).join(" ");
      const run = this.newRun(state, label, turnOptions);
      const begun = await runs.run(run, () =>
        typeof input === "string"
          ? this.beginMessageTurn(state, input, run).then((b) => ({ ...b, settled: [] }))
          : this.beginButtonTurn(state, input, run),
      );
      return new FrameworkTurn<TurnResult>({
        turn: begun.turn,
        life: this.life,
        deps: this.modelTurn,
        tools: this.tools,
        system: this.modelTurn.system(),
        notes: begun.notes,
        settled: begun.settled,
        end: (conversed) =>
          this.endModelTurn(state, text, run, conversed, turnOptions).then(async (result) => {
            await release();
            return result;
          }, abort),
        abort,
      });
    } catch (error) {
      return abort(error);
    }
  }

  /**
   * A framework's turn opened by buttons: each press settled (changes/settlement.ts), and the framework's tool call that
   * proposed each change is answered with what became of it. Its model may go on: a change it proposes now has no
   * message of the principal's behind it, so it waits for a confirmation.
   */
  private async beginButtonTurn(
    state: ConversationState,
    settlements: readonly Settlement[],
    run: Run,
  ): Promise<{ turn: DispatchContext; notes: string[]; settled: SettledByButton[] }> {
    const intents = await settleByButtons(this.life, state, settlements, run);
    const settled = intents.map((intent, i) => ({
      confirmationId: settlements[i]?.confirmationId ?? "",
      toolUseId: intent.toolUseId,
      intent,
      result: { content: modelText(state, run, intent), isError: intent.state !== "completed" },
    }));
    const said = principalMessages(state).map(readMessage);
    return { turn: { state, message: readMessage(""), said, run }, notes: [], settled };
  }

  private turnLease(conversationId: string) {
    return {
      store: this.store,
      conversationId,
      holder: `${this.holder}/turn-${randomUUID()}`,
      ttlMs: this.leaseTtlMs(),
      waitMs: this.limits.maxSeconds * 1000,
      now: () => this.now().getTime(),
      sleep: this.sleep,
    };
  }

  /** The gate's decision recorded and shown; the history keeps what the principal saw. */
  private async finishTurn(
    state: ConversationState,
    run: Run,
    gated: TurnDecision & Partial<Pick<GateDecision, "facts">>,
    turnOptions: TurnOptions,
  ): Promise<TurnResult> {
    const { recorder, outcomes } = run;
    const problem = turnProblem(recorder.trace.events, { baseUrl: this.options.service.baseUrl, model: this.options.model.name });
    if (problem) {
      recorder.add({ type: "problem", code: problem.code, message: problem.message });
      recorder.flag(`problem:${problem.code}`);
    }
    const decision = problem && serviceProblem(problem.code) ? withProblem(gated, problem, outcomes, run) : gated;
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
    // Read before the reply goes out: a store that fails here fails the turn before the principal has seen it.
    const confirmations = await pendingConfirmations(this.life, state, outcomes);
    // What this reply asks about: the next message can answer only these (contract §8.5).
    noteAsked(state, confirmations, outcomes);
    const trace = recorder.finish();
    await this.options.trace?.(trace);
    turnOptions.onReply?.(decision.reply);
    return {
      reply: decision.reply,
      replyKind: decision.replyKind,
      outcomes,
      // Plain data, each sentence rendered: the application may clone, store or send them as they are.
      facts: (decision.facts ?? []).map((f) => ({ ...f, text: f.text }) as OrderFact),
      confirmations,
      ...(confirmations[0] ? { confirmation: confirmations[0] } : {}),
      ...(problem ? { problem } : {}),
      trace,
    };
  }
}

/**
 * The gate's decision when a service problem stands in the way: the reply says the orders could not be reached. The
 * facts of what the turn did read stay as data, none told by this reply.
 */
function withProblem(
  gated: TurnDecision & Partial<Pick<GateDecision, "facts">>,
  problem: TurnProblem,
  outcomes: readonly TurnOutcome[],
  run: Run,
): TurnDecision & Partial<Pick<GateDecision, "facts">> {
  return {
    ...gated,
    reply: problemReply(outcomes, run.locale),
    decision: "template",
    problems: [...gated.problems, `${problem.code}: ${problem.message}`],
    ...(gated.facts ? { facts: gated.facts.map((f) => ({ ...f, text: f.text, shown: false }) as OrderFact) } : {}),
  };
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

  /**
   * The principal declined a held change (the decline button): nothing is sent. `reason`, in the principal's words
   * ("wrong item", "I'll do it myself"), tells the model why at the next turn.
   */
  decline(confirmationId: string, options: TurnOptions & { reason?: string } = {}): Promise<TurnResult> {
    const { reason, ...turnOptions } = options;
    return this.queue({ action: "decline", confirmationId, ...(reason !== undefined ? { reason } : {}) }, turnOptions);
  }

  /**
   * @internal The agent-framework adapters' turn (turn/framework-turn.ts): the next turn of this conversation, opened for a
   * framework's model by the principal's message or by buttons pressed. It runs after this object's earlier turns,
   * and the next waits until it is finished or aborted.
   */
  open(input: string | readonly Settlement[], options: TurnOptions = {}): Promise<FrameworkTurn<TurnResult>> {
    const opened = this.running.then(() => this.controller.openTurn(this.current, input, options));
    this.running = opened.then(
      (turn) => turn.done,
      () => undefined,
    );
    return opened;
  }

  private queue(input: string | Settlement, options: TurnOptions): Promise<TurnResult> {
    const next = this.running.then(() => this.controller.runTurn(this.current, input, options));
    this.running = next.catch(() => undefined);
    return next;
  }
}

/** A controller, once its options are checked (options.ts): a misconfigured one throws here, naming the option. */
export function createController(options: ControllerOptions): Controller {
  checkOptions(options);
  return new Controller(options);
}

/** The service client; with a test's HTTP faults, over a fetch that injects them where the network is. */
function serviceClient(service: ServiceOptions, faults: TestSeams["faults"]): ServiceClient {
  const fetch = service.fetch ?? globalThis.fetch;
  return new ServiceClient({ ...service, fetch: faults?.length ? faultyFetch(fetch, faults, noteFault) : fetch });
}

/** What runs between persisting an intent and sending it: a test's faults on the stored order, then its hook. */
function sendHook(seams: TestSeams): (intent: Intent) => Promise<void> {
  const faultHook = beforeDispatchFaults(seams.faults ?? [], seams.orderWriter);
  return async (intent) => {
    await faultHook(intent, noteFault);
    await seams.beforeDispatch?.(intent);
  };
}
