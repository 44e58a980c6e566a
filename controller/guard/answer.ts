import type { ChangeToolName } from "#contract/tools";
import { normalizeShown } from "#controller/text/normalize";
import { type AnswerWords, answerWords } from "#controller/i18n/answers";
import type { Locale } from "#controller/i18n/locale";
import { courtesyEmoji } from "#controller/text/small-words";

/**
 * A typed answer to the application's question about a held change (contract §8.5), read in the principal's words:
 * - **confirm**: an explicit affirmative ("ok" or "fine" only alone), optionally restating that change — its verb, its
 *   order, its items — with courtesy words ("Yes please, go ahead and cancel it", „Ja, gerne, bitte stornieren“,
 *   « Oui, annulez-la », 👍); after a reply that also reported another change's outcome, only an affirmative that
 *   restates this change. An acknowledgement ("ok, thanks", "great", "perfect") is never one;
 * - **decline**: a negative, optionally restating the change ("No, keep it", „Nein, danke“);
 * - **neither**: anything else — a question, a yes and a no together, a word the answer catalogue does not hold, a
 *   restatement of another change or another order. Neither leaves the change waiting and asks again; it never
 *   declines in silence and never sends.
 * Only the words of the conversation's locale and English (i18n/answers.ts) are read; they are the words the
 * question itself asks for.
 */
export type AnswerKind = "confirm" | "decline" | "neither";

/** What one message says as an answer, before it is held to a change. */
export interface AnswerReading {
  question: boolean;
  /** Explicit affirmatives ("yes", "go ahead", 👍). */
  affirmatives: number;
  /** "ok", "fine": a yes only alone. */
  weakAffirmatives: number;
  /** "great", "perfect", "sounds good": acknowledgements, never a yes. */
  acknowledgements: number;
  thanks: number;
  negatives: number;
  /** Words and signs the catalogue does not hold. */
  other: string[];
  /** The changes its words restate. */
  restates: Set<ChangeToolName>;
  /** Order ids and 3–5 digit fragments it names; item ids it names. */
  orderIds: string[];
  fragments: string[];
  itemIds: string[];
}

/** A held change an answer may be about. */
export interface HeldChange {
  tool: ChangeToolName;
  orderId: string;
  itemIds?: readonly string[];
}

type Category = "yes" | "weak" | "ack" | "thanks" | "no" | "courtesy" | "filler" | ChangeToolName;

const yesSigns = /[👍✅✔☑👌]/u;
const noSigns = /[👎❌✖🚫]/u;
const courtesySign = new RegExp(`^(?:${courtesyEmoji.source})$`, "u");

