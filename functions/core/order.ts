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

/**
 * What a charge is for, the carriers the shop ships with and the shape of their tracking ids: closed sets the
 * service checks where an order enters, so none of these fields can carry text (contract §6). A controller reads
 * them as values, never as words someone wrote (contract §8.5).
 */
export const chargeKinds = ["item", "delivery"] as const;
export const carriers = ["Parcelline", "Swiftpost", "Northway Couriers"] as const;
export const trackingIdPattern = /^[A-Z0-9][A-Z0-9-]{1,39}$/;

export interface Charge {
  kind: (typeof chargeKinds)[number];
  cents: number;
}

export interface Delivery {
  carrier: (typeof carriers)[number];
  trackingId: string | null;
}

/** Who may write an order's delivery note: its customer, or support on their behalf. */
export const noteAuthors = ["customer", "support"] as const;
export type NoteAuthor = (typeof noteAuthors)[number];

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
  /** Who wrote the delivery note; absent for a note written before this was kept, which was the customer's. */
  deliveryNoteBy?: NoteAuthor;
  activity: ActivityEntry[];
  internal: Record<string, unknown>;
  [key: string]: unknown;
}

/** An order id: SU- and five digits. The schemas, the fixture and the eval's cases all check with this one. */
export const orderIdPattern = /^SU-\d{5}$/;
