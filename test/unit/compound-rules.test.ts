import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { offerReplacementInput, startReturnInput } from "#contract/compound-schemas";
import { addDays } from "#core/days";
import { changeRules, offerReplacementRule, startReturnRule } from "#core/eligibility";
import {
  earliestOpenDelivery,
  offerReplacementIneligibility,
  replaceableItemIds,
  returnableItemIds,
  returnWindow,
  startReturnIneligibility,
} from "#core/item-eligibility";
import { nextItemId } from "#core/offer-replacement";
import type { Order } from "#core/order";
import type { ReturnPolicy, Seller } from "#core/policy";
import { noPickupSlot } from "#core/start-return";

const policy: ReturnPolicy = { ref: "seller-supp/SLR-2210", returnWindowDays: 14 };
const seller: Seller = { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" };
const today = "2026-12-03";

function order(extra: Partial<Order> = {}): Order {
  return {
    orderId: "SU-30001",
    customerId: "C-1001",
    sellerId: "SLR-2210",
    status: "delivered",
    version: 3,
    placedAt: "2026-11-01T09:00:00Z",
    deliveredAt: "2026-11-25T15:40:00Z",
    currency: "GBP",
    items: [
      { itemId: "ITM-1", sku: "A", title: "Shelf", quantity: 1, unitCents: 100, description: "" },
      { itemId: "ITM-2", sku: "B", title: "Lamp", quantity: 1, unitCents: 100, description: "" },
    ],
    charges: [],
    delivery: { carrier: "Parcelline", trackingId: null },
    deliveryNote: null,
    activity: [],
    internal: {},
    ...extra,
  };
}

const aReturn = (itemIds: string[]) => ({
  returnId: "RET-30001-4",
  itemIds,
  labelRef: "LBL-30001-4",
  pickup: { date: "2026-12-04", window: "08:00-12:00" },
  reason: "damaged",
  createdAt: "2026-12-02T10:00:00Z",
});
const aReplacement = (itemId: string) => ({
  itemId,
  replacementItemId: "ITM-3",
  sku: "A",
  reason: "damaged",
  createdAt: "2026-12-02T11:00:00Z",
});

describe("the return window", () => {
  it("is open through the delivery day plus the window and closed the day after", () => {
    expect(returnWindow(order(), policy, "2026-12-09")).toMatchObject({
      until: "2026-12-09",
      open: true,
      deliveredOn: "2026-11-25",
      days: 14,
    });
    expect(returnWindow(order(), policy, "2026-12-10")).toMatchObject({ until: "2026-12-09", open: false });
    expect(returnWindow(order({ status: "shipped", deliveredAt: null }), policy, today)).toMatchObject({ until: null, open: false });
  });

  it("the write's condition (deliveredAt ≥ today − window, as strings) agrees with the window for every day and time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -400, max: 400 }),
        fc.integer({ min: 0, max: 365 }),
        fc.integer({ min: 0, max: 86_399 }),
        (offset, days, second) => {
          const deliveredDay = addDays(today, offset);
          const deliveredAt = `${deliveredDay}T${new Date(second * 1000).toISOString().slice(11, 19)}Z`;
          const p = { ref: "x", returnWindowDays: days };
          expect(deliveredAt >= earliestOpenDelivery(p, today)).toBe(returnWindow({ deliveredAt }, p, today).open);
        },
      ),
    );
  });
});

describe("start_return's item rules", () => {
  it("explain in the order a caller should hear them: status, window, unknown item, already returned", () => {
    expect(startReturnIneligibility(order({ status: "shipped", deliveredAt: null }), ["ITM-9"], policy, today)?.reason).toBe(
      "NOT_DELIVERED",
    );
    expect(startReturnIneligibility(order({ status: "cancelled", deliveredAt: null }), ["ITM-1"], policy, today)?.reason).toBe(
      "ALREADY_CANCELLED",
    );
    expect(startReturnIneligibility(order({ deliveredAt: "2026-10-01T10:00:00Z" }), ["ITM-9"], policy, today)?.reason).toBe(
      "RETURN_WINDOW_CLOSED",
    );
    expect(startReturnIneligibility(order({ returns: [aReturn(["ITM-1"])] }), ["ITM-9", "ITM-1"], policy, today)?.reason).toBe(
      "UNKNOWN_ITEM",
    );
    expect(startReturnIneligibility(order({ returns: [aReturn(["ITM-1"])] }), ["ITM-2", "ITM-1"], policy, today)).toEqual({
      reason: "ITEM_ALREADY_RETURNED",
      message:
        "ITM-1 on order SU-30001 is already being returned: return RET-30001-4 started on 2026-12-02, with pickup on 2026-12-04 (08:00-12:00); an item is returned once. Nothing else on the order is left to return.",
    });
    expect(startReturnIneligibility(order(), ["ITM-1", "ITM-2"], policy, today)).toBeUndefined();
  });

  it("a replaced item can still be returned (the faulty original goes back); a returned one cannot be replaced", () => {
    const replaced = order({ replacements: [aReplacement("ITM-1")] });
    expect(startReturnIneligibility(replaced, ["ITM-1"], policy, today)).toBeUndefined();
    expect(offerReplacementIneligibility(replaced, "ITM-1", policy, today)?.reason).toBe("ITEM_ALREADY_REPLACED");
    expect(offerReplacementIneligibility(order({ returns: [aReturn(["ITM-2"])] }), "ITM-2", policy, today)?.reason).toBe(
      "ITEM_ALREADY_RETURNED",
    );
    expect(offerReplacementIneligibility(order(), "ITM-9", policy, today)?.reason).toBe("UNKNOWN_ITEM");
    expect(offerReplacementIneligibility(order(), "ITM-2", policy, today)).toBeUndefined();
  });

  it("returnable and replaceable items", () => {
    const o = order({ returns: [aReturn(["ITM-2"])], replacements: [aReplacement("ITM-1")] });
    expect(returnableItemIds(o)).toEqual(["ITM-1"]);
    expect(replaceableItemIds(o)).toEqual([]);
    expect(replaceableItemIds(order())).toEqual(["ITM-1", "ITM-2"]);
  });
});

