import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { StoreDeps } from "#store/client";
import { rateKey } from "#store/keys";
import { createHandler as createAddNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { forgetIdempotencyRecords } from "#test/support/sdk-faults";
import { customer, newOperationId, newWorld, support, type World } from "#test/support/world";

const ana = customer("C-1001");

/** Ana's allowance item as stored. */
async function allowance(world: World) {
  return (await world.deps.doc.send(new GetCommand({ TableName: world.names.orders, Key: rateKey("C-1001"), ConsistentRead: true }))).Item;
}

/** A world whose clock the test moves, with a cap of two changes per customer per rolling hour. */
async function cappedWorld() {
  const world = await newWorld();
  let clock = new Date("2026-11-29T10:00:00Z").getTime();
  const deps: StoreDeps = { ...world.deps, hourlyCap: 2, now: () => new Date(clock) };
  return { world, deps, advance: (minutes: number) => (clock += minutes * 60_000) };
}

describe("the hourly cap on cancellations, returns and replacements (ORDER_TOOLS_HOURLY_CAP)", () => {
  it("the third cancellation within an hour is RATE_LIMITED, not recorded, and the order untouched", async () => {
    const { world, deps, advance } = await cappedWorld();
    const cancel = createCancel(deps);
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10001" })).status).toBe(200);
    advance(10);
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10002" })).status).toBe(200);
    advance(10);

    const operationId = newOperationId();
    const limited = await world.call(cancel, ana, { operationId, orderId: "SU-10003" });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "RATE_LIMITED", retryable: true, retryAfterSeconds: 40 * 60 });
    // RFC 9110's header, which HTTP clients and SDK retry layers read, says the same as the body.
    expect(limited.headers["retry-after"]).toBe("2400");
    expect(limited.body.error.message).toMatch(
      /2 cancellations, returns or replacements in the past hour; the limit is 2\. Try again in 2400 s/,
    );
    expect(await world.order("SU-10003")).toMatchObject({ status: "dispatching", version: 2 });
    expect(await world.operation(ana, operationId)).toBeUndefined();
    expect((await world.call(createStatus(deps), ana, { operationId })).body.status).toBe("not_found");

    // Not recorded, so the same request succeeds once the first change has left the rolling hour.
    advance(41);
    const retried = await world.call(cancel, ana, { operationId, orderId: "SU-10003" });
    expect(retried.status).toBe(200);
    expect(retried.headers["idempotent-replayed"]).toBeUndefined();
    expect(await world.order("SU-10003")).toMatchObject({ status: "cancelled", version: 3 });
  });

  it("rejections, delivery notes and support staff do not use the allowance", async () => {
    const { world, deps } = await cappedWorld();
    const cancel = createCancel(deps);
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10004" })).status).toBe(409);
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10006" })).status).toBe(409);
    expect(
      (
        await world.call(createAddNote(deps), ana, {
          operationId: newOperationId(),
          orderId: "SU-10001",
          expectedVersion: 1,
          deliveryNote: "Porch",
        })
      ).status,
    ).toBe(200);
    expect((await world.call(cancel, support("S-7"), { operationId: newOperationId(), orderId: "SU-10002" })).status).toBe(200);
    expect((await world.call(cancel, support("S-7"), { operationId: newOperationId(), orderId: "SU-10003" })).status).toBe(200);
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10001" })).status).toBe(200);
    // Only that last cancellation was counted against Ana's allowance.
    expect((await allowance(world))?.recent).toHaveLength(1);
    expect(await world.order("SU-10001")).toMatchObject({ status: "cancelled" });
  });

  it("concurrent cancellations cannot both take the last place: exactly the cap's worth succeed", async () => {
    const { world, deps } = await cappedWorld();
    const cancel = createCancel(deps);
    const requests = ["SU-10001", "SU-10002", "SU-10003"].map((orderId) => ({ operationId: newOperationId(), orderId }));
    const replies = await Promise.all(requests.map((request) => world.call(cancel, ana, request)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const limited = requests[replies.findIndex((r) => r.status === 429)];
    expect(await world.operation(ana, limited?.operationId ?? "missing")).toBeUndefined();
    expect(await world.order(limited?.orderId ?? "missing")).toMatchObject({ status: expect.not.stringMatching(/^cancelled$/) });
    expect((await allowance(world))?.recent).toHaveLength(2);
    const statuses = await Promise.all(["SU-10001", "SU-10002", "SU-10003"].map(async (id) => (await world.order(id))?.status));
    expect(statuses.filter((s) => s === "cancelled")).toHaveLength(2);
  });

  it("a late retry of a completed cancellation replays it even when the cap is reached", async () => {
    const { world, deps } = await cappedWorld();
    const cancel = createCancel(deps);
    const operationId = newOperationId();
    const first = await world.call(cancel, ana, { operationId, orderId: "SU-10001" });
    expect((await world.call(cancel, ana, { operationId: newOperationId(), orderId: "SU-10002" })).status).toBe(200);
    // Powertools' record is gone (expired or lost); only the operation record remembers the outcome.
    await forgetIdempotencyRecords(world);

    const retry = await world.call(cancel, ana, { operationId, orderId: "SU-10001" });
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect(await world.order("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
  });
});
