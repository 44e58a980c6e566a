import type { OrderFacts, TurnOutcome } from "#controller/gate/outcomes";
import { normalizeForReading, normalizeShown } from "#controller/gate/normalize";
import {
  conditionals,
  earlier,
  glue,
  modals,
  negators,
  neutral,
  numberWords,
  offers,
  quantifiers,
  settled,
  type Topic,
  topics,
  topicTool,
} from "#controller/gate/vocabulary";

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

export interface ClaimContext {
  /** The turn's outcomes, composed (one per tool and order). Empty: a turn that changed nothing. */
  outcomes: readonly TurnOutcome[];
  /** What reads showed of the orders in play: statuses, dates, items, the actions allowed. */
  orders: readonly OrderFacts[];
  /** Today (UTC), to read "tomorrow" and weekdays. */
  today: string;
}

export interface ClaimCheck {
  ok: boolean;
  /** Why the text was refused, one line each. */
  problems: string[];
}

type Mode = "claim" | "denial" | "possibility" | "question" | "offer";

interface Token {
  kind: "word" | "order" | "item" | "date" | "time" | "money" | "number" | "code" | "title";
  text: string;
}

interface Mention {
  topic: Topic;
  text: string;
  mode: Mode;
  earlier: boolean;
  /**
   * A negation in the clause that does not govern the mention directly ("there's *no* way it is cancelled"),
   * or more than one: which way it reads is not certain, so it must be supported read either way.
   */
  eitherWay: boolean;
}

const phrases = new Map<string, Topic>();
let longestPhrase = 1;
for (const [topic, list] of Object.entries(topics) as [Topic, readonly string[]][]) {
  for (const entry of list) {
    phrases.set(entry, topic);
    longestPhrase = Math.max(longestPhrase, entry.split("_").length);
  }
}
for (const word of neutral) {
  if (phrases.has(word)) throw new Error(`vocabulary: ${JSON.stringify(word)} is both neutral and a ${phrases.get(word)} word`);
}
const offerPhrases = offers.map((o) => o.split("_"));