/** A text as answers are read: normalised as the gate reads shown text, lowercase, hyphens and apostrophes plain. */
const readAnswerText = (text: string) =>
  normalizeShown(text)
    .toLowerCase()
    .replace(/(?<=\p{L})-(?=\p{L})/gu, " ")
    // An elided article or pronoun is a word of its own: "l'ordine" is "l'" and "ordine", "d'accord" is "d'" "accord".
    .replace(/(?<![\p{L}'])([a-z]|qu)'(?=\p{L})/gu, "$1' ")
    .replace(/\s+/g, " ")
    .trim();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A word without its accents: « cancélala » is read against « cancela ». */
const bare = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "");

/** A word's place in the text once read: an imperative a particle may follow, a small word, or nothing. */
const imperativeMark = "\u0001";
const smallWordMark = "\u0002";

interface Reader {
  pattern: RegExp;
  category: Map<string, Category>;
  /** The locale's one-word restatements, accents aside, and the clitics they may take. */
  verbs: Map<string, ChangeToolName>;
  clitics: readonly string[];
  /** A particle after an imperative (and its small words), or undefined where the locale has none. */
  particle: RegExp | undefined;
  /** The bare yes ("ja"): an affirmative, but no imperative a particle may follow ("ja maar" is "yes, but"). */
  bareYes: string;
}

/** Per locale: every phrase of its catalogue and of English's, by category, matched longest first. */
const readers = new Map<Locale, Reader>();

function readerFor(locale: Locale): Reader {
  const known = readers.get(locale);
  if (known) return known;
  const category = new Map<string, Category>();
  // The locale's own words first: where a word is another category in English, the principal's language decides.
  for (const words of locale === "en" ? [answerWords.en] : [answerWords[locale], answerWords.en]) add(category, words);
  const phrases = [...category.keys()].sort((a, b) => b.length - a.length).map((p) => escapeRegExp(p).replaceAll(" ", "\\s+"));
  const own = answerWords[locale];
  const verbs = new Map<string, ChangeToolName>();
  for (const [tool, restated] of Object.entries(own.restate) as [ChangeToolName, readonly string[]][])
    for (const p of restated.map(readAnswerText)) if (!p.includes(" ") && !verbs.has(bare(p))) verbs.set(bare(p), tool);
  const particles = own.particles.map((p) => escapeRegExp(readAnswerText(p)));
  const reader: Reader = {
    pattern: new RegExp(`(?<![\\p{L}\\p{N}'])(?:${phrases.join("|")})(?![\\p{L}\\p{N}'])`, "gu"),
    category,
    verbs,
    clitics: [...own.clitics].map(readAnswerText).sort((a, b) => b.length - a.length),
    particle:
      particles.length === 0
        ? undefined
        : new RegExp(`(${imperativeMark}(?:\\s+${smallWordMark})*)\\s+(?:${particles.join("|")})(?![\\p{L}\\p{N}'])`, "gu"),
    bareYes: readAnswerText(own.shownYes),
  };
  readers.set(locale, reader);
  return reader;
}

function add(category: Map<string, Category>, words: AnswerWords): void {
  const put = (phrase: string, c: Category) => {
    const read = readAnswerText(phrase);
    if (!category.has(read)) category.set(read, c);
  };
  for (const p of words.yes) put(p, "yes");
  for (const p of words.weakYes) put(p, "weak");
  for (const p of words.acknowledge) put(p, "ack");
  for (const p of words.thanks) put(p, "thanks");
  for (const p of words.no) put(p, "no");
  for (const p of words.courtesy) put(p, "courtesy");
  for (const [tool, phrases] of Object.entries(words.restate) as [ChangeToolName, readonly string[]][])
    for (const p of phrases) put(p, tool);
  for (const p of words.filler) put(p, "filler");
}

/** One message read as an answer, in the conversation's locale. */
export function readAnswer(message: string, locale: Locale): AnswerReading {
  const reading: AnswerReading = {
    question: questionMark.test(message),
    affirmatives: 0,
    weakAffirmatives: 0,
    acknowledgements: 0,
    thanks: 0,
    negatives: 0,
    other: [],
    restates: new Set(),
    orderIds: [],
    fragments: [],
    itemIds: [],
  };
  // Signs first: the reading below takes pictographs out.
  for (const sign of message.match(/\p{Extended_Pictographic}/gu) ?? []) {
    if (yesSigns.test(sign)) reading.affirmatives += 1;
    else if (noSigns.test(sign)) reading.negatives += 1;
    else if (!courtesySign.test(sign)) reading.other.push(sign);
  }
  // Punctuation between words separates nothing an answer says: "No, wait" is the phrase "no wait".
  let text = readAnswerText(message.replace(/[\u{FE0F}\u{200D}]/gu, "")).replace(/[,;:.!…]+/g, " ");
  text = text.replace(/\bsu-(\d{5})\b/g, (_m, digits: string) => {
    reading.orderIds.push(`SU-${digits}`);
    return " ";
  });
  text = text.replace(/\bitm-(\d+)\b/g, (_m, digits: string) => {
    reading.itemIds.push(`ITM-${digits}`);
    return " ";
  });
  text = text.replace(/(?<![\p{L}\p{N}])#?(\d{3,5})(?!\p{N})/gu, (_m, digits: string) => {
    reading.fragments.push(digits);
    return " ";
  });
  const reader = readerFor(locale);
  let rest = text.replace(reader.pattern, (match) => {
    const phrase = match.replace(/\s+/g, " ");
    const c = reader.category.get(phrase);
    if (c === "yes") reading.affirmatives += 1;
    else if (c === "weak") reading.weakAffirmatives += 1;
    else if (c === "ack") reading.acknowledgements += 1;
    else if (c === "thanks") reading.thanks += 1;
    else if (c === "no") reading.negatives += 1;
    else if (c !== undefined && c !== "courtesy" && c !== "filler") reading.restates.add(c);
    if ((c === "yes" && phrase !== reader.bareYes) || (c !== undefined && c in answerWords.en.restate)) return ` ${imperativeMark} `;
    return c === "filler" ? ` ${smallWordMark} ` : " ";
  });
  // A restating verb with its object pronoun at its end (« cancélalo », « annullala »), accents aside, is that verb.
  rest = rest.replace(/\p{L}+/gu, (word) => {
    const tool = restatedVerb(reader, bare(word));
    if (tool === undefined) return word;
    reading.restates.add(tool);
    return ` ${imperativeMark} `;
  });
  // A softening particle after an imperative and its small words (« annuleer het maar », « fallo pure »).
  if (reader.particle !== undefined) rest = rest.replace(reader.particle, "$1 ");
  rest = rest.replaceAll(imperativeMark, " ").replaceAll(smallWordMark, " ");
  // The closed answer form: words of the catalogue, ids, and the punctuation taken out above. Any other character —
  // another question mark ("？", "؟", "‽"), a sign ("✗", "→"), a quotation mark — is not the form.
  for (const token of rest.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}'’-]/gu) ?? []) reading.other.push(token);
  return reading;
}