describe("the rules get_order's allowedActions asks", () => {
  const facts = (o: Order, s: Seller = seller) => ({ order: o, seller: s, policy, today });

  it("are registered by tool name", () => {
    expect(changeRules.start_return).toBe(startReturnRule);
    expect(changeRules.offer_replacement).toBe(offerReplacementRule);
  });

  it("offer both on a delivered order in its window; only the return for a suspended seller; neither after the window or once everything is returned", () => {
    expect(startReturnRule.admits?.(facts(order()))).toBe(true);
    expect(offerReplacementRule.admits?.(facts(order()))).toBe(true);
    expect(startReturnRule.admits?.(facts(order(), { ...seller, status: "suspended" }))).toBe(true);
    expect(offerReplacementRule.admits?.(facts(order(), { ...seller, status: "suspended" }))).toBe(false);
    const closed = order({ deliveredAt: "2026-10-01T10:00:00Z" });
    expect(startReturnRule.admits?.(facts(closed))).toBe(false);
    expect(offerReplacementRule.admits?.(facts(closed))).toBe(false);
    const allReturned = order({ returns: [aReturn(["ITM-1", "ITM-2"])] });
    expect(startReturnRule.admits?.(facts(allReturned))).toBe(false);
    expect(offerReplacementRule.admits?.(facts(allReturned))).toBe(false);
  });

  it("accept delivered orders only", () => {
    expect(startReturnRule.allowedStatuses).toEqual(["delivered"]);
    expect(offerReplacementRule.allowedStatuses).toEqual(["delivered"]);
    expect(startReturnRule.rejection("processing")?.reason).toBe("NOT_DELIVERED");
    expect(offerReplacementRule.rejection("cancelled")?.reason).toBe("ALREADY_CANCELLED");
    expect(startReturnRule.rejection("delivered")).toBeUndefined();
  });
});

describe("NO_PICKUP_SLOT and replacement ids", () => {
  const slot = (date: string, window = "08:00-12:00") => ({ date, window, capacity: 1 });

  it("lists the days with capacity, less the slots lost in a race", () => {
    const open = [slot("2026-12-04"), slot("2026-12-04", "12:00-17:00"), slot("2026-12-05")];
    expect(noPickupSlot("2026-12-10", "2026-12-04", open, []).details).toEqual({ availableDates: ["2026-12-04", "2026-12-05"] });
    const lost = noPickupSlot("2026-12-04", "2026-12-04", open, open.slice(0, 2));
    expect(lost.details).toEqual({ availableDates: ["2026-12-05"] });
    expect(lost.message).toMatch(/^The pickup slots 2026-12-04 08:00-12:00 and 2026-12-04 12:00-17:00 filled up/);
    expect(noPickupSlot("2026-12-04", "2026-12-04", [], []).message).toMatch(/No day from 2026-12-04 on has pickup capacity left/);
  });

  it("a replacement line takes the next free item number", () => {
    expect(nextItemId(order())).toBe("ITM-3");
    expect(nextItemId({ items: [{ ...order().items[0]!, itemId: "ITM-12" }] })).toBe("ITM-13");
  });
});

describe("the compound schemas", () => {
  it("describe every field for the catalogue", () => {
    for (const schema of [startReturnInput, offerReplacementInput]) {
      const json = z.toJSONSchema(schema, { io: "input" }) as { properties: Record<string, { description?: string }> };
      for (const [field, property] of Object.entries(json.properties)) expect(property.description, field).toBeTruthy();
    }
  });

  it("pickupDate is optional, expectedVersion optional for returns and required for replacements", () => {
    expect(
      startReturnInput.safeParse({ operationId: "op-12345678", orderId: "SU-30001", itemIds: ["ITM-1"], reason: "other" }).success,
    ).toBe(true);
    expect(
      offerReplacementInput.safeParse({ operationId: "op-12345678", orderId: "SU-30001", itemId: "ITM-1", reason: "missing" }).success,
    ).toBe(false);
  });
});
