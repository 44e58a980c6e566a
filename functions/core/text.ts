/**
 * The carrier's rules for free text a customer writes (SPEC §5, add_delivery_note): letters, digits,
 * punctuation, symbols, spaces and line breaks of any script are kept exactly; every other control,
 * format, bidi or zero-width character is refused with its position, counted in characters from 1.
 */

export interface TextRules {
  readonly maxCharacters: number;
  readonly maxLines: number;
}

export const deliveryNoteRules: TextRules = { maxCharacters: 500, maxLines: 10 };

// L letters, M combining marks (needed by many scripts), N digits, P punctuation, S symbols, Zs spaces.
const allowed = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\n]$/u;

const named: Record<number, string> = {
  0x09: "a tab",
  0x0d: "a carriage return not followed by a line feed",
  0x200b: "a zero-width space (U+200B)",
  0x200c: "a zero-width non-joiner (U+200C)",
  0x200d: "a zero-width joiner (U+200D)",
  0x2060: "a word joiner (U+2060)",
  0xfeff: "a zero-width no-break space (U+FEFF)",
  0x200e: "a left-to-right mark (U+200E)",
  0x200f: "a right-to-left mark (U+200F)",
  0x202a: "a left-to-right embedding (U+202A)",
  0x202b: "a right-to-left embedding (U+202B)",
  0x202c: "a pop directional formatting (U+202C)",
  0x202d: "a left-to-right override (U+202D)",
  0x202e: "a right-to-left override (U+202E)",
  0x2066: "a left-to-right isolate (U+2066)",
  0x2067: "a right-to-left isolate (U+2067)",
  0x2068: "a first-strong isolate (U+2068)",
  0x2069: "a pop directional isolate (U+2069)",
  0x2028: "a line separator (U+2028)",
  0x2029: "a paragraph separator (U+2029)",
};

function describe(codePoint: number): string {
  const hex = codePoint.toString(16).toUpperCase().padStart(4, "0");
  return named[codePoint] ?? `the invisible or control character U+${hex}`;
}

export type TextCheck = { ok: true; text: string } | { ok: false; message: string };

/** Checks and normalises one piece of free text: `\r\n` → `\n`, NFC, trimmed; then length and line limits. */
export function checkFreeText(raw: string, rules: TextRules): TextCheck {
  const chars = [...raw];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === "\r" && chars[i + 1] === "\n") continue;
    if (!allowed.test(ch)) {
      return {
        ok: false,
        message: `contains ${describe(ch.codePointAt(0) as number)} at character ${i + 1}; remove it. Notes may hold letters, digits, punctuation, symbols, spaces and line breaks of any script.`,
      };
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
