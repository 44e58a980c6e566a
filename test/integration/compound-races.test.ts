import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { addDays } from "#core/days";
import { pickupSlotKey } from "#store/keys";
import { createHandler as createReplace } from "#tools/offer-replacement";
import { createHandler as createReturn } from "#tools/start-return";
import { clockAt, compoundFixture, compoundOrder, slotCapacity, stockOf, todayUtc } from "#test/support/compound-orders";
import { customer, newOperationId, newWorld, type Reply, type World } from "#test/support/world";

const ana = customer("C-1001");
const today = todayUtc();
const day = (n: number) => addDays(today, n);

async function compoundWorld(options: Parameters<typeof compoundFixture>[1] = {}) {
  const world = await newWorld(compoundFixture(today, options));
  const deps = { ...world.deps, now: clockAt(today) };
  return { world, startReturn: createReturn(deps), replace: createReplace(deps) };
}

/**
 * Empties slots from outside, one just before each of the next TransactWriteItems: other bookings got there
 * between this operation's read of the slots and its write.
 */
function fillSlotsBeforeTransactions(world: World, slots: [date: string, window: string][]) {
  const pending = [...slots];
  world.client.middlewareStack.add(
    (next, context) => async (args) => {
      const slot = context.commandName === "TransactWriteItemsCommand" ? pending.shift() : undefined;
      if (slot) {
        await world.deps.doc.send(
          new UpdateCommand({
            TableName: world.names.orders,
            Key: pickupSlotKey(...slot),
            UpdateExpression: "SET #capacity = :zero",
            ExpressionAttributeNames: { "#capacity": "capacity" },
            ExpressionAttributeValues: { ":zero": 0 },
          }),
        );
      }
      return next(args);
    },
    { step: "initialize", name: "fillSlots" },
  );
}

