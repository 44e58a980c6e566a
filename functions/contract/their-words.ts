/**
 * Someone else's words inside the application's own text (contract §8.2): a seller's title or name, a delivery
 * note, a carrier's name or tracking id. Every place the service or the controller puts such a string into a
 * sentence of its own — facts, questions, clarifications, progress lines, the MCP question, status sentences —
 * takes it from here, and only from here, so it can never speak in the application's voice:
 * - cut by graphemes (as a person counts characters; each cluster at most 8 code points, so stacked marks cannot
 *   stretch one), "…" where cut;
 * - format and bidi controls and every invisible character removed, so an override cannot outlive the cut;
 * - line breaks folded, so it stays on the application's line;
 * - every quotation mark of any script (and the ASCII quotes and backtick) replaced by a modifier letter that is
 *   not one, so it cannot close the quotation marks the application puts around it;
 * - markdown and HTML made inert: the characters that open a link, an image, a tag, an entity, emphasis or an
 *   escape are replaced by look-alikes no markdown or HTML renderer reads, so the plain text and a markdown
 *   rendering of it show the same characters;
 * - carried with whose words they are (`by`), which the sentence around it says.
 */

/** Who wrote a string the application shows: the sentence around it says so. */
export type Writer = "seller" | "shop" | "customer" | "support" | "carrier";

export interface TheirWords {
  /** The words as they may stand inside the application's quotation marks. */
  readonly text: string;
  readonly by: Writer;
  /** Whether the words were cut ("…" at the end). */
  readonly cut: boolean;
}

/**
 * How much of the words a place shows:
 * - `title`: an item's title or a seller's name as a sentence names it — its first sentence (or line), at most six
 *   words and 48 graphemes;
 * - `line`: a title on a line of its own (the MCP question): at most 60 graphemes;
 * - `note`: a delivery note, whole (the service bounds it to 500 characters), its lines joined by " / ";
 * - `value`: a carrier's name or a tracking id: at most 40 graphemes.
 */
export const wordShapes = {
  title: { firstSentence: true, words: 6, graphemes: 48 },
  line: { firstSentence: false, words: Number.POSITIVE_INFINITY, graphemes: 60 },
  note: { firstSentence: false, words: Number.POSITIVE_INFINITY, graphemes: 500 },
  value: { firstSentence: false, words: Number.POSITIVE_INFINITY, graphemes: 40 },
} as const;
export type WordShape = keyof typeof wordShapes;

/** Code points of a grapheme kept: more is stacking, not writing. */
const clusterCodePoints = 8;

const lineBreaks = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/gu;
const controls = /[\p{Cc}]/gu;
const invisible = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}]/gu;
/** Quotation marks of every script: the Unicode property, the initial and final punctuation, and dingbat quotes. */
const quotationMarks = /[\p{Quotation_Mark}\p{Pi}\p{Pf}`´❛❜❝❞❟❠❮❯⹂〃🙶🙷🙸]/gu;
const doubleQuotes = new Set([...'"“”„‟«»＂〝〞〟❝❞❠❮❯⹂〃🙶🙷🙸『』﹃﹄⹂']);
/** Not quotation marks (Unicode letters): what a quote inside someone else's words becomes. */
export const singleQuoteStandIn = "ʼ";
export const doubleQuoteStandIn = "ʺ";

/** The characters that make markdown or HTML, each with a look-alike that makes neither. */
const markupStandIns: Readonly<Record<string, string>> = {
  "<": "˂",
  ">": "˃",
  "[": "(",
  "]": ")",
  "*": "∗",
  _: "ˍ",
  "~": "∼",
  "\\": "⧵",
};
const markup = /[<>[\]*_~\\]|&(?=#?[A-Za-z0-9]+;)/g;

const graphemeSegmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/** The at most this many UTF-16 units of the input read: a bounded shape never needs more. */
const readAtMost = (graphemes: number) => graphemes * clusterCodePoints * 2 + 64;

/**
 * Someone else's words as the application may show them inside its own text. Pure and linear in the shape's
 * bound, whatever it is given.
 */
export function theirWords(raw: string, by: Writer, shape: WordShape = "title"): TheirWords {
  const { firstSentence, words, graphemes } = wordShapes[shape];
  let text = String(raw).slice(0, readAtMost(graphemes)).normalize("NFC");
  text = firstSentence ? (text.split(lineBreaks)[0] ?? "") : text.split(lineBreaks).join(" / ");
  text = text
    .replace(controls, " ")
    .replace(invisible, "")
    .replace(quotationMarks, (q) => (doubleQuotes.has(q) ? doubleQuoteStandIn : singleQuoteStandIn))
    .replace(markup, (m) => (m === "&" ? "＆" : (markupStandIns[m] ?? m)))
    .replace(/\s+/gu, " ")
    .replace(/(?: \/)+ ?$|^ ?(?:\/ )+/u, "")
    .trim();
  if (firstSentence) text = (text.split(/(?<=[.!?])\s/u)[0] ?? text).replace(/[.!?:;,]+$/u, "");
  const full = text;
  const wordList = text.split(" ");
  if (wordList.length > words) text = wordList.slice(0, words).join(" ");
  const clusters = [...graphemeSegmenter.segment(text)].map(({ segment }) => [...segment].slice(0, clusterCodePoints).join(""));
  if (clusters.length > graphemes) {
    const kept = clusters.slice(0, graphemes - 1).join("");
    // At a word's end where there is one, so a word is not split.
    text = /\s/u.test(kept) && clusters[graphemes - 1] !== " " ? kept.replace(/\s+\S*$/u, "") : kept;
  } else text = clusters.join("");
  if (firstSentence) text = text.replace(/[.!?:;,]+$/u, "");
  text = text.trimEnd();
  const cut = text !== full;
  return { text: cut ? `${text}…` : text, by, cut };
}

/** The words alone, for a place whose sentence says whose they are. */
export const wordsOf = (raw: string, by: Writer, shape: WordShape = "title"): string => theirWords(raw, by, shape).text;
