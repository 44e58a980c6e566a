import { type FactKind, type OrderFact, turnFacts } from "#controller/gate/facts";
import { composeOutcomes, type ReplyKind, replyKindOfAll, type OrderFacts, type TurnOutcome } from "#controller/gate/outcomes";
import { factCore, factCores, type Hint, hintOf, readSentences, sentencesOf } from "#controller/gate/reading";
import { renderForCustomer } from "#controller/gate/render";
import { boundTemplate, modelFailedTemplate, noChangeFor, openingFor } from "#controller/gate/templates";
import { formatMessage } from "#controller/i18n/format";
import { gateMessages } from "#controller/i18n/gate-messages";
import type { Locale } from "#controller/i18n/locale";

/**
 * The response gate (contract §8.2): a reply states only what the record says, and it fails closed. A reply is
 * made of three parts, each from its own source:
 * 1. the status sentence of each change the turn made or tried, rendered from the recorded outcome — first; on a
 *    turn that changed nothing, "I haven't changed anything on your orders." when the model's text spoke of a
 *    change the gate could not show;
 * 2. the model's sentences that claim nothing the facts do not say (gate/reading.ts): courtesy, and sentences that
 *    say the same as a fact of the record — each as the model wrote it;
 * 3. the facts of the orders the turn read or changed (gate/facts.ts), rendered by the application: on a turn that
 *    changed nothing, each read order's status (and tracking, once it travels); and the facts the model's dropped
 *    sentences were about, in their place.
 * In any locale but English the model's text is never shown: the status sentences and the facts stand alone. The
 * controller's own question (a change awaiting a yes) and a result it cannot tie to its request stand alone too.
 */
export interface GateInput {
  /** The model's reply, if the turn ended with one. */
  candidate?: string;
  outcomes: readonly TurnOutcome[];
  /** Set when the turn stopped at a loop bound. */
  limit?: { kind: "tool_calls" | "time"; value: number };
  /** Set when the model failed, so there is no reply to judge. */
  modelFailed?: boolean;
  /** The orders in play, with what reads showed of them. */
  orders: readonly OrderFacts[];
  /** The turn (the conversation's turn count): the orders a read of this turn showed are the ones whose facts it tells. */
  turn?: number;
  /** Today (UTC, YYYY-MM-DD): whether a return window is still open. */
  today: string;
  /** The principal's language (default "en"): the status sentences and the facts are rendered in it. */
  locale?: Locale;
}

export interface GateDecision {
  reply: string;
  replyKind: ReplyKind;
  /** accepted: every sentence of the model's text is shown; claim_mismatch: some were dropped; template: none shown. */
  decision: "accepted" | "template" | "claim_mismatch";
  /** Trace flags: claim_mismatch, result_mismatch, limit, model_error. */
  flags: string[];
  /** Why each dropped sentence was dropped. */
  problems: string[];
  /** What the decision was judged against. */
  judgedAgainst: string;
  /**
   * Every fact of the orders this turn read or changed, as data; `shown` says which the reply's text tells. Each
   * sentence is rendered when first read (or as JSON); the controller's TurnResult carries them as plain objects.
   */
  facts: OrderFact[];
  /** The model's sentences shown, as written. */
  kept: string[];
}

/** At most this many orders' status in a reply that changed nothing; the rest are counted (and are in `facts`). */
const summaryOrders = 3;

