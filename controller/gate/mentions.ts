import { normalizeForReading } from "#controller/gate/normalize";
import {
  conditionals,
  earlier,
  glue,
  modals,
  negators,
  neutral,
  offers,
  settled,
  type Topic,
  topics,
  topicTool,
} from "#controller/gate/vocabulary";

/**
 * How the claim check (claim-check.ts) reads a reply's sentence: its clauses, their tokens, the mentions of a topic
 * and the mood each stands in (claim, denial, possibility, question, offer), and the dates it names. Nothing here
 * knows the turn's outcome: allowance.ts holds each mention against it.
 */

export type Mode = "claim" | "denial" | "possibility" | "question" | "offer";

export interface Token {
  kind: "word" | "order" | "item" | "date" | "time" | "money" | "number" | "code" | "title";
  text: string;
}

export interface Mention {
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

export const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Splits a normalised text into sentences. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function clausesOf(sentence: string): string[] {
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

export function tokensOf(clause: string, titles: readonly string[]): Token[] | { unreadable: string } {
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
export function topicSpans(words: readonly string[]): { topic: Topic; start: number; end: number }[] {
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

export function mentionsOf(words: readonly string[], isQuestion: boolean): Mention[] {
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
export function datesIn(words: readonly string[], tokens: readonly Token[], today: string, hasTopic: boolean): string[][] {
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
