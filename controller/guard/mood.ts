import { normalizeForReading } from "#controller/gate/normalize";

/**
 * Which parts of a principal's message can ask for something, by the mood of each sentence and clause rather than
 * by which change words it uses (contract §8.5). A question, a conditional, a hypothetical or a negated clause
 * never asks for a change, whatever it mentions: "What is your cancellation policy?", "If it breaks, how would a
 * replacement work?", "I don't want to cancel". Only the rest — imperatives, statements, and the one polite form
 * of a request, "could you cancel it?" — is read for what it asks. Reading fails towards holding a change for a
 * confirmation: what it cannot place as a request is not one.
 */

/** Quotation marks of the languages the controller reads; full-width forms are folded to these first (NFKC). */
const quoted = /"[^\n]*"|[“‟][^\n]*[”“]|„[^\n]*[“”]|«[^\n]*»|‹[^\n]*›|‘[^\n]*’|「[^\n]*」|『[^\n]*』/gu;

/**
 * A message without what it quotes — or, given `drop`, without the quotes it says are someone else's. A quotation
 * never asks for anything (it is text the principal reports, a listing they paste); whether its words are the
 * principal's own values depends on where they come from (guard/values.ts). Straight quotes do not say which one
 * opens, so from a line's first to its last is one quotation: a quote inside a quote leaves nothing outside.
 */
export function withoutQuotes(message: string, drop: (span: string) => boolean = () => true): string {
  // NFKC first, as the reading does, so a full-width ＂…＂ is the quotation it shows and not text that asks.
  return message.normalize("NFKC").replace(quoted, (span) => (drop(span) ? " " : span));
}

/** A sentence: its text, without its terminator, and whether it was closed with a question mark. */
interface Sentence {
  text: string;
  question: boolean;
}

/** Courtesy conditionals ("if possible") soften a request; they do not make it hypothetical. */
const courtesy =
  /\b(?:if (?:at all )?possible|if you can|if you could|if that's (?:ok|okay|alright|fine)|if you don't mind|if you would|if you please)\b/g;

function sentences(message: string): Sentence[] {
  const text = normalizeForReading(withoutQuotes(message)).toLowerCase().replaceAll("’", "'").replace(courtesy, "");
  const out: Sentence[] = [];
  for (const m of text.matchAll(/[^.!?;\n]+(?:[.!?;\n]+|$)/g)) {
    const raw = m[0];
    // "SU-61201." or "1.7l": a full stop inside a word or number is not a sentence end; the regex split at
    // every one, which only ever makes sentences shorter, never merges a question into a request.
    const body = raw.replace(/[.!?;\n]+$/, "").trim();
    if (body !== "") out.push({ text: body, question: /\?/.test(raw) });
  }
  return out;
}

/** Openers that carry no mood of their own: "Thanks. Also, what …" is read from "what". */
const filler = /^(?:(?:and|also|so|but|ok|okay|oh|hi|hello|hey|well|then|thanks|thank you|sorry|great|right|please)\b[\s,:-]*)+/;
const interrogativeOpening =
  /^(?:what|what's|whats|how|how's|when|where|why|which|who|whom|whose|can|could|may|might|is|are|am|was|were|do|does|did|will|would|should|shall|have|has|had|any|anyone)\b/;
/** "Could you cancel it?": the one question form that is a request, when the change's verb comes right after. */
const politeRequest = /^(?:can|could|would|will) (?:you|u) (?:please |kindly |just )*/;
const conditional =
  /\b(?:if|unless|in case|whether|suppose|supposing|imagine|hypothetical\w*|in theory|wonder\w*|curious|just asking|out of interest)\b/;
const negation = /\b(?:not|no|never|nothing|neither|nor|without|none|nobody)\b|n't\b|\bdont\b|\bdoesnt\b|\bdidnt\b/;

/**
 * The clauses of a message that may ask for something: those of sentences that are not questions (save the
 * polite request) nor conditional, themselves not negated. Each is lowercase and normalised for reading.
 */
export function requestClauses(message: string): string[] {
  const out: string[] = [];
  for (const sentence of sentences(message)) {
    if (conditional.test(sentence.text)) continue;
    const opened = sentence.text.replace(filler, "");
    let text = opened;
    if (politeRequest.test(opened)) text = opened.replace(politeRequest, "");
    else if (sentence.question || interrogativeOpening.test(opened)) continue;
    for (const clause of text.split(/,|:|\s[-–—]\s|\b(?:but|and|so|because|as|since)\b/)) {
      const trimmed = clause.trim();
      if (trimmed !== "" && !negation.test(trimmed)) out.push(trimmed);
    }
  }
  return out;
}

/**
 * The clauses of a message whose words are excluded from a change: negated, "keep"/"keeping", "except". The message
 * is given as the guards read it: normalised for reading and lowercase (guard/message.ts).
 */
export function excludingClausesIn(reading: string): string[] {
  return reading
    .replaceAll("’", "'")
    .split(/[.!?;\n,:]|\b(?:but|and|so)\b/)
    .map((c) => c.trim())
    .filter((c) => c !== "" && (negation.test(c) || /\b(?:keep|keeping|kept|except|apart from|other than|not the)\b/.test(c)));
}
