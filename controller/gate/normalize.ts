import { rectifyConfusion } from "unicode-confusables";

/**
 * What the guards read (guard/words.ts, guard/mood.ts, guard/request-form.ts, …): a principal's message brought to
 * one plain form first, so that a disguise cannot carry a request past them. In order:
 * 1. NFKC, which turns full-width and other compatibility forms into plain ones (`ＳＵ－１０２３４` → `SU-10234`);
 * 2. every default-ignorable and format character removed (zero-width spaces and joiners, soft hyphens, word
 *    joiners, bidi controls, variation selectors, tag characters);
 * 3. every other character outside ASCII folded to its prototype in Unicode's confusables data (TR39's skeleton
 *    mapping: Cyrillic `а` → `a`, mathematical `𝐜` → `c`). ASCII is left alone: TR39 would fold the digit `1` to
 *    `l`, which would break order ids;
 * 4. markdown emphasis, headings, quotes, list marks, links and emoji reduced to their text;
 * 5. every dash to `-`, white space to single spaces, and letters spaced out one by one (`c a n c e l l e d`)
 *    joined into the word they spell;
 * 6. order ids written with spaces, other hyphens or none (`SU 10234`, `su10234`) as `SU-10234`.
 */
export function normalizeForReading(text: string): string {
  return normalize(text, true);
}

/**
 * The same reading form without markdown taken out, for a message read as the principal typed it (guard/answer.ts,
 * guard/request-form.ts): a mark is read as written, and a pictograph as a space.
 */
export function normalizeShown(text: string): string {
  return normalize(text, false);
}

function normalize(text: string, markdown: boolean): string {
  let s = text.normalize("NFKC");
  s = s.replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, "");
  s = s.replace(/\p{Pd}/gu, "-");
  s = foldConfusables(s);
  s = s.normalize("NFKC");
  s = markdown ? plainMarkdown(s) : s.replace(/\p{Extended_Pictographic}/gu, " ");
  s = s
    .replace(/\p{Pd}/gu, "-")
    .replace(/[‘’ʼ′`´]/gu, "'")
    .replace(/[“”„″]/gu, '"');
  s = s
    .replace(/[^\S\n]+/g, " ")
    .replace(/ *\n[\n ]*/g, "\n")
    .trim();
  s = joinSpacedLetters(s);
  s = s.replace(/\bSU *-? *(\d{5})(?!\d)/gi, "SU-$1");
  return s;
}

/**
 * Non-ASCII letters, digits and marks to their confusable prototype, one at a time. ASCII stays as written, and
 * so does punctuation: the data would fold an em dash to a katakana mark.
 */
function foldConfusables(text: string): string {
  let out = "";
  for (const char of text)
    out += (char.codePointAt(0) as number) < 0x80 || !/[\p{L}\p{N}\p{M}]/u.test(char) ? char : rectifyConfusion(char);
  return out;
}

/** Markdown and emoji are presentation: `**Done!**` reads as `Done!`, `[SU-1](…)` as `SU-1`, 🎉 as nothing. */
function plainMarkdown(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\p{Extended_Pictographic}/gu, " ")
    .replace(/[*_~]+/g, "")
    .replace(/^[ \t]*(?:#{1,6}|>+|[-+•]|\d+[.)])[ \t]+/gm, "");
}

/** `c a n c e l l e d` → `cancelled`: three or more single letters separated by single spaces. */
function joinSpacedLetters(text: string): string {
  return text.replace(/\b[A-Za-z](?: [A-Za-z]){2,}\b/g, (run) => run.replace(/ /g, ""));
}
