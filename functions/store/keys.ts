/**
 * Key formats of every entity in the orders table. Each entity owns its format here; nothing else
 * builds a PK or SK by hand.
 */

import { idDigitsIndexes, ordersTable, previousOrderIndexes, sellerIndexes } from "#store/table-design";

export interface ItemKey {
  PK: string;
  SK: string;
}

/**
 * An order is two items in its own partition (functions/store/order-items.ts): its state, which every change
 * writes, under the key the order has always had, and its content, written once, under a sort key that begins the
 * same way, so that one Query (`begins_with(SK, "ORDER")`) reads both and nothing else of the partition.
 */
export const orderKey = (orderId: string): ItemKey => ({ PK: `ORDER#${orderId}`, SK: "ORDER" });
export const orderContentKey = (orderId: string): ItemKey => ({ PK: orderKey(orderId).PK, SK: "ORDER#CONTENT" });
/** What both of an order's sort keys begin with, and no other sort key of its partition does. */
export const orderSortKeyPrefix = "ORDER";
export const customerKey = (customerId: string): ItemKey => ({ PK: `CUSTOMER#${customerId}`, SK: "CUSTOMER" });
export const sellerKey = (sellerId: string): ItemKey => ({ PK: `SELLER#${sellerId}`, SK: "SELLER" });
export const policyKey = (ref: string): ItemKey => ({ PK: `POLICY#${ref}`, SK: "POLICY" });
export const stockKey = (sku: string): ItemKey => ({ PK: `STOCK#${sku}`, SK: "STOCK" });

/** A customer's recent changes, counted against the hourly cap. */
export const rateKey = (customerId: string): ItemKey => ({ PK: `RATE#${customerId}`, SK: "RATE" });

/** A support actor's recent changes, counted against the support cap (`sub` is the staff identity). */
export const supportRateKey = (sub: string): ItemKey => ({ PK: `RATE#SUPPORT#${sub}`, SK: "RATE" });

/**
 * A seller actor's recent changes, counted against the seller cap: one allowance per seller and `sub`. The seller
 * id has no '#', so the key splits unambiguously even if a `sub` contains one.
 */
export const sellerRateKey = (sellerId: string, sub: string): ItemKey => ({ PK: `RATE#SELLER#${sellerId}#${sub}`, SK: "RATE" });

/** A principal's requests in one minute, counted against the request budget; the SK is the minute (UTC). */
export const budgetKey = (sub: string, minute: string): ItemKey => ({ PK: `BUDGET#${sub}`, SK: minute });

/**
 * The previous layout's activity entries: one per committed order version, under the order's own partition, the
 * version padded so the entries sort in commit order. Changes no longer write them (the operation record of a
 * change holds its entry, functions/store/operations.ts); those already written stay, linked into the order's
 * history by the layout migration (lib/layout-migration.ts).
 */
export const activityPrefix = "ACTIVITY#";
export const activityKey = (orderId: string, version: number): ItemKey => ({
  PK: orderKey(orderId).PK,
  SK: `${activityPrefix}${String(version).padStart(10, "0")}`,
});

/** All pickup slots share one partition, sorted by date, so one Query finds the next dates with capacity. */
export const pickupSlotsPartition = "PICKUP";
export const pickupSlotKey = (date: string, window: string): ItemKey => ({ PK: pickupSlotsPartition, SK: `${date}#${window}` });

/**
 * One operation record per principal and operationId. The operationId alphabet has no '#', so the key
 * splits unambiguously even if a `sub` contains one.
 */
export const operationKey = (sub: string, operationId: string): ItemKey => ({
  PK: `OPERATION#${sub}#${operationId}`,
  SK: "OPERATION",
});

/**
 * GSI keys an order carries: the customer index (byCustomerSummary) lists a customer's orders newest first; the id-digits
 * indexes find it by any three consecutive digits of its id; the seller indexes list its seller's orders by
 * month placed and, once delivered, by month delivered. Every writer of a new order spreads these.
 */
