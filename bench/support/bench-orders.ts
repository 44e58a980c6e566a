/**
 * The bench's data, deterministic (seeded) so every run measures the same orders: ~2,000 sellers with
 * supplements, customers, and orders whose raw payload has ~68 fields, like the order system's.
 */
import { carriers } from "#core/order";
import { seededRandom } from "#local/seeded-random";

/** "Today" for every fixture and every handler's clock, so each run reads and changes the same data the same way. */
export const benchToday = new Date("2026-12-01T10:00:00Z");
export const dayMs = 86_400_000;

/** Picks, draws whole numbers and writes phrases from one seeded generator. */
export function chooser(seed: number) {
  const rnd = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rnd() * values.length)] as T;
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const phrase = (n: number) => Array.from({ length: n }, () => pick(words)).join(" ");
  return { rnd, pick, int, phrase };
}
export type Chooser = ReturnType<typeof chooser>;

const words =
  "oak walnut linen steel brass ceramic cotton wool glass lamp shelf chair table rug mug bowl vase throw cushion frame mirror hook rail basket crate stool bench desk lantern kettle".split(
    " ",
  );

/** 46 more of the fields an order system accumulates: fulfilment, finance, risk, marketing. */
const noiseFields = [
  "fulfilmentCentre",
  "pickWave",
  "binLocation",
  "packStation",
  "manifestId",
  "consignmentRef",
  "carrierServiceCode",
  "carrierAccount",
  "riskScore",
  "fraudCheckId",
  "fraudDecision",
  "paymentProviderRef",
  "paymentMethodToken",
  "ledgerBatchId",
  "invoiceNumber",
  "vatRateBasisPoints",
  "vatCents",
  "dutyCents",
  "fxRateMicros",
  "settlementDate",
  "marketingChannel",
  "campaignId",
  "affiliateId",
  "basketId",
  "sessionId",
  "storefrontVersion",
  "adminLastTouchedBy",
  "adminNotesRef",
  "slaTier",
  "promiseDate",
  "promiseDateOriginal",
  "promiseDateRevised",
  "splitShipmentGroup",
  "backorderFlag",
  "giftWrapSku",
  "loyaltyPointsEarned",
  "loyaltyAccountRef",
  "returnsProfile",
  "crmContactId",
  "exportBatch",
  "legacyOrderNumber",
  "sourceSystem",
  "schemaVersion",
  "shardHint",
  "auditTrailRef",
  "pickerId",
] as const;

export type OrderStatus = "placed" | "processing" | "dispatching" | "shipped" | "delivered" | "cancelled";

export interface FixtureSeller {
  id: string;
  name: string;
  type: "sundry" | "marketplace";
  status: "active" | "suspended";
}

/** One order in contract §6's format, with `items` items and a noisy `internal` (~68 raw fields in all). */
export function benchOrder(
  c: Chooser,
  order: {
    id: string;
    customerId: string;
    sellerId: string;
    status: OrderStatus;
    placed: Date;
    delivered: Date | null;
    items: number;
    version?: number;
  },
) {
  const { pick, int, phrase, rnd } = c;
  const items = Array.from({ length: order.items }, (_, i) => {
    const unitCents = int(300, 25000);
    return {
      itemId: `ITM-${i + 1}`,
      sku: `SKU-${int(1000, 9999)}-${pick(words).toUpperCase()}`,
      title: phrase(int(2, 5)).replace(/^\w/, (ch) => ch.toUpperCase()),
      quantity: int(1, 3),
      unitCents,
      description: `${phrase(int(30, 90))}.`,
    };
  });
  const itemCents = items.reduce((total, item) => total + item.unitCents * item.quantity, 0);
  const stamp = (offsetMs: number) => new Date(order.placed.getTime() + offsetMs).toISOString();
  const internal: Record<string, unknown> = {
    warehouseRoutingCode: `W${int(1, 9)}-${pick(["A", "B", "C"])}`,
    taxJurisdictionId: `GB-${pick(["ENG", "SCT", "WLS", "NIR"])}-${int(1, 9)}`,
    internalStatusA: pick(["NEW", "ALLOC", "PICK", "PACK", "MANIFEST", "CLOSED"]),
    internalStatusB: pick(["OK", "HOLD", "REVIEW", "RELEASED"]),
    createdTs: stamp(0),
    createdAtLegacy: stamp(400),
    createdEpochSeconds: Math.round(order.placed.getTime() / 1000) + 1,
  };
  for (const name of noiseFields)
    internal[name] = pick([
      () => int(0, 1_000_000),
      () => `${pick(words)}-${int(100, 999)}`,
      () => rnd() > 0.5,
      () => stamp(int(0, 9) * dayMs),
    ])();
  return {
    id: order.id,
    customerId: order.customerId,
    sellerId: order.sellerId,
    status: order.status,
    version: order.version ?? int(1, 6),
    placedAt: order.placed.toISOString(),
    deliveredAt: order.delivered?.toISOString() ?? null,
    currency: "GBP",
    items,
    charges: [
      { kind: "item", cents: itemCents },
      { kind: "delivery", cents: 995 },
      ...(rnd() < 0.05 ? [{ kind: "delivery", cents: 995 }] : []),
    ],
    delivery: {
      // The shop's carriers are a closed set the fixture loader checks.
      carrier: pick(carriers),
      trackingId: order.status === "placed" ? null : `PL${int(1_000_000, 9_999_999)}`,
    },
    deliveryNote: rnd() < 0.2 ? "Please leave with the neighbour at number 12 if nobody answers." : null,
    internal,
  };
}
export type BenchOrder = ReturnType<typeof benchOrder>;

