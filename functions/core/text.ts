/**
 * The carrier's rules for free text a customer writes (contract §5, add_delivery_note): letters, digits,
 * punctuation, symbols, spaces and line breaks of any script are kept exactly; every other control or format
 * character, and every default-ignorable one, is refused with its position, counted in characters from 1.
 *
 * Default-ignorable characters (Unicode's Default_Ignorable_Code_Point: zero-width characters, variation
 * selectors, tag characters, Hangul fillers, U+034F, U+17B4/5, ...) render as nothing, so a note can carry
 * text that staff and agents read but nobody sees; variation selectors alone can hide hundreds of bytes.
 * Several of them are letters or marks by category, so the category allow-list does not catch them: they are
 * refused by the property itself.
 *
 * The one exception is U+FE0E / U+FE0F directly after an emoji, where they pick text or emoji presentation
 * ("❤️", "©️"). "Emoji" means Unicode's Emoji property (\p{Emoji}), not Extended_Pictographic: keycaps such
 * as "1️⃣", "#️⃣" and "*️⃣" put U+FE0F after a digit, '#' or '*', which only Emoji includes. One selector per
 * visible emoji can hide next to nothing. Zero-width joiners are default-ignorable too, so emoji ZWJ
 * sequences (family emoji, "🏳️‍🌈") and tag sequences (subdivision flags) are refused, as contract §5 says.
 */

export interface TextRules {
  readonly maxCharacters: number;
  readonly maxLines: number;
}

export const deliveryNoteRules: TextRules = { maxCharacters: 500, maxLines: 10 };

// L letters, M combining marks (needed by many scripts), N digits, P punctuation, S symbols, Zs spaces.
const allowed = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\n]$/u;
const defaultIgnorable = /^\p{Default_Ignorable_Code_Point}$/u;
const emoji = /^\p{Emoji}$/u;
const presentationSelectors = new Set([0xfe0e, 0xfe0f]);

const named: Record<number, string> = {
  9: "a tab",
  13: "a carriage return not followed by a line feed",
  173: "a soft hyphen (U+00AD)",
  847: "a combining grapheme joiner (U+034F)",
  1564: "an Arabic letter mark (U+061C)",
  4447: "a Hangul choseong filler (U+115F)",
  4448: "a Hangul jungseong filler (U+1160)",
  6068: "a Khmer inherent vowel (U+17B4), which has no visible form",
  6069: "a Khmer inherent vowel (U+17B5), which has no visible form",
  8203: "a zero-width space (U+200B)",
  8204: "a zero-width non-joiner (U+200C)",
  8205: "a zero-width joiner (U+200D)",
  8288: "a word joiner (U+2060)",
  12644: "a Hangul filler (U+3164)",
  65279: "a zero-width no-break space (U+FEFF)",
  65440: "a halfwidth Hangul filler (U+FFA0)",
  8206: "a left-to-right mark (U+200E)",
  8207: "a right-to-left mark (U+200F)",
  8234: "a left-to-right embedding (U+202A)",
  8235: "a right-to-left embedding (U+202B)",
  8236: "a pop directional formatting (U+202C)",
  8237: "a left-to-right override (U+202D)",
  8238: "a right-to-left override (U+202E)",
  8294: "a left-to-right isolate (U+2066)",
  8295: "a right-to-left isolate (U+2067)",
  8296: "a first-strong isolate (U+2068)",
  8297: "a pop directional isolate (U+2069)",
  8232: "a line separator (U+2028)",
  8233: "a paragraph separator (U+2029)",
};

const hexOf = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

function describe(codePoint: number): string {
  const known = named[codePoint];
  if (known) return known;
  const hex = hexOf(codePoint);
  if (presentationSelectors.has(codePoint)) return `a variation selector (${hex}) that does not directly follow an emoji`;
  if ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef))
    return `a variation selector (${hex})`;
  if (codePoint >= 0x180b && codePoint <= 0x180f) return `a Mongolian variation selector or vowel separator (${hex})`;
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return `a tag character (${hex})`;
  return `the invisible or control character ${hex}`;
}

/** What to do instead, for a character that is refused. */
function remedy(codePoint: number): string {
  return presentationSelectors.has(codePoint) || defaultIgnorable.test(String.fromCodePoint(codePoint))
    ? "Invisible characters are refused; only U+FE0E or U+FE0F directly after an emoji (as in ❤️ or 1️⃣) is kept."
    : "Notes may hold letters, digits, punctuation, symbols, spaces and line breaks of any script.";
}

export type TextCheck = { ok: true; text: string } | { ok: false; message: string };

/** Checks and normalises one piece of free text: `\r\n` → `\n`, NFC, trimmed; then length and line limits. */
export function checkFreeText(raw: string, rules: TextRules): TextCheck {
  const chars = [...raw];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const codePoint = ch.codePointAt(0) as number;
    if (ch === "\r" && chars[i + 1] === "\n") continue;
    const keptSelector = presentationSelectors.has(codePoint) && i > 0 && emoji.test(chars[i - 1] as string);
    if (keptSelector) continue;
    if (defaultIgnorable.test(ch) || !allowed.test(ch)) {
      return { ok: false, message: `contains ${describe(codePoint)} at character ${i + 1}; remove it. ${remedy(codePoint)}` };
    }
  }
  const text = raw.replace(/\r\n/g, "\n").normalize("NFC").trim();
  const length = [...text].length;
  if (length === 0) {
    return { ok: false, message: `is empty after trimming; write 1 to ${rules.maxCharacters} characters.` };
  }
  if (length > rules.maxCharacters) {
    return {
      ok: false,
      message: `is ${length} characters long after trimming; the limit is ${rules.maxCharacters}. Shorten it by ${length - rules.maxCharacters}.`,
    };
  }
  const lines = text.split("\n").length;
  if (lines > rules.maxLines) {
    return { ok: false, message: `has ${lines} lines; the limit is ${rules.maxLines}. Join some lines.` };
  }
  return { ok: true, text };
}
