import { wordsOf } from "#contract/their-words";

/**
 * A seller's title or name as a sentence of the application's names it (contract §8.2): someone else's words as
 * the one renderer shows them (contract/their-words.ts, shape `title`): its first sentence, at most six words and
 * 48 graphemes, "…" where it was cut, no quotation mark, control or markup of its own.
 */
export function sellerWords(text: string): string {
  return wordsOf(text, "seller", "title");
}
