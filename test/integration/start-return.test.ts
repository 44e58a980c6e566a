import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#core/days";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { createHandler } from "#tools/start-return";
import { clockAt, compoundFixture, compoundOrder, slotCapacity, todayUtc } from "#test/support/compound-orders";
import { loseNextTransactionResponse, forgetIdempotencyRecords } from "#test/support/sdk-faults";
import { customer, newOperationId, newWorld, support, type World } from "#test/support/world";

const ana = customer("C-1001");
const ben = customer("C-2002");

describe("start_return", () => {
  const today = todayUtc();
  const day = (n: number) => addDays(today, n);
  let world: World;
  let start: ReturnType<typeof createHandler>;
  let status: ReturnType<typeof createStatus>;
  let cancel: ReturnType<typeof createCancel>;

  beforeAll(async () => {
    world = await newWorld(compoundFixture(today));
    const deps = { ...world.deps, now: clockAt(today) };
    start = createHandler(deps);
    status = createStatus(deps);
    cancel = createCancel(deps);
  });

  /** What a rejected start_return must leave behind: the order and the slots untouched, the rejection recorded. */
  async function expectNothingChanged(orderId: string, version: number) {
    const order = await world.order(orderId);
    expect(order?.version).toBe(version);
    expect(order?.returns).toBeUndefined();
    expect(order?.returnedItemIds).toBeUndefined();
    expect(order?.activity).toEqual([]);
  }

  async function slots() {
    return [
      await slotCapacity(world, day(1)),
      await slotCapacity(world, day(1), "12:00-17:00"),
      await slotCapacity(world, day(2)),
      await slotCapacity(world, day(3)),
      await slotCapacity(world, day(4)),
    ];
  }

  it("the owner returns two delivered items: label, the earliest pickup from tomorrow, a return record and an activity entry, in one transaction", async () => {
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30001", itemIds: ["ITM-1", "ITM-3"], reason: "damaged" });
    const requests = world.counter.snapshot();

    expect(reply.status).toBe(200);
    expect(reply.headers["idempotent-replayed"]).toBeUndefined();
    const expectedReturn = {
      returnId: "RET-30001-4",
      itemIds: ["ITM-1", "ITM-3"],
      labelRef: "LBL-30001-4",
      pickup: { date: day(1), window: "08:00-12:00" },
    };
    expect(reply.body).toEqual({ operationId, status: "completed", orderId: "SU-30001", orderVersion: 4, return: expectedReturn });

    const order = await world.order("SU-30001");
    expect(order).toMatchObject({ status: "delivered", version: 4, returnedItemIds: ["ITM-1", "ITM-3"] });
    expect(order?.returns).toEqual([{ ...expectedReturn, reason: "damaged", createdAt: `${today}T10:00:00.000Z` }]);
    expect(order?.activity).toHaveLength(1);
    expect(order?.activity[0]).toMatchObject({
      tool: "start_return",
      operationId,
      actor: { kind: "customer", customerId: "C-1001" },
      summary: `Return RET-30001-4 started for ITM-1, ITM-3; pickup ${day(1)} 08:00-12:00`,
      ...expectedReturn,
      reason: "damaged",
    });
    expect(await slotCapacity(world, day(1))).toBe(4);
    expect(await world.operation(ana, operationId)).toMatchObject({
      tool: "start_return",
      status: "completed",
      orderId: "SU-30001",
      orderVersion: 4,
      httpStatus: 200,
      body: reply.body,
    });
    // Powertools' put; the order read (one Query of its partition); seller + policies (one BatchGet, then
    // cached); one Query of the slots; one transaction (order, operation record, slot); Powertools' completion.
    expect(requests).toEqual({
      BatchGetItemCommand: 1,
      PutItemCommand: 1,
      QueryCommand: 2,
      TransactWriteItemsCommand: 1,
      UpdateItemCommand: 1,
    });
  });

  it("with expectedVersion and a pickupDate that is full, the next date with capacity is booked", async () => {
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(start, ana, {
      operationId,
      orderId: "SU-30010",
      expectedVersion: 3,
      itemIds: ["ITM-2"],
      reason: "no_longer_needed",
      pickupDate: day(3),
    });
    const requests = world.counter.snapshot();

    expect(reply.status).toBe(200);
    expect(reply.body.return).toEqual({
      returnId: "RET-30010-4",
      itemIds: ["ITM-2"],
      labelRef: "LBL-30010-4",
      pickup: { date: day(4), window: "08:00-12:00" },
    });
    expect(await world.order("SU-30010")).toMatchObject({ version: 4, returnedItemIds: ["ITM-2"] });
    expect(await slotCapacity(world, day(3))).toBe(0);
    expect(await slotCapacity(world, day(4))).toBe(4);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", orderVersion: 4, body: reply.body });
    // Warm: the seller and policy come from the 60 s cache, so no BatchGet; the order and the slots, a Query each.
    expect(requests).toEqual({ PutItemCommand: 1, QueryCommand: 2, TransactWriteItemsCommand: 1, UpdateItemCommand: 1 });
  });

  it("a pickupDate with capacity is booked on that date", async () => {
    const operationId = newOperationId();
    const reply = await world.call(start, ana, {
      operationId,
      orderId: "SU-30011",
      itemIds: ["ITM-1"],
      reason: "wrong_item",
      pickupDate: day(2),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.return.pickup).toEqual({ date: day(2), window: "08:00-12:00" });
    expect(await slotCapacity(world, day(2))).toBe(4);
    expect((await world.order("SU-30011"))?.returns).toEqual([
      expect.objectContaining({ itemIds: ["ITM-1"], pickup: { date: day(2), window: "08:00-12:00" } }),
    ]);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", body: reply.body });
  });

  it("a shipped order is NOT_DELIVERED, naming the item and the date; nothing changes and the rejection is recorded", async () => {
    const before = await slots();
    const operationId = newOperationId();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30005", itemIds: ["ITM-2"], reason: "damaged" });

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      operationId,
      status: "rejected",
      orderId: "SU-30005",
      error: { code: "NOT_ELIGIBLE", reason: "NOT_DELIVERED", orderStatus: "shipped", retryable: false },
    });
    expect(reply.body.error.message).toContain("ITM-2");
    expect(reply.body.error.message).toContain(`as of ${today}`);
    expect(reply.body.error.message).toMatch(/once it is delivered/);
    await expectNothingChanged("SU-30005", 4);
    expect(await slots()).toEqual(before);
    expect(await world.operation(ana, operationId)).toMatchObject({
      tool: "start_return",
      status: "rejected",
      httpStatus: 409,
      body: reply.body,
    });
  });

  it("a cancelled order is NOT_ELIGIBLE ALREADY_CANCELLED", async () => {
    const operationId = newOperationId();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30006", itemIds: ["ITM-1"], reason: "other" });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ALREADY_CANCELLED", orderStatus: "cancelled" });
    expect(reply.body.error.message).toMatch(/ITM-1 never arrived/);
    await expectNothingChanged("SU-30006", 2);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("after the seller's 14-day window it is RETURN_WINDOW_CLOSED, naming the item, the closing date and the delivery date", async () => {
    const before = await slots();
    const operationId = newOperationId();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30002", itemIds: ["ITM-1"], reason: "no_longer_needed" });

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      status: "rejected",
      orderId: "SU-30002",
      error: { code: "NOT_ELIGIBLE", reason: "RETURN_WINDOW_CLOSED", orderStatus: "delivered" },
    });
    expect(reply.body.error.message).toBe(
      `Returns for order SU-30002 closed on ${day(-6)} (14-day window from delivery on ${day(-20)}, policy seller-supp/SLR-2210), so ITM-1 can no longer be returned; today is ${today}. Repeating the request will not change this.`,
    );
    await expectNothingChanged("SU-30002", 3);
    expect(await slots()).toEqual(before);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });
  });

  it("the window's last day is the delivery day plus the window; the day after is closed", async () => {
    const lastDay = await world.call(start, ana, {
      operationId: newOperationId(),
      orderId: "SU-30008",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(lastDay.status).toBe(200);
    expect(await world.order("SU-30008")).toMatchObject({ version: 4, returnedItemIds: ["ITM-1"] });

    const dayAfter = await world.call(start, ana, {
      operationId: newOperationId(),
      orderId: "SU-30009",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(dayAfter.status).toBe(409);
    expect(dayAfter.body.error).toMatchObject({ reason: "RETURN_WINDOW_CLOSED" });
    expect(dayAfter.body.error.message).toContain(`closed on ${day(-1)}`);
    await expectNothingChanged("SU-30009", 3);
  });

  it("the policy is resolved per seller: Sundry's 30-day default still takes a return 20 days after delivery", async () => {
    const operationId = newOperationId();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30003", itemIds: ["ITM-1"], reason: "not_as_described" });
    expect(reply.status).toBe(200);
    expect(await world.order("SU-30003")).toMatchObject({ version: 4, returnedItemIds: ["ITM-1"] });
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed" });
  });

  it("an item the order does not have is UNKNOWN_ITEM, naming it and listing the order's items; nothing is booked", async () => {
    const before = await slots();
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30012", itemIds: ["ITM-1", "ITM-9"], reason: "damaged" });
    const requests = world.counter.snapshot();

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      status: "rejected",
      error: { code: "NOT_ELIGIBLE", reason: "UNKNOWN_ITEM", orderStatus: "delivered" },
    });
    expect(reply.body.error.message).toBe(
      "Order SU-30012 has no item ITM-9. Its items are ITM-1 (Ashcombe 4-Shelf Unit, Oak), ITM-2 (Brass Desk Lamp) and ITM-3 (Oak Step Stool); send item ids from that list.",
    );
    await expectNothingChanged("SU-30012", 3);
    expect(await slots()).toEqual(before);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });
    // Refused without reading slots: the rejection is recorded in one transaction with a check of the order.
    expect(requests).toEqual({ PutItemCommand: 1, QueryCommand: 1, TransactWriteItemsCommand: 1, UpdateItemCommand: 1 });
  });

  it("an item already returned is ITEM_ALREADY_RETURNED, naming the item, the return and its date; the other item is not returned either", async () => {
    const first = await world.call(start, ana, {
      operationId: newOperationId(),
      orderId: "SU-30013",
      itemIds: ["ITM-2"],
      reason: "damaged",
    });
    expect(first.status).toBe(200);
    const before = await slots();

    const operationId = newOperationId();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30013", itemIds: ["ITM-1", "ITM-2"], reason: "damaged" });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_RETURNED", orderStatus: "delivered" });
    expect(reply.body.error.message).toBe(
      `ITM-2 on order SU-30013 is already being returned: return RET-30013-4 started on ${today}, with pickup on ${day(1)} (08:00-12:00); an item is returned once. ITM-3 can still be returned: send itemIds without ITM-2.`,
    );
    const order = await world.order("SU-30013");
    expect(order).toMatchObject({ version: 4, returnedItemIds: ["ITM-2"] });
    expect(order?.returns).toHaveLength(1);
    expect(order?.activity).toHaveLength(1);
    expect(await slots()).toEqual(before);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("no capacity on or after pickupDate is NO_PICKUP_SLOT, listing the earlier dates that still have capacity", async () => {
    const before = await slots();
    const operationId = newOperationId();
    const reply = await world.call(start, ana, {
      operationId,
      orderId: "SU-30014",
      itemIds: ["ITM-1"],
      reason: "damaged",
      pickupDate: day(5),
    });

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      operationId,
      status: "rejected",
      orderId: "SU-30014",
      error: { code: "NO_PICKUP_SLOT", retryable: false, availableDates: [day(1), day(2), day(4)] },
    });
    expect(reply.body.error.message).toBe(
      `No pickup slot has capacity on or after ${day(5)}. Days that still have capacity: ${day(1)}, ${day(2)}, ${day(4)}. Send start_return again with a new operationId and one of them as pickupDate.`,
    );
    await expectNothingChanged("SU-30014", 3);
    expect(await slots()).toEqual(before);
    expect(await world.operation(ana, operationId)).toMatchObject({
      tool: "start_return",
      status: "rejected",
      httpStatus: 409,
      body: reply.body,
    });
  });

  it("a stale expectedVersion is VERSION_CONFLICT with the current version; nothing is booked", async () => {
    const before = await slots();
    const operationId = newOperationId();
    const reply = await world.call(start, ana, {
      operationId,
      orderId: "SU-30015",
      expectedVersion: 2,
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "VERSION_CONFLICT", expectedVersion: 2, currentVersion: 3 });
    await expectNothingChanged("SU-30015", 3);
    expect(await slots()).toEqual(before);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("another customer's order is ORDER_NOT_FOUND, indistinguishable from a missing one", async () => {
    const foreign = await world.call(start, ben, {
      operationId: newOperationId(),
      orderId: "SU-30016",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    const missing = await world.call(start, ben, {
      operationId: newOperationId(),
      orderId: "SU-39999",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const strip = (body: Record<string, any>) =>
      JSON.parse(JSON.stringify(body).replaceAll(body.operationId, "OP").replaceAll(body.orderId, "ID"));
    expect(strip(foreign.body)).toEqual(strip(missing.body));
    expect(foreign.body.error.code).toBe("ORDER_NOT_FOUND");
    expect(JSON.stringify(foreign.body)).not.toMatch(/delivered|version|C-1001|ITM-/);
    await expectNothingChanged("SU-30016", 3);
    expect(await world.operation(ben, foreign.body.operationId)).toMatchObject({ status: "rejected", httpStatus: 404, body: foreign.body });
  });

  it("a suspended seller's order can still be returned", async () => {
    const operationId = newOperationId();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30004", itemIds: ["ITM-1"], reason: "damaged" });
    expect(reply.status).toBe(200);
    expect(reply.body.return).toMatchObject({ returnId: "RET-30004-4", itemIds: ["ITM-1"] });
    expect(await world.order("SU-30004")).toMatchObject({ version: 4, returnedItemIds: ["ITM-1"] });
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", body: reply.body });
  });

  it("support may start a return on any order, and the activity says who did", async () => {
    const staff = support("S-7");
    const operationId = newOperationId();
    const reply = await world.call(start, staff, { operationId, orderId: "SU-30007", itemIds: ["ITM-3"], reason: "wrong_item" });
    expect(reply.status).toBe(200);
    const order = await world.order("SU-30007");
    expect(order?.activity[0].actor).toEqual({ kind: "support", sub: "staff-S-7" });
    expect(await world.operation(staff, operationId)).toMatchObject({ actor: { kind: "support", sub: "staff-S-7" }, status: "completed" });
  });

  it("a repeated request replays the return; the same id with other items or another tool is IDEMPOTENCY_KEY_REUSED", async () => {
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30017", itemIds: ["ITM-1"], reason: "damaged" };
    const first = await world.call(start, ana, request);
    const capacity = await slotCapacity(world, first.body.return.pickup.date, first.body.return.pickup.window);
    world.counter.reset();
    const again = await world.call(start, ana, request);
    expect(world.counter.snapshot()).toEqual({ PutItemCommand: 1 });

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);

    const otherItems = await world.call(start, ana, { ...request, itemIds: ["ITM-2"] });
    expect(otherItems.status).toBe(422);
    expect(otherItems.body.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", originalTool: "start_return" });
    const otherTool = await world.call(cancel, ana, { operationId, orderId: "SU-30017" });
    expect(otherTool.status).toBe(422);
    expect(otherTool.body.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", originalTool: "start_return" });

    const order = await world.order("SU-30017");
    expect(order).toMatchObject({ version: 4, status: "delivered", returnedItemIds: ["ITM-1"] });
    expect(order?.returns).toHaveLength(1);
    expect(order?.activity).toHaveLength(1);
    expect(await slotCapacity(world, first.body.return.pickup.date, first.body.return.pickup.window)).toBe(capacity);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", body: first.body });
  });

  it("a rejection replays too: the same NO_PICKUP_SLOT, even after capacity opened up", async () => {
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30018", itemIds: ["ITM-1"], reason: "damaged", pickupDate: day(30) };
    const first = await world.call(start, ana, request);
    expect(first.status).toBe(409);
    expect(first.body.error.code).toBe("NO_PICKUP_SLOT");
    const again = await world.call(start, ana, request);
    expect(again.status).toBe(409);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    await expectNothingChanged("SU-30018", 3);
  });

  it("a lost response: get_operation_status says completed, the retry replays, and there is exactly one return and one slot taken", async () => {
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30019", itemIds: ["ITM-1", "ITM-2"], reason: "damaged", pickupDate: day(2) };
    const capacity = await slotCapacity(world, day(2));
    loseNextTransactionResponse(world);

    const lost = await world.call(start, ana, request);
    expect(lost.status).toBe(500);
    expect(lost.body.error).toMatchObject({ code: "INTERNAL", retryable: true });
    expect(lost.body.error.message).toMatch(/outcome is unknown — ask get_operation_status with the same operationId/);
    expect(await world.order("SU-30019")).toMatchObject({ version: 4, returnedItemIds: ["ITM-1", "ITM-2"] });

    const looked = await world.call(status, ana, { operationId });
    expect(looked.status).toBe(200);
    const result = {
      operationId,
      status: "completed",
      orderId: "SU-30019",
      orderVersion: 4,
      return: {
        returnId: "RET-30019-4",
        itemIds: ["ITM-1", "ITM-2"],
        labelRef: "LBL-30019-4",
        pickup: { date: day(2), window: "08:00-12:00" },
      },
    };
    expect(looked.body).toEqual({ operationId, status: "completed", tool: "start_return", orderId: "SU-30019", orderVersion: 4, result });

    const retry = await world.call(start, ana, request);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(result);
    const order = await world.order("SU-30019");
    expect(order?.returns).toHaveLength(1);
    expect(order?.activity).toHaveLength(1);
    expect(await slotCapacity(world, day(2))).toBe((capacity as number) - 1);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", body: result });
  });

  it("the crash window: Powertools' record is gone; the retry returns the recorded return, not ITEM_ALREADY_RETURNED", async () => {
    const w = await newWorld(compoundFixture(today));
    const handler = createHandler({ ...w.deps, now: clockAt(today) });
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30001", itemIds: ["ITM-1"], reason: "damaged" };
    const first = await w.call(handler, ana, request);
    expect(first.status).toBe(200);
    await forgetIdempotencyRecords(w);

    const retry = await w.call(handler, ana, request);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(first.body);
    const order = await w.order("SU-30001");
    expect(order?.returns).toHaveLength(1);
    expect(await slotCapacity(w, day(1))).toBe(4);
  });

  it("a late retry after its pickupDate has passed still replays the recorded return, not INVALID_INPUT", async () => {
    const w = await newWorld(compoundFixture(today));
    let now = clockAt(today);
    const handler = createHandler({ ...w.deps, now: () => now() });
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30001", itemIds: ["ITM-1"], reason: "damaged", pickupDate: day(1) };
    const first = await w.call(handler, ana, request);
    expect(first.status).toBe(200);
    await forgetIdempotencyRecords(w);

    now = clockAt(day(3));
    const retry = await w.call(handler, ana, request);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(first.body);
    // The same past date under a new operationId is refused as input, and not recorded.
    const freshId = newOperationId();
    const fresh = await w.call(handler, ana, { ...request, operationId: freshId, orderId: "SU-30010" });
    expect(fresh.status).toBe(400);
    expect(fresh.body.error.issues).toContainEqual({ path: "pickupDate", message: expect.stringMatching(/not in the future/) });
    expect(await w.operation(ana, freshId)).toBeUndefined();
    expect((await w.order("SU-30001"))?.returns).toHaveLength(1);
  });

  it("malformed proposals are INVALID_INPUT, not recorded, and change nothing", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ itemIds: [], reason: "damaged" }, "itemIds", /itemIds is empty/],
      [{ itemIds: ["ITM-1", "ITM-1"], reason: "damaged" }, "itemIds[1]", /lists ITM-1 more than once/],
      [
        { itemIds: Array.from({ length: 21 }, (_, i) => `ITM-${i + 1}`), reason: "damaged" },
        "itemIds",
        /21 items; one return takes at most 20/,
      ],
      [{ itemIds: ["item-1"], reason: "damaged" }, "itemIds[0]", /item ids are ITM- followed by digits/],
      [{ itemIds: ["ITM-1"], reason: "broken" }, "reason", /damaged, wrong_item, not_as_described, no_longer_needed, other/],
      [{ itemIds: ["ITM-1"], reason: "damaged", pickupDate: "2026-02-30" }, "pickupDate", /calendar date written YYYY-MM-DD/],
      [
        { itemIds: ["ITM-1"], reason: "damaged", pickupDate: today },
        "pickupDate",
        new RegExp(`not in the future; pickups can be booked from ${day(1)}`),
      ],
      [{ itemIds: ["ITM-1"], reason: "damaged", labelRef: "LBL-1" }, "", /unknown field 'labelRef'/],
    ];
    for (const [fields, path, message] of cases) {
      const operationId = newOperationId();
      const reply = await world.call(start, ana, { operationId, orderId: "SU-30016", ...fields });
      expect(reply.status, JSON.stringify(fields)).toBe(400);
      expect(reply.body.error.code).toBe("INVALID_INPUT");
      expect(reply.body.error.issues).toContainEqual({ path, message: expect.stringMatching(message) });
      expect(await world.operation(ana, operationId)).toBeUndefined();
    }
    await expectNothingChanged("SU-30016", 3);
  });
});

describe("start_return with no pickup capacity at all", () => {
  const today = todayUtc();
  const day = (n: number) => addDays(today, n);
  let world: World;
  let start: ReturnType<typeof createHandler>;

  beforeAll(async () => {
    world = await newWorld(
      compoundFixture(today, {
        pickupSlots: [
          { date: day(1), window: "08:00-12:00", capacity: 0 },
          { date: day(2), window: "08:00-12:00", capacity: 0 },
        ],
        extraOrders: [compoundOrder("SU-30050", today, { deliveredDaysAgo: 1 })],
      }),
    );
    start = createHandler({ ...world.deps, now: clockAt(today) });
  });

  it("NO_PICKUP_SLOT says no day has capacity and what to do, with an empty availableDates", async () => {
    const operationId = newOperationId();
    const reply = await world.call(start, ana, { operationId, orderId: "SU-30050", itemIds: ["ITM-1"], reason: "damaged" });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ status: "rejected", error: { code: "NO_PICKUP_SLOT", availableDates: [] } });
    expect(reply.body.error.message).toBe(
      `No pickup slot has capacity on or after ${day(1)}. No day from ${day(1)} on has pickup capacity left, so no collection can be booked now; try again later with a new operationId, when the carrier has opened more days.`,
    );
    expect(await world.order("SU-30050")).toMatchObject({ version: 3, activity: [] });
    expect(await slotCapacity(world, day(1))).toBe(0);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });
  });

  it("the order's own rejections come first: a shipped order is NOT_DELIVERED, a closed window RETURN_WINDOW_CLOSED, not NO_PICKUP_SLOT", async () => {
    const shipped = await world.call(start, ana, {
      operationId: newOperationId(),
      orderId: "SU-30005",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(shipped.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "NOT_DELIVERED" });
    const closed = await world.call(start, ana, {
      operationId: newOperationId(),
      orderId: "SU-30002",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(closed.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "RETURN_WINDOW_CLOSED" });
    const stale = await world.call(start, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      expectedVersion: 1,
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(stale.body.error).toMatchObject({ code: "VERSION_CONFLICT", currentVersion: 3 });
    const foreign = await world.call(start, ben, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(foreign.body.error).toMatchObject({ code: "ORDER_NOT_FOUND" });
  });
});
