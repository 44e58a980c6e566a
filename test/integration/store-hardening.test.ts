import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { itemSize } from "#bench/support/capacity";
import { describe, expect, it } from "vitest";
import type { StoreDeps } from "#store/client";
import { loadFixture } from "#store/fixture";
import { operationKey, orderContentKey, orderKey, supportRateKey } from "#store/keys";
import { customerIndex, orderSummaryAttributes } from "#store/table-design";
import { createHandler as createNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createReplace } from "#tools/offer-replacement";
import { createHandler as createReturn } from "#tools/start-return";
import { clockAt, compoundFixture, compoundOrder, item, stockOf, todayUtc } from "#test/support/compound-orders";
import { testFixture } from "#test/support/test-shop";
import { customer, newOperationId, newWorld, support, type World } from "#test/support/world";

/** Hardening of the store's shared mechanism (replacement lines, the order's history, per-caller limits, error bodies): each test here failed before its fix. */
const ana = customer("C-1001");
const ben = customer("C-2002");
const today = todayUtc();

async function compoundWorld(extraOrders: unknown[] = []) {
  const world = await newWorld(compoundFixture(today, { extraOrders }));
  const deps = { ...world.deps, now: clockAt(today) };
  return { world, deps, startReturn: createReturn(deps), replace: createReplace(deps), getOrder: createGetOrder(deps) };
}

describe("a replacement line is neither replaced nor returned (REPLACEMENT_LINE)", () => {
  it("replacing or returning the line that replaced another is NOT_ELIGIBLE REPLACEMENT_LINE; nothing changes; it is not offered", async () => {
    const { world, startReturn, replace, getOrder } = await compoundWorld();
    const first = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(first.body).toMatchObject({ orderVersion: 4, replacement: { replacementItemId: "ITM-4" } });

    const again = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      expectedVersion: 4,
      itemId: "ITM-4",
      reason: "damaged",
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      status: "rejected",
      error: { code: "NOT_ELIGIBLE", reason: "REPLACEMENT_LINE", orderStatus: "delivered" },
    });
    expect(again.body.error.message).toBe(
      "ITM-4 on order SU-30001 is itself a replacement (for ITM-1), so it cannot be replaced through these tools; a person must handle it. Other items on the order are not affected.",
    );
    const returned = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      itemIds: ["ITM-4"],
      reason: "damaged",
    });
    expect(returned.status).toBe(409);
    expect(returned.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "REPLACEMENT_LINE" });
    expect(returned.body.error.message).toMatch(/cannot be returned through these tools; a person must handle it/);
    expect(await world.order("SU-30001")).toMatchObject({ version: 4, replacedItemIds: ["ITM-1"] });
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(2);

    // Once every original line is returned, only the replacement line is left: start_return is not offered.
    const rest = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      itemIds: ["ITM-1", "ITM-2", "ITM-3"],
      reason: "damaged",
    });
    expect(rest.status).toBe(200);
    const view = await world.call(getOrder, ana, { orderId: "SU-30001" });
    expect(view.body.allowedActions).not.toContain("start_return");
    expect(view.body.allowedActions).not.toContain("offer_replacement");
  });

  it("a replacement line is made from its record, never stored: the order's own lines are written once", async () => {
    const { world, replace, getOrder } = await compoundWorld();
    const content = async () =>
      (await world.deps.doc.send(new GetCommand({ TableName: world.names.orders, Key: orderContentKey("SU-30001") }))).Item;
    const before = await content();
    const reply = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30001",
      expectedVersion: 3,
      itemId: "ITM-2",
      reason: "damaged",
    });
    expect(reply.status).toBe(200);
    // The content item is as the order was placed; the state item took the record, and every read shows the line.
    expect(await content()).toEqual(before);
    expect((await world.orderItem("SU-30001"))?.replacements).toEqual([
      expect.objectContaining({ itemId: "ITM-2", replacementItemId: "ITM-4" }),
    ]);
    const view = await world.call(getOrder, ana, { orderId: "SU-30001" });
    expect(view.body.items.map((i: { itemId: string; title: string }) => [i.itemId, i.title])).toEqual([
      ["ITM-1", "Ashcombe 4-Shelf Unit, Oak"],
      ["ITM-2", "Brass Desk Lamp"],
      ["ITM-3", "Oak Step Stool"],
      ["ITM-4", "Replacement for ITM-2: Brass Desk Lamp"],
    ]);
  });
});

