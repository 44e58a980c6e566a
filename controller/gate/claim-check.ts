import type { ReplyKind } from "#controller/gate/outcomes";

/**
 * The claim check of SPEC §8.2: what a reply claims, read conservatively, sentence by sentence.
 * - success: a word of completion (cancelled, done, saved, booked…) in a clause with no negation;
 * - denial: a refusal word, or a negated action — leaving aside the negations that only express
 *   uncertainty ("I can't confirm yet whether…");
 * - uncertainty: "can't confirm", "not sure whether", "still checking"…
 * An uncertain phrase never hides a success word: "it is cancelled, I'm still checking the refund" still claims
 * success. Anything the check cannot place safely counts as a claim, so a doubtful reply falls back to the
 * template: the check may replace a true reply, never pass a false one of the kinds it knows.
 *
 * What it cannot do: judge whether an explanation is kind, complete or accurate beyond these claims.
 */

export interface Claims {
  /** Order ids the text names (SU-12345, or five digits on their own), normalised to SU-xxxxx. */
  orderIds: string[];
  /** Sentences that claim a change happened. */
  success: string[];
  /** Sentences that say a change did not or cannot happen. */
  denial: string[];
  /** Sentences that say the outcome is not known yet. */
  uncertainty: string[];
  /** Sentences that ask the customer something. */
  questions: string[];
}

const completion =
  /\b(?:cancell?ed|done|completed?|confirmed|success(?:ful(?:ly)?)?|went through|gone through|all set|taken care of|processed|(?:is|are|has been|have been|was|were) (?:now )?(?:saved|added|updated|booked|started|arranged|scheduled|reserved|created|set up|replaced|on (?:its|their) way)|on (?:its|their) way|I(?:'ve| have)? (?:cancell?ed|added|saved|started|booked|arranged|reserved|replaced|updated|set up|scheduled|sorted))\b/i;

const negation = /\b(?:not|never|nothing|cannot|unable|unfortunately|no longer|too late|neither|nor)\b|n['’]t\b/i;

const actionWord = /\b(?:cancel\w*|return\w*|replac\w*|note|change\w*|find|found|process\w*|complet\w*|possible|eligible|confirm\w*|go(?:ne)? through|went through|done|booked|saved|added|started)\b/i;

const refusal = /\b(?:rejected|refused|declined|denied|failed|ineligible|not eligible|impossible|not possible|not allowed)\b/i;

const uncertain =
  /\b(?:(?:can(?:['’]t|not)|could(?:n['’]t| not)|unable to) (?:yet )?(?:confirm|tell|say)(?: yet)?|not (?:yet )?(?:been )?confirmed|not (?:yet )?sure|don['’]t (?:yet )?know|do not (?:yet )?know|still checking|(?:I['’]m|I am|am) checking|checking (?:on|whether|if)|waiting (?:for|on) (?:confirmation|an answer))\b/gi;

const orderIdPattern = /\bSU-?(\d{5})\b|(?<![\d-])(\d{5})(?!\d)/gi;

export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function orderIdsIn(text: string): string[] {
  const ids = new Set<string>();
  for (const match of text.matchAll(orderIdPattern)) ids.add(`SU-${match[1] ?? match[2]}`);
  return [...ids];
}

/** Clauses of a sentence: a negation in one ("…, and it won't ship") must not hide a claim in another. */
export function clausesOf(sentence: string): string[] {
  return sentence
    .split(/\s*[,;:—–]\s*|\s+(?:and|but|so|though|although|while|whereas)\s+/i)
    .map((c) => c.trim())
    .filter((c) => c !== "");
}

export function readClaims(text: string): Claims {
  const claims: Claims = { orderIds: orderIdsIn(text), success: [], denial: [], uncertainty: [], questions: [] };
  for (const sentence of sentencesOf(text)) {
    if (new RegExp(uncertain.source, "i").test(sentence)) claims.uncertainty.push(sentence);
    const clauses = clausesOf(sentence);
    const denies = clauses.some((clause) => {
      const rest = clause.replace(uncertain, " ");
      return refusal.test(rest) || (negation.test(rest) && actionWord.test(rest));
    });
    if (denies) claims.denial.push(sentence);
    if (clauses.some((clause) => completion.test(clause) && !negation.test(clause))) claims.success.push(sentence);
    if (sentence.endsWith("?")) claims.questions.push(sentence);
  }
  return claims;
}

/**
 * What kind of reply a text is (SPEC §8.3 `expect.reply`), as the claim check reads it: a confirmation claims
 * success and denies nothing; an uncertain reply says the outcome is not known; a rejection denies; a
 * clarification asks; anything else informs. The gate's templates each read as their own kind.
 */
export function classifyReply(text: string): ReplyKind {
  const claims = readClaims(text);
  if (claims.success.length > 0 && claims.denial.length === 0 && claims.uncertainty.length === 0) return "confirmation";
  if (claims.uncertainty.length > 0) return "uncertainty";
  if (claims.denial.length > 0) return "rejection";
  if (claims.success.length > 0) return "confirmation";
  if (claims.questions.length > 0) return "clarification";
  return "information";
}

/** What a reply may claim, from the recorded outcome. */
export interface ClaimRules {
  /** Order ids the reply may name; any other is a mismatch. */
  allowedOrderIds: ReadonlySet<string>;
  /** Order ids the reply must name. */
  requiredOrderIds?: readonly string[];
  success: "forbidden" | "allowed" | { onlyFor: ReadonlySet<string> };
  denial: "forbidden" | "allowed";
}

export interface ClaimCheck {
  ok: boolean;
  claims: Claims;
  /** Why the reply was refused, one line each. */
  problems: string[];
}

export function checkClaims(text: string, rules: ClaimRules): ClaimCheck {
  const claims = readClaims(text);
  const problems: string[] = [];
  if (text.trim() === "") problems.push("the reply is empty");
  for (const id of claims.orderIds) if (!rules.allowedOrderIds.has(id)) problems.push(`names ${id}, which the outcome is not about`);
  for (const id of rules.requiredOrderIds ?? []) if (!claims.orderIds.includes(id)) problems.push(`does not name ${id}`);
  if (rules.success === "forbidden") {
    for (const sentence of claims.success) problems.push(`claims success: ${JSON.stringify(sentence)}`);
  } else if (rules.success !== "allowed") {
    const allowed = rules.success.onlyFor;
    for (const sentence of claims.success) {
      const ids = orderIdsIn(sentence);
      if (ids.length === 0 || ids.some((id) => !allowed.has(id))) problems.push(`claims success without a recorded completion: ${JSON.stringify(sentence)}`);
    }
  }
  if (rules.denial === "forbidden") for (const sentence of claims.denial) problems.push(`claims it did not or cannot happen: ${JSON.stringify(sentence)}`);
  return { ok: problems.length === 0, claims, problems };
}
