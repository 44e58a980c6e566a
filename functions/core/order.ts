/** The order as the domain sees it: what the store holds, minus the store's own keys. */

export const orderStatuses = ["placed", "processing", "dispatching", "shipped", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const sellerTypes = ["sundry", "marketplace"] as const;
export type SellerType = (typeof sellerTypes)[number];

export interface OrderItem {
  itemId: string;
  sku: string;
  title: string;
  quantity: number;
  unitCents: number;
  description: string;
  /** Whether someone at Sundry reviewed a seller-written description. */
  descriptionReviewed?: boolean;
}

export interface Charge {
  kind: string;
  cents: number;
}

export interface Delivery {
  carrier: string;
  trackingId: string | null;
}

export interface ActivityEntry {
  at: string;
  tool: string;
  operationId: string;
  actor: { kind: "customer" | "seller" | "support"; sub: string; customerId?: string; sellerId?: string };
  summary: string;
  [key: string]: unknown;
}

export interface Order {
  orderId: string;
  customerId: string;
  sellerId: string;
  status: OrderStatus;
  version: number;
  placedAt: string;
  deliveredAt: string | null;
  currency: string;
  items: OrderItem[];
  charges: Charge[];
  delivery: Delivery;
  deliveryNote: string | null;
  activity: ActivityEntry[];
  internal: Record<string, unknown>;
  [key: string]: unknown;
}

/** An order id: SU- and five digits. The schemas, the fixture and the eval's cases all check with this one. */
export const orderIdPattern = /^SU-\d{5}$/;
