import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { getOrderInput, getOrderOutput, orderIdFragmentProblem, searchOrdersInput, searchOrdersOutput } from "#contract/read-schemas";
import type { OrderFacts, StatusRule } from "#core/eligibility";
import { allowedActions, describedBy, trackingOf } from "#core/get-order";
import type { Order } from "#core/order";
import { type Principal, scopes } from "#core/principal";
import { newestFirst, onDayWithin, orderIdDigits, type OrderSummaryRecord, take } from "#core/search-orders";
import { orderIdDigitsKeys, orderIndexKeys } from "#store/keys";
import { monthsOf } from "#store/order-reads";

const at = (iso: string) => new Date(iso);
const customerWith = (...granted: string[]): Principal => ({
  kind: "customer",
  sub: "user-C-1",
  customerId: "C-1",
  scopes: new Set(granted),
});

describe("tracking: 90 days of carrier scans", () => {
  const delivered = { status: "delivered" as const, deliveredAt: "2026-03-10T23:30:00Z" };

  it("is available through D + 90 and expired from D + 91, in UTC days, whatever the time of delivery", () => {
    expect(trackingOf(delivered, at("2026-06-08T23:59:59Z"))).toEqual({
      available: true,
      status: "delivered",
      lastScanAt: "2026-03-10T23:30:00Z",
    });
    const expired = trackingOf(delivered, at("2026-06-09T00:00:00Z"));
    expect(expired).toMatchObject({ available: false, code: "TRACKING_EXPIRED" });
    expect(expired.available === false && expired.message).toContain(
      "delivered on 2026-03-10, 91 days ago. Only deliveries on or after 2026-03-11 can still be tracked",
    );
  });

  it("property: expired exactly when today is more than 90 days after the delivery day, and the message names today − 90", () => {
    fc.assert(
      fc.property(
        fc.date({ min: at("2020-01-01"), max: at("2030-01-01"), noInvalidDate: true }),
        fc.integer({ min: 0, max: 400 }),
        (deliveredAt, age) => {
          const now = new Date(Date.UTC(deliveredAt.getUTCFullYear(), deliveredAt.getUTCMonth(), deliveredAt.getUTCDate() + age, 12));
          const tracking = trackingOf({ status: "delivered", deliveredAt: deliveredAt.toISOString() }, now);
          expect(tracking.available).toBe(age <= 90);
          if (!tracking.available) {
            const firstTrackable = new Date(now.getTime() - 90 * 86_400_000).toISOString().slice(0, 10);
            expect(tracking.message).toContain(`on or after ${firstTrackable}`);
          }
        },
      ),
    );
  });

  it("before delivery it follows the order's status; there is no carrier to ask", () => {
    expect(trackingOf({ status: "placed", deliveredAt: null }, at("2026-01-01"))).toEqual({
      available: true,
      status: "awaiting_dispatch",
      lastScanAt: null,
    });
    expect(trackingOf({ status: "dispatching", deliveredAt: null }, at("2026-01-01"))).toEqual({
      available: true,
      status: "awaiting_dispatch",
      lastScanAt: null,
    });
    expect(trackingOf({ status: "shipped", deliveredAt: null }, at("2026-01-01"))).toEqual({
      available: true,
      status: "in_transit",
      lastScanAt: null,
    });
    expect(trackingOf({ status: "shipped", deliveredAt: null, updatedAt: "2025-12-30T10:00:00Z" }, at("2026-01-01"))).toEqual({
      available: true,
      status: "in_transit",
      lastScanAt: "2025-12-30T10:00:00Z",
    });
    expect(trackingOf({ status: "cancelled", deliveredAt: null }, at("2026-01-01"))).toEqual({
      available: true,
      status: "cancelled",
      lastScanAt: null,
    });
  });
});

describe("item descriptions carry their provenance", () => {
  it.each([
    ["marketplace", undefined, { origin: "seller", sellerId: "SLR-9", reviewed: false, text: "t" }],
    ["marketplace", true, { origin: "seller", sellerId: "SLR-9", reviewed: true, text: "t" }],
    ["sundry", undefined, { origin: "sundry", reviewed: true, text: "t" }],
    ["sundry", false, { origin: "sundry", reviewed: false, text: "t" }],
  ] as const)("a %s seller's item, descriptionReviewed %s", (type, descriptionReviewed, expected) => {
    expect(
      describedBy({ description: "t", ...(descriptionReviewed === undefined ? {} : { descriptionReviewed }) }, { id: "SLR-9", type }),
    ).toEqual(expected);
  });

  it("property: any text survives a JSON round trip verbatim inside the wrapper", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        const wrapped = JSON.parse(JSON.stringify(describedBy({ description: text }, { id: "SLR-9", type: "marketplace" })));
        expect(wrapped).toEqual({ origin: "seller", sellerId: "SLR-9", reviewed: false, text });
      }),
    );
  });
});

