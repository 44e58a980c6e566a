import { normalizeForReading } from "#controller/gate/normalize";

/**
 * The free-text fallback of a confirmation (contract §8.5): a message is a yes only when the whole of it is an
 * affirmative, with nothing but courtesy words beside it, in one of the supported languages. A question mark, a
 * negation or any other word makes it not a yes — "Okay, but I didn't ask for a return", "ok what is this
 * about?" — so the held change is declined rather than sent on a reading of intent. The application's button
 * (`conversation.confirm(confirmationId)`) is the primary way to confirm; this only spares a principal who types.
 */

/** Affirmatives, per supported language (multi-word ones are matched as phrases first). */
export const affirmatives: readonly string[] = [
  // en
  "yes",
  "yeah",
  "yep",
  "yup",
  "y",
  "sure",
  "ok",
  "okay",
  "k",
  "fine",
  "alright",
  "all right",
  "confirm",
  "confirmed",
  "go ahead",
  "go on",
  "please do",
  "do it",
  "correct",
  "that's right",
  "that is right",
  "try again",
  "absolutely",
  "definitely",
  "of course",
  // de
  "ja",
  "jawohl",
  "genau",
  "gerne",
  "gern",
  "in ordnung",
  "klar",
  "einverstanden",
  "bestätigen",
  "bestätigt",
  "bestätige",
  "mach das",
  "machen sie das",
  "natürlich",
  "richtig",
  "sicher",
  // fr
  "oui",
  "d'accord",
  "dac",
  "bien sûr",
  "parfait",
  "je confirme",
  "confirmé",
  "allez-y",
  "vas-y",
  "exactement",
  "entendu",
  "volontiers",
  // es
  "sí",
  "si",
  "vale",
  "claro",
  "de acuerdo",
  "confirmo",
  "adelante",
  "perfecto",
  "por supuesto",
  "exacto",
  // it
  "sì",
  "certo",
  "va bene",
  "confermo",
  "d'accordo",
  "procedi",
  "esatto",
  "certamente",
  "perfetto",
  // pt
  "sim",
  "pode ser",
  "está bem",
  "tá bem",
  "ta bem",
  "de acordo",
  "certo",
  "com certeza",
  "pode",
  "pode avançar",
  "perfeito",
  // nl
  "prima",
  "goed",
  "akkoord",
  "is goed",
  "bevestig",
  "bevestigd",
  "doe maar",
  "zeker",
  "natuurlijk",
  "oké",
  "klopt",
  // pl
  "tak",
  "dobrze",
  "zgoda",
  "potwierdzam",
  "jasne",
  "oczywiście",
  "pewnie",
  "okej",
];

/** Courtesy words that may stand beside an affirmative without changing it. */
export const courtesies: readonly string[] = [
  // en
  "please",
  "pls",
  "plz",
  "thanks",
  "thank you",
  "thank you very much",
  "thx",
  "ty",
  "cheers",
  "no problem",
  "no worries",
  "great",
  "perfect",
  "sounds good",
  "that's fine",
  "that's great",
  "go for it",
  "that would be great",
  "very much",
  "much appreciated",
  // de
  "bitte",
  "danke",
  "danke schön",
  "dankeschön",
  "vielen dank",
  "bitte schön",
  "gerne doch",
  "kein problem",
  "super",
  "prima",
  // fr
  "merci",
  "merci beaucoup",
  "s'il vous plaît",
  "s'il vous plait",
  "s'il te plaît",
  "s'il te plait",
  "svp",
  "stp",
  "pas de problème",
  "avec plaisir",
  // es
  "por favor",
  "gracias",
  "muchas gracias",
  "sin problema",
  "genial",
  // it
  "per favore",
  "per piacere",
  "grazie",
  "grazie mille",
  "prego",
  "nessun problema",
  "ottimo",
  // pt
  "por favor",
  "obrigado",
  "obrigada",
  "muito obrigado",
  "muito obrigada",
  "sem problema",
  "ótimo",
  // nl
  "graag",
  "dank je",
  "dank u",
  "dank je wel",
  "dank u wel",
  "bedankt",
  "alsjeblieft",
  "alstublieft",
  "geen probleem",
  "top",
  // pl
  "proszę",
  "dziękuję",
  "dzięki",
  "bardzo dziękuję",
  "nie ma problemu",
  "świetnie",
  "super",
];

// The lists are read the way the message is (NFKC, confusables folded), so "dankeschön" meets "dankeschön".
const phrase = (words: string) => escapeRegExp(words).replaceAll(" ", "\\s+");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const byLength = (a: string, b: string) => b.length - a.length;
const read = (text: string) => normalizeForReading(text.toLowerCase()).toLowerCase().replaceAll("’", "'");
const affirmativeSet = new Set(affirmatives.map(read));
// One alternation, longest first, so "no problem" and "please do" are each taken whole.
const phrasePattern = new RegExp(
  `(?<![\\p{L}'])(?:${[...new Set([...affirmatives, ...courtesies].map(read))].sort(byLength).map(phrase).join("|")})(?![\\p{L}'])`,
  "gu",
);

/** Whether the whole message is an affirmative (with courtesy words), in any supported language. */
export function isAffirmation(message: string): boolean {
  const text = read(message).trim();
  if (text === "" || /[?¿]/.test(text)) return false;
  let affirmed = false;
  const rest = text.replace(phrasePattern, (match) => {
    if (affirmativeSet.has(match.replace(/\s+/gu, " "))) affirmed = true;
    return " ";
  });
  return affirmed && /^[\s\p{P}\p{S}]*$/u.test(rest);
}
