/**
 * Key formats of every entity in the orders table. Each entity owns its format here; nothing else
 * builds a PK or SK by hand.
 */

export interface ItemKey {
  PK: string;
  SK: string;
}

export const orderKey = (orderId: string): ItemKey => ({ PK: `ORDER#${orderId}`, SK: "ORDER" });
export const customerKey = (customerId: string): ItemKey => ({ PK: `CUSTOMER#${customerId}`, SK: "CUSTOMER" });
export const sellerKey = (sellerId: string): ItemKey => ({ PK: `SELLER#${sellerId}`, SK: "SELLER" });
export const policyKey = (ref: string): ItemKey => ({ PK: `POLICY#${ref}`, SK: "POLICY" });
export const stockKey = (sku: string): ItemKey => ({ PK: `STOCK#${sku}`, SK: "STOCK" });

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

/** GSI keys an order carries: the byCustomer index lists a customer's orders newest first. */
export const orderIndexKeys = (order: { customerId: string; placedAt: string; orderId: string }) => ({
  GSI1PK: `CUSTOMER#${order.customerId}`,
  GSI1SK: `${order.placedAt}#${order.orderId}`,
});

export const customerIndexKeys = (customer: { email: string }) => ({
  GSI2PK: `EMAIL#${customer.email.toLowerCase()}`,
  GSI2SK: "CUSTOMER",
});

/** Attributes the store keeps for itself; never part of a domain object. */
export const storeAttributes = ["PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "entity", "expiresAt"] as const;

export function withoutStoreAttributes<T extends Record<string, unknown>>(item: T): Omit<T, (typeof storeAttributes)[number]> {
  const copy: Record<string, unknown> = { ...item };
  for (const attribute of storeAttributes) delete copy[attribute];
  return copy as Omit<T, (typeof storeAttributes)[number]>;
}
