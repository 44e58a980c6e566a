import { shortTitle } from "#controller/guard/confirmation";

/** The most of a seller's text the cut reads: six words of forty-eight characters never need more. */
const readAtMost = 320;

/**
 * A seller's title or name as a sentence of the application's names it (contract §8.2): as a question names it
 * (guard/confirmation.ts `shortTitle`), its first sentence, at most six words and 48 characters, "…" where it was
 * cut. A seller writes these, so a sentence in the application's voice carries only what names the item, bounded
 * whatever it was given.
 */
export function sellerWords(text: string): string {
  // Cut first, so shortTitle reads a bounded string whatever a caller hands the gate.
  return shortTitle(text.slice(0, readAtMost));
}