describe("the order's state does not grow with its history", () => {
  it("each change's operation record is its history entry, linked from the state to the change before; the state keeps one link", async () => {
    const world = await newWorld();
    const note = createNote(world.deps);
    const operationIds: string[] = [];
    for (const [i, version] of [1, 2, 3].entries()) {
      operationIds.push(newOperationId());
      const reply = await world.call(note, ana, {
        operationId: operationIds[i],
        orderId: "SU-10001",
        expectedVersion: version,
        deliveryNote: `Note ${i}`,
      });
      expect(reply.status).toBe(200);
    }
    const stored = await world.orderItem("SU-10001");
    expect(stored).toMatchObject({ version: 4, deliveryNote: "Note 2", lastChange: operationKey("user-C-1001", operationIds[2]!) });
    expect(stored).not.toHaveProperty("activity");
    // The order's partition holds its state and content and nothing else: no item per change.
    const { Items = [] } = await world.deps.doc.send(
      new QueryCommand({
        TableName: world.names.orders,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": "ORDER#SU-10001" },
        ConsistentRead: true,
      }),
    );
    expect(Items.map((i) => i.SK)).toEqual(["ORDER", "ORDER#CONTENT"]);
    // Each record names the one before; the first names none. A completed change's record does not expire.
    const records = await Promise.all(
      operationIds.map((id) =>
        world.deps.doc.send(new GetCommand({ TableName: world.names.orders, Key: operationKey("user-C-1001", id) })),
      ),
    );
    expect(records.map((r) => r.Item?.previous)).toEqual([
      undefined,
      operationKey("user-C-1001", operationIds[0]!),
      operationKey("user-C-1001", operationIds[1]!),
    ]);
    expect(records.map((r) => r.Item?.expiresAt)).toEqual([undefined, undefined, undefined]);
    const activity = (await world.order("SU-10001"))?.activity;
    expect(activity?.map((a: { version: number; operationId: string }) => [a.version, a.operationId])).toEqual([
      [2, operationIds[0]],
      [3, operationIds[1]],
      [4, operationIds[2]],
    ]);
    expect(activity?.[2]).toEqual({
      orderId: "SU-10001",
      version: 4,
      at: expect.any(String),
      tool: "add_delivery_note",
      operationId: operationIds[2],
      actor: { kind: "customer", sub: "user-C-1001", customerId: "C-1001" },
      summary: "Delivery note set",
    });
  });

  it("an order loaded again starts a new history; the records of its first life stay, unlinked", async () => {
    const world = await newWorld();
    const note = createNote(world.deps);
    const first = newOperationId();
    expect(
      (await world.call(note, ana, { operationId: first, orderId: "SU-10001", expectedVersion: 1, deliveryNote: "First life" })).status,
    ).toBe(200);
    // `npm run seed` on a running stack: the fixture order comes back at version 1.
    await loadFixture(world.deps, testFixture());
    expect(await world.orderItem("SU-10001")).toMatchObject({ version: 1, deliveryNote: null });
    expect(await world.orderItem("SU-10001")).not.toHaveProperty("lastChange");

    const operationId = newOperationId();
    const reply = await world.call(note, ana, { operationId, orderId: "SU-10001", expectedVersion: 1, deliveryNote: "Second life" });
    expect(reply.status).toBe(200);
    expect(await world.orderItem("SU-10001")).toMatchObject({ version: 2, deliveryNote: "Second life" });
    const activity = (await world.order("SU-10001"))?.activity;
    expect(activity).toHaveLength(1);
    expect(activity?.[0]).toMatchObject({ version: 2, operationId });
    expect(await world.operation(ana, first)).toMatchObject({ status: "completed", orderVersion: 2 });
  });

  it("the customer index holds only what a search result is made from", async () => {
    const world = await newWorld();
    const { Items = [] } = await world.deps.doc.send(
      new QueryCommand({
        TableName: world.names.orders,
        IndexName: customerIndex.indexName,
        KeyConditionExpression: "GSI1PK = :pk",
        ExpressionAttributeValues: { ":pk": "CUSTOMER#C-1001" },
      }),
    );
    expect(Items.length).toBeGreaterThan(0);
    const keys = ["PK", "SK", "GSI1PK", "GSI1SK"];
    for (const entry of Items) {
      // The keys, and of the summary what the order has (deliveredAt is null until delivered, but stored).
      expect(Object.keys(entry).sort()).toEqual([...keys, ...orderSummaryAttributes].sort());
      expect(entry.itemTitles.length).toBeLessThanOrEqual(3);
    }
  });

  it("an order whose lines fill most of an item still takes a replacement: the line is not copied into it", async () => {
    // Two lines with ~180 KB seller descriptions: the order's content fits (~360 KB), and a replacement line copying
    // one would not; the replacement adds its record to the order's state instead. No seller's text that long
    // enters through the fixture (contract §6), so they are written to the stored content directly, as any writer to
    // the table could have.
    const huge = (n: number) => ({ ...item(n, "ASH-4SHELF-OAK", `Huge ${n}`), description: "x".repeat(180_000) });
    const { world, replace, getOrder } = await compoundWorld([
      compoundOrder("SU-30200", today, { items: [huge(1), huge(2)].map((i) => ({ ...i, description: "x" })) }),
    ]);
    await world.deps.doc.send(
      new UpdateCommand({
        TableName: world.names.orders,
        Key: orderContentKey("SU-30200"),
        UpdateExpression: "SET #items = :items",
        ExpressionAttributeNames: { "#items": "items" },
        ExpressionAttributeValues: { ":items": [huge(1), huge(2)] },
      }),
    );
    const reply = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30200",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(reply.status).toBe(200);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(2);
    expect((await world.orderItem("SU-30200"))?.replacements).toEqual([
      expect.objectContaining({ itemId: "ITM-1", replacementItemId: "ITM-3" }),
    ]);
    const view = await world.call(getOrder, ana, { orderId: "SU-30200" });
    expect(view.body.items.map((i: { itemId: string; title: string }) => [i.itemId, i.title])).toEqual([
      ["ITM-1", "Huge 1"],
      ["ITM-2", "Huge 2"],
      ["ITM-3", "Replacement for ITM-1: Huge 1"],
    ]);
  });

  it("a change that would take the order's state past DynamoDB's item size is ORDER_TOO_LARGE: definite, recorded, nothing changed", async () => {
    const world = await newWorld();
    const cancel = createCancel(world.deps);
    // An order whose state the order system filled to within 100 bytes of DynamoDB's 400 KB; a cancellation does not fit.
    const room = 409_600 - itemSize(marshall(await world.orderItem("SU-10001"))) - "padding".length;
    await world.deps.doc.send(
      new UpdateCommand({
        TableName: world.names.orders,
        Key: orderKey("SU-10001"),
        UpdateExpression: "SET #padding = :padding",
        ExpressionAttributeNames: { "#padding": "padding" },
        ExpressionAttributeValues: { ":padding": "x".repeat(room - 100) },
      }),
    );
    const operationId = newOperationId();
    const reply = await world.call(cancel, ana, { operationId, orderId: "SU-10001", expectedVersion: 1, reason: "r".repeat(200) });

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      operationId,
      status: "rejected",
      orderId: "SU-10001",
      error: { code: "ORDER_TOO_LARGE", retryable: false },
    });
    expect(reply.body.error.message).toMatch(
      /nothing was changed, and repeating the request will not change that\. A person must handle further changes to this order\./,
    );
    expect(await world.orderItem("SU-10001")).toMatchObject({ version: 1, status: "placed" });
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });
  });
});

