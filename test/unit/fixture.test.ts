import { describe, expect, it } from "vitest";
import { orderSummary } from "#contract/read-schemas";
import { shopSetsFrom } from "#core/order";
import { fixtureItems, parseFixture } from "#store/fixture";
import { testFixture } from "#test/support/test-shop";

describe("fixture validation", () => {
  it("accepts the contract §6 example", () => {
    const fixture = parseFixture(testFixture());
    expect(fixture.orders).toHaveLength(testFixture().orders?.length ?? 0);
  });

  it("names the first bad entry by collection, position and id", () => {
    const input = testFixture();
    (input.orders?.[2] as Record<string, unknown>).status = "lost";
    (input.orders?.[4] as Record<string, unknown>).currency = "pounds";
    expect(() => parseFixture(input)).toThrow(/orders\[2\] \(SU-10003\) field status/);
  });

  it("names an unknown field rather than dropping it", () => {
    const input = testFixture();
    (input.customers?.[1] as Record<string, unknown>).phone = "123";
    expect(() => parseFixture(input)).toThrow(/customers\[1\] \(C-2002\).*phone/);
  });

  it("refuses an order whose customer or seller is not in the file", () => {
    const input = testFixture();
    (input.orders?.[1] as Record<string, unknown>).sellerId = "SLR-404";
    expect(() => parseFixture(input)).toThrow("orders[1] (SU-10002): seller SLR-404 is not in sellers");
  });

  it("takes only the deployment's carriers and charge kinds: today's by default, the configured ones when set", () => {
    const input = testFixture();
    const order = input.orders?.[1] as { delivery: { carrier: string }; charges: { kind: string }[] };
    order.delivery.carrier = "Blue Heron Freight";
    expect(() => parseFixture(input, shopSetsFrom({}))).toThrow(
      'orders[1] (SU-10002): the carrier "Blue Heron Freight" is not one of this deployment\'s carriers (Parcelline, Swiftpost, Northway Couriers; ORDER_TOOLS_CARRIERS sets them)',
    );
    const configured = shopSetsFrom({
      ORDER_TOOLS_CARRIERS: "Parcelline, Blue Heron Freight",
      ORDER_TOOLS_CHARGE_KINDS: "item,delivery,gift_wrap",
    });
    expect(parseFixture(input, configured).orders[1]?.delivery.carrier).toBe("Blue Heron Freight");
    order.charges.push({ kind: "gift_wrap", cents: 250 } as never);
    expect(() =>
      parseFixture(input, shopSetsFrom({ ORDER_TOOLS_CARRIERS: "Parcelline,Swiftpost,Northway Couriers,Blue Heron Freight" })),
    ).toThrow(/the charge kind "gift_wrap" is not one of this deployment's \(item, delivery; ORDER_TOOLS_CHARGE_KINDS sets them\)/);
    expect(parseFixture(input, configured).orders[1]?.charges.at(-1)?.kind).toBe("gift_wrap");
    expect(() => shopSetsFrom({ ORDER_TOOLS_CHARGE_KINDS: "item,,delivery" })).toThrow(
      'ORDER_TOOLS_CHARGE_KINDS is names separated by commas, each 1–100 characters (for example "item,delivery"); got "item,,delivery".',
    );
  });

  it("refuses a delivered order without a delivery time", () => {
    const input = testFixture();
    (input.orders?.[4] as Record<string, unknown>).deliveredAt = null;
    expect(() => parseFixture(input)).toThrow(
      /orders\[4\] \(SU-10005\) field deliveredAt: deliveredAt is set exactly when the status is delivered/,
    );
  });

  it("stores each order as two items: its state with the index keys and the search summary, its content with the lines, charges and internal fields", () => {
    const fixture = parseFixture(testFixture());
    const items = fixtureItems(fixture);
    const [state, content, ...more] = items.filter((i) => i.PK === "ORDER#SU-10001");
    expect(more).toEqual([]);
    const placed = fixture.orders.find((o) => o.id === "SU-10001")!;
    expect(state).toMatchObject({
      SK: "ORDER",
      GSI1PK: "CUSTOMER#C-1001",
      GSI1SK: "2026-11-20T09:12:00Z#SU-10001",
      orderId: "SU-10001",
      status: placed.status,
      version: placed.version,
      sellerName: "Ashcombe Furniture",
      itemTitles: placed.items.slice(0, 3).map((i) => i.title),
      totalCents: placed.charges.reduce((sum, c) => sum + c.cents, 0),
    });
    for (const attribute of ["items", "charges", "internal"]) expect(state).not.toHaveProperty(attribute);
    expect(content).toEqual({
      PK: "ORDER#SU-10001",
      SK: "ORDER#CONTENT",
      entity: "orderContent",
      orderId: "SU-10001",
      items: placed.items,
      charges: placed.charges,
      internal: placed.internal,
      contentVersion: state?.contentVersion,
    });
    // Both name the version of the content they were placed with, one made from it: the same content, the same one.
    expect(state?.contentVersion).toEqual(expect.any(Number));
    const again = fixtureItems(parseFixture(testFixture())).find((i) => i.PK === "ORDER#SU-10001" && i.SK === "ORDER#CONTENT");
    expect(again?.contentVersion).toBe(state?.contentVersion);
    const changed = testFixture() as { orders: Record<string, any>[] };
    const order = changed.orders.find((o) => o.id === "SU-10001") as Record<string, any>;
    order.items = [{ ...order.items[0], title: `${order.items[0].title}, in walnut` }];
    const other = fixtureItems(parseFixture(changed)).find((i) => i.PK === "ORDER#SU-10001" && i.SK === "ORDER#CONTENT");
    expect(other?.contentVersion).toEqual(expect.any(Number));
    expect(other?.contentVersion).not.toBe(state?.contentVersion);
    expect(items.find((i) => i.PK === "CUSTOMER#C-2002")).toMatchObject({ GSI2PK: "EMAIL#ben@example.com" });
  });
});

describe("currencies: the listed ones, amounts in their minor units", () => {
  const withCurrency = (currency: string) => {
    const input = testFixture();
    (input.orders?.[0] as Record<string, unknown>).currency = currency;
    return input;
  };

  it("a JPY (no minor unit) and a BHD (three digits) order are accepted and stored with their code", () => {
    for (const code of ["JPY", "BHD", "EUR"]) {
      const fixture = parseFixture(withCurrency(code));
      expect(fixture.orders[0]?.currency).toBe(code);
      const items = fixtureItems(fixture).filter((i) => i.PK === `ORDER#${fixture.orders[0]?.id}`);
      expect(JSON.stringify(items)).toContain(`"currency":"${code}"`);
    }
  });

  it("a code that is not listed is refused with the list that would be right", () => {
    expect(() => parseFixture(withCurrency("XYZ"))).toThrow(/"XYZ" is not a currency orders are kept in: use one of GBP, EUR, .*JPY.*BHD/);
  });

  it("the read schemas accept a listed currency and refuse another, saying which are listed", () => {
    const summary = {
      orderId: "SU-10001",
      status: "placed",
      placedAt: "2026-11-20T09:00:00Z",
      deliveredAt: null,
      sellerName: "Sundry",
      itemTitles: ["Kettle"],
      totalCents: 150050,
      currency: "JPY",
    };
    expect(orderSummary.safeParse(summary).success).toBe(true);
    const refused = orderSummary.safeParse({ ...summary, currency: "XYZ" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/"XYZ" is not a currency orders are kept in: use one of GBP/);
  });
});
