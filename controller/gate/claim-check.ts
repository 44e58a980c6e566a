/**
 * The claim check of SPEC §8.2: what a model-written reply claims, read conservatively. A sentence claims
 * success when it uses a word of completion (cancelled, done, saved, booked…) without a negation; it denies
 * when it negates an action or says refused/not possible. Anything the check cannot place safely is treated as
 * a claim, so a doubtful reply falls back to the template: the check can wrongly replace a true reply, never
 * wrongly pass a false one of the kinds it knows.
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
}

const completion =
  /\b(?:cancell?ed|done|completed?|confirmed|success(?:ful(?:ly)?)?|went through|gone through|all set|taken care of|processed|(?:is|are|has been|have been|was|were) (?:saved|added|updated|booked|started|arranged|scheduled|reserved|created|set up|replaced|on (?:its|their) way)|on (?:its|their) way|I(?:'ve| have)? (?:cancell?ed|added|saved|started|booked|arranged|reserved|replaced|updated|set up|scheduled|sorted))\b/i;

const negation = /\b(?:not|never|cannot|unable|unfortunately|no longer|too late|neither|nor)\b|n['’]t\b/i;

const actionWord = /\b(?:cancel\w*|return\w*|replac\w*|note|change\w*|find|found|process\w*|complet\w*|possible|eligible|confirm\w*|go(?:ne)? through|went through|done|booked|saved|added|started)\b/i;

const refusal = /\b(?:rejected|refused|declined|denied|failed|ineligible|not eligible|impossible|not possible|not allowed)\b/i;

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

export function readClaims(text: string): Claims {
  const success: string[] = [];
  const denial: string[] = [];
  for (const sentence of sentencesOf(text)) {
    const negated = negation.test(sentence);
    if (refusal.test(sentence) || (negated && actionWord.test(sentence))) denial.push(sentence);
    else if (completion.test(sentence)) success.push(sentence);
  }
  return { orderIds: orderIdsIn(text), success, denial };
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
