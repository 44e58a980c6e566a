import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { randomUUID } from "node:crypto";
import { DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { replacementLineOf } from "#core/item-eligibility";
import type { OrderItem } from "#core/order";
import { addDays } from "#core/days";
import { createTable, localClientConfig } from "#local/create-tables";
import { documentClient, type StoreDeps } from "#store/client";
import { fixtureItems, parseFixture, writeItems } from "#store/fixture";
import { orderIndexSteps, ordersTableAt } from "#store/table-design";
import { migrateLayout, migrateOrder, type ScanProgress } from "#lib/layout-migration";
import { operationKey, orderContentKey, orderKey } from "#store/keys";
import { readActivity } from "#store/operations";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createSearch } from "#tools/search-orders";
import { createHandler as createReturn } from "#tools/start-return";
import { clockAt, compoundFixture, todayUtc } from "#test/support/compound-orders";
import { previousActivityItem, previousLayoutItems } from "#test/support/previous-layout";
import { type Caller, customer, newOperationId, newWorld, seller, support, type World } from "#test/support/world";

/**
 * `npm run migrate-layout` against tables written the previous way: each order one item holding everything, its
 * history in ACTIVITY# items, replacement lines stored among its lines. After it, every order is stored exactly as
 * the present loader stores it (or, with history, as the present code would have), the tools answer what they
 * answered before it, and the history reads the same from the state back.
 */

const today = todayUtc();
const ana = customer("C-1001");
const staff = support("S-7");
const fixture = parseFixture(compoundFixture(today));
const actor = { kind: "customer", sub: "user-C-1001", customerId: "C-1001" };

/**
 * The compound shop as the previous layout would hold it after two changes to SU-30001 (a replacement of ITM-1 at
 * version 4, stored as a line among its lines, and a return of ITM-2 at version 5), and with SU-30002 reloaded at
 * version 3 over an entry of its earlier life (version 7), which belongs to no history now.
 */
function previousTable(): Record<string, unknown>[] {
  const items = previousLayoutItems(fixture);
  const su30001 = items.find((i) => i.PK === "ORDER#SU-30001") as Record<string, any>;
  const replacement = {
    itemId: "ITM-1",
    replacementItemId: "ITM-4",
    sku: "ASH-4SHELF-OAK",
    reason: "damaged",
    createdAt: `${today}T08:00:00.000Z`,
  };
  const ret = {
    returnId: "RET-30001-5",
    itemIds: ["ITM-2"],
    labelRef: "LBL-30001-5",
    pickup: { date: today, window: "08:00-12:00" },
    reason: "damaged",
    createdAt: `${today}T09:00:00.000Z`,
  };
  Object.assign(su30001, {
    version: 5,
    updatedAt: ret.createdAt,
    items: [...su30001.items, replacementLineOf(su30001.items[0] as OrderItem, replacement)],
    replacements: [replacement],
    replacedItemIds: ["ITM-1"],
    returns: [ret],
    returnedItemIds: ["ITM-2"],
  });
  return [
    ...items,
    previousActivityItem("SU-30001", 4, {
      at: replacement.createdAt,
      tool: "offer_replacement",
      operationId: "op-previous-replace",
      actor,
      summary: "Replacement ITM-4 for ITM-1 reserved (1 × ASH-4SHELF-OAK)",
    }),
    previousActivityItem("SU-30001", 5, {
      at: ret.createdAt,
      tool: "start_return",
      operationId: "op-previous-return",
      actor,
      summary: "Return RET-30001-5 started",
    }),
    previousActivityItem("SU-30002", 7, {
      at: ret.createdAt,
      tool: "start_return",
      operationId: "op-earlier-life",
      actor,
      summary: "Return started",
    }),
  ];
}

async function previousWorld(): Promise<World> {
  const world = await newWorld({});
  await writeItems(world.deps, previousTable());
  return world;
}

/** Every item of the orders table, keyed and sorted, to compare two tables or a table before and after. */
async function contents(world: World): Promise<Map<string, Record<string, unknown>>> {
  const { Items = [] } = await world.deps.doc.send(new ScanCommand({ TableName: world.names.orders, ConsistentRead: true }));
  return new Map(Items.map((item) => [`${item.PK} ${item.SK}`, item] as const).sort(([a], [b]) => a.localeCompare(b)));
}

