import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#core/days";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { createHandler } from "#tools/offer-replacement";
import { createHandler as createReturn } from "#tools/start-return";
import { clockAt, compoundFixture, stockOf, todayUtc } from "#test/support/compound-orders";
import { loseNextTransactionResponse } from "#test/support/sdk-faults";
import { customer, newOperationId, newWorld, support, type World } from "#test/support/world";

const ana = customer("C-1001");
const ben = customer("C-2002");

describe("offer_replacement", () => {
  const today = todayUtc();
  const day = (n: number) => addDays(today, n);
  let world: World;
  let replace: ReturnType<typeof createHandler>;
  let startReturn: ReturnType<typeof createReturn>;

  beforeAll(async () => {
    world = await newWorld(compoundFixture(today));
    const deps = { ...world.deps, now: clockAt(today) };
    replace = createHandler(deps);
    startReturn = createReturn(deps);
  });

  /** What a refused replacement must leave behind: the order as it was (the stock is checked by each test). */
  async function expectOrderUnchanged(orderId: string, version: number) {
    const order = await world.order(orderId);
    expect(order?.version).toBe(version);
    expect(order?.items).toHaveLength(3);
    expect(order?.replacements).toBeUndefined();
    expect(order?.replacedItemIds).toBeUndefined();
    expect(order?.activity).toEqual([]);
  }

  it("the owner has a damaged item replaced: stock reserved, a replacement line and record on the order, in one transaction", async () => {
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30001",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    const requests = world.counter.snapshot();

    expect(reply.status).toBe(200);
    expect(reply.headers["idempotent-replayed"]).toBeUndefined();
    expect(reply.body).toEqual({
      operationId,
      status: "completed",
      orderId: "SU-30001",
      orderVersion: 4,
      replacement: { itemId: "ITM-1", replacementItemId: "ITM-4", sku: "ASH-4SHELF-OAK" },
    });
    const order = await world.order("SU-30001");
    expect(order).toMatchObject({ status: "delivered", version: 4, replacedItemIds: ["ITM-1"] });
    expect(order?.replacements).toEqual([
      { itemId: "ITM-1", replacementItemId: "ITM-4", sku: "ASH-4SHELF-OAK", reason: "damaged", createdAt: `${today}T10:00:00.000Z` },
    ]);
    expect(order?.items).toHaveLength(4);
    expect(order?.items[3]).toEqual({
      itemId: "ITM-4",
      sku: "ASH-4SHELF-OAK",
      title: "Replacement for ITM-1: Ashcombe 4-Shelf Unit, Oak",
      quantity: 1,
      unitCents: 0,
      description: "Ashcombe 4-Shelf Unit, Oak, as described by the seller",
      replacementFor: "ITM-1",
    });
    expect(order?.charges).toEqual([
      { kind: "item", cents: 11800 },
      { kind: "delivery", cents: 995 },
    ]);
    expect(order?.activity).toHaveLength(1);
    expect(order?.activity[0]).toMatchObject({
      tool: "offer_replacement",
      operationId,
      itemId: "ITM-1",
      replacementItemId: "ITM-4",
      sku: "ASH-4SHELF-OAK",
      quantity: 1,
      reason: "damaged",
    });
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(2);
    expect(await world.operation(ana, operationId)).toMatchObject({
      tool: "offer_replacement",
      status: "completed",
      orderId: "SU-30001",
      orderVersion: 4,
      httpStatus: 200,
      body: reply.body,
    });
    // Powertools' put; the order read (one Query of its partition: seller and SKU); seller + policies (one
    // BatchGet, then cached); one transaction (order, operation record, seller check, stock); Powertools' completion.
    expect(requests).toEqual({
      BatchGetItemCommand: 1,
      PutItemCommand: 1,
      QueryCommand: 1,
      TransactWriteItemsCommand: 1,
      UpdateItemCommand: 1,
    });
  });

  it("a suspended seller: the replacement is SELLER_SUSPENDED and says start_return still works — and it does", async () => {
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30004",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      operationId,
      status: "rejected",
      orderId: "SU-30004",
      error: { code: "SELLER_SUSPENDED", sellerId: "SLR-3300", retryable: false },
    });
    expect(reply.body.error.message).toBe(
      "Brightwell Lighting, the seller of order SU-30004, is suspended, so it cannot send a replacement for ITM-1. start_return still works for this order: it books a carrier pickup and takes ITM-1 back.",
    );
    await expectOrderUnchanged("SU-30004", 3);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(2);
    expect(await world.operation(ana, operationId)).toMatchObject({
      tool: "offer_replacement",
      status: "rejected",
      httpStatus: 409,
      body: reply.body,
    });

    const returned = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30004",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(returned.status).toBe(200);
    expect(await world.order("SU-30004")).toMatchObject({ version: 4, returnedItemIds: ["ITM-1"] });
  });

  it("no stock for the item's whole quantity is OUT_OF_STOCK with the sku; stock stays at 0 and the order unchanged", async () => {
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30010",
      expectedVersion: 3,
      itemId: "ITM-3",
      reason: "wrong_item",
    });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      status: "rejected",
      orderId: "SU-30010",
      error: { code: "OUT_OF_STOCK", sku: "OAK-STOOL", retryable: false },
    });
    expect(reply.body.error.message).toBe(
      "OAK-STOOL is out of stock for the 2 units that replacing ITM-3 on order SU-30010 needs, so no replacement can be reserved now. start_return can take ITM-3 back instead, or try offer_replacement again later with a new operationId.",
    );
    await expectOrderUnchanged("SU-30010", 3);
    expect(await stockOf(world, "OAK-STOOL")).toBe(0);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });
  });

  it("a second replacement of the same item is ITEM_ALREADY_REPLACED; stock is reserved once", async () => {
    const first = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30011",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(first.status).toBe(200);
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30011",
      expectedVersion: 4,
      itemId: "ITM-1",
      reason: "missing",
    });

    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_REPLACED", orderStatus: "delivered" });
    expect(reply.body.error.message).toBe(
      `ITM-1 on order SU-30011 was already replaced on ${today} by ITM-4 (ASH-4SHELF-OAK); an item is replaced once. start_return can still take ITM-1 back.`,
    );
    const order = await world.order("SU-30011");
    expect(order).toMatchObject({ version: 4, replacedItemIds: ["ITM-1"] });
    expect(order?.replacements).toHaveLength(1);
    expect(order?.items).toHaveLength(4);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(1);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("an item being returned is not replaced as well: ITEM_ALREADY_RETURNED", async () => {
    const returned = await world.call(startReturn, ana, {
      operationId: newOperationId(),
      orderId: "SU-30012",
      itemIds: ["ITM-2"],
      reason: "damaged",
    });
    expect(returned.status).toBe(200);
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30012",
      expectedVersion: 4,
      itemId: "ITM-2",
      reason: "damaged",
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_RETURNED" });
    expect(reply.body.error.message).toBe(
      `ITM-2 on order SU-30012 is already being returned: return RET-30012-4 started on ${today}, with pickup on ${day(1)} (08:00-12:00), so it is not replaced as well. Nothing more needs doing for ITM-2.`,
    );
    expect(await world.order("SU-30012")).toMatchObject({ version: 4 });
    expect((await world.order("SU-30012"))?.replacements).toBeUndefined();
    expect(await stockOf(world, "BRASS-LAMP")).toBe(1);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("an item the order does not have is UNKNOWN_ITEM, listing the order's items", async () => {
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30013",
      expectedVersion: 3,
      itemId: "ITM-7",
      reason: "missing",
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "UNKNOWN_ITEM" });
    expect(reply.body.error.message).toBe(
      "Order SU-30013 has no item ITM-7. Its items are ITM-1 (Ashcombe 4-Shelf Unit, Oak), ITM-2 (Brass Desk Lamp) and ITM-3 (Oak Step Stool); send item ids from that list.",
    );
    await expectOrderUnchanged("SU-30013", 3);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("a shipped order is NOT_DELIVERED and a cancelled one ALREADY_CANCELLED, naming the item", async () => {
    const shipped = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30005",
      expectedVersion: 4,
      itemId: "ITM-1",
      reason: "missing",
    });
    expect(shipped.status).toBe(409);
    expect(shipped.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "NOT_DELIVERED", orderStatus: "shipped" });
    expect(shipped.body.error.message).toContain(`so ITM-1 cannot be replaced yet`);
    await expectOrderUnchanged("SU-30005", 4);
    expect(await world.operation(ana, shipped.body.operationId)).toMatchObject({ status: "rejected", body: shipped.body });

    const cancelled = await world.call(replace, ana, {
      operationId: newOperationId(),
      orderId: "SU-30006",
      expectedVersion: 2,
      itemId: "ITM-1",
      reason: "missing",
    });
    expect(cancelled.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ALREADY_CANCELLED" });
    await expectOrderUnchanged("SU-30006", 2);
  });

  it("after the policy window a replacement is RETURN_WINDOW_CLOSED", async () => {
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30002",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "RETURN_WINDOW_CLOSED" });
    expect(reply.body.error.message).toContain(
      `closed on ${day(-6)} (14-day window from delivery on ${day(-20)}, policy seller-supp/SLR-2210), so ITM-1 can no longer be replaced`,
    );
    await expectOrderUnchanged("SU-30002", 3);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("a stale expectedVersion is VERSION_CONFLICT, and no stock is reserved", async () => {
    const stock = await stockOf(world, "ASH-4SHELF-OAK");
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30014",
      expectedVersion: 2,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "VERSION_CONFLICT", expectedVersion: 2, currentVersion: 3 });
    await expectOrderUnchanged("SU-30014", 3);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(stock);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("expectedVersion is required", async () => {
    const operationId = newOperationId();
    const reply = await world.call(replace, ana, { operationId, orderId: "SU-30014", itemId: "ITM-1", reason: "damaged" });
    expect(reply.status).toBe(400);
    expect(reply.body.error.issues).toContainEqual({
      path: "expectedVersion",
      message: expect.stringMatching(/expectedVersion is required/),
    });
    expect(await world.operation(ana, operationId)).toBeUndefined();
    const badReason = await world.call(replace, ana, {
      operationId,
      orderId: "SU-30014",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "no_longer_needed",
    });
    expect(badReason.status).toBe(400);
    expect(badReason.body.error.issues).toContainEqual({ path: "reason", message: "reason must be one of damaged, missing, wrong_item." });
    await expectOrderUnchanged("SU-30014", 3);
  });

  it("another customer's order is ORDER_NOT_FOUND, indistinguishable from a missing one; no stock moves", async () => {
    const stock = await stockOf(world, "ASH-4SHELF-OAK");
    const foreign = await world.call(replace, ben, {
      operationId: newOperationId(),
      orderId: "SU-30015",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    const missing = await world.call(replace, ben, {
      operationId: newOperationId(),
      orderId: "SU-39999",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(foreign.status).toBe(404);
    const strip = (body: Record<string, any>) =>
      JSON.parse(JSON.stringify(body).replaceAll(body.operationId, "OP").replaceAll(body.orderId, "ID"));
    expect(strip(foreign.body)).toEqual(strip(missing.body));
    expect(JSON.stringify(foreign.body)).not.toMatch(/delivered|version|C-1001|SLR-/);
    await expectOrderUnchanged("SU-30015", 3);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(stock);
    expect(await world.operation(ben, foreign.body.operationId)).toMatchObject({ status: "rejected", httpStatus: 404, body: foreign.body });
  });

  it("support may offer a replacement on any order, and the activity says who did", async () => {
    const staff = support("S-7");
    const operationId = newOperationId();
    const reply = await world.call(replace, staff, {
      operationId,
      orderId: "SU-30007",
      expectedVersion: 3,
      itemId: "ITM-2",
      reason: "wrong_item",
    });
    expect(reply.status).toBe(200);
    expect((await world.order("SU-30007"))?.activity[0].actor).toEqual({ kind: "support", sub: "staff-S-7" });
    expect(await stockOf(world, "BRASS-LAMP")).toBe(0);
    expect(await world.operation(staff, operationId)).toMatchObject({ status: "completed", actor: { kind: "support", sub: "staff-S-7" } });
  });

  it("a repeated request replays; the same id with another reason or another tool is IDEMPOTENCY_KEY_REUSED", async () => {
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30016", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" };
    const first = await world.call(replace, ana, request);
    const stock = await stockOf(world, "ASH-4SHELF-OAK");
    world.counter.reset();
    const again = await world.call(replace, ana, request);
    expect(world.counter.snapshot()).toEqual({ PutItemCommand: 1 });

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);

    const otherReason = await world.call(replace, ana, { ...request, reason: "missing" });
    expect(otherReason.status).toBe(422);
    expect(otherReason.body.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", originalTool: "offer_replacement" });
    const otherTool = await world.call(startReturn, ana, { operationId, orderId: "SU-30016", itemIds: ["ITM-2"], reason: "damaged" });
    expect(otherTool.status).toBe(422);
    expect(otherTool.body.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", originalTool: "offer_replacement" });

    const order = await world.order("SU-30016");
    expect(order).toMatchObject({ version: 4, replacedItemIds: ["ITM-1"] });
    expect(order?.returns).toBeUndefined();
    expect(order?.activity).toHaveLength(1);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(stock);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", body: first.body });
  });

  it("a rejection replays too: the same OUT_OF_STOCK, even once stock is back", async () => {
    const w = await newWorld(compoundFixture(today));
    const handler = createHandler({ ...w.deps, now: clockAt(today) });
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30017", expectedVersion: 3, itemId: "ITM-3", reason: "damaged" };
    const first = await w.call(handler, ana, request);
    expect(first.body.error.code).toBe("OUT_OF_STOCK");
    const { UpdateCommand } = await import("@aws-sdk/lib-dynamodb");
    const { stockKey } = await import("#store/keys");
    await w.deps.doc.send(
      new UpdateCommand({
        TableName: w.names.orders,
        Key: stockKey("OAK-STOOL"),
        UpdateExpression: "SET available = :n",
        ExpressionAttributeValues: { ":n": 10 },
      }),
    );

    const again = await w.call(handler, ana, request);
    expect(again.status).toBe(409);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await stockOf(w, "OAK-STOOL")).toBe(10);
    expect((await w.order("SU-30017"))?.version).toBe(3);
  });

  it("a lost response: get_operation_status says completed, the retry replays, and exactly one unit is reserved", async () => {
    // A world of its own: the fault is injected into its client.
    const world = await newWorld(compoundFixture(today));
    const deps = { ...world.deps, now: clockAt(today) };
    const replace = createHandler(deps);
    const status = createStatus(deps);
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-30018", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" };
    const stock = (await stockOf(world, "ASH-4SHELF-OAK")) as number;
    loseNextTransactionResponse(world);

    const lost = await world.call(replace, ana, request);
    expect(lost.status).toBe(500);
    expect(lost.body.error).toMatchObject({ code: "INTERNAL", retryable: true });
    expect(lost.body.error.message).toMatch(/outcome is unknown — ask get_operation_status with the same operationId/);
    expect(await world.order("SU-30018")).toMatchObject({ version: 4, replacedItemIds: ["ITM-1"] });

    const looked = await world.call(status, ana, { operationId });
    const result = {
      operationId,
      status: "completed",
      orderId: "SU-30018",
      orderVersion: 4,
      replacement: { itemId: "ITM-1", replacementItemId: "ITM-4", sku: "ASH-4SHELF-OAK" },
    };
    expect(looked.status).toBe(200);
    expect(looked.body).toEqual({
      operationId,
      status: "completed",
      tool: "offer_replacement",
      orderId: "SU-30018",
      orderVersion: 4,
      result,
    });

    const retry = await world.call(replace, ana, request);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(result);
    const order = await world.order("SU-30018");
    expect(order?.replacements).toHaveLength(1);
    expect(order?.items).toHaveLength(4);
    expect(order?.activity).toHaveLength(1);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(stock - 1);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", body: result });
  });
});
