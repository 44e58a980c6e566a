import { DeleteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeEach, describe, expect, it } from "vitest";
import { dynamoOrderWriter } from "#local/order-writer";
import type { StoreDeps } from "#store/client";
import { orderContentKey, orderKey } from "#store/keys";
import { loadFixture } from "#store/fixture";
import { contentCache, readStoredOrder } from "#store/order-items";
import { createHandler } from "#tools/get-order";
import { testFixture } from "#test/support/test-shop";
import { customer, newWorld, type World } from "#test/support/world";

const ana = customer("C-1001");

/**
 * An execution environment keeps the content of the orders it has read (functions/store/order-items.ts): a later
 * read of the order is one GetItem of its state, and the content is read again whenever the state names another
 * version of it than the one held.
 */
describe("an order's content, kept between reads", () => {
  let world: World;
  let clock: Date;
  let deps: StoreDeps;
  let getOrder: ReturnType<typeof createHandler>;
  beforeEach(async () => {
    world = await newWorld();
    clock = new Date("2026-12-01T10:00:00Z");
    deps = { ...world.deps, now: () => clock };
    getOrder = createHandler(deps);
  });

  const titles = (body: Record<string, any>) => (body.items as { title: string }[]).map((item) => item.title);

  it("a second read of an order is one GetItem of its state, and answers the same", async () => {
    const first = await world.call(getOrder, ana, { orderId: "SU-10005" });
    expect(first.status).toBe(200);
    world.counter.reset();

    const second = await world.call(getOrder, ana, { orderId: "SU-10005" });
    expect(world.counter.snapshot()).toEqual({ GetItemCommand: 1 });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it("lines the order system rewrites are read at once: the version it raised on both items names new content", async () => {
    const first = await world.call(getOrder, ana, { orderId: "SU-10005" });
    const lines = (await world.order("SU-10005"))?.items as Record<string, unknown>[];
    const versions = async () =>
      Promise.all(
        [orderKey("SU-10005"), orderContentKey("SU-10005")].map(
          async (Key) => (await world.deps.doc.send(new GetCommand({ TableName: world.names.orders, Key }))).Item?.contentVersion,
        ),
      );
    const [placed] = await versions();
    expect(placed).toEqual(expect.any(Number));
    await dynamoOrderWriter(world.deps)("SU-10005", { items: [{ ...lines[0], title: "Ashcombe 5-Shelf Unit, Walnut" }] });
    expect(await versions()).toEqual([placed + 1, placed + 1]);
    world.counter.reset();

    // The state, which names another version than the one held, then the partition.
    const second = await world.call(getOrder, ana, { orderId: "SU-10005" });
    expect(world.counter.snapshot()).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
    expect(titles(first.body)).toEqual(["Ashcombe 4-Shelf Unit, Oak"]);
    expect(titles(second.body)).toEqual(["Ashcombe 5-Shelf Unit, Walnut"]);
    expect(second.body.version).toBe(first.body.version + 1);

    world.counter.reset();
    const third = await world.call(getOrder, ana, { orderId: "SU-10005" });
    expect(world.counter.snapshot()).toEqual({ GetItemCommand: 1 });
    expect(third.body).toEqual(second.body);
  });

  it("a writer that rewrites the content without raising its version is read within the bound, not before", async () => {
    await world.call(getOrder, ana, { orderId: "SU-10005" });
    const lines = (await world.order("SU-10005"))?.items as Record<string, unknown>[];
    await world.deps.doc.send(
      new UpdateCommand({
        TableName: world.names.orders,
        Key: orderContentKey("SU-10005"),
        UpdateExpression: "SET #items = :items",
        ExpressionAttributeNames: { "#items": "items" },
        ExpressionAttributeValues: { ":items": [{ ...lines[0], title: "Rewritten behind the version's back" }] },
      }),
    );

    clock = new Date(clock.getTime() + contentCache.ttlMs - 1_000);
    expect(titles((await world.call(getOrder, ana, { orderId: "SU-10005" })).body)).toEqual(["Ashcombe 4-Shelf Unit, Oak"]);
    clock = new Date(clock.getTime() + 2_000);
    world.counter.reset();
    expect(titles((await world.call(getOrder, ana, { orderId: "SU-10005" })).body)).toEqual(["Rewritten behind the version's back"]);
    expect(world.counter.snapshot()).toMatchObject({ QueryCommand: 1 });
  });

  it("the content a read shares cannot be changed by its caller, so the next read is not", async () => {
    const stored = await readStoredOrder(deps, "SU-10005", true);
    const held = await readStoredOrder(deps, "SU-10005", true);
    expect(held?.content).toBe(stored?.content);
    const line = (held?.content?.items as Record<string, unknown>[] | undefined)?.[0] ?? {};
    expect(() => {
      line.title = "changed by a caller";
    }).toThrow(TypeError);
    const again = (await readStoredOrder(deps, "SU-10005", true))?.content?.items as { title: string }[] | undefined;
    expect(again?.[0]?.title).toBe("Ashcombe 4-Shelf Unit, Oak");
  });

  it("an order placed again under its id with other lines (a fixture loaded again) is read with the new lines", async () => {
    await world.call(getOrder, ana, { orderId: "SU-10005" });
    const fixture = testFixture() as { orders: Record<string, any>[] };
    const order = fixture.orders.find((o) => o.id === "SU-10005") as Record<string, any>;
    order.items = [{ ...order.items[0], title: "Placed again: Ashcombe Bench" }];
    await loadFixture(world.deps, { ...fixture, orders: [order] });
    world.counter.reset();

    expect(titles((await world.call(getOrder, ana, { orderId: "SU-10005" })).body)).toEqual(["Placed again: Ashcombe Bench"]);
    expect(world.counter.snapshot()).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
  });

  it("an order deleted after its content was read is not found", async () => {
    expect((await world.call(getOrder, ana, { orderId: "SU-10005" })).status).toBe(200);
    for (const Key of [orderKey("SU-10005"), orderContentKey("SU-10005")]) {
      await world.deps.doc.send(new DeleteCommand({ TableName: world.names.orders, Key }));
    }
    const reply = await world.call(getOrder, ana, { orderId: "SU-10005" });
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("ORDER_NOT_FOUND");
  });
});