describe("allowedActions comes from the rules", () => {
  const facts = (status: Order["status"]): OrderFacts => ({
    order: { status, customerId: "C-1" } as Order,
    seller: { id: "SLR-1", name: "S", type: "sundry", status: "active" },
    policy: { ref: "sundry/standard", returnWindowDays: 30 },
    today: "2026-12-01",
  });
  const rule = (allowedStatuses: Order["status"][], admits?: StatusRule["admits"]): StatusRule => ({
    allowedStatuses,
    rejection: () => undefined,
    ...(admits ? { admits } : {}),
  });
  const rules = {
    first_tool: rule(["placed", "processing"]),
    second_tool: rule(["placed"], () => false),
    third_tool: rule(["placed", "delivered"]),
  };

  it("lists, in the rules' order, the tools whose rule allows the status and whose further conditions hold", () => {
    const writer = customerWith(scopes.read, scopes.write);
    expect(allowedActions(facts("placed"), writer, rules)).toEqual(["first_tool", "third_tool"]);
    expect(allowedActions(facts("delivered"), writer, rules)).toEqual(["third_tool"]);
    expect(allowedActions(facts("cancelled"), writer, rules)).toEqual([]);
  });

  it("is empty for a token that cannot write, or a customer who does not own the order", () => {
    expect(allowedActions(facts("placed"), customerWith(scopes.read), rules)).toEqual([]);
    const other: Principal = { kind: "customer", sub: "u", customerId: "C-2", scopes: new Set([scopes.read, scopes.write]) };
    expect(allowedActions(facts("placed"), other, rules)).toEqual([]);
    const staff: Principal = { kind: "support", sub: "s", scopes: new Set([scopes.read, scopes.write, scopes.support]) };
    expect(allowedActions(facts("placed"), staff, rules)).toEqual(["first_tool", "third_tool"]);
  });
});

