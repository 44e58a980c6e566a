import { createHash } from "node:crypto";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { LRUCache } from "lru-cache";
import { canonicalJson } from "#core/canonical-json";
import { linesOf, replacementsOf } from "#core/item-eligibility";
import type { Charge, Order, OrderItem } from "#core/order";
import type { StoreDeps } from "#store/client";
import {
  historyLinks,
  type ItemKey,
  orderContentKey,
  orderIndexKeys,
  orderKey,
  orderSortKeyPrefix,
  withoutStoreAttributes,
} from "#store/keys";

/**
 * How one order is stored: two items in its own partition.
 *
 * - **State** (`ORDER#<id>` / `ORDER`): what changes — status, version, updatedAt, deliveredAt, delivery, the
 *   note and who wrote it, a cancellation, returns and replacements with the item ids they took — with who may see
 *   it (customerId, sellerId), the index keys, the summary a search shows (`orderSummaryAttributes`: sellerName,
 *   itemTitles, totalCents and the rest) and the link to its last change. A change's transaction writes this item and no other
 *   of the order's, so what it pays for the order is this item's few hundred bytes, and an index entry is as small.
 * - **Content** (`ORDER#<id>` / `ORDER#CONTENT`): what does not change once the order is placed — its lines with
 *   their descriptions and the seller's text, its charges, the order system's internal fields — written once with
 *   the order. A replacement adds a record to the state, and the line it adds is made from it (`linesOf`).
 *
 * One strongly consistent Query of the partition (sort key beginning `ORDER`) reads both in one request. An order
 * still in the previous layout is one item holding everything, under the state's key and with no content item: it
 * reads the same, and the layout migration (lib/layout-migration.ts) splits it.
 *
 * **Content version.** Both items carry `contentVersion`: an order is placed with one made from its content, and the
 * layout migration gives an order it splits one made the same way (it is absent, and reads as 0, only in an order
 * split by an earlier run of the migration, before it wrote versions). Whoever rewrites an order's content (its
 * lines, charges or internal fields) raises it by one on both items in the same transaction, as local/order-writer.ts
 * does; a change never touches the content, so it never moves. An execution environment keeps the content it has
 * read, by order id and with its version (`contentCache`), so a later read of that order is one consistent GetItem of
 * the state: the cached content is used when the state names its version, and the partition is queried again when it
 * names another.
 */

/** The attributes the content item holds, and the state item never does once split. */
export const contentAttributes = ["items", "charges", "internal"] as const;

/** An order as written by whoever places it (the fixture loader, the order system): contract §6's fields. */
export type NewOrder = Pick<
  Order,
  | "orderId"
  | "customerId"
  | "sellerId"
  | "status"
  | "version"
  | "placedAt"
  | "deliveredAt"
  | "currency"
  | "items"
  | "charges"
  | "delivery"
  | "deliveryNote"
  | "deliveryNoteBy"
  | "internal"
>;

/** What an order's state item keeps for the indexes: the first three lines' titles and the total. */
export function summaryOf(lines: readonly Pick<OrderItem, "title">[], charges: readonly Pick<Charge, "cents">[]) {
  return { itemTitles: lines.slice(0, 3).map((line) => line.title), totalCents: charges.reduce((sum, charge) => sum + charge.cents, 0) };
}

/**
 * The two items of a new order. `sellerName` is denormalised for search results (the seller's status is always
 * read live).
 */
export function orderItemsOf(order: NewOrder, sellerName: string | undefined): [Record<string, unknown>, Record<string, unknown>] {
  const { items, charges, internal, ...state } = order;
  const contentVersion = placedContentVersion({ items, charges, internal });
  return [
    {
      ...orderKey(order.orderId),
      ...orderIndexKeys(order),
      entity: "order",
      ...state,
      ...(sellerName !== undefined ? { sellerName } : {}),
      ...summaryOf(items, charges),
      contentVersion,
    },
    { ...orderContentKey(order.orderId), entity: "orderContent", orderId: order.orderId, items, charges, internal, contentVersion },
  ];
}

/**
 * The content version an order is placed with (and the layout migration gives the content it splits off): a number
 * made from its content (48 bits of the SHA-256 of its JSON, keys sorted, as DynamoDB keeps no order of a map's
 * keys), so an order placed again under the same id with other lines (a fixture loaded again into a running stack)
 * names another version, and one placed again with the same lines the same one.
 */
export function placedContentVersion(content: Record<string, unknown>): number {
  return Number.parseInt(createHash("sha256").update(canonicalJson(content)).digest("hex").slice(0, 12), 16);
}

/** The order's items as stored: its state, and its content unless only the state was read. */
export interface StoredOrder {
  state: Record<string, unknown>;
  /** The content item, or for an order in the previous layout the state item itself (it holds the content). */
  content?: Record<string, unknown>;
}

const isPreviousLayout = (state: Record<string, unknown>) => Array.isArray(state.items);

/** The version of an order's content an item names: 0 where none is written (split by an earlier layout migration). */
const contentVersionOf = (item: Record<string, unknown>) => (typeof item.contentVersion === "number" ? item.contentVersion : 0);