const months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Splits a normalised text into sentences. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function clausesOf(sentence: string): string[] {
  // A colon between digits is a time's ("14:00"), not a clause's end.
  return sentence
    .split(/\s*(?:[,;()"]|(?<!\d):|:(?!\d))\s*|\s+-\s+|\s+(?:and|but|so|because|although|though|while|whereas|since|as|now that)\s+/i)
    .map((c) => c.trim())
    .filter((c) => c !== "");
}

/** Order ids a text names, normalised to `SU-12345` (five digits on their own count as one). */
export function orderIdsIn(text: string): string[] {
  const normalised = normalizeForReading(text);
  const ids = new Set<string>();
  for (const m of normalised.matchAll(/\bSU-(\d{5})\b|(?<![\d-])(\d{5})(?![\d])/gi)) ids.add(`SU-${m[1] ?? m[2]}`);
  return [...ids];
}

const tokenPattern =
  /(su-\d{5})\b|(itm-\d+)\b|(\d{4}-\d{2}-\d{2})|(\d{1,2}:\d{2}(?:-\d{1,2}:\d{2})?)|([£$€]\s?\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s?(?:gbp|eur|usd|pounds?|euros?|dollars?|pence)\b)|(\d+(?:st|nd|rd|th)?)\b|([a-z0-9]+(?:-[a-z0-9]+)+)|([a-z]+(?:'[a-z]+)*)|([^\s.,!?;:'"()\-/&+%])/g;

function tokensOf(clause: string, titles: readonly string[]): Token[] | { unreadable: string } {
  let text = clause.toLowerCase();
  for (const title of titles) {
    if (title === "" || !text.includes(title)) continue;
    const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    text = text.replace(new RegExp(`(?<![a-z0-9'])${escaped}(?![a-z0-9'])`, "g"), " xtitlex ");
  }
  const tokens: Token[] = [];
  for (const m of text.matchAll(tokenPattern)) {
    if (m[1]) tokens.push({ kind: "order", text: m[1].toUpperCase() });
    else if (m[2]) tokens.push({ kind: "item", text: m[2].toUpperCase() });
    else if (m[3]) tokens.push({ kind: "date", text: m[3] });
    else if (m[4]) tokens.push({ kind: "time", text: m[4] });
    else if (m[5]) tokens.push({ kind: "money", text: m[5] });
    else if (m[6]) tokens.push(/^\d{5}$/.test(m[6]) ? { kind: "order", text: `SU-${m[6]}` } : { kind: "number", text: m[6] });
    else if (m[7]) {
      if (/[a-z]/.test(m[7]) && /\d/.test(m[7])) tokens.push({ kind: "code", text: m[7].toUpperCase() });
      else
        for (const part of m[7].split("-")) tokens.push(/^\d+$/.test(part) ? { kind: "number", text: part } : { kind: "word", text: part });
    } else if (m[8]) tokens.push(m[8] === "xtitlex" ? { kind: "title", text: "" } : { kind: "word", text: possessiveless(m[8]) });
    else if (m[9]) return { unreadable: m[9] };
  }
  // A word with digits inside ("canc3lled") is a code; one that is neither in a record nor readable is refused below.
  return tokens;
}

/** "order's" reads as "order" (a contraction such as "it's" is a word of its own). */
function possessiveless(word: string): string {
  return word.endsWith("'s") && !neutral.has(word) && !phrases.has(word) ? word.slice(0, -2) : word;
}

/** Finds the topic phrases of a clause, longest first; returns their spans. */
function topicSpans(words: readonly string[]): { topic: Topic; start: number; end: number }[] {
  const spans: { topic: Topic; start: number; end: number }[] = [];
  for (let i = 0; i < words.length; ) {
    let found: { topic: Topic; end: number } | undefined;
    for (let n = Math.min(longestPhrase, words.length - i); n >= 1 && !found; n--) {
      const topic = phrases.get(words.slice(i, i + n).join("_"));
      if (topic) found = { topic, end: i + n };
    }
    if (found) {
      spans.push({ topic: found.topic, start: i, end: found.end });
      i = found.end;
    } else i += 1;
  }
  return spans;
}

const joinedNegators = [...negators].filter((n) => n.includes("_")).map((n) => n.split("_"));
const joinedModals = [...modals].filter((n) => n.includes("_")).map((n) => n.split("_"));

function endsWith(words: readonly string[], end: number, phrase: readonly string[]): boolean {
  if (end - phrase.length < 0) return false;
  return phrase.every((p, k) => words[end - phrase.length + k] === p);
}

interface Governor {
  kind: "negation" | "modal" | "conditional";
  word: string;
  /** The words between the governing word and the mention ("might *have been* cancelled"). */
  between: readonly string[];
}

const isNegation = (words: readonly string[], i: number) => {
  const w = words[i] as string;
  return negators.has(w) || w.endsWith("n't") || joinedNegators.some((p) => endsWith(words, i + 1, p));
};

/** How the word before a mention governs it, skipping the glue between. */
function governor(words: readonly string[], start: number, topicOf: (i: number) => Topic | undefined): Governor | undefined {
  for (let i = start - 1, seen = 0; i >= 0 && seen < 6; i--, seen++) {
    const w = words[i] as string;
    const between = words.slice(i + 1, start);
    if (isNegation(words, i)) return { kind: "negation", word: w, between };
    if (joinedModals.some((p) => endsWith(words, i + 1, p)) || modals.has(w)) return { kind: "modal", word: w, between };
    if (conditionals.has(w)) return { kind: "conditional", word: w, between };
    // A word of completion before an action is its verb ("can still *start* a return"): look past it.
    const topic = topicOf(i);
    if (topic !== undefined && topic !== "completion") return undefined;
    if (topic === "completion") continue;
    if (!glue.has(w) && !/^su-\d{5}$/i.test(w) && !/^itm-\d+$/i.test(w)) return undefined;
  }
  return undefined;
}

/** "The return could not be booked": a negation right after a mention (past its auxiliaries) denies it. */
function negatedAfter(words: readonly string[], end: number): boolean {
  for (let i = end, seen = 0; i < words.length && seen < 4; i++, seen++) {
    const w = words[i] as string;
    if (negators.has(w) || w.endsWith("n't")) return true;
    if (
      !/^(?:is|are|was|were|has|have|had|could|can|will|would|did|does|do|be|been|for|of|on|su-\d{5}|itm-\d+|it|this|that|the|your|order)$/.test(
        w,
      )
    )
      return false;
  }
  return false;
}

/**
 * A settled form states an outcome whatever mood it stands in: a past or perfect form ("cancelled", "went
 * through", "done") or a state ("on its way", "all set"). Only a bare verb or noun of a change ("cancel it",
 * "a return") may be offered, asked about or called possible.
 */
function isSettled(phrase: readonly string[]): boolean {
  return phrase.some((w) => settled.has(w) || /[a-z]{3}ed$/.test(w)) || settled.has(phrase.join("_"));
}

/** Auxiliaries of a present passive ("once it *is* delivered"): a future event, not a past one. */
const presentOnly = (between: readonly string[]) =>
  between.some((w) => /^(?:is|are|be|gets|get|it's|they're)$/.test(w)) &&
  !between.some((w) => /^(?:was|were|has|have|had|been|already)$/.test(w));

function mentionsOf(words: readonly string[], isQuestion: boolean): Mention[] {
  const spans = topicSpans(words);
  const topicAt = new Map<number, Topic>();
  for (const s of spans) for (let i = s.start; i < s.end; i++) topicAt.set(i, s.topic);
  // An offer reaches what it offers, not a clause it reports ("shall I email you the confirmation *that* …").
  const joined = ` ${words.join(" ")} `;
  const offerEnds = offerPhrases.flatMap((p) => {
    const at = joined.indexOf(` ${p.join(" ")} `);
    return at < 0 ? [] : [joined.slice(0, at).split(" ").length - 1 + p.length];
  });
  const offered = (start: number) =>
    offerEnds.some((end) => end <= start && !words.slice(end, start).some((w) => /^(?:that|which|who|whether|if|when)$/.test(w)));
  // A second negation in the clause undoes the first: "there's no way it isn't cancelled" claims it.
  let negations = 0;
  for (let i = 0; i < words.length; i++)
    if (negators.has(words[i] as string) || (words[i] as string).endsWith("n't") || (words[i] === "late" && words[i - 1] === "too"))
      negations += 1;
  // A word of completion next to an action ("the cancellation went through", "a return is booked", "started a
  // return") is that action's verb: it is read with the action, not as a claim of its own.
  const isAction = (s: (typeof spans)[number]) => topicTool[s.topic] !== undefined;
  const linked = (a: { start: number; end: number }, b: { start: number; end: number }) => {
    const [from, to] = a.end <= b.start ? [a.end, b.start] : [b.end, a.start];
    if (to - from > 3) return false;
    for (let i = from; i < to; i++) if (!glue.has(words[i] as string) && !/^su-\d{5}$/.test(words[i] as string)) return false;
    return true;
  };
  const verbOf = new Map<(typeof spans)[number], (typeof spans)[number]>();
  const kept = spans.filter((span) => {
    if (span.topic !== "completion") return true;
    const action = spans.find((a) => isAction(a) && linked(a, span));
    if (!action) return true;
    verbOf.set(action, span);
    return false;
  });
  return kept.map((span) => {
    const verb = verbOf.get(span);
    const from = verb ? Math.min(span.start, verb.start) : span.start;
    const to = verb ? Math.max(span.end, verb.end) : span.end;
    const form = words.slice(span.start, span.end).concat(verb ? words.slice(verb.start, verb.end) : []);
    const settledForm = isSettled(form);
    // A settled action word is governed from where it stands ("I can confirm that it *was cancelled*"); a bare one
    // from its verb ("can *start* a return").
    const gov = governor(words, isSettled(words.slice(span.start, span.end)) ? span.start : from, (i) => topicAt.get(i));
    const negated = gov?.kind === "negation" || negatedAfter(words, to) || (verb !== undefined && negatedAfter(words, span.end));
    let mode: Mode = "claim";
    if (negated) mode = negations >= 2 ? "claim" : "denial";
    else if (gov?.kind === "modal") mode = settledForm && !presentOnly(gov.between) ? "claim" : isQuestion ? "question" : "possibility";
    else if (gov?.kind === "conditional")
      mode = gov.word === "whether" ? "question" : settledForm && !presentOnly(gov.between) ? "claim" : "possibility";
    else if (isQuestion && offered(from)) mode = settledForm ? "claim" : "offer";
    else if (isQuestion) mode = settledForm ? "claim" : "question";
    const before = words.slice(Math.max(0, from - 3), from);
    const after = words.slice(to, to + 3);
    const text = words.slice(from, to).join(" ");
    const eitherWay = (mode === "claim" || mode === "denial") && negations > (mode === "denial" && negations === 1 ? 1 : 0);
    return {
      topic: span.topic,
      text,
      mode,
      earlier: before.some((w) => earlier.has(w)) || after.some((w) => earlier.has(w)),
      eitherWay,
    };
  });
}

/** Dates a clause names, as YYYY-MM-DD (weekdays and relative days resolved against today, both ways). */
function datesIn(words: readonly string[], tokens: readonly Token[], today: string, hasTopic: boolean): string[][] {
  const found: string[][] = [];
  for (const t of tokens) if (t.kind === "date") found.push([t.text]);
  const year = Number(today.slice(0, 4));
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const month = months.findIndex((m) => m === w || (w.length >= 3 && m.startsWith(w) && w !== "may" && w !== "mar"));
    const monthAt =
      month >= 0 && (months[month] === w || ["jan", "feb", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"].includes(w));
    if (monthAt) {
      const dayWord = [words[i - 1], words[i - 2], words[i + 1]].find((d) => d !== undefined && /^\d{1,2}(?:st|nd|rd|th)?$/.test(d));
      if (dayWord) {
        const day = Number.parseInt(dayWord, 10);
        found.push([year - 1, year, year + 1].map((y) => `${y}-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`));
      }
    }
    const weekday = weekdays.indexOf(w);
    if (weekday >= 0 && hasTopic) {
      const options: string[] = [];
      for (let d = -6; d <= 7; d++) {
        const date = shift(today, d);
        if (new Date(`${date}T00:00:00Z`).getUTCDay() === weekday) options.push(date);
      }
      found.push(options);
    }
    if (hasTopic && (w === "today" || w === "tomorrow" || w === "yesterday" || w === "tonight"))
      found.push([shift(today, w === "tomorrow" ? 1 : w === "yesterday" ? -1 : 0)]);
  }
  return found;
}

function shift(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Everything a record or read lets a reply name: dates, times, item ids, codes. */
interface Facts {
  dates: Set<string>;
  times: Set<string>;
  items: Set<string>;
  codes: Set<string>;
  amounts: Set<string>;
  /** Counts a reply may state: days from today to a date on record, minutes to wait, items in a change. */
  counts: { days: Set<number>; minutes: Set<number>; items: Set<number> };
}

function factsOf(context: ClaimContext): Facts {
  const facts: Facts = {
    dates: new Set(),
    times: new Set(),
    items: new Set(),
    codes: new Set(),
    amounts: new Set(),
    counts: { days: new Set(), minutes: new Set(), items: new Set() },
  };
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      if (/^\d{4}-\d{2}-\d{2}/.test(value)) facts.dates.add(value.slice(0, 10));
      if (/^\d{1,2}:\d{2}-\d{1,2}:\d{2}$/.test(value)) {
        facts.times.add(value);
        for (const part of value.split("-")) facts.times.add(part);
      }
      if (/^ITM-\d+$/.test(value)) facts.items.add(value);
      if (/^[A-Z0-9]+(?:-[A-Z0-9]+)+$/.test(value) && /[A-Z]/.test(value) && /\d/.test(value)) facts.codes.add(value);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  for (const outcome of context.outcomes) {
    if (outcome.kind !== "completed" && outcome.kind !== "rejected") continue;
    visit(outcome.body);
    const body = outcome.body as { return?: { itemIds?: unknown }; error?: { retryAfterSeconds?: unknown } };
    if (Array.isArray(body.return?.itemIds)) facts.counts.items.add(body.return.itemIds.length);
    const seconds = body.error?.retryAfterSeconds;
    if (typeof seconds === "number") facts.counts.minutes.add(Math.max(1, Math.ceil(seconds / 60)));
  }
  for (const order of context.orders) {
    visit([order.placedAt, order.deliveredAt, order.returnableUntil]);
    for (const item of order.items ?? []) facts.items.add(item.itemId);
    for (const cents of order.amounts ?? []) for (const text of moneyTexts(cents)) facts.amounts.add(text);
  }
  const today = Date.parse(`${context.today}T00:00:00Z`);
  for (const date of facts.dates) facts.counts.days.add(Math.abs(Math.round((Date.parse(`${date}T00:00:00Z`) - today) / 86_400_000)));
  // Times on record are told as written or by the hour ("8am", "12 pm").
  for (const time of [...facts.times]) {
    const [hours, minutes] = time.split(":");
    if (minutes === "00") facts.times.add(`${Number(hours) % 12 === 0 ? 12 : Number(hours) % 12}${Number(hours) < 12 ? "am" : "pm"}`);
    facts.times.add(`${Number(hours)}:${minutes}`);
  }
  return facts;
}

function moneyTexts(cents: number): string[] {
  const units = (cents / 100).toFixed(2);
  return [units, units.replace(/\.00$/, "")];
}

/** What one outcome lets a reply say, mention by mention. */
interface Allowance {
  outcome?: TurnOutcome;
  order?: OrderFacts;
}

/** Statuses a read showed, by the topic that would claim them. */
const statusTopics: Record<string, Topic[]> = {
  cancelled: ["cancel"],
  shipped: ["shipping"],
  dispatching: ["shipping"],
  delivered: ["delivery", "shipping"],
};

/** Facts a rejection states, by code and reason: the topics a reply may assert while explaining it. */
function rejectionFacts(outcome: Extract<TurnOutcome, { kind: "rejected" }>): { claims: Topic[]; denials: Topic[]; possible: string[] } {
  const { code, reason, tool } = outcome;
  if (code === "NOT_ELIGIBLE") {
    switch (reason) {
      case "ALREADY_SHIPPED":
        return { claims: ["shipping"], denials: [], possible: ["start_return"] };
      case "DISPATCH_STARTED":
        return { claims: ["shipping"], denials: [], possible: [] };
      case "ALREADY_CANCELLED":
        return { claims: ["cancel"], denials: [], possible: [] };
      case "NOT_DELIVERED":
        return { claims: [], denials: ["delivery"], possible: [tool] };
      case "RETURN_WINDOW_CLOSED":
        return { claims: ["window"], denials: [], possible: [] };
      case "ITEM_ALREADY_RETURNED":
        return { claims: ["return"], denials: [], possible: [] };
      case "ITEM_ALREADY_REPLACED":
        return { claims: ["replacement"], denials: [], possible: ["start_return"] };
      default:
        return { claims: [], denials: [], possible: [] };
    }
  }
  switch (code) {
    case "SELLER_SUSPENDED":
      return { claims: ["suspension"], denials: [], possible: ["start_return"] };
    case "OUT_OF_STOCK":
      return { claims: ["stock"], denials: ["stock"], possible: ["start_return"] };
    case "NO_PICKUP_SLOT":
      return { claims: [], denials: [], possible: ["start_return"] };
    case "VERSION_CONFLICT":
      return { claims: ["version"], denials: [], possible: [tool] };
    case "RATE_LIMITED":
      return { claims: [], denials: [], possible: [tool] };
    default:
      return { claims: [], denials: [], possible: [] };
  }
}

/** Why a mention is not supported, or undefined when it is. */
function judgeMention(mention: Mention, at: Allowance, amountsRead = false, aboutOrder = true): string | undefined {
  const { topic, mode } = mention;
  const quoted = JSON.stringify(mention.text);
  const outcome = at.outcome;
  const tool = topicTool[topic];
  if (topic === "refund") return `speaks of a refund or credit (${quoted}), which no recorded outcome carries`;
  if (topic === "charge") {
    // What was charged, as a read showed it, may be told when nothing changed; nothing else about money.
    return outcome === undefined && mode === "claim" && amountsRead
      ? undefined
      : `speaks of money (${quoted}), which no recorded outcome carries`;
  }
  if (topic === "hold")
    return mode === "denial" && outcome?.kind !== "unknown" ? undefined : `speaks of a hold (${quoted}), which no tool makes`;
  if (mode === "offer") return undefined;

  // No change this turn on this order: the read facts decide.
  if (outcome === undefined) {
    const order = at.order;
    const allowed = new Set(order?.allowedActions ?? []);
    if (mode === "question") return undefined;
    if (tool) {
      if (mode === "possibility")
        return allowed.has(tool) ? undefined : `says ${quoted} is possible, which the order's allowed actions do not say`;
      if (mode === "denial")
        return order?.status === "cancelled" && topic === "cancel" ? `denies ${quoted}, but the order is cancelled` : undefined;
      if (order?.status && statusTopics[order.status]?.includes(topic)) return undefined;
      if (mention.earlier && order?.status && statusTopics[order.status]?.includes(topic)) return undefined;
      return `claims ${quoted}, but no change was made this turn`;
    }
    switch (topic) {
      case "shipping":
      case "delivery":
        if (mode === "possibility") return `says ${quoted} may happen, which no record says`;
        if (mode === "denial")
          return order?.status === "delivered" || (topic === "shipping" && order?.status === "shipped")
            ? `denies ${quoted}, but the order is ${order?.status}`
            : undefined;
        // A status is the order's: "your order has shipped", not "a second bench has been dispatched".
        if (!aboutOrder) return `claims ${quoted} of something other than the order`;
        return order?.status && statusTopics[order.status]?.includes(topic)
          ? undefined
          : `claims ${quoted}, which the order's status (${order?.status ?? "unread"}) does not say`;
      case "window":
        return allowed.has("start_return") ? `says the return window is over (${quoted}), but a return is still allowed` : undefined;
      case "unchanged":
      case "refusal":
        return undefined;
      case "stock":
      case "suspension":
      case "version":
        return mode === "claim" ? `claims ${quoted}, which no read or record says` : undefined;
      case "completion":
        return mode === "denial" ? undefined : `claims something was done (${quoted}), but no change was made this turn`;
      case "doubt":
        return `speaks of an outcome not yet known (${quoted}), but no change was attempted this turn`;
    }
    return `cannot place ${quoted}`;
  }

  switch (outcome.kind) {
    case "completed": {
      if (tool) {
        if (tool !== outcome.tool)
          return mode === "denial" ? undefined : `speaks of ${quoted}, but the change that completed is ${outcome.tool}`;
        return mode === "claim" ? undefined : `${mode === "denial" ? "denies" : "doubts"} ${quoted}, which completed`;
      }
      if (topic === "completion")
        return mode === "claim" ? undefined : `${mode === "denial" ? "denies" : "doubts"} that the change was done (${quoted})`;
      if (topic === "delivery" || topic === "shipping") return `claims ${quoted}, which the completed ${outcome.tool} does not say`;
      if (topic === "stock" && outcome.tool === "offer_replacement" && mode === "claim") return undefined;
      return `says ${quoted}, which contradicts or goes beyond the completed ${outcome.tool}`;
    }
    case "rejected": {
      const facts = rejectionFacts(outcome);
      if (tool) {
        if (mode === "denial") return undefined;
        if (mode === "possibility")
          return facts.possible.includes(tool) ? undefined : `says ${quoted} is still possible, which the rejection does not say`;
        if (
          mode === "claim" &&
          facts.claims.includes(topic) &&
          (mention.earlier || topic !== "cancel" || outcome.reason === "ALREADY_CANCELLED")
        )
          return undefined;
        return `claims ${quoted}, but ${outcome.tool} was rejected (${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""})`;
      }
      if (topic === "refusal" || topic === "unchanged") return undefined;
      if (mode === "denial" && topic !== "doubt")
        return facts.denials.includes(topic) || topic === "completion" || topic === "version"
          ? undefined
          : facts.claims.includes(topic)
            ? `denies ${quoted}, which the rejection states`
            : undefined;
      if (mode === "claim" && facts.claims.includes(topic)) return undefined;
      if (mode === "question" && topic !== "doubt") return undefined;
      // "Once it arrives, you can start a return": a delivery still to come is what a refusal leaves open.
      if (mode === "possibility" && (topic === "delivery" || topic === "shipping")) return undefined;
      return `says ${quoted}, which the rejection (${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""}) does not support`;
    }
    case "unknown":
    case "mismatch": {
      if (topic === "doubt") return undefined;
      if ((tool === outcome.tool || topic === "completion") && mode === "question") return undefined;
      if (tool && tool !== outcome.tool && mode === "denial") return undefined;
      return `says ${quoted} while the outcome of ${outcome.tool} on ${outcome.orderId} is not known`;
    }
    case "declined":
    case "clarification":
    case "awaiting_confirmation": {
      if (mode === "denial" || mode === "question") return undefined;
      if (topic === "unchanged" || topic === "refusal") return undefined;
      return `claims ${quoted}, but nothing was sent`;
    }
  }
}

/**
 * Checks the text the customer will see (render.ts) against the turn's outcomes. `ok` only when every sentence
 * is placed as harmless.
 */
export function checkClaims(text: string, context: ClaimContext): ClaimCheck {
  const problems: string[] = [];
  const normalised = normalizeShown(text);
  if (normalised === "") return { ok: false, problems: ["the text is empty"] };
  const facts = factsOf(context);
  const titles = [...new Set(context.orders.flatMap((o) => [...(o.itemTitles ?? []), ...(o.items ?? []).map((i) => i.title)]))]
    .map((t) => normalizeForReading(t).toLowerCase())
    .filter((t) => t !== "" && topicSpans(t.split(/[^a-z0-9']+/).filter(Boolean)).length === 0)
    .flatMap(titleParts);
  const byLength = [...new Set(titles)].sort((a, b) => b.length - a.length);
  // The turn's own orders; for a clarification, the candidates (never the id the model proposed).
  const outcomeOrders = new Set(
    context.outcomes.flatMap((o) => (o.kind === "clarification" ? o.candidates.map((c) => c.orderId) : [o.orderId])),
  );
  const allowedIds = context.outcomes.length > 0 ? outcomeOrders : new Set(context.orders.map((o) => o.orderId));
  const everyOrder = context.outcomes.length > 0 ? [...outcomeOrders] : context.orders.map((o) => o.orderId);
  const orderFacts = new Map(context.orders.map((o) => [o.orderId, o]));

  for (const sentence of sentencesOf(normalised)) {
    const isQuestion = sentence.endsWith("?");
    const sentenceIds = orderIdsIn(sentence);
    const aboutOrder = sentenceIds.length > 0 || /\b(?:order|orders|parcel|package|it|it's|they|they're)\b/i.test(sentence);
    const read: { ids: string[]; mentions: Mention[]; amountsRead: boolean }[] = [];
    for (const clause of clausesOf(sentence)) {
      const tokens = tokensOf(clause, byLength);
      if (!Array.isArray(tokens)) {
        problems.push(`cannot read ${JSON.stringify(tokens.unreadable)} in ${JSON.stringify(sentence)}`);
        continue;
      }
      const words = tokens.map((t) =>
        t.kind === "word" ? t.text : t.kind === "order" ? t.text.toLowerCase() : t.kind === "item" ? t.text.toLowerCase() : t.kind,
      );
      const spans = topicSpans(words);
      const inTopic = new Set<number>();
      for (const s of spans) for (let i = s.start; i < s.end; i++) inTopic.add(i);
      for (const [i, t] of tokens.entries()) {
        if (
          t.kind === "word" &&
          !inTopic.has(i) &&
          !neutral.has(t.text) &&
          !glue.has(t.text) &&
          !negators.has(t.text) &&
          !modals.has(t.text) &&
          !conditionals.has(t.text) &&
          !earlier.has(t.text)
        ) {
          problems.push(`has no vocabulary for ${JSON.stringify(t.text)} (in ${JSON.stringify(sentence)})`);
        }
        if (t.kind === "order" && !allowedIds.has(t.text)) problems.push(`names ${t.text}, which this turn's outcome is not about`);
        if (t.kind === "item" && !facts.items.has(t.text))
          problems.push(`names item ${t.text}, which no record or read of this turn holds`);
        if (t.kind === "code" && !facts.codes.has(t.text))
          problems.push(`has ${JSON.stringify(t.text)}, which is no word and no reference on record`);
        if (t.kind === "time" && !t.text.split("-").every((part) => facts.times.has(part)))
          problems.push(`names the time ${t.text}, which no record holds`);
        if (t.kind === "money") {
          const amount = t.text.replace(/[^\d.,]/g, "").replace(",", ".");
          if (context.outcomes.length > 0 || !facts.amounts.has(amount))
            problems.push(`names an amount of money (${t.text}) that no record carries`);
        }
        const count = numberProblem(words, i, t, facts);
        if (count) problems.push(`${count} — in ${JSON.stringify(sentence)}`);
      }
      for (const options of datesIn(words, tokens, context.today, spans.length > 0)) {
        if (!options.some((d) => facts.dates.has(d)))
          problems.push(`names a date (${options.length === 1 ? options[0] : "a weekday"}) that no record or read holds`);
      }
      const amounts = tokens.filter((t) => t.kind === "money").map((t) => t.text.replace(/[^\d.,]/g, "").replace(",", "."));
      read.push({
        ids: tokens.filter((t) => t.kind === "order").map((t) => t.text),
        mentions: mentionsOf(words, isQuestion),
        amountsRead: amounts.length > 0 && amounts.every((a) => facts.amounts.has(a)),
      });
    }
    // Which orders each clause speaks of: those it names, and those named in a neighbouring clause that says
    // nothing of its own ("SU-A and SU-B are cancelled", "… and so is SU-B"); a clause naming none speaks of the
    // last order named before it ("SU-B could not be cancelled because it has shipped"), else of the sentence's.
    // A quantifier ("both", "all", "the other", "too") speaks of every order of the turn.
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
  return { ok: problems.length === 0, problems: [...new Set(problems)] };
}

const monthWords = new Set([...months, "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]);

/**
 * A number is a fact: a count of days, weeks, minutes, hours or items, or an hour of the clock, must equal one the
 * record holds; a day of a month is a date (datesIn); any other number is one no record holds.
 */
function numberProblem(words: readonly string[], i: number, token: Token, facts: Facts): string | undefined {
  const unit = words[i + 1] === "working" || words[i + 1] === "business" ? words[i + 2] : words[i + 1];
  let n: number;
  if (token.kind === "number") n = Number.parseInt(token.text, 10);
  else if (
    token.kind === "word" &&
    numberWords[token.text] !== undefined &&
    unit !== undefined &&
    /^(?:days?|weeks?|minutes?|hours?|items?)$/.test(unit)
  )
    n = numberWords[token.text] as number;
  else return undefined;
  if (token.kind === "number" && [words[i - 1], words[i + 1], words[i + 2]].some((w) => w !== undefined && monthWords.has(w)))
    return undefined;
  const said = `${token.text}${unit ? ` ${unit}` : ""}`;
  switch (unit) {
    case "am":
    case "pm":
      return facts.times.has(`${n}${unit}`) ? undefined : `names the time ${JSON.stringify(said)}, which no record holds`;
    case "day":
    case "days":
      return facts.counts.days.has(n) ? undefined : `names ${JSON.stringify(said)}, which no date on record is from today`;
    case "week":
    case "weeks":
      return facts.counts.days.has(n * 7) ? undefined : `names ${JSON.stringify(said)}, which no date on record is from today`;
    case "minute":
    case "minutes":
    case "hour":
    case "hours":
      return facts.counts.minutes.has(unit.startsWith("hour") ? n * 60 : n)
        ? undefined
        : `names a wait of ${JSON.stringify(said)}, which no record holds`;
    case "item":
    case "items":
      return facts.counts.items.has(n) ? undefined : `names ${JSON.stringify(said)}, which no record holds`;
    default:
      return `names the number ${JSON.stringify(token.text)}, which no record holds`;
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

/** The orders a sentence that names none is about: the turn's own, else the only order in play. */
function defaultOrders(context: ClaimContext): string[] {
  const own = [...new Set(context.outcomes.filter((o) => o.kind !== "clarification").map((o) => o.orderId))];
  if (own.length > 0) return own;
  return context.orders.length === 1 ? [context.orders[0]?.orderId as string] : [];
}

function allowanceFor(
  mention: Mention,
  orderId: string | undefined,
  context: ClaimContext,
  orders: Map<string, OrderFacts>,
): Allowance | "ambiguous" {
  const order = orderId ? orders.get(orderId) : undefined;
  const onOrder = context.outcomes.filter((o) => orderId === undefined || o.orderId === orderId || o.kind === "clarification");
  const tool = topicTool[mention.topic];
  if (tool) {
    const own = onOrder.find((o) => o.tool === tool);
    if (own) return { outcome: own, ...(order ? { order } : {}) };
    // An action no outcome of this order is about: judged by the order's only outcome (a claim of it is then
    // a claim beyond the record), or as a turn without change when there is none.
    if (onOrder.length === 1) return { outcome: onOrder[0] as TurnOutcome, ...(order ? { order } : {}) };
    if (onOrder.length === 0) return order ? { order } : {};
    return { outcome: onOrder[0] as TurnOutcome, ...(order ? { order } : {}) };
  }
  if (onOrder.length === 0) return order ? { order } : {};
  if (onOrder.length === 1) return { outcome: onOrder[0] as TurnOutcome, ...(order ? { order } : {}) };
  // Several outcomes on one order and a mention that names no tool ("done"): fine only if every outcome allows it.
  const verdicts = onOrder.map((o) => judgeMention(mention, { outcome: o }));
  if (verdicts.every((v) => v === undefined)) return { outcome: onOrder[0] as TurnOutcome };
  return "ambiguous";
}
