import { beforeAll, describe, expect, it } from "vitest";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { customer, newOperationId, newWorld, type World } from "#test/support/world";

describe("principals and scopes, checked in code", () => {
  let world: World;
  let cancel: ReturnType<typeof createCancel>;
  beforeAll(async () => {
    world = await newWorld();
    cancel = createCancel(world.deps);
  });

  it("no verified claims is 401 UNAUTHENTICATED and nothing is written", async () => {
    world.counter.reset();
    const reply = await world.call(cancel, undefined, { operationId: newOperationId(), orderId: "SU-10001" });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe("UNAUTHENTICATED");
    expect(world.counter.total).toBe(0);
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("a read-only token cannot change an order: 403 naming orders:write", async () => {
    const reply = await world.call(cancel, customer("C-1001", "orders:read"), { operationId: newOperationId(), orderId: "SU-10001" });
    expect(reply.status).toBe(403);
    expect(reply.body.error).toMatchObject({ code: "FORBIDDEN", requiredScope: "orders:write" });
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("a token with neither customer_id nor orders:support names no principal: 403", async () => {
    const reply = await world.call(
      cancel,
      { claims: { sub: "someone", scope: "orders:read orders:write" }, scopes: ["orders:read", "orders:write"] },
      { operationId: newOperationId(), orderId: "SU-10001" },
    );
    expect(reply.status).toBe(403);
    expect(reply.body.error.message).toMatch(/customer_id claim .* orders:support/);
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("the same operationId used by two callers never meets", async () => {
    const operationId = newOperationId();
    const a = await world.call(cancel, customer("C-1001"), { operationId, orderId: "SU-10001" });
    const b = await world.call(cancel, customer("C-2002"), { operationId, orderId: "SU-20001" });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers["idempotent-replayed"]).toBeUndefined();
    expect(await world.order("SU-20001")).toMatchObject({ status: "cancelled" });
    const status = createStatus(world.deps);
    expect((await world.call(status, customer("C-2002"), { operationId })).body.orderId).toBe("SU-20001");
  });
});
