import { addDays, dayOf } from "#core/days";
import type { NotEligibleReason } from "#core/errors";
import { type Order, type OrderItem, withinSellerLimit } from "#core/order";
import { type ReturnPolicy, returnableUntil } from "#core/policy";

/**
 * The item-level rules of start_return and offer_replacement, as pure functions of the order as stored.
 * The use cases explain a refused write with them, and get_order's allowedActions asks the same functions
 * (through the rules in eligibility.ts), so what is offered and what is refused cannot drift apart.
 * The writes themselves state each rule as a condition; these functions only say why one failed.
 */

export interface Ineligibility {
  reason: NotEligibleReason;
  message: string;
}

/** A return as start_return stores it on the order (`returns`); get_order reads exactly this shape. */
export interface ReturnRecord {
  returnId: string;
  itemIds: string[];
  labelRef: string;
  pickup: { date: string; window: string };
  reason: string;
  createdAt: string;
}

/** A replacement as offer_replacement stores it on the order (`replacements`). */
export interface ReplacementRecord {
  itemId: string;
  replacementItemId: string;
  sku: string;
  reason: string;
  createdAt: string;
}

export function returnsOf(order: Record<string, unknown>): ReturnRecord[] {
  return Array.isArray(order.returns) ? (order.returns as ReturnRecord[]) : [];
}

export function replacementsOf(order: Record<string, unknown>): ReplacementRecord[] {
  return Array.isArray(order.replacements) ? (order.replacements as ReplacementRecord[]) : [];
}

/**
 * Flat lists of the item ids already returned / replaced, kept on the order beside the records so a write can
 * state "not yet returned" as `NOT contains(returnedItemIds, :itemId)`.
 */
export const returnedItemIdsAttribute = "returnedItemIds";
export const replacedItemIdsAttribute = "replacedItemIds";

export function storedIds(order: Record<string, unknown>, attribute: string): string[] {
  const value = order[attribute];
  return Array.isArray(value) ? (value as string[]) : [];
}

/** The order's return window as of `today` (YYYY-MM-DD, UTC) under the resolved policy. */
export interface ReturnWindow {
  policyRef: string;
  days: number;
  deliveredOn: string | null;
  /** The last day a return may start; null before delivery. */
  until: string | null;
  open: boolean;
}

export function returnWindow(order: Pick<Order, "deliveredAt">, policy: ReturnPolicy, today: string): ReturnWindow {
  const until = returnableUntil(order.deliveredAt ?? null, policy.returnWindowDays);
  return {
    policyRef: policy.ref,
    days: policy.returnWindowDays,
    deliveredOn: order.deliveredAt ? dayOf(order.deliveredAt) : null,
    until,
    open: until !== null && today <= until,
  };
}

/**
 * The earliest delivery day whose window is still open today: the write conditions `deliveredAt ≥` this.
 * deliveredOn + days ≥ today ⇔ deliveredOn ≥ today − days, and a timestamp compares ≥ its own day as a string.
 */
export function earliestOpenDelivery(policy: ReturnPolicy, today: string): string {
  return addDays(today, -policy.returnWindowDays);
}

const list = (ids: readonly string[]) => (ids.length <= 1 ? (ids[0] ?? "") : `${ids.slice(0, -1).join(", ")} and ${ids[ids.length - 1]}`);
const describeItem = (item: OrderItem) => `${item.itemId} (${item.title})`;

/** The attribute that marks a replacement line (a line that replaces another) and names the line it replaces. */
export const replacementForAttribute = "replacementFor";

/** Whether a line was added by offer_replacement: such a line is neither replaced nor returned through the tools. */
export function isReplacementLine(item: OrderItem): boolean {
  return typeof (item as OrderItem & { [replacementForAttribute]?: unknown })[replacementForAttribute] === "string";
}

/**
 * The line a replacement adds to the order: the same product and quantity as the line it replaces, as a new line at
 * no charge, so every view of the order's items shows what is on its way. `replacementFor` links it to that line.
 * It is made from the replacement record and never stored: the order's own lines are written once, and a
 * replacement adds only its record to the order's state.
 */