export function gate(input: GateInput): GateDecision {
  const outcomes = composeOutcomes(input.outcomes);
  const locale = input.locale ?? "en";
  const flags = outcomes.some((o) => o.kind === "mismatch") ? ["result_mismatch"] : [];
  const judgedAgainst = outcomes.length === 0 ? "no change this turn" : outcomes.map(describe).join("; ");
  const replyKind: ReplyKind = outcomes.length > 0 ? replyKindOfAll(outcomes) : "information";
  const facts = turnFacts({
    outcomes,
    orders: input.orders,
    ...(input.turn !== undefined ? { turn: input.turn } : {}),
    today: input.today,
    locale,
  });
  const decide = (
    reply: string,
    decision: GateDecision["decision"],
    extra: string[] = [],
    problems: string[] = [],
    kept: string[] = [],
  ) => ({
    reply,
    replyKind,
    decision,
    flags: [...flags, ...extra],
    problems,
    judgedAgainst,
    facts,
    kept,
  });

  if (input.limit) return decide(boundTemplate(input.limit, outcomes, locale), "template", ["limit"]);
  const opening = outcomes.length > 0 ? openingFor(outcomes, locale) : "";
  if (input.modelFailed) return decide(modelFailedTemplate(opening, locale), "template", ["model_error"]);
  if (outcomes.some((o) => o.kind === "awaiting_confirmation" || o.kind === "mismatch")) return decide(opening, "template");
  // The one text: the model's markdown rendered to what the customer would see, which alone is read and shown.
  const candidate = renderForCustomer(input.candidate ?? "");
  const changedNothing = outcomes.length === 0;
  const asking = outcomes.some((o) => o.kind === "clarification");

  if (locale !== "en") {
    // The model's text is not read, so not shown; a turn that changed nothing says so before its facts.
    const shown = asking ? [] : show(facts, summaryFacts(facts, changedNothing), new Set(sentencesOf(opening).map(factCore)));
    const parts = [opening !== "" ? opening : noChangeFor(locale), ...shown.map((f) => f.text), moreOrders(facts, changedNothing, locale)];
    const problems = candidate === "" ? [] : [`the gate reads English; the principal's language is ${locale}`];
    return decide(join(parts), "template", [], problems);
  }

  const read = readSentences(candidate, facts, sentencesOf(opening));
  const dropped = read.filter((s) => s.verdict.kind === "dropped");
  const hints = dropped.map((s) => hintOf(s.text, facts));
  const told = new Set([...sentencesOf(opening)].map(factCore));
  // The facts a model sentence says in its own words are told by it, not again.
  for (const s of read) if (s.verdict.kind === "fact") told.add(factCore(s.text));
  const chosen = asking ? [] : show(facts, [...summaryFacts(facts, changedNothing), ...hintedFacts(facts, hints)], told);
  for (const s of read) if (s.verdict.kind === "fact") (facts[s.verdict.fact] as OrderFact).shown = true;

  const isKept = (s: (typeof read)[number]) => s.verdict.kind === "courtesy" || s.verdict.kind === "fact";
  const kept = read.filter(isKept);
  const factTexts = [...chosen.map((f) => f.text), ...(asking ? [] : [moreOrders(facts, changedNothing, locale)])].filter((t) => t !== "");
  // The facts stand where the model's first dropped sentence stood; with none dropped, after its greeting, thanks
  // or apology and before the rest.
  const firstDropped = read.findIndex((s) => !isKept(s));
  const at =
    firstDropped >= 0
      ? read.slice(0, firstDropped).filter(isKept).length
      : ((i) => (i < 0 ? kept.length : i))(kept.findIndex((s) => !(s.verdict.kind === "courtesy" && s.verdict.courtesy === "opening")));
  const body = [...kept.slice(0, at).map((s) => s.text), ...factTexts, ...kept.slice(at).map((s) => s.text)];
  const saysNothingChanged = changedNothing && (hints.some((h) => h.change) || body.length === 0);
  const problems = dropped.map((s) => `says ${JSON.stringify(s.text)}, which no fact of the record says`);
  const keptTexts = kept.map((s) => s.text);
  // No text from the model: the status sentences and the facts, or that it could not finish.
  if (read.length === 0) return decide(body.length > 0 ? join([opening, ...body]) : modelFailedTemplate(opening, locale), "template");
  const reply = join([opening !== "" ? opening : saysNothingChanged ? noChangeFor(locale) : "", ...body]);
  return dropped.length === 0
    ? decide(reply, "accepted", [], [], keptTexts)
    : decide(reply, "claim_mismatch", ["claim_mismatch"], problems, keptTexts);
}

/** On a turn that changed nothing: each read order's status, and its tracking once it travels — what "where is it?" asks. */
function summaryFacts(facts: readonly OrderFact[], changedNothing: boolean): OrderFact[] {
  if (!changedNothing) return [];
  const orders = ordersOf(facts).slice(0, summaryOrders);
  return facts.filter(
    (f) =>
      orders.includes(f.orderId) &&
      (f.kind === "status" ||
        (f.kind === "tracking" &&
          facts.some((s) => s.orderId === f.orderId && s.kind === "status" && (s.status === "shipped" || s.status === "dispatching")))),
  );
}

/** The facts of the kinds each dropped sentence was about, of the orders it named (or of the turn's, when it named none). */
function hintedFacts(facts: readonly OrderFact[], hints: readonly Hint[]): OrderFact[] {
  const orders = ordersOf(facts);
  const wanted = new Map<string, Set<FactKind>>();
  for (const hint of hints) {
    const named = hint.orderIds.filter((id) => orders.includes(id));
    for (const orderId of named.length > 0 ? named : orders.slice(0, summaryOrders)) {
      const kinds = wanted.get(orderId) ?? new Set<FactKind>();
      for (const kind of hint.kinds) kinds.add(kind);
      wanted.set(orderId, kinds);
    }
  }
  return facts.filter((f) => f.kind !== "outcome" && wanted.get(f.orderId)?.has(f.kind));
}

/** The chosen facts in the record's order, each once, leaving out those the reply already tells; marked shown. */
function show(facts: readonly OrderFact[], chosen: readonly OrderFact[], told: ReadonlySet<string>): OrderFact[] {
  const wanted = new Set(chosen);
  const shown = facts.filter((f) => wanted.has(f) && !factCores(f).every((core) => told.has(core)));
  for (const f of facts) if (wanted.has(f)) f.shown = true;
  return shown;
}

const ordersOf = (facts: readonly OrderFact[]) => [...new Set(facts.filter((f) => f.kind !== "outcome").map((f) => f.orderId))];

/** "2 more orders came up as well.": the orders a reply that changed nothing does not tell one by one. */
function moreOrders(facts: readonly OrderFact[], changedNothing: boolean, locale: Locale): string {
  const count = ordersOf(facts).length - summaryOrders;
  return changedNothing && count > 0 ? formatMessage(gateMessages, locale, "fact.more", { count }) : "";
}

const join = (parts: readonly string[]) => parts.filter((p) => p !== "").join(" ");

function describe(outcome: TurnOutcome): string {
  const base = `${outcome.tool} ${outcome.orderId}: ${outcome.kind}`;
  return outcome.kind === "rejected" ? `${base} ${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""}` : base;
}
