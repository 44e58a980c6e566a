import { addDays, dayOf, daysBetween } from "#core/days";
import { type ChangeToolName, changeRules, type OrderFacts, type StatusRule } from "#core/eligibility";
import { InternalError, OrderNotFoundError } from "#core/errors";
import { type ReturnRecord, returnsOf as storedReturns } from "#core/item-eligibility";
import type { Charge, Delivery, NoteAuthor, Order, OrderItem, OrderStatus, SellerType } from "#core/order";
import { type ReturnPolicy, returnableUntil, type Seller } from "#core/policy";
import { mayAccessOrder, type Principal, scopes, sellerTools } from "#core/principal";

/** What get_order takes, once its schema has checked it (functions/contract/read-schemas.ts is held to these types). */
export interface GetOrderInput {
  orderId: string;
}

/** An item's product description, marked with who wrote it and whether anyone at Sundry vouched for it. */
export type ItemDescription =
  | { origin: "seller"; sellerId: string; reviewed: boolean; text: string }
  | { origin: "sundry"; reviewed: boolean; text: string };

export const trackingStatuses = ["awaiting_dispatch", "in_transit", "delivered", "cancelled"] as const;

/** Carrier tracking, or why there is none. */
export type Tracking =
  | { available: true; status: (typeof trackingStatuses)[number]; lastScanAt: string | null }
  | { available: false; code: "TRACKING_EXPIRED"; message: string };

/** A return started on an order: get_order returns it exactly as start_return stored it. */
export type OrderReturn = ReturnRecord;

/** What get_order answers (contract §5): built from an allow-list, nothing from `internal` or the store. */
export interface GetOrderOutput {
  orderId: string;
  status: OrderStatus;
  version: number;
  placedAt: string;
  deliveredAt: string | null;
  seller: { id: string; name: string; type: SellerType; status: "active" | "suspended" };
  policy: { ref: string; returnWindowDays: number; returnableUntil: string | null };
  items: { itemId: string; title: string; quantity: number; unitCents: number; description: ItemDescription }[];
  charges: { kind: Charge["kind"]; cents: number }[];
  totalCents: number;
  currency: string;
  delivery: {
    carrier: Delivery["carrier"];
    trackingId: string | null;
    tracking: Tracking;
    /** The delivery note, marked with who wrote it: the customer, or support on their behalf. */
    note: { origin: NoteAuthor; text: string } | null;
  };
  returns: OrderReturn[];
  allowedActions: ChangeToolName[];
}

/** A seller with the return policy that applies to its orders, already resolved. */
export interface SellerAndPolicy {
  seller: Seller;
  policy: ReturnPolicy;
}

/** What get_order reads; the store implements it (one GetItem, and the seller from a bounded cache). */
export interface OrderReader {
  order(orderId: string): Promise<Order | undefined>;
  sellerWithPolicy(sellerId: string): Promise<SellerAndPolicy | undefined>;
}

/** The carrier keeps scan history this many days after delivery. */
export const carrierScanHistoryDays = 90;

/**
 * get_order — what is actually on this order, in one call: order, items, charges, seller, delivery and the
 * resolved return policy, trimmed to what a person handling the order uses.
 * Input: orderId. Output: contract §5's 14 fields, built from an allow-list (nothing from `internal` or the store).
 * Primary course: the caller may see the order → it is read with its seller and policy and shaped.
 * Alternatives: no such order, or one the caller may not see → ORDER_NOT_FOUND, the same either way; the
 * order's seller is missing → INTERNAL (a data fault, logged).
 */
export async function getOrder(reader: OrderReader, input: GetOrderInput, principal: Principal, now: Date): Promise<GetOrderOutput> {
  const order = await reader.order(input.orderId);
  if (!order || !mayAccessOrder(principal, order)) throw new OrderNotFoundError(input.orderId, principal.kind);
  const seller = await reader.sellerWithPolicy(order.sellerId);
  if (!seller)
    throw new InternalError(
      `Order ${input.orderId} names seller ${order.sellerId}, which is not on record. Retry later; the order's data needs repair.`,
    );
  return orderView(order, seller, principal, now);
}

