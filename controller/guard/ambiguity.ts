/**
 * The ambiguity guard (SPEC §8.1 step 1): when more than one order is in play in the conversation and the
 * customer's latest message does not identify the target order — its id, or a fragment of ≥ 3 digits that
 * matches only that order among those in play — nothing is dispatched; the outcome is a clarification.
 */
export type GuardDecision = "single_order" | "identified" | "clarification";

const digitsOf = (orderId: string) => orderId.replace(/^SU-/, "");

export function ambiguityGuard(targetOrderId: string, ordersInPlay: readonly string[], latestMessage: string): GuardDecision {
  const others = ordersInPlay.filter((id) => id !== targetOrderId);
  if (others.length === 0) return "single_order";
  const target = digitsOf(targetOrderId);
  for (const match of latestMessage.matchAll(/\d{3,}/g)) {
    const digits = match[0];
    if (target.includes(digits) && !others.some((id) => digitsOf(id).includes(digits))) return "identified";
  }
  return "clarification";
}

/** Order ids a text names: SU-12345 (any case, with or without the hyphen). */
export function orderIdsMentioned(text: string): string[] {
  return [...new Set([...text.matchAll(/\bSU-?(\d{5})\b/gi)].map((m) => `SU-${m[1]}`))];
}
