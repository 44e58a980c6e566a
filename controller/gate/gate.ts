import { type OrderFact, turnFacts } from "#controller/gate/facts";
import { composeOutcomes, type ReplyKind, replyKindOfAll, type OrderFacts, type TurnOutcome } from "#controller/outcomes";
import { askedTopics, topicFacts } from "#controller/gate/asked";
import { factCore, factCores, readSentences, sentencesOf, speaksOfChange } from "#controller/gate/reading";
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
 * 3. the facts of the orders the turn read or changed (gate/facts.ts), rendered by the application: those the
 *    person's question asks for (gate/asked.ts: a closed reading of their message in their language), of the
 *    orders the model opened with get_order this turn (else of those it read), where the model's first dropped
 *    sentence stood; an order with no fact of the kind asked gets its status. A turn that changed something tells
 *    them only when the question names what it asks.
 * The model's text is read the same way in every locale: its courtesy in that language (gate/courtesy.ts) and a
 * sentence that says a fact as the application renders it in that language are kept; a dropped sentence in any
 * language but English is taken to have spoken of a change. The controller's own question (a change awaiting a
 * yes) and a result it cannot tie to its request stand alone.
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
  /** The person's message this turn, as they wrote it: what it asks picks the facts the reply tells. */
  question?: string;
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

/** At most this many orders' facts in a reply; the rest are counted (and are in `facts`). */
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
  const { answer, more } = answerOf(input, facts, changedNothing, locale);

  // "There's no need to ask again" is courtesy only after a change that completed or is being settled.
  const changeSent = outcomes.some((o) => o.kind === "completed" || o.kind === "unknown");
  const read = readSentences(candidate, facts, sentencesOf(opening), locale, changeSent);
  const dropped = read.filter((s) => s.verdict.kind === "dropped");
  const told = new Set([...sentencesOf(opening)].map(factCore));
  // The facts a model sentence says in its own words are told by it, not again.
  for (const s of read) if (s.verdict.kind === "fact") told.add(factCore(s.text));
  const chosen = asking ? [] : show(facts, answer, told);
  for (const s of read) if (s.verdict.kind === "fact") (facts[s.verdict.fact] as OrderFact).shown = true;

  const isKept = (s: (typeof read)[number]) => s.verdict.kind === "courtesy" || s.verdict.kind === "fact";
  const kept = read.filter(isKept);
  const factTexts = [...chosen.map((f) => f.text), ...(asking ? [] : [more])].filter((t) => t !== "");
  // The facts stand where the model's first dropped sentence stood; with none dropped, after what the model said
  // and before its closing offer or goodbye.
  const firstDropped = read.findIndex((s) => !isKept(s));
  const at =
    firstDropped >= 0
      ? read.slice(0, firstDropped).filter(isKept).length
      : ((i) => (i < 0 ? kept.length : i))(kept.findIndex((s) => s.verdict.kind === "courtesy" && s.verdict.courtesy === "closing"));
  const body = [...kept.slice(0, at).map((s) => s.text), ...factTexts, ...kept.slice(at).map((s) => s.text)];
  // A dropped sentence the gate cannot read for change (any language but English) may have spoken of one.
  const saysNothingChanged = changedNothing && (dropped.some((s) => locale !== "en" || speaksOfChange(s.text)) || body.length === 0);
  const problems = dropped.map((s) => `says ${JSON.stringify(s.text)}, which no fact of the record says`);
  const keptTexts = kept.map((s) => s.text);
  // No text from the model: the status sentences and the facts, or that it could not finish.
  if (read.length === 0) return decide(body.length > 0 ? join([opening, ...body]) : modelFailedTemplate(opening, locale), "template");
  const reply = join([opening !== "" ? opening : saysNothingChanged ? noChangeFor(locale) : "", ...body]);
  return dropped.length === 0
    ? decide(reply, "accepted", [], [], keptTexts)
    : decide(reply, "claim_mismatch", ["claim_mismatch"], problems, keptTexts);
}

/**
 * The facts that answer the person's question (gate/asked.ts), of the orders it is about: those it names by id,
 * else those the model opened with get_order this turn, else those its reads showed, at most `summaryOrders`; tracking only while it
 * travels (before, and once delivered, its status says where it is). A topic the order has no fact of is answered by its status. On a turn that changed
 * something, only a question that names what it asks is answered: the status sentences already say what happened.
 */
function answerOf(
  input: GateInput,
  facts: readonly OrderFact[],
  changedNothing: boolean,
  locale: Locale,
): { answer: OrderFact[]; more: string } {
  const topics = askedTopics(input.question ?? "", locale);
  const namesTopic = input.question !== undefined && askedTopics(input.question, locale, { orElse: false }).size > 0;
  if (!changedNothing && !namesTopic) return { answer: [], more: "" };
  const all = ordersOf(facts);
  const opened = all.filter((id) => input.turn !== undefined && input.orders.some((o) => o.orderId === id && o.openedTurn === input.turn));
  // The orders the person's own message names by id, if any of them was read, are the ones it asks about.
  const named = [...(input.question ?? "").matchAll(/\bSU-?(\d{5})\b/gi)].map((m) => `SU-${m[1]}`).filter((id) => all.includes(id));
  const about = (named.length > 0 ? named : opened.length > 0 ? opened : all).slice(0, summaryOrders);
  const answer: OrderFact[] = [];
  for (const orderId of about) {
    const own = facts.filter((f) => f.orderId === orderId && f.kind !== "outcome");
    const status = own.find((f): f is Extract<OrderFact, { kind: "status" }> => f.kind === "status");
    const travels = status === undefined || status.status === "shipped" || status.status === "dispatching";
    const told = new Set<OrderFact>();
    for (const topic of topics) {
      const kinds: readonly string[] = topicFacts[topic];
      const asked = own.filter((f) => kinds.includes(f.kind) && (f.kind !== "tracking" || travels || topic === "track"));
      for (const f of asked.length > 0 ? asked : status ? [status] : []) told.add(f);
    }
    answer.push(...own.filter((f) => told.has(f)));
  }
  const count = all.length - about.length;
  const more =
    changedNothing && named.length === 0 && opened.length === 0 && count > 0
      ? formatMessage(gateMessages, locale, "fact.more", { count })
      : "";
  return { answer, more };
}

/** The chosen facts in the record's order, each once, leaving out those the reply already tells; marked shown. */
function show(facts: readonly OrderFact[], chosen: readonly OrderFact[], told: ReadonlySet<string>): OrderFact[] {
  const wanted = new Set(chosen);
  const shown = facts.filter((f) => wanted.has(f) && !factCores(f).every((core) => told.has(core)));
  for (const f of facts) if (wanted.has(f)) f.shown = true;
  return shown;
}

const ordersOf = (facts: readonly OrderFact[]) => [...new Set(facts.filter((f) => f.kind !== "outcome").map((f) => f.orderId))];

const join = (parts: readonly string[]) => parts.filter((p) => p !== "").join(" ");

function describe(outcome: TurnOutcome): string {
  const base = `${outcome.tool} ${outcome.orderId}: ${outcome.kind}`;
  return outcome.kind === "rejected" ? `${base} ${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""}` : base;
}
