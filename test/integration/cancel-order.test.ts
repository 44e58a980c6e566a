import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { orderKey } from "#store/keys";
import { createHandler } from "#tools/cancel-order";
import { customer, newOperationId, newWorld, support, type World } from "#test/support/world";

const ana = customer("C-1001");
const ben = customer("C-2002");

describe("cancel_order", () => {
  let world: World;
  let cancel: ReturnType<typeof createHandler>;
  beforeAll(async () => {
    world = await newWorld();
    cancel = createHandler(world.deps);
  });

  it("the owner cancels an eligible order: the order is cancelled at version + 1 and the operation recorded", async () => {
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(cancel, ana, {
      operationId,
      orderId: "SU-10002",
      expectedVersion: 4,
      reason: "Ordered the wrong colour",
    });
    const requests = world.counter.snapshot();

    expect(reply.status).toBe(200);
    expect(reply.headers["idempotent-replayed"]).toBeUndefined();
    expect(reply.body).toEqual({ operationId, status: "completed", orderId: "SU-10002", orderVersion: 5, orderStatus: "cancelled" });
    const order = await world.order("SU-10002");
    expect(order).toMatchObject({
      status: "cancelled",
      version: 5,
      cancellation: { reason: { origin: "customer", text: "Ordered the wrong colour" } },
    });
    expect(order?.activity).toHaveLength(1);
    expect(order?.activity[0]).toMatchObject({ tool: "cancel_order", operationId, actor: { kind: "customer", customerId: "C-1001" } });
    expect(await world.operation(ana, operationId)).toMatchObject({
      tool: "cancel_order",
      status: "completed",
      orderId: "SU-10002",
      orderVersion: 5,
      httpStatus: 200,
      body: reply.body,
    });
    // With expectedVersion: Powertools' in-progress put, the order's state read (the last change its record links
    // back to), one transaction, Powertools' completion update.
    expect(requests).toEqual({ PutItemCommand: 1, GetItemCommand: 1, TransactWriteItemsCommand: 1, UpdateItemCommand: 1 });
  });

  it("without expectedVersion one consistent read supplies the version for the conditional write", async () => {
    const operationId = newOperationId();
    world.counter.reset();
    const reply = await world.call(cancel, ana, { operationId, orderId: "SU-10001" });
    const requests = world.counter.snapshot();
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ orderVersion: 2, orderStatus: "cancelled" });
    expect(await world.order("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "completed", orderVersion: 2, body: reply.body });
    expect(requests).toEqual({ GetItemCommand: 1, PutItemCommand: 1, TransactWriteItemsCommand: 1, UpdateItemCommand: 1 });
  });

  it("a customer cannot cancel another customer's order, and learns nothing a nonexistent id would not tell", async () => {
    const foreign = await world.call(cancel, ben, { operationId: newOperationId(), orderId: "SU-10003" });
    const missing = await world.call(cancel, ben, { operationId: newOperationId(), orderId: "SU-99999" });

    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const strip = (body: Record<string, any>) =>
      JSON.parse(JSON.stringify(body).replaceAll(body.operationId, "OP").replaceAll(body.orderId, "ID"));
    expect(strip(foreign.body)).toEqual(strip(missing.body));
    expect(foreign.body.error.code).toBe("ORDER_NOT_FOUND");
    expect(JSON.stringify(foreign.body)).not.toMatch(/dispatching|version|C-1001/);
    expect(await world.order("SU-10003")).toMatchObject({ status: "dispatching", version: 2 });
    expect((await world.order("SU-10003"))?.activity).toEqual([]);
    expect(await world.operation(ben, foreign.body.operationId)).toMatchObject({ status: "rejected", httpStatus: 404 });
  });

  it("support may cancel any order, and the record says who did", async () => {
    const staff = support("S-7");
    const operationId = newOperationId();
    const reply = await world.call(cancel, staff, { operationId, orderId: "SU-20001", expectedVersion: 1 });
    expect(reply.status).toBe(200);
    const order = await world.order("SU-20001");
    expect(order).toMatchObject({ status: "cancelled", version: 2 });
    expect(order?.activity[0].actor).toEqual({ kind: "support", sub: "staff-S-7" });
    expect(await world.operation(staff, operationId)).toMatchObject({ actor: { kind: "support", sub: "staff-S-7" } });
  });

  it("the order ships between the caller's read and the cancel: rejected, and it stays shipped", async () => {
    // The caller read SU-10003 at version 2 (dispatching); the warehouse ships it before the cancel lands.
    await world.deps.doc.send(
      new UpdateCommand({
        TableName: world.names.orders,
        Key: orderKey("SU-10003"),
        UpdateExpression: "SET #s = :shipped, version = :v",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":shipped": "shipped", ":v": 3 },
      }),
    );
    const operationId = newOperationId();
    const reply = await world.call(cancel, ana, { operationId, orderId: "SU-10003", expectedVersion: 2 });

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      operationId,
      status: "rejected",
      orderId: "SU-10003",
      error: { code: "NOT_ELIGIBLE", reason: "ALREADY_SHIPPED", orderStatus: "shipped", retryable: false },
    });
    expect(await world.order("SU-10003")).toMatchObject({ status: "shipped", version: 3 });
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });

    const again = await world.call(cancel, ana, { operationId, orderId: "SU-10003", expectedVersion: 2 });
    expect(again.status).toBe(409);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(reply.body);
  });

  it("an already cancelled order is NOT_ELIGIBLE ALREADY_CANCELLED", async () => {
    const operationId = newOperationId();
    const reply = await world.call(cancel, ana, { operationId, orderId: "SU-10006" });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ALREADY_CANCELLED" });
    expect(await world.order("SU-10006")).toMatchObject({ status: "cancelled", version: 2 });
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", httpStatus: 409, body: reply.body });
  });

  it("20 concurrent identical requests apply exactly one change", async () => {
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-20001" };
    // SU-20001 was cancelled above; use a fresh placed order for this race.
    const w = await newWorld();
    const handler = createHandler(w.deps);
    const replies = await Promise.all(Array.from({ length: 20 }, () => w.call(handler, ben, request)));

    const completed = replies.filter((r) => r.status === 200);
    const inProgress = replies.filter((r) => r.status === 409 && r.body.error.code === "OPERATION_IN_PROGRESS");
    expect(completed.length + inProgress.length).toBe(20);
    expect(completed.length).toBeGreaterThanOrEqual(1);
    expect(new Set(completed.map((r) => r.text)).size).toBe(1);
    expect(completed.filter((r) => r.headers["idempotent-replayed"] !== "true")).toHaveLength(1);
    for (const r of inProgress) {
      expect(r.body.error).toMatchObject({ retryable: true, retryAfterSeconds: 2 });
      expect(r.headers["retry-after"]).toBe("2");
    }
    const order = await w.order("SU-20001");
    expect(order).toMatchObject({ status: "cancelled", version: 2 });
    expect(order?.activity).toHaveLength(1);
    expect(await w.operation(ben, operationId)).toMatchObject({ status: "completed", orderVersion: 2, body: completed[0]?.body });
  });
});