export const orderIndexKeys = (order: {
  customerId: string;
  sellerId: string;
  placedAt: string;
  deliveredAt: string | null;
  orderId: string;
}) => ({
  GSI1PK: customerOrdersPartition(order.customerId),
  GSI1SK: `${order.placedAt}#${order.orderId}`,
  ...orderIdDigitsKeys(order.orderId),
  [sellerIndexes.placed.partitionKey]: sellerOrdersPartition(order.sellerId, "placed", monthOf(order.placedAt)),
  ...deliveredIndexKey(order),
});

/** The month (UTC, `YYYY-MM`) of a timestamp or day, as the seller indexes partition by it. */
export const monthOf = (timestamp: string) => timestamp.slice(0, 7);

/** The partition of a seller index holding that seller's orders placed (or delivered) in one month. */
export const sellerOrdersPartition = (sellerId: string, dateField: "placed" | "delivered", month: string) =>
  `SELLER#${sellerId}#${dateField.toUpperCase()}#${month}`;

/** The delivered-month key of an order: present once it is delivered, absent (the index is sparse) before. */
export const deliveredIndexKey = (order: {
  sellerId: string;
  deliveredAt: string | null;
}): Partial<Record<(typeof sellerIndexes)["delivered"]["partitionKey"], string>> =>
  order.deliveredAt
    ? { [sellerIndexes.delivered.partitionKey]: sellerOrdersPartition(order.sellerId, "delivered", monthOf(order.deliveredAt)) }
    : {};

/** The customer index partition of one customer's orders. */
export const customerOrdersPartition = (customerId: string) => `CUSTOMER#${customerId}`;

/** The partition of the id-digits indexes that holds orders with these three digits at the index's position. */
export const idDigitsPartition = (digits: string) => `DIGITS#${digits}`;

/** GSI3PK, GSI4PK, GSI5PK: the three digits at each position of the id's five (see idDigitsIndexes). */
export const orderIdDigitsKeys = (orderId: string): Record<(typeof idDigitsIndexes)[number]["partitionKey"], string> => {
  const digits = orderId.replace(/^SU-/, "");
  return Object.fromEntries(
    idDigitsIndexes.map((index) => [index.partitionKey, idDigitsPartition(digits.slice(index.firstDigit, index.firstDigit + 3))]),
  ) as Record<(typeof idDigitsIndexes)[number]["partitionKey"], string>;
};

/** The customer id in a customer item's key, as the KEYS_ONLY byEmail index returns it. */
export const customerIdOfKey = (key: { PK: string }): string => key.PK.replace(/^CUSTOMER#/, "");

export const customerIndexKeys = (customer: { email: string }) => ({
  GSI2PK: `EMAIL#${customer.email.toLowerCase()}`,
  GSI2SK: "CUSTOMER",
});

/**
 * The links of an order's history (functions/store/operations.ts): its state item names the item of its last change
 * (`lastChange`), and each change's item the one before it (`previous`), each as that item's key.
 */
export const historyLinks = { last: "lastChange", previous: "previous" } as const;

/**
 * Attributes the store keeps for itself, never part of a domain object: the table's and every index's keys
 * (derived from the table design, so a new index cannot leak), the entity tag, the TTL, the history's links, the
 * search summary an order's state item carries for the indexes (`orderSummaryAttributes`' own two) and the version
 * of its content (`contentVersion`, functions/store/order-items.ts).
 */
export const storeAttributes: readonly string[] = [
  ...new Set([
    ordersTable.partitionKey,
    ordersTable.sortKey,
    ...[...ordersTable.indexes, ...previousOrderIndexes].flatMap((index) => [
      index.partitionKey,
      ...(index.sortKey ? [index.sortKey] : []),
    ]),
    "entity",
    ordersTable.timeToLiveAttribute,
    historyLinks.last,
    historyLinks.previous,
    "itemTitles",
    "totalCents",
    "contentVersion",
  ]),
];

export function withoutStoreAttributes<T extends Record<string, unknown>>(item: T): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...item };
  for (const attribute of storeAttributes) delete copy[attribute];
  return copy;
}
