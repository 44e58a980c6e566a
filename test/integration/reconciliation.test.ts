import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { orderKey } from "#store/keys";
import { createHandler as createAddNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { loseNextTransactionResponse, forgetIdempotencyRecords } from "#test/support/sdk-faults";
import { customer, newOperationId, newWorld, type World } from "#test/support/world";

const ana = customer("C-1001");
const ben = customer("C-2002");

describe("operation status and reconciliation", () => {
  let world: World;
  let cancel: ReturnType<typeof createCancel>;
  let addNote: ReturnType<typeof createAddNote>;
  let status: ReturnType<typeof createStatus>;
  beforeAll(async () => {
    world = await newWorld();
    cancel = createCancel(world.deps);
    addNote = createAddNote(world.deps);
    status = createStatus(world.deps);
  });

  it("a lost response: the status lookup says completed, the retry replays, and there is exactly one change", async () => {
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-10002", expectedVersion: 4 };
    loseNextTransactionResponse(world);

    const lost = await world.call(cancel, ana, request);
    expect(lost.status).toBe(500);
    expect(lost.body.error).toMatchObject({ code: "INTERNAL", retryable: true });
    expect(lost.body.error.message).toMatch(/outcome is unknown — ask get_operation_status with the same operationId/);
    expect(JSON.stringify(lost.body)).not.toMatch(/socket hang up|at .*\.ts/);
    expect(await world.order("SU-10002")).toMatchObject({ status: "cancelled", version: 5 });

    const looked = await world.call(status, ana, { operationId });
    expect(looked.status).toBe(200);
    expect(looked.body).toEqual({
      operationId,
      status: "completed",
      tool: "cancel_order",
      orderId: "SU-10002",
      orderVersion: 5,
      result: { operationId, status: "completed", orderId: "SU-10002", orderVersion: 5, orderStatus: "cancelled" },
    });

    const retry = await world.call(cancel, ana, request);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(looked.body.result);
    expect(retry.text).toBe(JSON.stringify(looked.body.result));
    const order = await world.order("SU-10002");
    expect(order).toMatchObject({ status: "cancelled", version: 5 });
    expect(order?.activity).toHaveLength(1);
  });

  it("the crash window: the order changed later and Powertools' record is gone; the retry returns the recorded outcome, not VERSION_CONFLICT", async () => {
    const operationId = newOperationId();
    const request = { operationId, orderId: "SU-10001", expectedVersion: 1, deliveryNote: "Side gate." };
    const first = await world.call(addNote, ana, request);
    expect(first.status).toBe(200);

    // Someone else changes the order, and the Powertools record expires (TTL) or is lost.
    await world.deps.doc.send(
      new UpdateCommand({
        TableName: world.names.orders,
        Key: orderKey("SU-10001"),
        UpdateExpression: "SET version = :v, #s = :s",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":v": 3, ":s": "processing" },
      }),
    );
    await forgetIdempotencyRecords(world);

    const retry = await world.call(addNote, ana, request);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.text).toBe(first.text);
    const order = await world.order("SU-10001");
    expect(order).toMatchObject({ version: 3, deliveryNote: "Side gate.", status: "processing" });
    expect(order?.activity).toHaveLength(1);
  });

  it("the crash window for a reused id with other arguments is still IDEMPOTENCY_KEY_REUSED", async () => {
    const operationId = newOperationId();
    const first = await world.call(addNote, ben, { operationId, orderId: "SU-20001", expectedVersion: 1, deliveryNote: "Gate code 4411." });
    expect(first.status).toBe(200);
    await forgetIdempotencyRecords(world);
    const reused = await world.call(cancel, ben, { operationId, orderId: "SU-20001" });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", originalTool: "add_delivery_note" });
    expect(await world.order("SU-20001")).toMatchObject({ status: "placed", version: 2 });
  });

  it("a rejected operation is reported as rejected, with the original error", async () => {
    const operationId = newOperationId();
    const rejected = await world.call(cancel, ana, { operationId, orderId: "SU-10004" });
    expect(rejected.status).toBe(409);
    const looked = await world.call(status, ana, { operationId });
    expect(looked.status).toBe(200);
    expect(looked.body).toEqual({ operationId, status: "rejected", tool: "cancel_order", orderId: "SU-10004", error: rejected.body.error });
  });

  it("GET /v1/operations/{operationId} answers the same as the POST tool", async () => {
    const operationId = newOperationId();
    await world.call(cancel, ana, { operationId, orderId: "SU-10005" });
    const viaPost = await world.call(status, ana, { operationId });
    const viaGet = await world.call(status, ana, undefined, {
      method: "GET",
      path: `/v1/operations/${operationId}`,
      pathParameters: { operationId },
    });
    expect(viaGet.status).toBe(200);
    expect(viaGet.body).toEqual(viaPost.body);
  });

  it("an operation nobody recorded is not_found, and says to resubmit with the same operationId", async () => {
    const operationId = newOperationId();
    const looked = await world.call(status, ana, { operationId });
    expect(looked.status).toBe(404);
    expect(looked.body).toMatchObject({ operationId, status: "not_found", error: { code: "OPERATION_NOT_FOUND", retryable: false } });
    expect(looked.body.error.message).toMatch(/same operationId/);
  });

  it("another caller's operation is not_found for you", async () => {
    const operationId = newOperationId();
    expect((await world.call(cancel, ana, { operationId, orderId: "SU-10006" })).status).toBe(409);
    const looked = await world.call(status, ben, { operationId });
    expect(looked.status).toBe(404);
    expect(looked.body.status).toBe("not_found");
  });

  it("an operation still executing is pending, with the tool and when to ask again", async () => {
    const w = await newWorld();
    const slowCancel = createCancel(w.deps);
    const lookup = createStatus(w.deps);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    w.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "TransactWriteItemsCommand") await gate;
        return next(args);
      },
      { step: "initialize", name: "holdTransaction" },
    );
    const operationId = newOperationId();
    const running = w.call(slowCancel, ana, { operationId, orderId: "SU-10001", expectedVersion: 1 });
    await new Promise((r) => setTimeout(r, 300));

    const looked = await w.call(lookup, ana, { operationId });
    expect(looked.status).toBe(200);
    expect(looked.body).toEqual({ operationId, status: "pending", tool: "cancel_order", retryAfterSeconds: 2 });
    const duplicate = await w.call(slowCancel, ana, { operationId, orderId: "SU-10001", expectedVersion: 1 });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: "OPERATION_IN_PROGRESS", retryAfterSeconds: 2 });
    expect(duplicate.headers["retry-after"]).toBe("2");

    release();
    expect((await running).status).toBe(200);
    expect((await w.call(lookup, ana, { operationId })).body.status).toBe("completed");
    expect(await w.order("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
  });
});