/**
 * The bounds of the content kept per execution environment: the least recently used goes first past `maxBytes`
 * (its JSON size; ~2.5 KB an order, so ~6,000 orders in 16 MB of a function's 512 MB), and an entry is read again
 * after `ttlMs` whatever its version, so a writer that failed to raise the version is seen within that time.
 */
export const contentCache = { maxBytes: 16 * 1024 * 1024, ttlMs: 10 * 60_000 } as const;

interface CachedContent {
  version: number;
  content: Record<string, unknown>;
}

const contentCaches = new WeakMap<StoreDeps, LRUCache<string, CachedContent>>();

function contentCacheOf(deps: StoreDeps): LRUCache<string, CachedContent> {
  let cache = contentCaches.get(deps);
  if (!cache) {
    cache = new LRUCache<string, CachedContent>({
      maxSize: contentCache.maxBytes,
      sizeCalculation: (entry) => Math.max(1, JSON.stringify(entry.content).length),
      ttl: contentCache.ttlMs,
      // The clock is read at each staleness check, rather than kept for a millisecond by a timer set per check.
      ttlResolution: 0,
      // The clock of the store's deps (a test's, or the wall clock), so the bound is the same one the service keeps.
      perf: { now: () => deps.now().getTime() },
    });
    contentCaches.set(deps, cache);
  }
  return cache;
}

/** A copy no caller can change: the cached content is shared by every read of the order in this environment. */
function frozen<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reads an order, consistently (a change conditions on the version read). Without its content, one GetItem of its
 * state. With it: one GetItem of the state when this environment holds the content at the version the state names,
 * otherwise one Query of its partition (and the content is kept). Undefined when there is no such order.
 */
export async function readStoredOrder(deps: StoreDeps, orderId: string, withContent: boolean): Promise<StoredOrder | undefined> {
  const getState = async () =>
    (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;
  if (!withContent) {
    const state = await getState();
    return state && { state };
  }
  const cache = contentCacheOf(deps);
  const cached = cache.get(orderId);
  if (cached) {
    const state = await getState();
    if (!state) {
      cache.delete(orderId);
      return undefined;
    }
    if (isPreviousLayout(state)) return { state, content: state };
    if (cached.version === contentVersionOf(state)) return { state, content: cached.content };
  }
  const { Items = [] } = await deps.doc.send(
    new QueryCommand({
      TableName: deps.tables.orders,
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :order)",
      ExpressionAttributeValues: { ":pk": orderKey(orderId).PK, ":order": orderSortKeyPrefix },
      ConsistentRead: true,
    }),
  );
  const state = Items.find((item) => item.SK === orderKey(orderId).SK);
  if (!state) return undefined;
  if (isPreviousLayout(state)) return { state, content: state };
  const content = Items.find((item) => item.SK === orderContentKey(orderId).SK);
  if (!content) return { state };
  // Kept only when both items name the same version. A Query gives no snapshot across items (it can read one item
  // before a transaction and the other after it), so this check is what keeps a half-read change out of the cache;
  // a writer raises the version on both items in one transaction.
  if (contentVersionOf(content) === contentVersionOf(state)) {
    cache.set(orderId, { version: contentVersionOf(state), content: frozen(content) });
  }
  return { state, content };
}

/**
 * The order as the domain sees it, from its stored items: the state's fields, the content's lines (with the
 * replacement lines made from the state's records), charges and internal fields, without the store's own
 * attributes.
 */
export function orderOf({ state, content }: StoredOrder): Order {
  const order = withoutStoreAttributes(state);
  const items = Array.isArray(content?.items) ? (content.items as OrderItem[]) : [];
  return {
    ...order,
    items: linesOf(items, replacementsOf(state)),
    charges: Array.isArray(content?.charges) ? (content.charges as Charge[]) : [],
    internal: (content?.internal as Record<string, unknown> | undefined) ?? {},
  } as Order;
}

/** The order with its content, or undefined when there is none. */
export async function readOrder(deps: StoreDeps, orderId: string): Promise<Order | undefined> {
  const stored = await readStoredOrder(deps, orderId, true);
  return stored && orderOf(stored);
}

/**
 * What a change setting `set` on the order moves in its state item's summary: the titles, when a replacement adds
 * a line among the first three. Empty when nothing moves (so no index entry is rewritten for it).
 */
export function summaryChangeOf(order: Order, set: Record<string, unknown>): Record<string, unknown> {
  if (!("replacements" in set)) return {};
  const before = summaryOf(order.items, order.charges).itemTitles;
  const after = summaryOf(linesOf(order.items, replacementsOf(set)), order.charges).itemTitles;
  return JSON.stringify(before) === JSON.stringify(after) ? {} : { itemTitles: after };
}

/** A history link as stored (an item's key), or undefined where there is none. */
export function linkOf(value: unknown): ItemKey | undefined {
  const link = value as Partial<ItemKey> | undefined;
  return typeof link?.PK === "string" && typeof link.SK === "string" ? { PK: link.PK, SK: link.SK } : undefined;
}

/** The key of the item of the order's last change, if a change has been made since it was written. */
export const lastChangeOf = (state: Record<string, unknown>) => linkOf(state[historyLinks.last]);
