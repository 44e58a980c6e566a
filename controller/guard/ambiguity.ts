import type { PrincipalMessage } from "#controller/guard/message";
import { orderReferences } from "#controller/guard/words";

/**
 * The ambiguity guard: which order a change is for. When more than one order is in play and the principal's
 * latest message does not identify the target, nothing is dispatched and the outcome is a clarification.
 *
 * The message identifies an order by its full id (any spacing or hyphen), or by a fragment of 3+ digits that
 * matches only that order among those in play and that is plainly an order reference: written after an order
 * word ("order 884", "#884", "ending 884"), the very fragment the principal's own search resolved to that
 * order, or a fragment of only one of the orders the principal named by full id ("the 456 one"). Digits that are an address or a quantity ("flat 312", "2 x 300") identify nothing, and naming an order
 * is not choosing it: in "keep SU-10311, cancel the other one" SU-10311 is named to be kept.
 *
 * - `identified`: the message picks out the target;
 * - `single_order`: the target is the only order in play, and the orders in play are all there are (no search
 *   that came back truncated);
 * - `clarification`: other orders are in play and the message does not pick the target;
 * - `unplaced`: the target is not an order the conversation has in play at all (nobody named or read it), or
 *   it is the only one but the list may be incomplete.
 */
export type GuardDecision = "single_order" | "identified" | "clarification" | "unplaced";

export interface AmbiguityInput {
  targetOrderId: string;
  /** Orders the principal named or a read returned, in the order they came up. */
  ordersInPlay: readonly string[];
  /** The principal's latest message, read once for the turn (guard/message.ts). */
  latestMessage: PrincipalMessage;
  /** A search came back truncated: the orders in play may not be all there are. */
  incomplete?: boolean;
  /** Fragments the principal wrote that their own search resolved, to the orders it returned. */
  resolvedFragments?: Readonly<Record<string, readonly string[]>>;
  /** Orders the principal named by full id in the conversation: "the 456 one" may then pick SU-40456. */
  namedOrders?: readonly string[];
}

const digitsOf = (orderId: string) => orderId.replace(/^SU-/, "");

export function ambiguityGuard(input: AmbiguityInput): GuardDecision {
  const { targetOrderId: target, ordersInPlay, latestMessage } = input;
  const refs = latestMessage.orderReferences;
  const others = ordersInPlay.filter((id) => id !== target);
  const excluded = refs.some((r) => r.excluded && (r.kind === "id" ? r.ref === target : digitsOf(target).includes(r.ref)));
  if (!excluded) {
    if (refs.some((r) => r.kind === "id" && !r.excluded && r.ref === target)) return "identified";
    for (const r of refs) {
      if (r.kind !== "fragment" || r.excluded || !digitsOf(target).includes(r.ref)) continue;
      if (others.some((id) => digitsOf(id).includes(r.ref))) continue;
      const resolved = input.resolvedFragments?.[r.ref];
      const named = (input.namedOrders ?? []).filter((id) => digitsOf(id).includes(r.ref));
      if (r.cued || (resolved?.length === 1 && resolved[0] === target) || (named.length === 1 && named[0] === target)) return "identified";
    }
  }
  // An order nobody named or read is no candidate: asking "which one?" would offer the model's own pick.
  if (!ordersInPlay.includes(target)) return "unplaced";
  if (others.length > 0) return "clarification";
  if (input.incomplete || excluded) return "unplaced";
  return "single_order";
}

/** Order ids a text names: SU-12345 in any spacing, hyphen or width. */
export function orderIdsMentioned(text: string): string[] {
  return [
    ...new Set(
      orderReferences(text)
        .filter((r) => r.kind === "id")
        .map((r) => r.ref),
    ),
  ];
}
