import { randomUUID } from "node:crypto";
import { type PrincipalKind, systemPromptFor } from "#contract/model-context";
import { type ModelTool, modelTools } from "#contract/model-tools";
import { type ConversationState, newConversationState, noteOrdersIn, principalMessages } from "#controller/state/conversation";
import type { OrderFact } from "#controller/gate/facts";
import { type GateDecision, gate } from "#controller/gate/gate";
import type { TurnOutcome } from "#controller/outcomes";
import { readMessage } from "#controller/guard/message";
import type { Locale } from "#controller/i18n/locale";
import { messageOverBound } from "#controller/turn/message-bound";
import { dayIn, timeZoneOf } from "#controller/text/days";
import { localeOf } from "#controller/i18n/locale";
import type { Intent } from "#controller/intents/intent";
import { MemoryIntentStore } from "#controller/intents/memory";
import type { IntentStore } from "#controller/intents/store";
import { modelText } from "#controller/changes/intent-views";
import { type ControllerOptions, checkOptions } from "#controller/options";
import { Conversation, type ConversationOptions, type TurnOptions, type TurnResult } from "#controller/conversation";
import { IntentLifecycle } from "#controller/changes/lifecycle";
import { type Conversed, converse, defaultLimits, type Limits, type ModelTurnDeps } from "#controller/turn/model-turn";
import { FrameworkTurn, type SettledByButton } from "#controller/turn/framework-turn";
import { defaultReconcile, type ReconcileOptions } from "#controller/changes/reconcile";
import { type Run, runs, type DispatchContext } from "#controller/state/run";
import { problemReply, serviceProblem, turnProblem } from "#controller/turn/problem";
import { sendHook, serviceClient, testSeamsOf } from "#controller/seams";
import {
  pendingConfirmations,
  type Settlement,
  noteAsked,
  settleByButton,
  settleByButtons,
  settleEarlierIntents,
  type TurnDecision,
} from "#controller/changes/settlement";
import type { ApplicationTrace } from "#controller/http/trace-context";
import { TraceRecorder } from "#controller/trace/record";
import { acquireTurnLease, ConversationBusyError, withTurnLease } from "#controller/turn/lease";
import { resume } from "#controller/turn/resume";
import type { TurnProblem } from "#controller/outcomes";

export type { ControllerOptions } from "#controller/options";

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
    else if (current.locale === undefined && this.locale !== "en") current.locale = this.locale;
    if (options.timeZone !== undefined) current.timeZone = timeZoneOf(options.timeZone);
    return new Conversation(this, current);
  }

  /** After a restart: every intent the store holds as sent or unknown finished, one persisted and never sent held (turn/resume.ts). */
  resume(): Promise<Intent[]> {
    return resume({
      life: this.life,
      maxSeconds: this.limits.maxSeconds,
      lease: {
        store: this.store,
        holder: this.holder,
        ttlMs: this.leaseTtlMs(),
        waitMs: 0,
        now: () => this.now().getTime(),
        sleep: this.sleep,
      },
      model: this.options.model.name,
      now: this.now,
      applicationTrace: () => this.applicationTrace(),
      locale: this.locale,
      principal: this.principal,
      trace: this.options.trace,
    });
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
      question: text,
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

/** A controller, once its options are checked (options.ts): a misconfigured one throws here, naming the option. */
export function createController(options: ControllerOptions): Controller {
  checkOptions(options);
  return new Controller(options);
}
