import { shortTitle } from "#controller/guard/confirmation";

/** Most characters a seller's title or name takes in the application's sentence, after `shortTitle`. */
export const sellerWordsLength = 80;

/**
 * A seller's title or name as a sentence of the application's names it (contract §8.2): its first sentence and at
 * most six words (guard/confirmation.ts `shortTitle`), at most 80 characters, "…" where it was cut. A seller writes
 * these, so a sentence in the application's voice carries only what names the item, bounded whatever it was given.
 */
export function sellerWords(text: string): string {
  // Cut first, so shortTitle reads a bounded string whatever a caller hands the gate.
  const short = shortTitle(text.slice(0, 4 * sellerWordsLength));
  return short.length <= sellerWordsLength ? short : `${short.slice(0, sellerWordsLength - 1).trimEnd()}…`;
}
