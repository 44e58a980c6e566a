import type { ChangePlan, ConditionParts, LinkedWrite, OrderChange, Refusal } from "#core/change";
import { dayOf } from "#core/days";
import { offerReplacementRule } from "#core/eligibility";
import { InternalError, NotEligibleError, OrderNotFoundError, OutOfStockError, SellerSuspendedError } from "#core/errors";
import {
  earliestOpenDelivery,
  offerReplacementIneligibility,
  type ReplacementRecord,
  replacedItemIdsAttribute,
  replacementsOf,
  returnedItemIdsAttribute,
  storedIds,
  unknownItems,
} from "#core/item-eligibility";
import type { Order, OrderItem } from "#core/order";
import type { ReturnPolicy } from "#core/policy";

export const replacementReasons = ["damaged", "missing", "wrong_item"] as const;

/** What offer_replacement takes, once its schema has checked it (functions/contract/compound-schemas.ts is held to this type). */
export interface OfferReplacementInput {
  operationId: string;
  orderId: string;
  expectedVersion: number;
  itemId: string;
  reason: (typeof replacementReasons)[number];
}

/** What offer_replacement needs from the store; the store implements it (functions/store/compound.ts). */
export interface ReplacementStore {
  /** The return policy that applies to the seller's orders: a replacement is claimed within the same window. */
  policyOf(sellerId: string): Promise<ReturnPolicy>;
  /** A check, in the transaction, that the seller is active. */
  sellerIsActive(sellerId: string): LinkedWrite["write"];
  /** The write that reserves stock, on condition that enough is available. */
  reserveStock(sku: string, quantity: number): LinkedWrite["write"];
}

/**
 * offer_replacement — the owner (or support) has a faulty delivered item replaced in one step: stock check,
 * reservation and order amendment, all or nothing in one transaction.
 * Input: orderId, expectedVersion, itemId, reason (damaged, missing, wrong_item). Output: the replacement
 * (itemId, replacementItemId, sku) and the order's new version.
 * Primary course: the order is delivered, at expectedVersion, within the policy window, the item is on it,
 * neither replaced nor being returned, the seller is active and the item's SKU has its quantity in stock →
 * the stock goes down by that quantity, and the order gets a replacement record, which every read of it shows as
 * a replacement line (a new item at no charge).
 * Alternatives: seller suspended → SELLER_SUSPENDED (start_return still works); not enough stock →
 * OUT_OF_STOCK; a replacement line → REPLACEMENT_LINE (a person handles it); replaced before → ITEM_ALREADY_REPLACED; being returned → ITEM_ALREADY_RETURNED; not on the
 * order → UNKNOWN_ITEM; not delivered → NOT_DELIVERED (cancelled → ALREADY_CANCELLED); window over →
 * RETURN_WINDOW_CLOSED; stale expectedVersion → VERSION_CONFLICT; not the caller's → ORDER_NOT_FOUND.
 */
