import { beforeAll, describe, expect, it } from "vitest";
import { getOrderOutput } from "#contract/read-schemas";
import { addDays } from "#core/days";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createReplace } from "#tools/offer-replacement";
import { createHandler as createReturn } from "#tools/start-return";
import { clockAt, compoundFixture, todayUtc } from "#test/support/compound-orders";
import { customer, newOperationId, newWorld, type World } from "#test/support/world";

const ana = customer("C-1001");

/** What get_order says after the compound actions: the same rules decide what it offers and what the writes accept. */
describe("get_order after start_return and offer_replacement", () => {
  const today = todayUtc();
  const day = (n: number) => addDays(today, n);
  let world: World;
  let getOrder: ReturnType<typeof createGetOrder>;
  let startReturn: ReturnType<typeof createReturn>;
  let replace: ReturnType<typeof createReplace>;

  beforeAll(async () => {
    world = await newWorld(compoundFixture(today));
    const deps = { ...world.deps, now: clockAt(today) };
    getOrder = createGetOrder(deps);
    startReturn = createReturn(deps);
    replace = createReplace(deps);
  });

  async function read(orderId: string) {
    const reply = await world.call(getOrder, ana, { orderId });
    expect(reply.status).toBe(200);
    return getOrderOutput.parse(reply.body);
  }

  it("shows the replacement line and the return, and allowedActions narrows as items are used up", async () => {
    const before = await read("SU-30001");
    expect(before.allowedActions).toEqual(["start_return", "offer_replacement"]);
    expect(before.returns).toEqual([]);

    const replaced = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      expectedVersion: before.version,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(replaced.status).toBe(200);
    const afterReplacement = await read("SU-30001");
    expect(afterReplacement.version).toBe(before.version + 1);
    expect(afterReplacement.items.map((i) => i.itemId)).toEqual(["ITM-1", "ITM-2", "ITM-3", "ITM-4"]);
    expect(afterReplacement.items[3]).toMatchObject({
      itemId: "ITM-4",
      title: "Replacement for ITM-1: Ashcombe 4-Shelf Unit, Oak",
      quantity: 1,
      unitCents: 0,
    });
    expect(afterReplacement.totalCents).toBe(before.totalCents);
    expect(afterReplacement.allowedActions).toEqual(["start_return", "offer_replacement"]);

    const returned = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      expectedVersion: afterReplacement.version,
      itemIds: ["ITM-1", "ITM-2"],
      reason: "damaged",
    });
    expect(returned.status).toBe(200);
    const afterReturn = await read("SU-30001");
    expect(afterReturn.version).toBe(afterReplacement.version + 1);
    expect(afterReturn.returns).toEqual([{ ...returned.body.return, reason: "damaged", createdAt: `${today}T10:00:00.000Z` }]);
    expect(afterReturn.returns[0]?.pickup).toEqual({ date: day(1), window: "08:00-12:00" });
    // ITM-3 can still go back or be replaced; the replacement line ITM-4 can be neither (REPLACEMENT_LINE).
    expect(afterReturn.allowedActions).toEqual(["start_return", "offer_replacement"]);

    const rest = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      itemIds: ["ITM-3"],
      reason: "no_longer_needed",
    });
    expect(rest.status).toBe(200);
    const allReturned = await read("SU-30001");
    expect(allReturned.returns.map((r) => r.itemIds)).toEqual([["ITM-1", "ITM-2"], ["ITM-3"]]);
    // Only the replacement line is left, and it is a person's to handle: nothing is offered.
    expect(allReturned.allowedActions).toEqual([]);
    const line = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      itemIds: ["ITM-4"],
      reason: "other",
    });
    expect(line.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "REPLACEMENT_LINE" });

    // What get_order no longer offers, the writes refuse.
    const again = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      itemIds: ["ITM-3"],
      reason: "other",
    });
    expect(again.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_RETURNED" });
    const replaceAgain = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      expectedVersion: allReturned.version,
      itemId: "ITM-3",
      reason: "damaged",
    });
    expect(replaceAgain.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_RETURNED" });
  });

  it("a suspended seller's order offers the return only; a closed window offers neither; Sundry's longer window still offers both", async () => {
    expect((await read("SU-30004")).allowedActions).toEqual(["start_return"]);
    expect((await read("SU-30002")).allowedActions).toEqual([]);
    expect((await read("SU-30003")).allowedActions).toEqual(["start_return", "offer_replacement"]);
    expect((await read("SU-30005")).allowedActions).toEqual([]);
  });
});
