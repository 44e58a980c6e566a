import type { SellerType } from "#core/order";

/** A seller is active, or suspended: a suspended seller's orders can still be returned, not replaced. */
export const sellerStatuses = ["active", "suspended"] as const;

export interface Seller {
  id: string;
  name: string;
  type: SellerType;
  status: (typeof sellerStatuses)[number];
}

export interface ReturnPolicy {
  ref: string;
  returnWindowDays: number;
}

/** The built-in defaults by seller type (contract §5); a fixture may override them by listing the same refs. */
export const defaultPolicies: Record<SellerType, ReturnPolicy> = {
  sundry: { ref: "sundry/standard", returnWindowDays: 30 },
  marketplace: { ref: "marketplace/default", returnWindowDays: 14 },
};

export const supplementRef = (sellerId: string) => `seller-supp/${sellerId}`;

/**
 * The policy that settles a return: the seller's own supplement if there is one, otherwise the default for
 * the seller's type (a stored override of that default wins over the built-in one).
 */
export function resolvePolicy(
  seller: Pick<Seller, "type">,
  supplement: ReturnPolicy | undefined,
  storedDefault: ReturnPolicy | undefined,
): ReturnPolicy {
  return supplement ?? storedDefault ?? defaultPolicies[seller.type];
}

/** The last day a return may start: the delivery day plus the window, as YYYY-MM-DD; null before delivery. */
export function returnableUntil(deliveredAt: string | null, returnWindowDays: number): string | null {
  if (!deliveredAt) return null;
  const day = new Date(`${deliveredAt.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + returnWindowDays);
  return day.toISOString().slice(0, 10);
}
