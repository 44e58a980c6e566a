import { normalizeForReading } from "#controller/text/normalize";

/**
 * What the principal's own message says, read the way the guards need it: which orders it refers to (and how),
 * its content words and its data. Every reader starts from the same normalised text as the response gate, so a
 * look-alike character or a spaced-out id reads as what it shows.
 */

/** A reference to an order in the principal's words. */
export interface OrderReference {
  /** `SU-12345` for a full id; the digits for a fragment. */
  ref: string;
  kind: "id" | "fragment";
}

const notAnOrder =
  /\b(?:flat|apartment|apt|unit|house|floor|room|suite|building|block|street|st|road|rd|lane|ln|avenue|ave|box|postcode|post code|zip|phone|tel|mobile|call|item|itm|qty|quantity|size|pack|page|bus|gate|code|pin|door|plot|x)\W*$|[£$€]\s*$/;

/** A text as the guards read it: normalised for reading, as the response gate reads (text/normalize.ts), lowercase. */
export function readingOf(text: string): string {
  return normalizeForReading(text).toLowerCase();
}

/** The order references of a message: full ids, and 3–5 digit fragments that are not an address or a quantity. */
export function orderReferences(message: string): OrderReference[] {
  return referencesIn(readingOf(message));
}

/** The order references of a text already read (`readingOf`). */
export function referencesIn(text: string): OrderReference[] {
  const refs: OrderReference[] = [];
  for (const m of text.matchAll(/\bsu-(\d{5})\b|(?<![\d.,:-])(\d{3,5})(?![\d.,:]\d|\d)/g)) {
    if (m[1]) {
      refs.push({ ref: `SU-${m[1]}`, kind: "id" });
      continue;
    }
    const digits = m[2] as string;
    if (notAnOrder.test(text.slice(Math.max(0, (m.index ?? 0) - 40), m.index))) continue;
    refs.push(digits.length === 5 ? { ref: `SU-${digits}`, kind: "id" } : { ref: digits, kind: "fragment" });
  }
  return refs;
}

/** Content words of a text, for comparing a note with the principal's words: lowercase, no punctuation. */
export function contentWords(text: string, small: ReadonlySet<string>): string[] {
  return contentWordsIn(readingOf(text), small);
}

/** The content words of a text already read (`readingOf`). */
export function contentWordsIn(reading: string, small: ReadonlySet<string>): string[] {
  return (reading.match(/[\p{L}\p{N}@._'+-]+/gu) ?? [])
    .map((w) => w.replace(/^[.'_-]+|[.'_-]+$/g, ""))
    .filter((w) => w !== "" && !small.has(w));
}

/** Pieces of data a text carries: e-mail addresses, order and item ids, runs of 3+ digits, links. */
export function dataTokens(text: string): string[] {
  return dataTokensIn(readingOf(text));
}

/** The data of a text already read (`readingOf`). */
export function dataTokensIn(reading: string): string[] {
  // An e-mail address is tried only where a run of its characters starts: tried at every character of a long run, it
  // would scan the rest of the run each time, and reading a message would grow with the square of its length.
  return [...reading.matchAll(/(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?:\/\/\S+|\bsu-\d{5}\b|\bitm-\d+\b|\d{3,}/g)].map((m) => m[0]);
}