/** The order as get_order returns it. Every field is named here: anything else the store holds stays behind. */
export function orderView(order: Order, { seller, policy }: SellerAndPolicy, principal: Principal, now: Date): GetOrderOutput {
  return {
    orderId: order.orderId,
    status: order.status,
    version: order.version,
    placedAt: order.placedAt,
    deliveredAt: order.deliveredAt ?? null,
    seller: { id: seller.id, name: seller.name, type: seller.type, status: seller.status },
    policy: {
      ref: policy.ref,
      returnWindowDays: policy.returnWindowDays,
      returnableUntil: returnableUntil(order.deliveredAt ?? null, policy.returnWindowDays),
    },
    items: order.items.map((item) => ({
      itemId: item.itemId,
      title: item.title,
      quantity: item.quantity,
      unitCents: item.unitCents,
      description: describedBy(item, seller),
    })),
    charges: order.charges.map((charge) => ({ kind: charge.kind, cents: charge.cents })),
    totalCents: totalCents(order),
    currency: order.currency,
    delivery: {
      carrier: order.delivery.carrier,
      trackingId: order.delivery.trackingId ?? null,
      tracking: trackingOf(order, now),
      note: typeof order.deliveryNote === "string" ? { origin: order.deliveryNoteBy ?? "customer", text: order.deliveryNote } : null,
    },
    returns: returnsOf(order),
    allowedActions: allowedActions({ order, seller, policy, today: dayOf(now) }, principal),
  };
}

export function totalCents(order: { charges: readonly { cents: number }[] }): number {
  return order.charges.reduce((sum, charge) => sum + charge.cents, 0);
}

/**
 * A description wrapped with its provenance. On a marketplace order the seller wrote it and nobody at Sundry
 * reviewed it unless the item says so; Sundry's own descriptions count as reviewed unless the item says not.
 * The text is passed on verbatim: the wrapper marks the boundary, it does not clean the content.
 */
export function describedBy(
  item: Pick<OrderItem, "description" | "descriptionReviewed">,
  seller: Pick<Seller, "id" | "type">,
): ItemDescription {
  const text = typeof item.description === "string" ? item.description : "";
  return seller.type === "marketplace"
    ? { origin: "seller", sellerId: seller.id, reviewed: item.descriptionReviewed ?? false, text }
    : { origin: "sundry", reviewed: item.descriptionReviewed ?? true, text };
}

/**
 * Tracking as the carrier would report it. There is no carrier API behind this service: the state is derived
 * from the order's status, and the last scan from deliveredAt (delivered) or updatedAt (shipped, the last
 * change an order sees before delivery).
 *
 * The carrier keeps scan history for 90 days: a delivery on day D is trackable through day D + 90 inclusive
 * (UTC days) and expired from D + 91 on. Equivalently, deliveries on or after today − 90 can still be tracked.
 */
export function trackingOf(order: Pick<Order, "status" | "deliveredAt"> & { updatedAt?: unknown }, now: Date): Tracking {
  const today = dayOf(now);
  switch (order.status) {
    case "delivered": {
      const deliveredAt = order.deliveredAt;
      if (!deliveredAt) return { available: true, status: "delivered", lastScanAt: null };
      const delivered = dayOf(deliveredAt);
      if (today > addDays(delivered, carrierScanHistoryDays)) {
        return {
          available: false,
          code: "TRACKING_EXPIRED",
          message: `The carrier keeps scan history for ${carrierScanHistoryDays} days, and this order was delivered on ${delivered}, ${daysBetween(delivered, today)} days ago. Only deliveries on or after ${addDays(today, -carrierScanHistoryDays)} can still be tracked; for this one, deliveredAt is the last record.`,
        };
      }
      return { available: true, status: "delivered", lastScanAt: deliveredAt };
    }
    case "shipped":
      return { available: true, status: "in_transit", lastScanAt: typeof order.updatedAt === "string" ? order.updatedAt : null };
    case "cancelled":
      // Cancelling is refused once an order has shipped, so the carrier never had a cancelled order.
      return { available: true, status: "cancelled", lastScanAt: null };
    default:
      return { available: true, status: "awaiting_dispatch", lastScanAt: null };
  }
}

/** The returns start_return stored on the order, each trimmed to the fields a caller uses. */
export function returnsOf(order: Order): OrderReturn[] {
  return storedReturns(order).map((r) => ({
    returnId: r.returnId,
    itemIds: [...r.itemIds],
    labelRef: r.labelRef,
    pickup: { date: r.pickup.date, window: r.pickup.window },
    reason: r.reason,
    createdAt: r.createdAt,
  }));
}

/**
 * The changing tools this caller could use on this order now: those whose rule (the one the tool's write is
 * conditioned on) admits the order's status and anything else the rule judges from what was read. A token
 * without orders:write can use none of them, and a seller only the ones a seller may use (returns, replacements).
 */
export function allowedActions(facts: OrderFacts, principal: Principal, rules: Record<string, StatusRule> = changeRules): ChangeToolName[] {
  if (!principal.scopes.has(scopes.write) || !mayAccessOrder(principal, facts.order)) return [];
  return Object.entries(rules)
    .filter(([tool]) => principal.kind !== "seller" || sellerTools.has(tool))
    .filter(([, rule]) => rule.allowedStatuses.includes(facts.order.status) && (rule.admits?.(facts) ?? true))
    .map(([tool]) => tool as ChangeToolName);
}
