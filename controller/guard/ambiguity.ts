/**
 * The ambiguity guard: which order a change is for. When more than one order is in play and the principal's
 * request does not name the target, nothing is dispatched and the outcome is a clarification.
 *
 * A request (guard/request-form.ts) names an order by its full id (any spacing or hyphen), or by a cued fragment of
 * 3+ digits ("order 884", "#884") that the principal's own search resolved to that order alone, or that matches only
 * that order among those in play. "It", "my order", "the order" name the only order in play.
 *
 * - `identified`: the request names the target;
 * - `single_order`: the request says "it" and the target is the only order in play, and the orders in play are all
 *   there are (no search that came back truncated);
 * - `clarification`: other orders are in play and the request does not say which;
 * - `unplaced`: the target is not an order the request names (it names others), nor one the conversation has in play
 *   at all (nobody named or read it), or it is the only one but the list may be incomplete.
 */
export type GuardDecision = "single_order" | "identified" | "clarification" | "unplaced";

export interface AmbiguityInput {
  targetOrderId: string;
  /** Orders the principal named or a read returned, in the order they came up. */
  ordersInPlay: readonly string[];
  /** What the request names: full ids, cued fragments, and whether it says "it" / "my order". */
  named: { orderIds: readonly string[]; fragments: readonly string[]; pronoun: boolean };
  /** A search came back truncated: the orders in play may not be all there are. */
  incomplete?: boolean;
  /** Fragments the principal wrote that their own search resolved, to the orders it returned. */
  resolvedFragments?: Readonly<Record<string, readonly string[]>>;
}

const digitsOf = (orderId: string) => orderId.replace(/^SU-/, "");

export function ambiguityGuard(input: AmbiguityInput): GuardDecision {
  const { targetOrderId: target, ordersInPlay, named } = input;
  const others = ordersInPlay.filter((id) => id !== target);
  if (named.orderIds.includes(target)) return "identified";
  for (const fragment of named.fragments) {
    if (!digitsOf(target).includes(fragment)) continue;
    const resolved = input.resolvedFragments?.[fragment];
    if (resolved ? resolved.length === 1 && resolved[0] === target : !others.some((id) => digitsOf(id).includes(fragment)))
      if (ordersInPlay.includes(target) || resolved) return "identified";
  }
  // An order nobody named or read is no candidate: asking "which one?" would offer the model's own pick.
  if (!ordersInPlay.includes(target)) return "unplaced";
  // A fragment the target shares with other orders in play: the request did not say which of them.
  const digits = digitsOf(target);
  if (named.fragments.some((f) => digits.includes(f) && others.some((id) => digitsOf(id).includes(f)))) return "clarification";
  // The request names orders, and this is not one of them.
  if (named.orderIds.length > 0 || named.fragments.length > 0) return named.pronoun ? "clarification" : "unplaced";
  if (others.length > 0) return "clarification";
  if (input.incomplete) return "unplaced";
  return "single_order";
}
