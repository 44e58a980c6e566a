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
 * What a charge is for and the carriers the shop ships with are the order system's, and a deployment's
 * configuration (contract §6, docs/deploy.md): these are the defaults, the sets the seeder checks when nothing
 * else is configured. The read path answers whatever the order system stored, as text (contract §5); a controller
 * reads only these listed values as the shop's own and any other as someone else's words (contract §8.5).
 * A tracking id is the carrier's: the seeder checks its shape, and nothing reads it as the shop's.
 */
export const chargeKinds = ["item", "delivery"] as const;
export const carriers = ["Parcelline", "Swiftpost", "Northway Couriers"] as const;
export const trackingIdPattern = /^[A-Z0-9][A-Z0-9-]{1,39}$/;

/** The shop's sets a deployment configures. */
export interface ShopSets {
  carriers: readonly string[];
  chargeKinds: readonly string[];
}

/** The environment variables that configure them: names separated by commas. */
export const shopSetVariables = { carriers: "ORDER_TOOLS_CARRIERS", chargeKinds: "ORDER_TOOLS_CHARGE_KINDS" } as const;

/**
 * The shop's sets from the environment (`ORDER_TOOLS_CARRIERS`, `ORDER_TOOLS_CHARGE_KINDS`: names separated by
 * commas), each today's defaults when unset. A set that names nothing, or a name of more than 100 characters, is an
 * error that says what a set looks like.
 */
export function shopSetsFrom(env: Readonly<Record<string, string | undefined>>): ShopSets {
  const read = (variable: string, defaults: readonly string[]): readonly string[] => {
    const value = env[variable];
    if (value === undefined || value.trim() === "") return defaults;
    const names = value.split(",").map((n) => n.trim());
    if (names.some((n) => n === "" || n.length > 100))
      throw new Error(
        `${variable} is names separated by commas, each 1–100 characters (for example "${defaults.join(",")}"); got ${JSON.stringify(value)}.`,
      );
    return [...new Set(names)];
  };
  return { carriers: read(shopSetVariables.carriers, carriers), chargeKinds: read(shopSetVariables.chargeKinds, chargeKinds) };
}

export interface Charge {
  /** What the charge is for: one of the deployment's charge kinds, as the order system stored it. */
  kind: string;
  cents: number;
}

export interface Delivery {
  /** The carrier, as the order system stored it: one of the deployment's carriers when the seeder wrote it. */
  carrier: string;
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

/**
 * contract §6: the most characters (UTF-16 code units, as JavaScript counts a string's length) a seller's text may
 * have. A seller writes these, and every reader pays for them: the service returns them on every read, and the
 * controller and the model read them in every conversation about the order. Bounded where they enter — the fixture
 * loader, the read schemas that carry them, and the replacement line that repeats a title.
 */
export const sellerTextLimits = { sellerName: 200, itemTitle: 200, itemDescription: 2000 } as const;

export type SellerTextField = keyof typeof sellerTextLimits;

const sellerTextNames: Record<SellerTextField, string> = {
  sellerName: "A seller's name",
  itemTitle: "An item's title",
  itemDescription: "An item's description",
};

/** Why a seller's text is too long to store or return, saying the bound; undefined when it fits. */
export function sellerTextProblem(field: SellerTextField, text: string): string | undefined {
  const limit = sellerTextLimits[field];
  return text.length <= limit
    ? undefined
    : `${sellerTextNames[field]} is at most ${limit} characters; this one has ${text.length}. Shorten it to ${limit} or fewer.`;
}

/**
 * `prefix` and as much of a seller's text as fits within the field's bound, cut with "…": for a text the shop
 * writes around a seller's words (a replacement line's title), which must stay within the bound the seller's own
 * text has.
 */
export function withinSellerLimit(field: SellerTextField, prefix: string, text: string): string {
  const limit = sellerTextLimits[field];
  if (prefix.length + text.length <= limit) return `${prefix}${text}`;
  let end = Math.max(0, limit - prefix.length - 1);
  // The bound counts UTF-16 units; a cut after the first half of a surrogate pair would leave half a character.
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${prefix}${text.slice(0, end).trimEnd()}…`;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
