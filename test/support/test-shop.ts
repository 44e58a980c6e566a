import type { Fixture } from "#store/fixture";

type FixtureInput = Partial<Record<keyof Fixture, unknown[]>>;

/** A small world for integration tests: two customers, two sellers, and an order in each status that matters. */
export function testFixture(): FixtureInput {
  const order = (id: string, customerId: string, status: string, version: number, extra: Record<string, unknown> = {}) => ({
    id,
    customerId,
    sellerId: "SLR-2210",
    status,
    version,
    placedAt: "2026-11-20T09:12:00Z",
    deliveredAt: status === "delivered" ? "2026-11-24T15:40:00Z" : null,
    currency: "GBP",
    items: [
      {
        itemId: "ITM-1",
        sku: "ASH-4SHELF-OAK",
        title: "Ashcombe 4-Shelf Unit, Oak",
        quantity: 1,
        unitCents: 11800,
        description: "Solid oak shelving, flat-packed, 180cm",
      },
    ],
    charges: [
      { kind: "item", cents: 11800 },
      { kind: "delivery", cents: 995 },
    ],
    delivery: { carrier: "Parcelline", trackingId: "PL0042881" },
    deliveryNote: null,
    internal: { warehouseRoutingCode: "W3-B", taxJurisdictionId: "GB-ENG-4" },
    ...extra,
  });
  return {
    sellers: [
      { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
      { id: "SLR-1", name: "Sundry", type: "sundry", status: "active" },
    ],
    policies: [{ ref: "seller-supp/SLR-2210", returnWindowDays: 14 }],
    customers: [
      { id: "C-1001", email: "ana@example.com", name: "Ana Costa" },
      { id: "C-2002", email: "ben@example.com", name: "Ben Okafor" },
    ],
    stock: [{ sku: "ASH-4SHELF-OAK", available: 3 }],
    pickupSlots: [],
    orders: [
      order("SU-10001", "C-1001", "placed", 1),
      order("SU-10002", "C-1001", "processing", 4),
      order("SU-10003", "C-1001", "dispatching", 2),
      order("SU-10004", "C-1001", "shipped", 5),
      order("SU-10005", "C-1001", "delivered", 3),
      order("SU-10006", "C-1001", "cancelled", 2),
      order("SU-20001", "C-2002", "placed", 1),
    ],
  };
}
