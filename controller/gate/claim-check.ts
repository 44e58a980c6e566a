import {
  allowanceFor,
  type ClaimContext,
  defaultOrders,
  type Facts,
  factsOf,
  judgeMention,
  numberProblem,
} from "#controller/gate/allowance";
import {
  clausesOf,
  datesIn,
  type Mention,
  mentionsOf,
  orderIdsIn,
  sentencesOf,
  type Token,
  tokensOf,
  topicSpans,
} from "#controller/gate/mentions";
import type { OrderFacts } from "#controller/gate/outcomes";
import { normalizeForReading, normalizeShown } from "#controller/gate/normalize";
import { conditionals, earlier, glue, modals, negators, neutral, quantifiers } from "#controller/gate/vocabulary";

/**
 * The claim check: it accepts, it does not hunt. A model-written text is shown only when every sentence of it
 * is positively placed as harmless for the turn's recorded outcome; a sentence it cannot place — an unknown
 * word, another language, a claim the record does not carry — refuses the whole text, and the template stands
 * alone.
 *
 * How a sentence is read, after normalisation (normalize.ts):
 * 1. split into clauses (at , ; : — and at "and", "but", "so", "because", …), each into tokens: words, order
 *    ids, item ids, dates, times, money, numbers, codes;
 * 2. every word must be in the vocabulary (vocabulary.ts) or be part of an item title the conversation read;
 * 3. every mention of a topic (an action, a state, money, a refusal, doubt) is read in its clause: negated when
 *    a negation governs it directly ("could not be cancelled"; a negation elsewhere in the sentence does not
 *    count — "you won't be charged now that it is cancelled" still claims a cancellation), a possibility after
 *    a modal ("you can still start a return"), a question of whether ("whether it is cancelled"), an offer
 *    ("would you like me to …?"), else a claim;
 * 4. each mention is then held against the outcome of its own order and tool: a claim of an action only where
 *    that action completed, a denial only where it was rejected or cannot happen, doubt only where the outcome
 *    is unknown, money never (no outcome of these tools carries money), a date, time, item or code only when a
 *    record or read holds it, an order id only of the turn's own orders.
 */

export type { ClaimContext } from "#controller/gate/allowance";

export interface ClaimCheck {
  ok: boolean;
  /** Why the text was refused, one line each. */
  problems: string[];
}

/**
 * Checks the text the customer will see (render.ts) against the turn's outcomes. `ok` only when every sentence
 * is placed as harmless.
 */
export function checkClaims(text: string, context: ClaimContext): ClaimCheck {
  const problems: string[] = [];
  const normalised = normalizeShown(text);
  if (normalised === "") return { ok: false, problems: ["the text is empty"] };
  const against = recordOf(context);
  for (const sentence of sentencesOf(normalised)) checkSentence(sentence, against, problems);
  return { ok: problems.length === 0, problems: [...new Set(problems)] };
}

/** What every sentence of a reply is held against: the turn's record, and what it lets a reply name. */
interface Against {
  context: ClaimContext;
  facts: Facts;
  /** Item titles (and the parts of them a reply may use), longest first. */
  titles: string[];
  /** The order ids a reply may name. */
  allowedIds: Set<string>;
  /** The orders "both", "all" or "too" speak of. */
  everyOrder: string[];
  orderFacts: Map<string, OrderFacts>;
}