describe("compound actions under contention", () => {
  it("two concurrent returns of the same item: exactly one succeeds, the other is ITEM_ALREADY_RETURNED, one slot unit is used", async () => {
    const { world, startReturn } = await compoundWorld();
    const ids = [newOperationId(), newOperationId()];
    const replies = await Promise.all(
      ids.map((operationId) => world.call(startReturn, ana, { operationId, orderId: "SU-30001", itemIds: ["ITM-2"], reason: "damaged" })),
    );

    const won = replies.filter((r) => r.status === 200);
    const lost = replies.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_RETURNED" });
    const order = await world.order("SU-30001");
    expect(order).toMatchObject({ version: 4, returnedItemIds: ["ITM-2"] });
    expect(order?.returns).toHaveLength(1);
    expect(order?.activity).toHaveLength(1);
    expect(await slotCapacity(world, day(1))).toBe(4);
    for (const [i, operationId] of ids.entries()) {
      expect(await world.operation(ana, operationId)).toMatchObject({
        status: replies[i]?.status === 200 ? "completed" : "rejected",
        body: replies[i]?.body,
      });
    }
  });

  it("N concurrent returns of different orders contest a date with capacity k: exactly k get it, the rest the next date or NO_PICKUP_SLOT, capacity never below 0", async () => {
    const n = 8;
    const k = 3;
    const nextCapacity = 2;
    const orders = Array.from({ length: n }, (_, i) => `SU-31${String(i).padStart(3, "0")}`);
    const { world, startReturn } = await compoundWorld({
      pickupSlots: [
        { date: day(1), window: "08:00-12:00", capacity: k },
        { date: day(2), window: "08:00-12:00", capacity: nextCapacity },
      ],
      extraOrders: orders.map((id) => compoundOrder(id, today, { deliveredDaysAgo: 2 })),
    });

    // Watch both slots throughout the race: neither may ever be seen below zero.
    const seen: number[] = [];
    let racing = true;
    const watcher = (async () => {
      while (racing) {
        seen.push((await slotCapacity(world, day(1))) as number, (await slotCapacity(world, day(2))) as number);
      }
    })();
    const replies: Reply[] = await Promise.all(
      orders.map((orderId) =>
        world.call(startReturn, ana, { operationId: newOperationId(), orderId, itemIds: ["ITM-1"], reason: "no_longer_needed" }),
      ),
    );
    racing = false;
    await watcher;

    const onDate = (date: string) => replies.filter((r) => r.status === 200 && r.body.return.pickup.date === date);
    const noSlot = replies.filter((r) => r.status === 409 && r.body.error.code === "NO_PICKUP_SLOT");
    expect(replies.filter((r) => r.status !== 200 && r.status !== 409)).toEqual([]);
    expect(onDate(day(1))).toHaveLength(k);
    expect(onDate(day(2)).length).toBeLessThanOrEqual(nextCapacity);
    expect(onDate(day(1)).length + onDate(day(2)).length + noSlot.length).toBe(n);
    // With total capacity below demand, every unit is used: a loser moves on to the next candidate once.
    expect(onDate(day(2))).toHaveLength(nextCapacity);
    for (const reply of noSlot) expect(reply.body.error.availableDates).toEqual([]);

    expect(await slotCapacity(world, day(1))).toBe(0);
    expect(await slotCapacity(world, day(2))).toBe(0);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    // Every reply is what the store holds: a return on each order that got a slot, none on the others.
    for (const [i, orderId] of orders.entries()) {
      const order = await world.order(orderId);
      const reply = replies[i] as Reply;
      if (reply.status === 200) {
        expect(order?.returns).toEqual([expect.objectContaining({ pickup: reply.body.return.pickup })]);
      } else {
        expect(order).toMatchObject({ version: 3, activity: [] });
        expect(order?.returns).toBeUndefined();
      }
      expect(await world.operation(ana, reply.body.operationId)).toMatchObject({ body: reply.body });
    }
  });

  it("two concurrent replacements contest the last unit of stock: exactly one succeeds, the other is OUT_OF_STOCK, stock ends at 0", async () => {
    const { world, replace } = await compoundWorld();
    const requests = [
      { operationId: newOperationId(), orderId: "SU-30010", expectedVersion: 3, itemId: "ITM-2", reason: "damaged" },
      { operationId: newOperationId(), orderId: "SU-30011", expectedVersion: 3, itemId: "ITM-2", reason: "missing" },
    ];
    const replies = await Promise.all(requests.map((request) => world.call(replace, ana, request)));

    const won = replies.filter((r) => r.status === 200);
    const lost = replies.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.body.error).toMatchObject({ code: "OUT_OF_STOCK", sku: "BRASS-LAMP" });
    expect(await stockOf(world, "BRASS-LAMP")).toBe(0);
    for (const [i, request] of requests.entries()) {
      const order = await world.order(request.orderId);
      if (replies[i]?.status === 200) {
        expect(order).toMatchObject({ version: 4, replacedItemIds: ["ITM-2"] });
      } else {
        expect(order).toMatchObject({ version: 3, activity: [] });
        expect(order?.replacements).toBeUndefined();
      }
      expect(await world.operation(ana, request.operationId)).toMatchObject({ body: replies[i]?.body });
    }
  });

  it("a slot lost between the read and the write: the same operation books the next candidate, with one read of the slots", async () => {
    const { world, startReturn } = await compoundWorld();
    fillSlotsBeforeTransactions(world, [[day(1), "08:00-12:00"]]);
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(startReturn, ana, { operationId, orderId: "SU-30001", itemIds: ["ITM-1"], reason: "damaged" });
    const requests = world.counter.snapshot();

    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      orderVersion: 4,
      return: { returnId: "RET-30001-4", pickup: { date: day(1), window: "12:00-17:00" } },
    });
    expect(await slotCapacity(world, day(1))).toBe(0);
    expect(await slotCapacity(world, day(1), "12:00-17:00")).toBe(4);
    expect(await world.order("SU-30001")).toMatchObject({
      version: 4,
      returns: [expect.objectContaining({ pickup: { date: day(1), window: "12:00-17:00" } })],
    });
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", body: reply.body });
    // The order read for each of the two attempts (a Query of its partition, then a GetItem of its state: the
    // function holds its content from the first) and the slots read once.
    expect(requests).toMatchObject({ QueryCommand: 2, TransactWriteItemsCommand: 2 });
  });

  it("lost twice: NO_PICKUP_SLOT naming the lost slots and listing the dates that still have capacity; nothing changes", async () => {
    const { world, startReturn } = await compoundWorld();
    fillSlotsBeforeTransactions(world, [
      [day(1), "08:00-12:00"],
      [day(1), "12:00-17:00"],
    ]);
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(startReturn, ana, { operationId, orderId: "SU-30001", itemIds: ["ITM-1"], reason: "damaged" });
    const requests = world.counter.snapshot();

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      operationId,
      status: "rejected",
      orderId: "SU-30001",
      error: { code: "NO_PICKUP_SLOT", availableDates: [day(2), day(4)] },
    });
    expect(reply.body.error.message).toBe(
      `The pickup slots ${day(1)} 08:00-12:00 and ${day(1)} 12:00-17:00 filled up with other returns while this one was being booked. Days that still have capacity: ${day(2)}, ${day(4)}. Send start_return again with a new operationId and one of them as pickupDate.`,
    );
    const order = await world.order("SU-30001");
    expect(order).toMatchObject({ version: 3, activity: [] });
    expect(order?.returns).toBeUndefined();
    expect(await slotCapacity(world, day(2))).toBe(5);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });
    // The order read for each attempt (a Query of its partition, then a GetItem of its state: the function holds
    // its content from the first), one read of the slots, the first attempt, the one retry, then the rejection's
    // record.
    expect(requests).toMatchObject({ QueryCommand: 2, TransactWriteItemsCommand: 2 });
  });

  it("concurrent returns of different items of one order all succeed, in turn, each on the version it read", async () => {
    const { world, startReturn } = await compoundWorld();
    const replies = await Promise.all(
      ["ITM-1", "ITM-2", "ITM-3"].map((itemId) =>
        world.call(startReturn, ana, { operationId: newOperationId(), orderId: "SU-30001", itemIds: [itemId], reason: "other" }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(replies.map((r) => r.body.orderVersion).sort()).toEqual([4, 5, 6]);
    const order = await world.order("SU-30001");
    expect(order?.version).toBe(6);
    expect([...(order?.returnedItemIds ?? [])].sort()).toEqual(["ITM-1", "ITM-2", "ITM-3"]);
    expect(order?.returns).toHaveLength(3);
    expect(await slotCapacity(world, day(1))).toBe(2);
  });
});