export function offerReplacement(input: OfferReplacementInput, store: ReplacementStore): OrderChange {
  return {
    orderId: input.orderId,
    expectedVersion: input.expectedVersion,
    // The seller to check and the item's SKU come from the order, so it is read although the version is given.
    readsOrder: true,
    rule: offerReplacementRule,
    capped: true,
    async plan({ now, order }): Promise<ChangePlan | Refusal> {
      if (!order) return { refusal: new OrderNotFoundError(input.orderId) };
      const today = dayOf(now);
      const policy = await store.policyOf(order.sellerId);
      const explain = (current: Order) => {
        const ineligible = offerReplacementIneligibility(current, input.itemId, policy, today);
        return ineligible && new NotEligibleError(ineligible.message, ineligible.reason, current.status);
      };
      // The order's own lines are written once, and a replacement line exists only as a record in the order's state,
      // which the write holds to the version it read: a line that is not a replacement line at the read is none at the
      // write. The rules a change in between could break are conditions of the write all the same.
      const conditions = (p: ConditionParts) => [
        `${p.name("deliveredAt")} >= ${p.value(earliestOpenDelivery(policy, today))}`,
        `NOT contains(${p.name(replacedItemIdsAttribute)}, ${p.value(input.itemId)})`,
        `NOT contains(${p.name(returnedItemIdsAttribute)}, ${p.value(input.itemId)})`,
      ];
      const item = order.items.find((line) => line.itemId === input.itemId);
      if (!item) {
        const unknown = unknownItems(order, [input.itemId]);
        return {
          refusal: new NotEligibleError(
            unknown?.message ?? `Order ${input.orderId} has no item ${input.itemId}.`,
            "UNKNOWN_ITEM",
            order.status,
          ),
          conditions,
          explain,
        };
      }
      const ineligible = explain(order);
      if (ineligible) return { refusal: ineligible, conditions, explain };

      const replacementItemId = nextItemId(order);
      const record: ReplacementRecord = {
        itemId: item.itemId,
        replacementItemId,
        sku: item.sku,
        reason: input.reason,
        createdAt: now.toISOString(),
      };
      return {
        // Whole lists from the read: the write is conditioned on the version it was read at. The replacement line
        // itself is made from the record wherever the order is read (`linesOf`), never stored.
        set: {
          replacements: [...replacementsOf(order), record],
          [replacedItemIdsAttribute]: [...storedIds(order, replacedItemIdsAttribute), item.itemId],
        },
        conditions,
        explain,
        activity: {
          summary: `Replacement ${replacementItemId} for ${item.itemId} reserved (${item.quantity} × ${item.sku})`,
          itemId: item.itemId,
          replacementItemId,
          sku: item.sku,
          quantity: item.quantity,
          reason: input.reason,
        },
        // A suspended seller is the first thing to say: with it, stock would not help.
        linkedWrites: [
          { write: store.sellerIsActive(order.sellerId), explain: (seller) => sellerSuspended(order, item, seller) },
          { write: store.reserveStock(item.sku, item.quantity), explain: (stock) => outOfStock(order, item, stock) },
        ],
        result: { replacement: { itemId: item.itemId, replacementItemId, sku: item.sku } },
      };
    },
  };
}

/** The next free ITM- number on the order (lines are only ever appended). */
export function nextItemId(order: Pick<Order, "items">): string {
  const highest = Math.max(0, ...order.items.map((i) => Number(/^ITM-(\d+)$/.exec(i.itemId)?.[1] ?? 0)));
  return `ITM-${highest + 1}`;
}

function sellerSuspended(order: Order, item: OrderItem, seller: Record<string, unknown> | undefined): SellerSuspendedError {
  if (!seller) {
    throw new InternalError(
      `The seller of order ${order.orderId} is not on record, so no replacement could be reserved; nothing was changed. Retry later.`,
      { cause: { sellerId: order.sellerId } },
    );
  }
  // The seller's id is a detail of the error body (contract §3); the message names the seller as a person would.
  const name = typeof seller.name === "string" ? seller.name : "The seller";
  return new SellerSuspendedError(
    `${name}, the seller of order ${order.orderId}, is suspended, so it cannot send a replacement for ${item.itemId}. start_return still works for this order: it books a carrier pickup and takes ${item.itemId} back.`,
    { sellerId: order.sellerId },
  );
}

/** Says that the stock is short, never how much there is: stock levels are the business's, not the caller's. */
function outOfStock(order: Order, item: OrderItem, _stock: Record<string, unknown> | undefined): OutOfStockError {
  return new OutOfStockError(
    `${item.sku} is out of stock for the ${item.quantity} ${item.quantity === 1 ? "unit" : "units"} that replacing ${item.itemId} on order ${order.orderId} needs, so no replacement can be reserved now. start_return can take ${item.itemId} back instead, or try offer_replacement again later with a new operationId.`,
    { sku: item.sku },
  );
}