function recordOf(context: ClaimContext): Against {
  const titles = [...new Set(context.orders.flatMap((o) => [...(o.itemTitles ?? []), ...(o.items ?? []).map((i) => i.title)]))]
    .map((t) => normalizeForReading(t).toLowerCase())
    .filter((t) => t !== "" && topicSpans(t.split(/[^a-z0-9']+/).filter(Boolean)).length === 0)
    .flatMap(titleParts);
  // The turn's own orders; for a clarification, the candidates (never the id the model proposed).
  const outcomeOrders = new Set(
    context.outcomes.flatMap((o) => (o.kind === "clarification" ? o.candidates.map((c) => c.orderId) : [o.orderId])),
  );
  return {
    context,
    facts: factsOf(context),
    titles: [...new Set(titles)].sort((a, b) => b.length - a.length),
    allowedIds: context.outcomes.length > 0 ? outcomeOrders : new Set(context.orders.map((o) => o.orderId)),
    everyOrder: context.outcomes.length > 0 ? [...outcomeOrders] : context.orders.map((o) => o.orderId),
    orderFacts: new Map(context.orders.map((o) => [o.orderId, o])),
  };
}

/** A clause as read: the orders it names, its mentions, and whether every amount it names is one a read showed. */
interface ReadClause {
  ids: string[];
  mentions: Mention[];
  amountsRead: boolean;
}

function checkSentence(sentence: string, against: Against, problems: string[]): void {
  const isQuestion = sentence.endsWith("?");
  const read: ReadClause[] = [];
  for (const clause of clausesOf(sentence)) {
    const tokens = tokensOf(clause, against.titles);
    if (!Array.isArray(tokens)) {
      problems.push(`cannot read ${JSON.stringify(tokens.unreadable)} in ${JSON.stringify(sentence)}`);
      continue;
    }
    read.push(readClause(tokens, sentence, isQuestion, against, problems));
  }
  judgeClauses(sentence, read, against, problems);
}

/** A clause's tokens checked against the record (words, ids, items, codes, times, money, numbers, dates), then read. */
function readClause(tokens: Token[], sentence: string, isQuestion: boolean, against: Against, problems: string[]): ReadClause {
  const { context, facts } = against;
  const words = tokens.map((t) =>
    t.kind === "word" ? t.text : t.kind === "order" ? t.text.toLowerCase() : t.kind === "item" ? t.text.toLowerCase() : t.kind,
  );
  const spans = topicSpans(words);
  const inTopic = new Set<number>();
  for (const s of spans) for (let i = s.start; i < s.end; i++) inTopic.add(i);
  for (const [i, t] of tokens.entries()) {
    const problem = tokenProblem(t, inTopic.has(i), sentence, against);
    if (problem) problems.push(problem);
    const count = numberProblem(words, i, t, facts);
    if (count) problems.push(`${count} — in ${JSON.stringify(sentence)}`);
  }
  for (const options of datesIn(words, tokens, context.today, spans.length > 0)) {
    if (!options.some((d) => facts.dates.has(d)))
      problems.push(`names a date (${options.length === 1 ? options[0] : "a weekday"}) that no record or read holds`);
  }
  const amounts = tokens.filter((t) => t.kind === "money").map((t) => t.text.replace(/[^\d.,]/g, "").replace(",", "."));
  return {
    ids: tokens.filter((t) => t.kind === "order").map((t) => t.text),
    mentions: mentionsOf(words, isQuestion),
    amountsRead: amounts.length > 0 && amounts.every((a) => facts.amounts.has(a)),
  };
}

/** Why a token may not stand in the reply: a word with no vocabulary, or an id, item, code, time or amount off record. */
function tokenProblem(t: Token, inTopic: boolean, sentence: string, { context, facts, allowedIds }: Against): string | undefined {
  if (
    t.kind === "word" &&
    !inTopic &&
    !neutral.has(t.text) &&
    !glue.has(t.text) &&
    !negators.has(t.text) &&
    !modals.has(t.text) &&
    !conditionals.has(t.text) &&
    !earlier.has(t.text)
  )
    return `has no vocabulary for ${JSON.stringify(t.text)} (in ${JSON.stringify(sentence)})`;
  if (t.kind === "order" && !allowedIds.has(t.text)) return `names ${t.text}, which this turn's outcome is not about`;
  if (t.kind === "item" && !facts.items.has(t.text)) return `names item ${t.text}, which no record or read of this turn holds`;
  if (t.kind === "code" && !facts.codes.has(t.text)) return `has ${JSON.stringify(t.text)}, which is no word and no reference on record`;
  if (t.kind === "time" && !t.text.split("-").every((part) => facts.times.has(part)))
    return `names the time ${t.text}, which no record holds`;
  if (t.kind === "money") {
    const amount = t.text.replace(/[^\d.,]/g, "").replace(",", ".");
    if (context.outcomes.length > 0 || !facts.amounts.has(amount)) return `names an amount of money (${t.text}) that no record carries`;
  }
  return undefined;
}

/**
 * Which orders each clause speaks of: those it names, and those named in a neighbouring clause that says nothing of
 * its own ("SU-A and SU-B are cancelled", "… and so is SU-B"); a clause naming none speaks of the last order named
 * before it ("SU-B could not be cancelled because it has shipped"), else of the sentence's. A quantifier ("both",
 * "all", "the other", "too") speaks of every order of the turn. Each mention is then judged for each of its orders.
 */
function judgeClauses(sentence: string, read: readonly ReadClause[], against: Against, problems: string[]): void {
  const { context, everyOrder, orderFacts } = against;
  const sentenceIds = orderIdsIn(sentence);
  const aboutOrder = sentenceIds.length > 0 || /\b(?:order|orders|parcel|package|it|it's|they|they're)\b/i.test(sentence);
  const sentenceWords = ` ${sentence
    .toLowerCase()
    .replace(/[^a-z0-9' -]+/g, " ")
    .replace(/\s+/g, " ")} `;
  const everyOne = quantifiers.some((q) => sentenceWords.includes(` ${q.join(" ")} `));
  let lastNamed: string[] = [];
  for (const [index, clause] of read.entries()) {
    const ids = new Set(clause.ids);
    for (const neighbour of [read[index - 1], read[index + 1]])
      if (neighbour && neighbour.mentions.length === 0) for (const id of neighbour.ids) ids.add(id);
    if (clause.ids.length > 0) lastNamed = clause.ids;
    if (ids.size === 0) for (const id of lastNamed.length > 0 ? lastNamed : sentenceIds) ids.add(id);
    if (ids.size === 0) for (const id of defaultOrders(context)) ids.add(id);
    if (everyOne) for (const id of everyOrder) ids.add(id);
    for (const mention of clause.mentions) {
      const answers = ids.size > 0 ? [...ids] : [undefined];
      for (const orderId of answers) {
        const at = allowanceFor(mention, orderId, context, orderFacts);
        const problem =
          at === "ambiguous"
            ? `claims ${JSON.stringify(mention.text)} without saying which order or change`
            : (judgeMention(mention, at, clause.amountsRead, aboutOrder) ??
              (mention.eitherWay
                ? judgeMention({ ...mention, mode: mention.mode === "claim" ? "denial" : "claim" }, at, clause.amountsRead, aboutOrder)
                : undefined));
        if (problem) problems.push(`${problem} — in ${JSON.stringify(sentence)}`);
      }
    }
  }
}

/**
 * How a reply may name an item: its whole title, any run of two or more of its words ("the wool throw" of
 * "Wool throw, moss"), or its last word alone ("the mugs"). A title holding a word of change is never used.
 */
function titleParts(title: string): string[] {
  const words = title.split(/[^a-z0-9']+/).filter(Boolean);
  const parts = [title];
  for (let n = words.length; n >= 2; n--) for (let i = 0; i + n <= words.length; i++) parts.push(words.slice(i, i + n).join(" "));
  if (words.length > 0) parts.push(words.at(-1) as string);
  return parts;
}
