import { type Courtesy, courtesyOf } from "#controller/gate/courtesy";
import { courtesyEmoji } from "#controller/text/small-words";
import { type OrderFact, theirWordsIn } from "#controller/gate/facts";
import type { Locale } from "#controller/i18n/locale";

/**
 * How the gate reads the model's text (contract §8.2): it accepts; it does not hunt. The text is what the customer
 * would see (render.ts: the markdown rendered, entities decoded, invisible characters removed), and every
 * character of it is read, sentence by sentence:
 * - a sentence that is courtesy (gate/courtesy.ts: a closed set of whole phrases) is kept as written;
 * - a sentence that says the same as a fact the application renders from the record — word for word, up to
 *   letter case, the closing mark and a few words that carry no claim ("the", "your", "has been") — is kept as
 *   written, or left out when the reply already tells that fact; a fact's sentence that holds someone else's words
 *   (a note, a title, a seller's name, a carrier's) is the application's alone: no copy of it is the fact;
 * - any other sentence is dropped: it mentions an order, an item, a delivery, money, a date or a number the facts
 *   do not state, or a verb, an actor, a symbol (a check mark, an arrow, an emoji other than a courtesy smile) or
 *   a word the closed set does not hold. Which facts stand in its place is what the person asked (gate/asked.ts).
 * Nothing here widens by what a seller wrote: a title's words are read like any others.
 */

export type Verdict = { kind: "courtesy"; courtesy: Courtesy } | { kind: "fact"; fact: number } | { kind: "said" } | { kind: "dropped" };

export interface ReadSentence {
  /** The sentence as shown, list mark removed. */
  text: string;
  verdict: Verdict;
}

/** The sentences of a shown text: at a closing mark followed by a space, and at every line break. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^- +/, "").trim())
    .filter((s) => s !== "");
}

/** Words that carry no claim of their own, left out when a sentence is compared with a fact. */
const noClaim = new Set(["the", "your", "a", "an", "is", "are", "was", "were", "has", "have", "been", "now", "already", "just", "order"]);

/**
 * A sentence as it is compared with a fact: lowercase, typographic quotes and apostrophes plain, the closing mark
 * off, then its words (with the marks inside them: ids, dates, times, amounts) and every other mark and symbol as
 * a token of its own, the words that carry no claim left out.
 */
export function factCore(sentence: string): string {
  const ascii = /^[\x20-\x7e]*$/.test(sentence);
  const plain = (
    ascii
      ? sentence
      : sentence
          .normalize("NFC")
          .replace(/[’‘ʼ]/g, "'")
          .replace(/[“”„«»‹›]/g, '"')
  )
    .toLowerCase()
    .replace(/[.!?]+$/, "");
  // Plain ASCII (most replies) is split by a pattern without Unicode classes: the same tokens, several times faster.
  const tokens =
    (ascii ? plain.match(/[a-z0-9]+(?:['.:,\-/][a-z0-9]+)*|\S/g) : plain.match(/[\p{L}\p{N}]+(?:['.:,\-/][\p{L}\p{N}]+)*|\S/gu)) ?? [];
  let core = "";
  for (const t of tokens) if (!noClaim.has(t)) core = core === "" ? t : `${core} ${t}`;
  return core;
}

/**
 * Where someone else's words stood in a fact's sentence, as it is compared: an invisible character, which the shown
 * text never holds (render.ts removes them), so no sentence of the model's matches a fact by copying a note, a
 * title, a seller's name or a carrier's words — and a sentence inside those words is never one of the fact's.
 */
const theirPlace = "\u2060";

/** Each fact's sentences by their core, worked out once per fact. */
const coresOf = new WeakMap<OrderFact, string[]>();
function factCores(fact: OrderFact): string[] {
  let cores = coresOf.get(fact);
  if (!cores) {
    let text = fact.text;
    for (const words of theirWordsIn(fact)) if (words !== "") text = text.split(words).join(theirPlace);
    cores = sentencesOf(text).map(factCore);
    coresOf.set(fact, cores);
  }
  return cores;
}

export { factCores };

/**
 * Reads each sentence of the shown text against the facts (their sentences, by `factCore`) and the sentences the
 * reply already tells (`told`: the status sentences).
 */
export function readSentences(
  shown: string,
  facts: readonly OrderFact[],
  told: readonly string[],
  locale: Locale = "en",
  changeSent = false,
): ReadSentence[] {
  // Every fact's sentence names its order: only the facts of an order the text names can be what it says.
  const named = new Set([...shown.matchAll(/\bSU-\d{5}\b/gi)].map((m) => m[0].toUpperCase()));
  const byCore = new Map<string, number>();
  facts.forEach((fact, index) => {
    if (named.has(fact.orderId)) for (const core of factCores(fact)) if (!byCore.has(core)) byCore.set(core, index);
  });
  const said = new Set(told.flatMap(sentencesOf).map(factCore));
  return sentencesOf(shown).map((text) => {
    // What the reply already tells (a status sentence's own question, say) is not said twice.
    const core = factCore(text);
    if (said.has(core)) return { text, verdict: { kind: "said" } };
    const courtesy = courtesyOf(text, locale, changeSent);
    if (courtesy) return { text, verdict: { kind: "courtesy", courtesy } };
    const fact = byCore.get(core);
    return { text, verdict: fact === undefined ? { kind: "dropped" } : { kind: "fact", fact } };
  });
}

/**
 * Whether a dropped sentence spoke of a change, an answer or a symbol: on a turn that changed nothing, the reply
 * then says so first. It only adds that true sentence; which facts the reply tells is the question's (gate/asked.ts).
 */
const changeWords =
  /cancel|return|refund|replac|note|chang|done|sorted|complet|arrang|book|updat|fix|resolv|stop|hold|kept|keep|stay|went|gone|go out|no longer|won't|yes|sure|\bok\b|okay|of course|certainly|absolutely|credit|reimburs|compensat|\bre-?paid|repay|paid back|\bback\b|you'll get|you will get|charg|pay|paid|cost|price|total|money|amount|bill|fee|[£$€¥]|\d[.,]\d{2}\b/;

export function speaksOfChange(sentence: string): boolean {
  const plain = sentence.normalize("NFKC").toLowerCase();
  const symbol = /[^\p{L}\p{N}\p{Zs}.,;:!?'"’‘“”()£$€-]/u.test(sentence.replace(courtesyEmoji, ""));
  // Money on a turn that changed nothing is a change the customer may think was made ("You will receive £24.00").
  return symbol || changeWords.test(plain);
}