export function replacementLineOf(original: OrderItem, record: ReplacementRecord): OrderItem & { replacementFor: string } {
  return {
    itemId: record.replacementItemId,
    sku: original.sku,
    // Within the bound a seller's title has (contract §6): the title is the seller's words, the prefix ours.
    title: withinSellerLimit("itemTitle", `Replacement for ${original.itemId}: `, original.title),
    quantity: original.quantity,
    unitCents: 0,
    description: original.description,
    ...(original.descriptionReviewed !== undefined ? { descriptionReviewed: original.descriptionReviewed } : {}),
    replacementFor: original.itemId,
  };
}

/**
 * The order's lines: its own, then one per replacement in the order they were made. Lines a store kept with the
 * order before replacement lines were derived (marked `replacementFor`) are left out and made again from their
 * records, so either way each appears once.
 */
export function linesOf(items: readonly OrderItem[], replacements: readonly ReplacementRecord[]): OrderItem[] {
  const own = items.filter((item) => !isReplacementLine(item));
  const byId = new Map(own.map((item) => [item.itemId, item]));
  return [
    ...own,
    ...replacements.flatMap((record) => {
      const original = byId.get(record.itemId);
      return original ? [replacementLineOf(original, record)] : [];
    }),
  ];
}

/** Items that have not been returned and are not replacement lines: what start_return can still take. */
export function returnableItemIds(order: Pick<Order, "items"> & Record<string, unknown>): string[] {
  const returned = new Set(returnsOf(order).flatMap((r) => r.itemIds));
  return order.items
    .filter((i) => !isReplacementLine(i))
    .map((i) => i.itemId)
    .filter((id) => !returned.has(id));
}

/** Items neither replaced nor being returned: what offer_replacement can still replace. */
export function replaceableItemIds(order: Pick<Order, "items"> & Record<string, unknown>): string[] {
  const replaced = new Set(replacementsOf(order).map((r) => r.itemId));
  return returnableItemIds(order).filter((id) => !replaced.has(id));
}

/** The order is not (or never will be) delivered, so nothing on it can be returned or replaced yet. */
export function notDelivered(
  order: Order,
  itemIds: readonly string[],
  action: "returned" | "replaced",
  today: string,
): Ineligibility | undefined {
  if (order.status === "delivered") return undefined;
  const items = list(itemIds);
  if (order.status === "cancelled") {
    const cancelledAt = (order.cancellation as { at?: string } | undefined)?.at;
    return {
      reason: "ALREADY_CANCELLED",
      message: `Order ${order.orderId} was cancelled${cancelledAt ? ` on ${dayOf(cancelledAt)}` : ""} before delivery, so ${items} never arrived and cannot be ${action}; nothing more needs doing for it.`,
    };
  }
  const next =
    order.status === "shipped"
      ? `It is on its way (delivery.tracking in get_order follows it); once it is delivered, ${items} can be ${action} within the seller's return window.`
      : `If it is no longer wanted, cancel_order can still stop it; once it is delivered, ${items} can be ${action} within the seller's return window.`;
  return {
    reason: "NOT_DELIVERED",
    message: `Order ${order.orderId} is ${order.status}, not delivered (as of ${today}), so ${items} cannot be ${action} yet. ${next}`,
  };
}

/** The policy window closed before today. */
export function windowClosed(
  order: Order,
  itemIds: readonly string[],
  policy: ReturnPolicy,
  today: string,
  action: "returned" | "replaced",
): Ineligibility | undefined {
  const window = returnWindow(order, policy, today);
  if (window.open || window.until === null) return undefined;
  return {
    reason: "RETURN_WINDOW_CLOSED",
    message: `Returns for order ${order.orderId} closed on ${window.until} (${window.days}-day window from delivery on ${window.deliveredOn}, policy ${window.policyRef}), so ${list(itemIds)} can no longer be ${action}; today is ${today}. Repeating the request will not change this.`,
  };
}

