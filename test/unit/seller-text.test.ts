import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolJsonSchema } from "#contract/json-schema";
import { getOrderOutput, searchOrdersOutput } from "#contract/read-schemas";
import { linesOf } from "#core/item-eligibility";
import { sellerTextLimits, withinSellerLimit } from "#core/order";
import { parseFixture } from "#store/fixture";
import { testFixture } from "#test/support/test-shop";

/**
 * A seller's text has a bound (contract §6): a title, a description or a seller's name longer than it is refused
 * where it enters, with an error that says the bound; the shop's own text around a seller's (a replacement line's
 * title) is cut to stay within it; and the read schemas publish and hold the same bound.
 */

const long = (n: number) => "x".repeat(n);
/** The first item of the test shop's first order, to change. */
const firstItem = (input: ReturnType<typeof testFixture>) =>
  ((input.orders ?? [])[0] as { items: Record<string, unknown>[] }).items[0] as Record<string, unknown>;

describe("the fixture refuses a seller's text past its bound, saying the bound", () => {
  it("an item's title", () => {
    const input = testFixture();
    firstItem(input).title = long(sellerTextLimits.itemTitle + 1);
    expect(() => parseFixture(input)).toThrow(
      /orders\[0\] \(SU-10001\) field items\.0\.title: An item's title is at most 200 characters; this one has 201\./,
    );
  });

  it("an item's description", () => {
    const input = testFixture();
    firstItem(input).description = long(sellerTextLimits.itemDescription + 5);
    expect(() => parseFixture(input)).toThrow(/An item's description is at most 2000 characters; this one has 2005\./);
  });

  it("a seller's name", () => {
    const input = testFixture();
    (input.sellers?.[0] as Record<string, unknown>).name = long(sellerTextLimits.sellerName + 1);
    expect(() => parseFixture(input)).toThrow(/sellers\[0\] \(SLR-\d+\) field name: A seller's name is at most 200 characters/);
  });

  it("exactly the bound is accepted", () => {
    const input = testFixture();
    firstItem(input).title = long(sellerTextLimits.itemTitle);
    (input.sellers?.[0] as Record<string, unknown>).name = long(sellerTextLimits.sellerName);
    expect(() => parseFixture(input)).not.toThrow();
  });
});

describe("the read schemas hold and publish the same bound", () => {
  const summary = {
    orderId: "SU-10001",
    status: "shipped",
    placedAt: "2026-11-20T09:00:00Z",
    deliveredAt: null,
    sellerName: "Ashcombe Furniture",
    itemTitles: ["Shelf"],
    totalCents: 100,
    currency: "GBP",
  };

  it("a search result with a title past the bound is refused, naming it", () => {
    const result = searchOrdersOutput.safeParse({ orders: [{ ...summary, itemTitles: [long(201)] }], truncated: false });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      "An item's title is at most 200 characters; this one has 201. Shorten it to 200 or fewer.",
    );
    expect(searchOrdersOutput.safeParse({ orders: [{ ...summary, sellerName: long(201) }], truncated: false }).success).toBe(false);
    expect(searchOrdersOutput.safeParse({ orders: [summary], truncated: false }).success).toBe(true);
  });

  it("get_order's published output schema says each bound", () => {
    const schema = toolJsonSchema(getOrderOutput, "output") as {
      properties: Record<string, { properties?: Record<string, unknown>; items?: { properties: Record<string, unknown> } }>;
    };
    const item = (schema.properties.items?.items?.properties ?? {}) as Record<string, { maxLength?: number }>;
    expect(item.title?.maxLength).toBe(sellerTextLimits.itemTitle);
    expect((schema.properties.seller?.properties?.name as { maxLength?: number } | undefined)?.maxLength).toBe(sellerTextLimits.sellerName);
    expect(JSON.stringify(item.description)).toContain(`"maxLength":${sellerTextLimits.itemDescription}`);
  });
});

describe("text the shop writes around a seller's stays within the bound", () => {
  it("a replacement line's title is the prefix and as much of the title as fits, cut with … between characters", () => {
    fc.assert(
      // Any code point, those outside the BMP (two UTF-16 units) among them, so a cut can fall inside one; size "max"
      // makes most titles long enough to be cut.
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: sellerTextLimits.itemTitle, size: "max" }),
        fc.integer({ min: 1, max: 99 }),
        (title, n) => {
          const prefix = `Replacement for ITM-${n}: `;
          const line = withinSellerLimit("itemTitle", prefix, title);
          expect(line.length).toBeLessThanOrEqual(sellerTextLimits.itemTitle);
          expect(line.startsWith(prefix)).toBe(true);
          // No half of a character is left: in a `u` pattern a surrogate pair is one code point, not a Surrogate.
          expect(line).not.toMatch(/\p{Surrogate}/u);
          if (prefix.length + title.length <= sellerTextLimits.itemTitle) expect(line).toBe(`${prefix}${title}`);
          else expect(line.endsWith("…")).toBe(true);
        },
      ),
      { seed: 20261201, numRuns: 500 },
    );
  });

  it("the line a replacement adds to an order, made from its record wherever the order is read, is cut the same way", () => {
    fc.assert(
      // size "max": titles of every length up to the bound, most of them long enough to be cut.
      fc.property(fc.string({ minLength: 1, maxLength: sellerTextLimits.itemTitle, size: "max" }), (title) => {
        const line = { itemId: "ITM-1", sku: "SKU-1", title, quantity: 1, unitCents: 100, description: "d" };
        const record = { itemId: "ITM-1", replacementItemId: "ITM-2", sku: "SKU-1", reason: "damaged", createdAt: "2026-12-01T10:00:00Z" };
        const [, replacement] = linesOf([line], [record]);
        expect(replacement?.title).toBe(withinSellerLimit("itemTitle", "Replacement for ITM-1: ", title));
        expect(replacement?.title.length).toBeLessThanOrEqual(sellerTextLimits.itemTitle);
      }),
      { seed: 20261203, numRuns: 300 },
    );
  });
});
