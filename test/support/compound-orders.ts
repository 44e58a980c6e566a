import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { addDays } from "#core/days";
import type { Fixture } from "#store/fixture";
import { pickupSlotKey, stockKey } from "#store/keys";
import type { World } from "#test/support/world";

type FixtureInput = Partial<Record<keyof Fixture, unknown[]>>;

/**
 * A world for start_return and offer_replacement, dated relative to `today` (the test clock's day), so return
 * windows and pickup dates mean the same thing on any day the suite runs.
 */

/** Today in UTC, the day every compound test runs on. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

/** A fixed clock at 10:00 UTC on `today`: the tools see this as now. */
export const clockAt = (today: string) => () => new Date(`${today}T10:00:00Z`);

export const item = (n: number, sku: string, title: string, quantity = 1, unitCents = 4500) => ({
  itemId: `ITM-${n}`,
  sku,
  title,
  quantity,
  unitCents,
  description: `${title}, as described by the seller`,
});

const defaultItems = [
  item(1, "ASH-4SHELF-OAK", "Ashcombe 4-Shelf Unit, Oak", 1, 11800),
  item(2, "BRASS-LAMP", "Brass Desk Lamp", 1, 3900),
  item(3, "OAK-STOOL", "Oak Step Stool", 2, 2500),
];

export interface OrderSpec {
  customerId?: string;
  sellerId?: string;
  status?: string;
  version?: number;
  /** Days before today the order was delivered (delivered orders only). */
  deliveredDaysAgo?: number;
  items?: unknown[];
}

export function compoundOrder(id: string, today: string, spec: OrderSpec = {}) {
  const status = spec.status ?? "delivered";
  const delivered = status === "delivered" ? addDays(today, -(spec.deliveredDaysAgo ?? 5)) : null;
  return {
    id,
    customerId: spec.customerId ?? "C-1001",
    sellerId: spec.sellerId ?? "SLR-2210",
    status,
    version: spec.version ?? 3,
    placedAt: `${addDays(today, -40)}T09:12:00Z`,
    deliveredAt: delivered ? `${delivered}T15:40:00Z` : null,
    currency: "GBP",
    items: spec.items ?? defaultItems,
    charges: [
      { kind: "item", cents: 11800 },
      { kind: "delivery", cents: 995 },
    ],
    delivery: { carrier: "Parcelline", trackingId: "PL0042881" },
    deliveryNote: null,
    internal: { warehouseRoutingCode: "W3-B" },
  };
}

export interface CompoundFixtureOptions {
  pickupSlots?: { date: string; window: string; capacity: number }[];
  stock?: { sku: string; available: number }[];
  extraOrders?: unknown[];
}

/**
 * Sellers: SLR-2210 marketplace with a 14-day supplement, SLR-1 sundry (default 30 days), SLR-3300 marketplace
 * and suspended (default 14 days). Stock: 3 shelf units, the last brass lamp, no stools.
 * Slots: tomorrow 5 + 5, the day after 5, day 3 full, day 4 5.
 */
export function compoundFixture(today: string, options: CompoundFixtureOptions = {}): FixtureInput {
  const day = (n: number) => addDays(today, n);
  return {
    sellers: [
      { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
      { id: "SLR-1", name: "Sundry", type: "sundry", status: "active" },
      { id: "SLR-3300", name: "Brightwell Lighting", type: "marketplace", status: "suspended" },
    ],
    policies: [{ ref: "seller-supp/SLR-2210", returnWindowDays: 14 }],
    customers: [
      { id: "C-1001", email: "ana@example.com", name: "Ana Costa" },
      { id: "C-2002", email: "ben@example.com", name: "Ben Okafor" },
    ],
    stock: options.stock ?? [
      { sku: "ASH-4SHELF-OAK", available: 3 },
      { sku: "BRASS-LAMP", available: 1 },
      { sku: "OAK-STOOL", available: 0 },
    ],
    pickupSlots: options.pickupSlots ?? [
      { date: day(1), window: "08:00-12:00", capacity: 5 },
      { date: day(1), window: "12:00-17:00", capacity: 5 },
      { date: day(2), window: "08:00-12:00", capacity: 5 },
      { date: day(3), window: "08:00-12:00", capacity: 0 },
      { date: day(4), window: "08:00-12:00", capacity: 5 },
    ],
    orders: [
      compoundOrder("SU-30001", today, { deliveredDaysAgo: 5 }),
      // Delivered 20 days ago: closed under the seller's 14-day supplement, open under Sundry's 30 days.
      compoundOrder("SU-30002", today, { deliveredDaysAgo: 20 }),
      compoundOrder("SU-30003", today, { deliveredDaysAgo: 20, sellerId: "SLR-1" }),
      compoundOrder("SU-30004", today, { deliveredDaysAgo: 3, sellerId: "SLR-3300" }),
      compoundOrder("SU-30005", today, { status: "shipped", version: 4 }),
      compoundOrder("SU-30006", today, { status: "cancelled", version: 2 }),
      compoundOrder("SU-30007", today, { customerId: "C-2002", deliveredDaysAgo: 2 }),
      // The window's edges: delivered exactly 14 days ago is the last day; 15 days ago is closed.
      compoundOrder("SU-30008", today, { deliveredDaysAgo: 14 }),
      compoundOrder("SU-30009", today, { deliveredDaysAgo: 15 }),
      ...Array.from({ length: 10 }, (_, i) => compoundOrder(`SU-300${String(i + 10)}`, today, { deliveredDaysAgo: 4 })),
      ...(options.extraOrders ?? []),
    ],
  };
}

export async function slotCapacity(world: World, date: string, window = "08:00-12:00"): Promise<number | undefined> {
  const { Item } = await world.deps.doc.send(
    new GetCommand({ TableName: world.names.orders, Key: pickupSlotKey(date, window), ConsistentRead: true }),
  );
  return Item?.capacity as number | undefined;
}

export async function stockOf(world: World, sku: string): Promise<number | undefined> {
  const { Item } = await world.deps.doc.send(new GetCommand({ TableName: world.names.orders, Key: stockKey(sku), ConsistentRead: true }));
  return Item?.available as number | undefined;
}
