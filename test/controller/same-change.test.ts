import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changeToolNamed, changeToolNames } from "#contract/tools";
import { sameChange } from "#controller/changes/proposal";

/**
 * Which proposals are the same change, so a change proposed again is the intent already made (contract §8.1, one
 * intent per change): the tool's same-change key in the contract, a list compared as a set.
 */

const order = "SU-10234";

/**
 * Each change's key as the contract means it, written out here so that a wrong key in the registry fails. Keyed by
 * name rather than typed over the tools: a new tool fails the test below until its key is written here.
 */
const keys: Readonly<Record<string, readonly string[]>> = {
  cancel_order: ["orderId"],
  add_delivery_note: ["orderId", "deliveryNote"],
  start_return: ["orderId", "itemIds"],
  offer_replacement: ["orderId", "itemId"],
};

describe("the same change", () => {
  it("a cancellation of the same order is the same change, whatever its reason or version", () => {
    expect(sameChange("cancel_order", { orderId: order, reason: "moved house" }, { orderId: order, expectedVersion: 3 })).toBe(true);
    expect(sameChange("cancel_order", { orderId: order }, { orderId: "SU-10235" })).toBe(false);
  });

  it("a delivery note is the same change only with the same words", () => {
    const note = { orderId: order, expectedVersion: 2, deliveryNote: "Leave it at the back door" };
    expect(sameChange("add_delivery_note", note, { ...note, expectedVersion: 3 })).toBe(true);
    expect(sameChange("add_delivery_note", note, { ...note, deliveryNote: "Leave it at the front door" })).toBe(false);
  });

  it("a return of the same items in another order is the same change; of other items, another one", () => {
    const items = { orderId: order, itemIds: ["ITM-1", "ITM-2"], reason: "damaged" };
    expect(sameChange("start_return", items, { ...items, itemIds: ["ITM-2", "ITM-1"], reason: "wrong_item" })).toBe(true);
    expect(sameChange("start_return", items, { ...items, itemIds: ["ITM-1"] })).toBe(false);
    expect(sameChange("start_return", items, { ...items, itemIds: ["ITM-1", "ITM-3"] })).toBe(false);
  });

  it("a replacement is the same change only for the same item", () => {
    const item = { orderId: order, expectedVersion: 2, itemId: "ITM-1", reason: "damaged" };
    expect(sameChange("offer_replacement", item, { ...item, reason: "missing" })).toBe(true);
    expect(sameChange("offer_replacement", item, { ...item, itemId: "ITM-2" })).toBe(false);
  });

  it("the registry's keys are these", () => {
    for (const tool of changeToolNames) expect(changeToolNamed(tool).sameChange, tool).toEqual(keys[tool]);
  });

  it("for every changing tool: two requests are the same change exactly when they agree on each field of its key", () => {
    // Requests as the schemas let them through: itemIds a non-empty list without repeats, the rest single values.
    const request = fc.record({
      orderId: fc.constantFrom("SU-10234", "SU-10235"),
      expectedVersion: fc.integer({ min: 1, max: 3 }),
      deliveryNote: fc.constantFrom("Leave it at the back door", "Ring twice"),
      itemIds: fc.shuffledSubarray(["ITM-1", "ITM-2", "ITM-3"], { minLength: 1 }),
      itemId: fc.constantFrom("ITM-1", "ITM-2"),
      reason: fc.constantFrom("damaged", "missing"),
    });
    const agree = (x: unknown, y: unknown) =>
      Array.isArray(x) && Array.isArray(y) ? x.length === y.length && x.every((v) => y.includes(v)) : x === y;
    fc.assert(
      fc.property(fc.constantFrom(...changeToolNames), request, request, (tool, a, b) => {
        const key = (keys[tool] ?? []) as readonly (keyof typeof a)[];
        expect(sameChange(tool, a, b)).toBe(key.every((field) => agree(a[field], b[field])));
        expect(sameChange(tool, a, { ...a, itemIds: [...a.itemIds].reverse() })).toBe(true);
      }),
      { seed: 27, numRuns: 500 },
    );
  });
});
