import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { LinkedWrite } from "#core/change";
import { InternalError } from "#core/errors";
import type { ReplacementStore } from "#core/offer-replacement";
import type { ReturnPolicy } from "#core/policy";
import type { PickupSlot, ReturnStore } from "#core/start-return";
import type { StoreDeps } from "#store/client";
import { pickupSlotKey, pickupSlotsPartition, sellerKey, stockKey } from "#store/keys";
import { sellerWithPolicy } from "#store/sellers";

/**
 * The store side of the compound actions: the reads their plans make (policy, pickup slots) and the
 * conditional writes on items other than the order (pickup slot, stock, seller) that join the order's
 * transaction as linked writes.
 */

/** The order's seller's resolved policy, from sellerWithPolicy's cache (a policy change may lag by up to 60 s). */
async function policyOf(deps: StoreDeps, sellerId: string): Promise<ReturnPolicy> {
  const found = await sellerWithPolicy(deps, sellerId);
  if (!found)
    throw new InternalError("The order's seller is not on record, so its return policy is unknown. Nothing was changed; retry later.", {
      cause: { sellerId },
    });
  return found.policy;
}

/**
 * Every slot from `firstDay` on with capacity left, earliest first, in one strongly consistent Query of the
 * slots' partition (SK = <date>#<window> sorts by day, then window). Full slots are filtered out by DynamoDB.
 * Only the first page is used: it holds the earliest slots, and thousands of them, more than anyone books ahead.
 */
export async function openPickupSlots(deps: StoreDeps, firstDay: string): Promise<PickupSlot[]> {
  const { Items = [] } = await deps.doc.send(
    new QueryCommand({
      TableName: deps.tables.orders,
      KeyConditionExpression: "PK = :pk AND SK >= :from",
      FilterExpression: "#capacity > :none",
      ExpressionAttributeNames: { "#capacity": "capacity" },
      ExpressionAttributeValues: { ":pk": pickupSlotsPartition, ":from": firstDay, ":none": 0 },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => ({ date: String(item.date), window: String(item.window), capacity: Number(item.capacity) }));
}

/** Takes one unit of a slot's capacity; the condition keeps it from going below zero (or the slot from being invented). */
export function takePickupSlot(slot: PickupSlot): LinkedWrite["write"] {
  return {
    kind: "update",
    key: { ...pickupSlotKey(slot.date, slot.window) },
    update: "SET #capacity = #capacity - :one",
    condition: "#capacity >= :one",
    names: { "#capacity": "capacity" },
    values: { ":one": 1 },
  };
}

/** Reserves `quantity` units of a SKU: the count goes down only while that many are available. */
export function reserveStock(sku: string, quantity: number): LinkedWrite["write"] {
  return {
    kind: "update",
    key: { ...stockKey(sku) },
    update: "SET #available = #available - :quantity",
    condition: "#available >= :quantity",
    names: { "#available": "available" },
    values: { ":quantity": quantity },
  };
}

/** The seller is active at the moment of the write (read live, never from the seller cache). */
export function sellerIsActive(sellerId: string): LinkedWrite["write"] {
  return {
    kind: "conditionCheck",
    key: { ...sellerKey(sellerId) },
    condition: "#status = :active",
    names: { "#status": "status" },
    values: { ":active": "active" },
  };
}

export function returnStore(deps: StoreDeps): ReturnStore {
  return {
    policyOf: (sellerId) => policyOf(deps, sellerId),
    openPickupSlots: (firstDay) => openPickupSlots(deps, firstDay),
    takePickupSlot,
  };
}

export function replacementStore(deps: StoreDeps): ReplacementStore {
  return {
    policyOf: (sellerId) => policyOf(deps, sellerId),
    sellerIsActive,
    reserveStock,
  };
}