describe("search criteria", () => {
  it("accepts a full id or 3–5 digits, with or without SU-, and explains anything else", () => {
    for (const ok of ["SU-88421", "88421", "884", "8842", "SU-884"]) expect(orderIdFragmentProblem(ok)).toBeUndefined();
    expect(orderIdDigits("SU-8842")).toBe("8842");
    expect(orderIdFragmentProblem("88")).toMatch(
      /"88" has two digits, too few to search by; give the full id \(SU- followed by five digits, like SU-88421\) or 3 to 5 consecutive digits of it/,
    );
    expect(orderIdFragmentProblem("SU-884219")).toMatch(/has six digits, but order ids have five/);
    expect(orderIdFragmentProblem("su-88421")).toMatch(/is not an order id or part of one/);
    expect(orderIdFragmentProblem("")).toMatch(/has no digits, too few/);
  });

  it("defaults limit to 10 and takes date ranges of up to 92 days, both ends included, on real calendar days", () => {
    expect(searchOrdersInput.parse({ orderId: "884" })).toEqual({ orderId: "884", limit: 10 });
    const range = (from: string, to: string) =>
      searchOrdersInput.safeParse({ email: "a@b.co", dateRange: { dateField: "placed", from, to } }).success;
    expect(range("2026-01-01", "2026-04-02")).toBe(true); // 31 + 28 + 31 + 2 = 92 days
    expect(range("2026-01-01", "2026-04-03")).toBe(false);
    expect(range("2026-01-01", "2026-01-01")).toBe(true);
    expect(range("2028-02-29", "2028-03-01")).toBe(true);
    expect(range("2027-02-29", "2027-03-01")).toBe(false);
    expect(range("2026-1-01", "2026-01-02")).toBe(false);
  });

  it("a day range includes every moment of both end days and nothing else", () => {
    const range = { from: "2026-03-01", to: "2026-03-31" };
    expect(onDayWithin("2026-03-01T00:00:00Z", range)).toBe(true);
    expect(onDayWithin("2026-03-31T23:59:59.999Z", range)).toBe(true);
    expect(onDayWithin("2026-02-28T23:59:59Z", range)).toBe(false);
    expect(onDayWithin("2026-04-01T00:00:00Z", range)).toBe(false);
    expect(onDayWithin(null, range)).toBe(false);
  });

  it("newest first, duplicates once, ties broken by id", () => {
    const o = (orderId: string, placedAt: string) => ({ orderId, placedAt }) as OrderSummaryRecord;
    expect(
      newestFirst([
        o("SU-00001", "2026-01-01T00:00:00Z"),
        o("SU-00003", "2026-02-01T00:00:00Z"),
        o("SU-00002", "2026-02-01T00:00:00Z"),
        o("SU-00001", "2026-01-01T00:00:00Z"),
      ]).map((x) => x.orderId),
    ).toEqual(["SU-00003", "SU-00002", "SU-00001"]);
  });

  it("take stops reading a stream once it has enough matches", async () => {
    let pulled = 0;
    async function* stream() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield { orderId: `SU-${String(i).padStart(5, "0")}` } as OrderSummaryRecord;
      }
    }
    const even = (o: OrderSummaryRecord) => Number(o.orderId.slice(3)) % 2 === 0;
    expect((await take(stream(), even, 3)).map((o) => o.orderId)).toEqual(["SU-00000", "SU-00002", "SU-00004"]);
    expect(pulled).toBe(5);
  });

  it("an order carries the three digits at each position of its id as id-digits index keys", () => {
    expect(orderIdDigitsKeys("SU-88421")).toEqual({ GSI3PK: "DIGITS#884", GSI4PK: "DIGITS#842", GSI5PK: "DIGITS#421" });
  });

  it("an order carries its seller's placed month, and its delivered month once delivered (the seller indexes)", () => {
    const order = { customerId: "C-1", sellerId: "SLR-2210", placedAt: "2026-11-30T23:59:00Z", orderId: "SU-88421" };
    expect(orderIndexKeys({ ...order, deliveredAt: null })).toMatchObject({ GSI6PK: "SELLER#SLR-2210#PLACED#2026-11" });
    expect(orderIndexKeys({ ...order, deliveredAt: null })).not.toHaveProperty("GSI7PK");
    expect(orderIndexKeys({ ...order, deliveredAt: "2026-12-02T10:00:00Z" })).toMatchObject({
      GSI6PK: "SELLER#SLR-2210#PLACED#2026-11",
      GSI7PK: "SELLER#SLR-2210#DELIVERED#2026-12",
    });
  });

  it("a range of days touches the months from its first day's to its last day's, across a year's end, at most five for 92 days", () => {
    expect(monthsOf({ from: "2026-11-15", to: "2027-02-10" })).toEqual(["2026-11", "2026-12", "2027-01", "2027-02"]);
    expect(monthsOf({ from: "2026-03-31", to: "2026-03-31" })).toEqual(["2026-03"]);
    // The widest: 92 days, from the last day of a month.
    expect(monthsOf({ from: "2026-01-31", to: "2026-05-02" })).toEqual(["2026-01", "2026-02", "2026-03", "2026-04", "2026-05"]);
    // Every day a search covers, 0000-01-01 to 9998-12-31, the ends of the four-digit years most of all.
    const firstDay = Date.parse("0000-01-01T00:00:00Z") / 86_400_000;
    const lastDay = Date.parse("9998-12-31T00:00:00Z") / 86_400_000;
    const start = fc.oneof(
      fc.integer({ min: firstDay, max: lastDay - 91 }),
      fc.integer({ min: lastDay - 400, max: lastDay - 91 }),
      fc.integer({ min: firstDay, max: firstDay + 400 }),
    );
    fc.assert(
      fc.property(start, fc.integer({ min: 0, max: 91 }), (first, span) => {
        const from = new Date(first * 86_400_000).toISOString().slice(0, 10);
        const to = new Date((first + span) * 86_400_000).toISOString().slice(0, 10);
        const months = monthsOf({ from, to });
        const ascending = months.every((month, i) => i === 0 || month > (months[i - 1] as string));
        return months[0] === from.slice(0, 7) && months.at(-1) === to.slice(0, 7) && months.length <= 5 && ascending;
      }),
    );
  });

  it("a range of days past the 92-day rule is refused before a single month is listed, however far apart its ends", () => {
    // As text, the month after 9999-12 sorts before it: this range once listed about 1.08 million months.
    expect(monthsOf({ from: "9999-12-31", to: "9999-12-31" })).toEqual(["9999-12"]);
    expect(monthsOf({ from: "9999-11-01", to: "9999-12-31" })).toEqual(["9999-11", "9999-12"]);
    for (const range of [
      { from: "2026-01-01", to: "2026-06-01" },
      { from: "0000-01-01", to: "9999-12-31" },
      { from: "2026-03-01", to: "2026-02-01" },
    ]) {
      expect(() => monthsOf(range)).toThrow(
        expect.objectContaining({
          code: "INVALID_INPUT",
          issues: [{ path: "dateRange", message: expect.stringContaining("at most 92 days") }],
        }),
      );
    }
  });
});

describe("the published schemas", () => {
  /** Paths of object properties that have no description in the JSON Schema the catalogue publishes. */
  function undescribed(schema: unknown, path = ""): string[] {
    if (!schema || typeof schema !== "object") return [];
    const node = schema as Record<string, unknown>;
    const own = Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>).flatMap(([key, value]) => [
      ...(typeof value.description === "string" ? [] : [`${path}.${key}`]),
      ...undescribed(value, `${path}.${key}`),
    ]);
    const nested = ["items", "anyOf", "oneOf", "allOf"].flatMap((k) =>
      [node[k]].flat().flatMap((s, i) => undescribed(s, `${path}${k === "items" ? "[]" : `|${i}`}`)),
    );
    return [...own, ...nested];
  }

  it.each([
    ["search_orders input", searchOrdersInput, "input"],
    ["search_orders output", searchOrdersOutput, "output"],
    ["get_order input", getOrderInput, "input"],
    ["get_order output", getOrderOutput, "output"],
  ] as const)("%s describes every field", (_name, schema, io) => {
    expect(undescribed(z.toJSONSchema(schema, { io }))).toEqual([]);
  });
});
