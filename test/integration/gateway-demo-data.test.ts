import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";
import { demoFixture, demoFixtureInput, splitDemoFixture } from "#local/demo-shop";
import { apiGatewayClaims, principalClaims } from "#local/dev-auth";
import { importHandler } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { type Fixture, parseFixture } from "#store/fixture";
import { readOrder } from "#store/order-items";
import { seededLocalTables } from "#test/support/local-tables";

/** The demo data `npm start` seeds: what a newcomer is promised, and what the tour (docs/tour.md) relies on. */

const today = new Date("2026-03-18T14:30:00Z");
const day = (offset: number) => new Date(Date.UTC(2026, 2, 18 + offset)).toISOString().slice(0, 10);
const fixture = demoFixture(today);
const order = (id: string) => fixture.orders.find((o) => o.id === id) as Fixture["orders"][number];
const seller = (id: string) => fixture.sellers.find((s) => s.id === id);
const daysAgo = (timestamp: string) =>
  Math.round((Date.parse(`${day(0)}T00:00:00Z`) - Date.parse(`${timestamp.slice(0, 10)}T00:00:00Z`)) / 86_400_000);

describe("the demo fixture", () => {
  it("passes the seeder's own validation, and is the same for the same day", () => {
    expect(() => parseFixture(JSON.parse(JSON.stringify(demoFixtureInput(today))))).not.toThrow();
    expect(demoFixture(new Date("2026-03-18T23:59:00Z"))).toEqual(fixture);
    expect(order("SU-88421").deliveredAt).not.toBe(
      demoFixture(new Date("2026-03-19T00:00:00Z")).orders.find((o) => o.id === "SU-88421")?.deliveredAt,
    );
  });

  it("has at least three customers, an order in every status, and every status for Ana", () => {
    expect(fixture.customers.length).toBeGreaterThanOrEqual(3);
    const statuses = ["placed", "processing", "dispatching", "shipped", "delivered", "cancelled"];
    expect(new Set(fixture.orders.map((o) => o.status))).toEqual(new Set(statuses));
    expect(new Set(fixture.orders.filter((o) => o.customerId === "C-1001").map((o) => o.status))).toEqual(new Set(statuses));
  });

  it("has the demo's SU-88421: Ana's, Ashcombe Furniture with a 14-day supplement, delivered days ago, delivery charged twice", () => {
    const su88421 = order("SU-88421");
    expect(su88421).toMatchObject({
      customerId: "C-1001",
      sellerId: "SLR-2210",
      status: "delivered",
      delivery: { carrier: "Parcelline", trackingId: "PL0042881" },
    });
    expect(fixture.customers.find((c) => c.id === "C-1001")).toMatchObject({ name: "Ana Costa", email: "ana@example.com" });
    expect(seller("SLR-2210")).toEqual({ id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" });
    expect(fixture.policies).toContainEqual({ ref: "seller-supp/SLR-2210", returnWindowDays: 14 });
    expect(daysAgo(su88421.deliveredAt as string)).toBeLessThan(14);
    expect(su88421.charges.filter((c) => c.kind === "delivery")).toEqual([
      { kind: "delivery", cents: 995 },
      { kind: "delivery", cents: 995 },
    ]);
    expect(su88421.items[0]).toMatchObject({
      itemId: "ITM-1",
      sku: "ASH-4SHELF-OAK",
      title: "Ashcombe 4-Shelf Unit, Oak",
      unitCents: 11800,
    });
  });

  it("has a suspended seller with a delivered order, a first-party seller, and an order delivered more than 90 days ago", () => {
    const suspended = fixture.orders.filter((o) => o.status === "delivered" && seller(o.sellerId)?.status === "suspended");
    expect(suspended.map((o) => o.id)).toContain("SU-77310");
    expect(fixture.sellers.some((s) => s.type === "sundry" && fixture.orders.some((o) => o.sellerId === s.id))).toBe(true);
    expect(daysAgo(order("SU-61207").deliveredAt as string)).toBeGreaterThan(90);
  });

  it("has stock for every ordered sku, some at zero, and pickup slots on each of the next 14 days, some nearly full", () => {
    const skus = new Set(fixture.stock.map((s) => s.sku));
    for (const o of fixture.orders) for (const item of o.items) expect(skus, `${o.id} ${item.sku}`).toContain(item.sku);
    expect(fixture.stock.filter((s) => s.available === 0).length).toBeGreaterThan(0);
    expect(new Set(fixture.pickupSlots.map((s) => s.date))).toEqual(new Set(Array.from({ length: 14 }, (_, i) => day(i + 1))));
    expect(fixture.pickupSlots.filter((s) => s.capacity <= 2).length).toBeGreaterThan(0);
  });

  it("has about 2,000 seller policy supplements, each for a seller in the fixture", () => {
    const supplements = fixture.policies.filter((p) => p.ref.startsWith("seller-supp/"));
    expect(supplements.length).toBe(2_000);
    const ids = new Set(fixture.sellers.map((s) => s.id));
    for (const p of supplements) expect(ids.has(p.ref.slice("seller-supp/".length)), p.ref).toBe(true);
  });

  it("puts noisy internal fields on every order", () => {
    for (const o of fixture.orders) expect(Object.keys(o.internal).length, o.id).toBe(53);
    const internal = order("SU-88421").internal as Record<string, string | number>;
    expect(internal).toMatchObject({
      warehouseRoutingCode: expect.any(String),
      taxJurisdictionId: expect.any(String),
      internalStatus: "POD_CONFIRMED",
      legacyStatusCode: 50,
    });
    // Three "last changed" times that disagree by rounding, as the order system's do.
    const times = [
      Date.parse(internal.lastModifiedAt as string),
      (internal.updatedAtEpochSeconds as number) * 1000,
      Date.parse(internal.syncTimestamp as string),
    ];
    expect(new Set(times).size).toBe(3);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(60_000);
  });

  it("splits into what the gateway needs before it listens and the bulk, without losing or duplicating anything", () => {
    const { first, rest } = splitDemoFixture(fixture);
    for (const kind of ["sellers", "policies", "customers", "stock", "pickupSlots", "orders"] as const) {
      expect([...first[kind], ...rest[kind]].length, kind).toBe(fixture[kind].length);
    }
    const firstSellers = new Set(first.sellers.map((s) => s.id));
    for (const o of first.orders) expect(firstSellers.has(o.sellerId), o.id).toBe(true);
    expect(first.orders.length + first.sellers.length + first.policies.length).toBeLessThan(200);
    expect(rest.policies.length).toBeGreaterThan(1_900);
  });
});

describe("the demo data as stored and read", () => {
  let deps: ReturnType<typeof localDeps>;
  beforeAll(async () => {
    deps = await seededLocalTables(splitDemoFixture(demoFixture()).first);
  });
  afterAll(() => deps?.client.destroy());

  it("the raw stored order has about 68 fields (internal ones included); get_order returns 14, none of them internal", async () => {
    // The order as stored: its state and content items (functions/store/order-items.ts), without the store's keys.
    const { internal, ...domain } = (await readOrder(deps, "SU-88421")) as Record<string, unknown>;
    // 15 order fields and 53 internal ones today; the store may add a field or two of its own (returns, replacements…).
    const fields = Object.keys(domain).length + Object.keys(internal as object).length;
    expect(fields).toBeGreaterThanOrEqual(66);
    expect(fields).toBeLessThanOrEqual(72);

    const getOrder = await importHandler("functions/tools/get-order.ts");
    const claims = apiGatewayClaims(principalClaims({ customer: "C-1001" }));
    const event = apiGatewayEvent({
      method: "POST",
      path: "/v1/tools/get_order",
      routeKey: "POST /v1/tools/get_order",
      body: JSON.stringify({ orderId: "SU-88421" }),
      claims,
      scopes: ["orders:read"],
    });
    const result = await getOrder(event, lambdaContext("get_order"));
    expect(result.statusCode).toBe(200);
    const body = JSON.parse(result.body ?? "{}") as Record<string, unknown>;
    expect(Object.keys(body)).toHaveLength(14);
    expect(body).toMatchObject({ policy: { ref: "seller-supp/SLR-2210", returnWindowDays: 14 }, seller: { type: "marketplace" } });
    const text = JSON.stringify(body);
    for (const field of Object.keys(internal as object)) expect(text, field).not.toContain(`"${field}"`);
  });
});