/** What every order answers to get_order and to a search by its id, for support. */
async function answers(world: World): Promise<unknown[]> {
  const deps = { ...world.deps, now: clockAt(today) };
  const [getOrder, search] = [createGetOrder(deps), createSearch(deps)];
  return Promise.all(
    fixture.orders.map(async (o) => [
      (await world.call(getOrder, staff, { orderId: o.id })).text,
      (await world.call(search, staff, { orderId: o.id })).text,
    ]),
  );
}

describe("the layout migration", () => {
  let world: World;
  let before: unknown[];

  beforeAll(async () => {
    world = await previousWorld();
    // The present code reads the previous layout as it is: these are the answers the migration must keep.
    before = await answers(world);
  });

  it("splits every order of a table written the previous way and links its earlier history; the tools answer as before", async () => {
    const counts = await migrateLayout(world.deps, { segments: 2 });
    expect(counts).toEqual({ orders: fixture.orders.length, split: fixture.orders.length, linked: 1, retried: 0 });
    expect(await answers(world)).toEqual(before);

    // An order without history is stored exactly as the present loader stores it.
    const stored = await contents(world);
    const present = fixtureItems(fixture);
    for (const order of fixture.orders.filter((o) => o.id !== "SU-30001")) {
      for (const key of [orderKey(order.id), orderContentKey(order.id)]) {
        expect(stored.get(`${key.PK} ${key.SK}`), `${key.PK} ${key.SK}`).toEqual(present.find((i) => i.PK === key.PK && i.SK === key.SK));
      }
    }
    // The one with history: the replacement line is made from its record, no longer stored among the lines.
    const content = stored.get("ORDER#SU-30001 ORDER#CONTENT") as Record<string, any>;
    expect(content.items.map((i: OrderItem) => i.itemId)).toEqual(["ITM-1", "ITM-2", "ITM-3"]);
    const state = stored.get("ORDER#SU-30001 ORDER") as Record<string, any>;
    for (const attribute of ["items", "charges", "internal"]) expect(state).not.toHaveProperty(attribute);
    expect(state).toMatchObject({
      version: 5,
      itemTitles: ["Ashcombe 4-Shelf Unit, Oak", "Brass Desk Lamp", "Oak Step Stool"],
      totalCents: 12795,
    });
    expect(state.lastChange).toEqual({ PK: "ORDER#SU-30001", SK: "ACTIVITY#0000000005" });

    // The history reads from the state back; an entry of an earlier life (above the order's version) stays out.
    expect((await readActivity(world.deps, "SU-30001")).map((e) => [e.version, e.operationId])).toEqual([
      [4, "op-previous-replace"],
      [5, "op-previous-return"],
    ]);
    expect(await readActivity(world.deps, "SU-30002")).toEqual([]);
    expect(stored.get("ORDER#SU-30002 ACTIVITY#0000000007")).not.toHaveProperty("previous");
  });

  it("is idempotent: run again, it reads every order and writes nothing", async () => {
    const table = await contents(world);
    const counts = await migrateLayout(world.deps, { segments: 3 });
    expect(counts).toEqual({ orders: fixture.orders.length, split: 0, linked: 0, retried: 0 });
    expect(await contents(world)).toEqual(table);
  });

  it("after it, a change goes on from the earlier history: its record names the last entry of the previous layout", async () => {
    const startReturn = createReturn({ ...world.deps, now: clockAt(today) });
    const operationId = newOperationId();
    const reply = await world.call(startReturn, ana, {
      operationId,
      orderId: "SU-30001",
      expectedVersion: 5,
      itemIds: ["ITM-3"],
      reason: "damaged",
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect((await readActivity(world.deps, "SU-30001")).map((e) => [e.version, e.operationId])).toEqual([
      [4, "op-previous-replace"],
      [5, "op-previous-return"],
      [6, operationId],
    ]);
    const view = await world.call(createGetOrder({ ...world.deps, now: clockAt(today) }), ana, { orderId: "SU-30001" });
    expect(view.body.items.map((i: { itemId: string }) => i.itemId)).toEqual(["ITM-1", "ITM-2", "ITM-3", "ITM-4"]);
    expect(view.body.returns.map((r: { itemIds: string[] }) => r.itemIds)).toEqual([["ITM-2"], ["ITM-3"]]);
  });
});

describe("the layout migration, stopped and started again", () => {
  it("goes on from the progress it reported, and ends where a whole run ends", async () => {
    const [whole, stopped] = await Promise.all([previousWorld(), previousWorld()]);
    await migrateLayout(whole.deps, { segments: 1 });

    let saved: ScanProgress | undefined;
    const crash = new Error("stopped after the first page");
    await expect(
      migrateLayout(stopped.deps, {
        segments: 1,
        pageSize: 10,
        onProgress: (progress) => {
          saved = structuredClone(progress);
          throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(saved?.[0]).toMatchObject({ done: false, lastKey: expect.any(Object) });
    const midway = [...(await contents(stopped)).values()].filter((i) => i.SK === "ORDER");
    const split = midway.filter((i) => !("items" in i)).length;
    expect(split).toBeGreaterThan(0);
    expect(split).toBeLessThan(fixture.orders.length);

    const rest = await migrateLayout(stopped.deps, { segments: 1, progress: saved!, pageSize: 10 });
    expect(rest.split).toBe(fixture.orders.length - split);
    expect([...(await contents(stopped)).values()]).toEqual([...(await contents(whole)).values()]);
  });
});

describe("the layout migration while the service changes orders", () => {
  it("a change landing between the migration's read and its write is kept: the migration reads the order again", async () => {
    const world = await previousWorld();
    const startReturn = createReturn({ ...world.deps, now: clockAt(today) });
    const operationId = newOperationId();
    let landed = false;
    world.client.middlewareStack.add(
      (next, context) => async (args) => {
        // The migration's split of SU-30010 is about to be sent: the customer's return lands first.
        const input = args.input as { TransactItems?: Array<{ Update?: { Key?: { PK?: string } } }> };
        if (
          !landed &&
          context.commandName === "TransactWriteItemsCommand" &&
          input.TransactItems?.[1]?.Update?.Key?.PK === "ORDER#SU-30010"
        ) {
          landed = true;
          const reply = await world.call(startReturn, ana, { operationId, orderId: "SU-30010", itemIds: ["ITM-2"], reason: "damaged" });
          expect(reply.status).toBe(200);
        }
        return next(args);
      },
      { step: "initialize", name: "changeDuringMigration" },
    );
    expect(await migrateOrder(world.deps, "SU-30010")).toEqual({ split: true, linked: false, retried: 1 });
    expect(landed).toBe(true);
    const order = await world.order("SU-30010");
    expect(order).toMatchObject({ version: 4, returnedItemIds: ["ITM-2"], lastChange: operationKey("user-C-1001", operationId) });
    expect(order?.internal).toEqual({ warehouseRoutingCode: "W3-B" });
    expect(order?.activity.map((e: { operationId: string }) => e.operationId)).toEqual([operationId]);
    expect((await world.orderItem("SU-30010"))?.items).toBeUndefined();
  });

  it("a change made before the migration links the earlier history is refused by its own condition, reads again and lands after it", async () => {
    const world = await previousWorld();
    const startReturn = createReturn({ ...world.deps, now: clockAt(today) });
    await migrateOrder(world.deps, "SU-30001").then((done) => expect(done.split).toBe(true));
    // Undo only the link, as if the order had been split but its history not yet linked when the change read it.
    const state = (await world.orderItem("SU-30001")) as Record<string, unknown>;
    delete state.lastChange;
    await writeItems(world.deps, [state]);
    let linked = false;
    world.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!linked && context.commandName === "TransactWriteItemsCommand") {
          linked = true;
          // Between the change's read and its write, the migration links the earlier history.
          expect(await migrateOrder(world.deps, "SU-30001")).toMatchObject({ split: false, linked: true });
        }
        return next(args);
      },
      { step: "initialize", name: "linkDuringChange" },
    );
    const operationId = newOperationId();
    const reply = await world.call(startReturn, ana, {
      operationId,
      orderId: "SU-30001",
      expectedVersion: 5,
      itemIds: ["ITM-3"],
      reason: "damaged",
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(linked).toBe(true);
    expect((await readActivity(world.deps, "SU-30001")).map((e) => e.operationId)).toEqual([
      "op-previous-replace",
      "op-previous-return",
      operationId,
    ]);
  });
});

describe("the index move, step by step (context orderIndexStep)", () => {
  /** What the searches answer: every index each kind of caller's search reads, placed and delivered dates, id digits. */
  const from = addDays(today, -60);
  const searches: Array<[Caller, Record<string, unknown>]> = [
    [ana, { dateRange: { dateField: "placed", from, to: today } }],
    [ana, { orderId: "3000" }],
    [staff, { email: "ana@example.com" }],
    [staff, { orderId: "001" }],
    [staff, { orderId: "SU-30007" }],
    [seller("SLR-2210"), { dateRange: { dateField: "delivered", from, to: today } }],
    [seller("SLR-2210"), { dateRange: { dateField: "placed", from, to: today } }],
    [seller("SLR-2210"), { orderId: "300" }],
  ];
  const searchesOn = async (world: World, deps: StoreDeps) => {
    const search = createSearch({ ...deps, now: clockAt(today) });
    return Promise.all(searches.map(async ([caller, body]) => (await world.call(search, caller, body)).text));
  };

  it("every step's table is one DynamoDB accepts, and at every step, and between two, the searches answer what they answer on the table as designed", async () => {
    const designed = await previousWorld();
    const expected = await searchesOn(designed, designed.deps);
    // Each search found something (a search answering nothing at every step would compare nothing).
    for (const [i, answer] of expected.entries()) expect(JSON.parse(answer).orders.length, JSON.stringify(searches[i])).toBeGreaterThan(0);

    const client = new DynamoDBClient(localClientConfig(inject("dynamodbEndpoint")));
    for (let step = 0; step <= orderIndexSteps; step++) {
      // DynamoDB Local counts projected attributes as DynamoDB does: a step over its limit is refused here.
      const orders = `orders-step-${step}-${randomUUID().slice(0, 8)}`;
      await createTable(client, ordersTableAt(step), orders);
      const deps: StoreDeps = { ...designed.deps, doc: documentClient(client), tables: { ...designed.deps.tables, orders } };
      await writeItems(deps, previousTable());
      // A deploy updates the table first and the functions after: they meet this step's table still at the step before.
      for (const functionsAt of step > 0 ? [step - 1, step] : [step])
        expect(
          await searchesOn(designed, { ...deps, orderIndexStep: functionsAt }),
          `table at ${step}, functions at ${functionsAt}`,
        ).toEqual(expected);
      await client.send(new DeleteTableCommand({ TableName: orders }));
    }
  }, 120_000);
});

describe("npm run migrate-layout", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "order-tools-migrate-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("migrates the table it names, keeps its progress in a file, and run again does nothing more", async () => {
    const world = await previousWorld();
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/migrate-layout.ts", ...args], {
        cwd: join(import.meta.dirname, "../.."),
      });
    const progress = join(dir, "progress.json");
    const args = ["--table", world.names.orders, "--endpoint", inject("dynamodbEndpoint"), "--progress", progress, "--segments", "2"];

    const first = await run(...args);
    expect(first.stdout).toMatch(
      new RegExp(`Done: ${fixture.orders.length} orders looked at, ${fixture.orders.length} split, 1 with their earlier history linked`),
    );
    const saved = JSON.parse(await readFile(progress, "utf8"));
    expect(saved).toMatchObject({ table: world.names.orders, segments: 2, progress: [{ done: true }, { done: true }] });
    const { Item } = await world.deps.doc.send(new GetCommand({ TableName: world.names.orders, Key: orderContentKey("SU-30005") }));
    expect(Item).toMatchObject({ entity: "orderContent", orderId: "SU-30005" });

    const again = await run(...args);
    expect(again.stdout).toMatch(/^Going on from .*progress\.json/);
    expect(again.stdout).toMatch(new RegExp(`Done: ${fixture.orders.length} orders looked at, ${fixture.orders.length} split`));

    await expect(run("--table", "other-table", "--progress", progress)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/is the progress of table orders-\w+, not other-table/),
    });
  }, 120_000);
});