/** Item ids the order does not have. */
export function unknownItems(order: Order, itemIds: readonly string[]): Ineligibility | undefined {
  const known = new Set(order.items.map((i) => i.itemId));
  const unknown = itemIds.filter((id) => !known.has(id));
  if (unknown.length === 0) return undefined;
  return {
    reason: "UNKNOWN_ITEM",
    message: `Order ${order.orderId} has no item ${list(unknown)}. Its items are ${list(order.items.map(describeItem))}; send item ids from that list.`,
  };
}

/**
 * A replacement line: offering a replacement of a replacement, or returning one, would hand out free units
 * without limit, so the tools refuse it and a person decides.
 */
export function replacementLine(order: Order, itemIds: readonly string[], action: "returned" | "replaced"): Ineligibility | undefined {
  const wanted = new Set(itemIds);
  const line = order.items.find((i) => wanted.has(i.itemId) && isReplacementLine(i)) as
    | (OrderItem & { replacementFor: string })
    | undefined;
  if (!line) return undefined;
  return {
    reason: "REPLACEMENT_LINE",
    message: `${line.itemId} on order ${order.orderId} is itself a replacement (for ${line.replacementFor}), so it cannot be ${action} through these tools; a person must handle it. Other items on the order are not affected.`,
  };
}

/** An item already being returned (each item is returned once). */
export function alreadyReturned(order: Order, itemIds: readonly string[], action: "returned" | "replaced"): Ineligibility | undefined {
  const returns = returnsOf(order);
  const wanted = new Set(itemIds);
  const first = returns.find((r) => r.itemIds.some((id) => wanted.has(id)));
  if (!first) return undefined;
  const itemId = first.itemIds.find((id) => wanted.has(id)) as string;
  const started = `${itemId} on order ${order.orderId} is already being returned: return ${first.returnId} started on ${dayOf(first.createdAt)}, with pickup on ${first.pickup.date} (${first.pickup.window})`;
  if (action === "replaced") {
    return {
      reason: "ITEM_ALREADY_RETURNED",
      message: `${started}, so it is not replaced as well. Nothing more needs doing for ${itemId}.`,
    };
  }
  const others = returnableItemIds(order).filter((id) => !wanted.has(id));
  return {
    reason: "ITEM_ALREADY_RETURNED",
    message: `${started}; an item is returned once. ${others.length ? `${list(others)} can still be returned: send itemIds without ${itemId}.` : "Nothing else on the order is left to return."}`,
  };
}

/** An item already replaced (each item is replaced once). */
export function alreadyReplaced(order: Order, itemId: string): Ineligibility | undefined {
  const replacement = replacementsOf(order).find((r) => r.itemId === itemId);
  if (!replacement) return undefined;
  return {
    reason: "ITEM_ALREADY_REPLACED",
    message: `${itemId} on order ${order.orderId} was already replaced on ${dayOf(replacement.createdAt)} by ${replacement.replacementItemId} (${replacement.sku}); an item is replaced once. start_return can still take ${itemId} back.`,
  };
}

/** Why start_return cannot take these items from this order today, in the order a caller should hear it. */
export function startReturnIneligibility(
  order: Order,
  itemIds: readonly string[],
  policy: ReturnPolicy,
  today: string,
): Ineligibility | undefined {
  return (
    notDelivered(order, itemIds, "returned", today) ??
    windowClosed(order, itemIds, policy, today, "returned") ??
    unknownItems(order, itemIds) ??
    replacementLine(order, itemIds, "returned") ??
    alreadyReturned(order, itemIds, "returned")
  );
}

/** Why offer_replacement cannot replace this item today (stock and the seller are judged by their own writes). */
export function offerReplacementIneligibility(
  order: Order,
  itemId: string,
  policy: ReturnPolicy,
  today: string,
): Ineligibility | undefined {
  return (
    notDelivered(order, [itemId], "replaced", today) ??
    windowClosed(order, [itemId], policy, today, "replaced") ??
    unknownItems(order, [itemId]) ??
    replacementLine(order, [itemId], "replaced") ??
    alreadyReplaced(order, itemId) ??
    alreadyReturned(order, [itemId], "replaced")
  );
}
