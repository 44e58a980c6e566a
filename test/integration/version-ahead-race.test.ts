import { describe, expect, it } from "vitest";
import { addDays } from "#core/days";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createNote } from "#tools/add-delivery-note";
import { createHandler as createReplace } from "#tools/offer-replacement";
import { createHandler as createReturn } from "#tools/start-return";
import { clockAt, compoundFixture, compoundOrder, slotCapacity, stockOf, todayUtc } from "#test/support/compound-orders";
import { holdTransactionsOf } from "#test/support/sdk-faults";
import { customer, newOperationId, newWorld } from "#test/support/world";

/**
 * A request whose plan is computed from one read of the order must not write over a change
 * that landed after that read — not even when its expectedVersion names the version that change creates.
 * Request B reads the order at v3 and plans; its transaction is held until request A has committed v4; then B
 * writes. Before the fix B's write was conditioned on its expectedVersion (4) and overwrote A's lists.
 */
const ana = customer("C-1001");
const today = todayUtc();
const day = (n: number) => addDays(today, n);

async function raceWorld() {
  const world = await newWorld(compoundFixture(today, { extraOrders: [compoundOrder("SU-30100", today, { status: "processing" })] }));
  const deps = { ...world.deps, now: clockAt(today) };
  return { world, startReturn: createReturn(deps), replace: createReplace(deps), cancel: createCancel(deps), note: createNote(deps) };
}

/** Starts B, waits until it has read and planned, lets A run to its end, then releases B. */
async function interleave<T>(
  world: Awaited<ReturnType<typeof raceWorld>>["world"],
  bOperationId: string,
  b: () => Promise<T>,
  a: () => Promise<T>,
) {
  let releaseB!: () => void;
  const release = new Promise<void>((resolve) => {
    releaseB = resolve;
  });
  const { reached } = holdTransactionsOf(world, bOperationId, release);
  const bReply = b();
  await reached;
  const aReply = await a();
  releaseB();
  return { a: aReply, b: await bReply };
}

describe("a plan is written only under the version it was read at", () => {
  it("start_return sent a version ahead does not erase a return that committed after its read", async () => {
    const { world, startReturn } = await raceWorld();
    const [opA, opB] = [newOperationId(), newOperationId()];
    const { a, b } = await interleave(
      world,
      opB,
      () =>
        world.call(startReturn, ana, { operationId: opB, orderId: "SU-30001", expectedVersion: 4, itemIds: ["ITM-2"], reason: "damaged" }),
      () =>
        world.call(startReturn, ana, { operationId: opA, orderId: "SU-30001", expectedVersion: 3, itemIds: ["ITM-1"], reason: "damaged" }),
    );

    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ orderVersion: 4 });
    // B's proposal was made against v4, which exists once A has committed: B is planned again from v4.
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ orderVersion: 5, return: { itemIds: ["ITM-2"] } });
    const order = await world.order("SU-30001");
    expect(order).toMatchObject({ version: 5, returnedItemIds: ["ITM-1", "ITM-2"] });
    expect(order?.returns.map((r: { itemIds: string[] }) => r.itemIds)).toEqual([["ITM-1"], ["ITM-2"]]);
    // Two units of pickup capacity for two returns: none leaked.
    expect(await slotCapacity(world, day(1))).toBe(3);
    expect(await world.operation(ana, opB)).toMatchObject({ status: "completed", orderVersion: 5 });
  });

  it("start_return sent a version ahead of an order nobody changes is VERSION_CONFLICT, and nothing changes", async () => {
    const { world, startReturn } = await raceWorld();
    const operationId = newOperationId();
    const reply = await world.call(startReturn, ana, {
      operationId,
      orderId: "SU-30001",
      expectedVersion: 4,
      itemIds: ["ITM-2"],
      reason: "damaged",
    });

    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      status: "rejected",
      orderId: "SU-30001",
      error: { code: "VERSION_CONFLICT", expectedVersion: 4, currentVersion: 3 },
    });
    expect(reply.body.error.message).toMatch(/version 3, not 4/);
    expect(await world.order("SU-30001")).toMatchObject({ version: 3 });
    expect((await world.order("SU-30001"))?.returns).toBeUndefined();
    expect(await slotCapacity(world, day(1))).toBe(5);
    expect(await world.operation(ana, operationId)).toMatchObject({ status: "rejected", body: reply.body });
  });

  it("offer_replacement sent a version ahead does not erase a replacement that committed after its read", async () => {
    const { world, replace } = await raceWorld();
    const [opA, opB] = [newOperationId(), newOperationId()];
    const { a, b } = await interleave(
      world,
      opB,
      () => world.call(replace, ana, { operationId: opB, orderId: "SU-30001", expectedVersion: 4, itemId: "ITM-2", reason: "damaged" }),
      () => world.call(replace, ana, { operationId: opA, orderId: "SU-30001", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" }),
    );

    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ orderVersion: 4, replacement: { itemId: "ITM-1", replacementItemId: "ITM-4" } });
    expect(b.status).toBe(200);
    // Planned again from v4: the next line number after A's ITM-4, not a second ITM-4 over it.
    expect(b.body).toMatchObject({ orderVersion: 5, replacement: { itemId: "ITM-2", replacementItemId: "ITM-5" } });
    const order = await world.order("SU-30001");
    expect(order).toMatchObject({ version: 5, replacedItemIds: ["ITM-1", "ITM-2"] });
    expect(order?.items.map((i: { itemId: string }) => i.itemId)).toEqual(["ITM-1", "ITM-2", "ITM-3", "ITM-4", "ITM-5"]);
    expect(order?.replacements).toHaveLength(2);
    expect(await stockOf(world, "ASH-4SHELF-OAK")).toBe(2);
    expect(await stockOf(world, "BRASS-LAMP")).toBe(0);
  });

  it("cancel_order without expectedVersion does not erase a delivery note that committed after its read", async () => {
    const { world, cancel, note } = await raceWorld();
    const [opA, opB] = [newOperationId(), newOperationId()];
    const { a, b } = await interleave(
      world,
      opB,
      () => world.call(cancel, ana, { operationId: opB, orderId: "SU-30100" }),
      () => world.call(note, ana, { operationId: opA, orderId: "SU-30100", expectedVersion: 3, deliveryNote: "Leave it with the porter." }),
    );

    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ orderVersion: 5, orderStatus: "cancelled" });
    expect(await world.order("SU-30100")).toMatchObject({ version: 5, status: "cancelled", deliveryNote: "Leave it with the porter." });
  });
});
