import { normalizeForReading } from "#controller/gate/normalize";

/**
 * The free-text fallback of a confirmation (contract §8.5): a message is a yes only when the whole of it is an
 * affirmative, with nothing but courtesy words beside it, in one of the supported languages. A question mark, a
 * negation or any other word makes it not a yes — "Okay, but I didn't ask for a return", "ok what is this
 * about?" — so the held change is declined rather than sent on a reading of intent. The application's button
 * (`conversation.confirm(confirmationId)`) is the primary way to confirm; this only spares a principal who types.
 */

/** Affirmatives, per supported language (multi-word ones are matched as phrases first). */
const affirmatives: readonly string[] = [
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
const courtesies: readonly string[] = [
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

const phrase = (words: string) => words.replaceAll(" ", "\\s+");
const byLength = (a: string, b: string) => b.length - a.length;
const affirmativePattern = new RegExp(`(?<![\\p{L}'])(?:${[...affirmatives].sort(byLength).map(phrase).join("|")})(?![\\p{L}'])`, "gu");
const courtesyPattern = new RegExp(
  `(?<![\\p{L}'])(?:${courtesies
    .filter((c) => !affirmatives.includes(c))
    .sort(byLength)
    .map(phrase)
    .join("|")})(?![\\p{L}'])`,
  "gu",
);

/** Whether the whole message is an affirmative (with courtesy words), in any supported language. */
export function isAffirmation(message: string): boolean {
  const text = normalizeForReading(message).toLowerCase().replaceAll("’", "'").trim();
  if (text === "" || /[?¿]/.test(text)) return false;
  let affirmed = false;
  // Courtesy first: "no problem" must be taken whole before "no" could be read on its own.
  const rest = text.replace(courtesyPattern, " ").replace(affirmativePattern, () => {
    affirmed = true;
    return " ";
  });
  return affirmed && /^[\s\p{P}\p{S}]*$/u.test(rest);
}