describe("per-caller limits", () => {
  async function limitedWorld(limits: Partial<StoreDeps>) {
    const world = await newWorld();
    let clock = new Date("2026-11-29T10:00:30Z").getTime();
    const deps: StoreDeps = { ...world.deps, ...limits, now: () => new Date(clock) };
    return { world, deps, advance: (seconds: number) => (clock += seconds * 1000) };
  }

  it("the request budget counts every call of one caller, reads and rejections too; the next minute is free again", async () => {
    const { world, deps, advance } = await limitedWorld({ requestBudget: 3 });
    const getOrder = createGetOrder(deps);
    const cancel = createCancel(deps);
    expect((await world.call(getOrder, ana, { orderId: "SU-10001" })).status).toBe(200);
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10004" })).status).toBe(409);
    expect((await world.call(getOrder, ana, { orderId: "SU-99999" })).status).toBe(404);

    const operationId = newOperationId();
    const limited = await world.call(cancel, ana, { operationId, orderId: "SU-10001" });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "RATE_LIMITED", retryable: true, retryAfterSeconds: 30 });
    expect(limited.headers["retry-after"]).toBe("30");
    expect(limited.body.error.message).toMatch(/sent 3 requests in the current minute.*Wait 30 s/);
    expect(await world.operation(ana, operationId)).toBeUndefined();
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    // Another caller has a budget of their own.
    expect((await world.call(getOrder, ben, { orderId: "SU-20001" })).status).toBe(200);

    advance(30);
    const later = await world.call(cancel, ana, { operationId, orderId: "SU-10001" });
    expect(later.status).toBe(200);
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
  });

  it("a support actor's changes are capped per staff identity; other staff and customers are not held back", async () => {
    const { world, deps, advance } = await limitedWorld({ supportHourlyCap: 2 });
    const note = createNote(deps);
    const cancel = createCancel(deps);
    const s7 = support("S-7");
    expect(
      (
        await world.call(note, s7, {
          operationId: newOperationId(),
          orderId: "SU-10001",
          expectedVersion: 1,
          deliveryNote: "Gate code 4411",
        })
      ).status,
    ).toBe(200);
    advance(600);
    expect((await world.call(cancel, s7, { operationId: newOperationId(), orderId: "SU-20001" })).status).toBe(200);
    advance(600);

    const operationId = newOperationId();
    const limited = await world.call(cancel, s7, { operationId, orderId: "SU-10002" });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 40 * 60 });
    expect(limited.headers["retry-after"]).toBe("2400");
    expect(limited.body.error.message).toMatch(/You have made 2 order changes as support staff in the past hour; the limit is 2/);
    expect(await world.orderItem("SU-10002")).toMatchObject({ status: "processing", version: 4 });
    expect(await world.operation(s7, operationId)).toBeUndefined();
    const allowance = (
      await world.deps.doc.send(new GetCommand({ TableName: world.names.orders, Key: supportRateKey("staff-S-7"), ConsistentRead: true }))
    ).Item;
    expect(allowance?.recent).toHaveLength(2);

    expect((await world.call(cancel, support("S-8"), { operationId: newOperationId(), orderId: "SU-10002" })).status).toBe(200);
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10003" })).status).toBe(200);
  });
});

describe("error bodies carry no internal details", () => {
  it("an unexplained cancelled transaction is INTERNAL without DynamoDB's codes", async () => {
    const world: World = await newWorld();
    world.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== "TransactWriteItemsCommand") return next(args);
        throw new TransactionCanceledException({
          message: "Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, ThrottlingError]",
          $metadata: {},
          CancellationReasons: [
            { Code: "None" },
            { Code: "None" },
            { Code: "ThrottlingError", Message: "Throughput exceeds the current capacity of your table or index." },
          ],
        });
      },
      { step: "initialize", name: "unexplained" },
    );
    const reply = await world.call(createCancel(world.deps), ana, { operationId: newOperationId(), orderId: "SU-10001" });
    expect(reply.status).toBe(500);
    expect(reply.body.error).toMatchObject({ code: "INTERNAL", retryable: true });
    expect(reply.body.error.message).toMatch(/outcome is unknown — ask get_operation_status with the same operationId/);
    expect(reply.text).not.toMatch(/Throttling|None|Throughput|TransactionCanceled/);
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });
});