/** The change a word restates: one of the locale's one-word verbs, bare or with one clitic at its end. */
function restatedVerb(reader: Reader, word: string): ChangeToolName | undefined {
  const verb = reader.verbs.get(word);
  if (verb !== undefined) return verb;
  for (const clitic of reader.clitics)
    if (word.length > clitic.length && word.endsWith(clitic)) {
      const stem = reader.verbs.get(word.slice(0, -clitic.length));
      if (stem !== undefined) return stem;
    }
  return undefined;
}

/** Any question mark: "?", "¿", and the full-width, Arabic, Greek, Armenian, Ethiopic and interrobang forms. */
const questionMark = /[?¿？؟;՞፧‽⁇⁈⁉⸮]/u;

/** How a typed answer must read to confirm: after a reply that also reported an outcome, only a restatement does. */
export interface AnswerContext {
  /**
   * The reply that asked also reported the outcome of other changes (these tools): an acknowledgement of that outcome
   * is not an answer, so only an affirmative that restates this change confirms it: its verb, when no change of that
   * kind was reported, or its order's id, when no change on that order was.
   */
  reported?: readonly { tool: string; orderId: string }[];
}

/** What an answer says of one held change: confirm, decline, or neither. */
export function answerTo(reading: AnswerReading, change: HeldChange, context: AnswerContext = {}): AnswerKind {
  if (reading.question || reading.other.length > 0) return "neither";
  if ([...reading.restates].some((tool) => tool !== change.tool)) return "neither";
  if (!namesOnly(reading, change)) return "neither";
  const yes = reading.affirmatives + reading.weakAffirmatives;
  if (reading.negatives > 0) return yes === 0 ? "decline" : "neither";
  // "ok", "fine" alone answer yes; "ok, thanks", "ok, great" acknowledge, and "great", "perfect" never answer.
  const affirmed = reading.affirmatives > 0 || (reading.weakAffirmatives > 0 && reading.thanks === 0 && reading.acknowledgements === 0);
  if (context.reported !== undefined && context.reported.length > 0) {
    const reported = context.reported;
    const namesOrder =
      (reading.orderIds.includes(change.orderId) || reading.fragments.length > 0) && !reported.some((r) => r.orderId === change.orderId);
    const restated = reading.restates.has(change.tool) && !reported.some((r) => r.tool === change.tool);
    return yes > 0 && (namesOrder || restated) ? "confirm" : "neither";
  }
  return affirmed ? "confirm" : "neither";
}

/** The orders and items an answer names are the change's own (or it names none). */
function namesOnly(reading: AnswerReading, change: HeldChange): boolean {
  const digits = change.orderId.replace(/^SU-/, "");
  return (
    reading.orderIds.every((o) => o === change.orderId) &&
    reading.fragments.every((f) => digits.includes(f)) &&
    reading.itemIds.every((i) => (change.itemIds ?? []).includes(i))
  );
}

/**
 * Which of the changes the last reply asked about an answer is for: the only one asked, or the one whose order (or
 * verb) the answer names. Undefined when it does not say which of several.
 */
export function changeAnswered<T extends HeldChange>(reading: AnswerReading, shown: readonly T[]): T | undefined {
  if (shown.length <= 1) return shown[0];
  const named = shown.filter(
    (c) =>
      (reading.orderIds.length > 0 || reading.fragments.length > 0 || reading.restates.size > 0) &&
      namesOnly(reading, c) &&
      [...reading.restates].every((tool) => tool === c.tool),
  );
  return named.length === 1 ? named[0] : undefined;
}