/** `count` order ids not in `taken` (which they are added to). */
export function freshOrderIds(c: Chooser, taken: Set<string>, count: number): string[] {
  if (taken.size + count > 100_000) throw new Error("There are only 100,000 five-digit order ids");
  const ids: string[] = [];
  while (ids.length < count) {
    const id = `SU-${String(c.int(0, 99999)).padStart(5, "0")}`;
    if (taken.has(id)) continue;
    taken.add(id);
    ids.push(id);
  }
  return ids;
}

/**
 * ~2,000 sellers (5 % Sundry's own, 3 % suspended), a supplement for 95 % of them, 300 customers, and
 * `orderCount` orders of 1–4 items in every status, placed over the last 120 days.
 */
export function benchFixture(orderCount: number) {
  const c = chooser(42);
  const { pick, int, phrase } = c;
  const sellers: FixtureSeller[] = Array.from({ length: 2000 }, (_, i) => ({
    id: `SLR-${10000 + i}`,
    name: `${phrase(2).replace(/\b\w/g, (ch) => ch.toUpperCase())} ${pick(["Ltd", "Co", "Studio", "Works", "Goods"])}`,
    type: i % 20 === 0 ? "sundry" : "marketplace",
    status: i % 33 === 7 ? "suspended" : "active",
  }));
  const policies = sellers
    .filter((_, i) => i % 20 !== 3)
    .map((s) => ({ ref: `seller-supp/${s.id}`, returnWindowDays: pick([14, 21, 28, 30, 45, 60]) }));
  const customers = Array.from({ length: 300 }, (_, i) => ({
    id: `C-${1000 + i}`,
    email: `customer${1000 + i}@example.com`,
    name: `Customer ${1000 + i}`,
  }));
  const statuses = [
    "placed",
    "processing",
    "dispatching",
    "shipped",
    "delivered",
    "delivered",
    "delivered",
    "delivered",
    "cancelled",
  ] as const;

  const orders = freshOrderIds(c, new Set(), orderCount).map((id) => {
    const placed = new Date(benchToday.getTime() - int(1, 120) * dayMs - int(0, dayMs - 1));
    const status = pick(statuses);
    const delivered =
      status === "delivered" ? new Date(Math.min(placed.getTime() + int(1, 6) * dayMs, benchToday.getTime() - 3_600_000)) : null;
    return benchOrder(c, { id, customerId: pick(customers).id, sellerId: pick(sellers).id, status, placed, delivered, items: int(1, 4) });
  });
  return {
    sellers,
    policies,
    customers,
    stock: [] as { sku: string; available: number }[],
    pickupSlots: [] as { date: string; window: string; capacity: number }[],
    orders,
  };
}
export type BenchFixture = ReturnType<typeof benchFixture>;

/**
 * `count` more orders (ids not in `taken`, and added to it) for the base fixture's customers and active sellers, all in one state, for a series
 * that changes each order once (`version` known, so a caller can send it as expectedVersion). Delivered
 * orders were delivered two days before `benchToday`: inside every seller's return window.
 */
export function ordersIn(base: BenchFixture, c: Chooser, taken: Set<string>, status: OrderStatus, count: number, items = 2): BenchOrder[] {
  for (const order of base.orders) taken.add(order.id);
  const active = base.sellers.filter((s) => s.status === "active");
  return freshOrderIds(c, taken, count).map((id) => {
    const delivered = status === "delivered" ? new Date(benchToday.getTime() - 2 * dayMs) : null;
    const placed = new Date((delivered ?? benchToday).getTime() - c.int(1, 5) * dayMs);
    return benchOrder(c, { id, customerId: c.pick(base.customers).id, sellerId: c.pick(active).id, status, placed, delivered, items });
  });
}

/** Pickup capacity that never runs out: two windows a day for four weeks from tomorrow. */
export function plentifulPickupSlots(): BenchFixture["pickupSlots"] {
  return Array.from({ length: 28 }, (_, i) => new Date(benchToday.getTime() + (i + 1) * dayMs).toISOString().slice(0, 10)).flatMap(
    (date) => [
      { date, window: "08:00-12:00", capacity: 100_000 },
      { date, window: "13:00-17:00", capacity: 100_000 },
    ],
  );
}

/** Stock for every SKU on these orders, more than a run can take. */
export function plentifulStock(orders: readonly BenchOrder[]): BenchFixture["stock"] {
  return [...new Set(orders.flatMap((o) => o.items.map((i) => i.sku)))].map((sku) => ({ sku, available: 100_000 }));
}
