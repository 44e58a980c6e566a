import { join } from "node:path";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployedTools as tools } from "#deploy/tool-functions";
import { addDays } from "#core/days";
import type { StoreDeps } from "#store/client";
import { orderKey } from "#store/keys";
import { idempotencyTable, ordersTable } from "#store/table-design";
import type { ToolHandler } from "#runtime/handler";
import { repoRoot } from "#lib/tool-function";
import {
  type DynamoGrant,
  dynamoGrantsOf,
  removeSynthesizedOutput,
  synthesized,
  tableArnNames,
  toolFunctions,
} from "#test/infra/synthesized-app";
import { type AccessRequest, grantFor, observeAccess, stringLike, type TableModel } from "#test/infra/iam-check";
import { clockAt, compoundFixture, compoundOrder, todayUtc } from "#test/support/compound-orders";
import { type Caller, customer, newOperationId, newWorld, type Reply, seller, support, type World } from "#test/support/world";

/**
 * Least privilege in use: each function may put or update only the key prefixes it owns. The template tests hold the policies
 * to access.ts; this file holds them to the code. Every tool runs against DynamoDB Local — successes,
 * replays, rejections, refusals, other callers' orders, the caps and the request budget — while every request
 * it sends is checked against that tool's policy exactly as synthesized. No request may need a grant the policy
 * lacks, and every grant on the orders table must be needed by some request, so the policy is neither too narrow
 * nor wider than the code.
 */

const ana = customer("C-1001");
const ben = customer("C-2002");
const staff = support("S-7");
const ashcombe = seller("SLR-2210");
const today = todayUtc();

interface Sample {
  caller: Caller;
  body?: unknown;
  route?: { method: "GET"; path: string; pathParameters: Record<string, string> };
  /** Run through a handler whose caps are 1 (customers, support and sellers), to reach RATE_LIMITED. */
  tightCaps?: boolean;
}

/** Requests for every tool that reach each path of its store code. A tool added to the registry without samples fails. */
const samples: Record<string, () => Sample[]> = {
  search_orders: () => [
    { caller: ana, body: { orderId: "SU-30001" } },
    { caller: ana, body: { orderId: "300" } },
    // Three digits that appear only at the end of an id: every id-digits index is asked.
    { caller: ana, body: { orderId: "015" } },
    { caller: ana, body: { dateRange: { dateField: "delivered", from: addDays(today, -30), to: today } } },
    { caller: staff, body: { email: "ana@example.com" } },
    { caller: staff, body: { orderId: "3001" } },
    { caller: staff, body: { orderId: "015" } },
    // An order the order system wrote without its seller's name: the name is looked up.
    { caller: staff, body: { orderId: "SU-30003" } },
    { caller: staff, body: {} },
    // A seller: its months of the seller indexes, placed and delivered, and id digits kept to its own orders.
    { caller: ashcombe, body: { dateRange: { dateField: "placed", from: addDays(today, -45), to: today } } },
    { caller: ashcombe, body: { dateRange: { dateField: "delivered", from: addDays(today, -30), to: today } } },
    { caller: ashcombe, body: { orderId: "300" } },
    { caller: ashcombe, body: { email: "ana@example.com" } },
  ],
  get_order: () => [
    { caller: ana, body: { orderId: "SU-30001" } },
    // Read again: the function holds the order's content now, and reads its state alone.
    { caller: ana, body: { orderId: "SU-30001" } },
    { caller: ana, body: { orderId: "SU-30007" } },
    { caller: staff, body: { orderId: "SU-30004" } },
    { caller: staff, body: { orderId: "SU-99999" } },
  ],
  cancel_order: () => {
    const again = newOperationId();
    return [
      { caller: ana, body: { operationId: again, orderId: "SU-40001" } },
      { caller: ana, body: { operationId: again, orderId: "SU-40001" } },
      { caller: ana, body: { operationId: newOperationId(), orderId: "SU-30005" } },
      { caller: ana, body: { operationId: newOperationId(), orderId: "SU-40003" } },
      { caller: ana, body: { operationId: newOperationId(), orderId: "SU-40004", expectedVersion: 99 } },
      { caller: staff, body: { operationId: newOperationId(), orderId: "SU-40002" } },
      { caller: ben, body: { operationId: newOperationId(), orderId: "SU-40003" }, tightCaps: true },
      { caller: ben, body: { operationId: newOperationId(), orderId: "SU-40007" }, tightCaps: true },
    ];
  },
  add_delivery_note: () => [
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-40005", expectedVersion: 4, deliveryNote: "Side gate, please." } },
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-40005", expectedVersion: 4, deliveryNote: "Stale." } },
    { caller: ben, body: { operationId: newOperationId(), orderId: "SU-40005", expectedVersion: 5, deliveryNote: "Not mine." } },
    {
      caller: staff,
      body: { operationId: newOperationId(), orderId: "SU-40006", expectedVersion: 1, deliveryNote: "Leave with the neighbour." },
    },
    {
      caller: staff,
      body: { operationId: newOperationId(), orderId: "SU-40006", expectedVersion: 2, deliveryNote: "Again." },
      tightCaps: true,
    },
  ],
  start_return: () => [
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-30001", itemIds: ["ITM-1"], reason: "damaged" } },
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-30009", itemIds: ["ITM-1"], reason: "damaged" } },
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-30010", itemIds: ["ITM-9"], reason: "damaged" } },
    {
      caller: ana,
      body: { operationId: newOperationId(), orderId: "SU-30011", itemIds: ["ITM-1"], reason: "damaged", pickupDate: addDays(today, 60) },
    },
    { caller: staff, body: { operationId: newOperationId(), orderId: "SU-30007", itemIds: ["ITM-2"], reason: "no_longer_needed" } },
    { caller: ben, body: { operationId: newOperationId(), orderId: "SU-30012", itemIds: ["ITM-1"], reason: "damaged" } },
    { caller: ben, body: { operationId: newOperationId(), orderId: "SU-30007", itemIds: ["ITM-1"], reason: "damaged" }, tightCaps: true },
    { caller: ashcombe, body: { operationId: newOperationId(), orderId: "SU-30016", itemIds: ["ITM-1"], reason: "damaged" } },
    {
      caller: ashcombe,
      body: { operationId: newOperationId(), orderId: "SU-30017", itemIds: ["ITM-1"], reason: "damaged" },
      tightCaps: true,
    },
  ],
  offer_replacement: () => [
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-30013", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" } },
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-30004", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" } },
    { caller: ana, body: { operationId: newOperationId(), orderId: "SU-30014", expectedVersion: 3, itemId: "ITM-9", reason: "missing" } },
    {
      caller: staff,
      body: { operationId: newOperationId(), orderId: "SU-30015", expectedVersion: 3, itemId: "ITM-2", reason: "wrong_item" },
    },
    {
      caller: ben,
      body: { operationId: newOperationId(), orderId: "SU-30007", expectedVersion: 3, itemId: "ITM-3", reason: "damaged" },
      tightCaps: true,
    },
    {
      caller: ashcombe,
      body: { operationId: newOperationId(), orderId: "SU-30018", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" },
    },
  ],
  get_operation_status: () => [
    { caller: ana, body: { operationId: newOperationId() } },
    { caller: staff, route: { method: "GET", path: "/v1/operations/{operationId}", pathParameters: { operationId: newOperationId() } } },
  ],
};

interface Observed {
  request: AccessRequest;
  allowedBy?: DynamoGrant;
}

describe("each tool's policy allows what its code sends, and grants nothing on the orders table its code never needs", () => {
  let world: World;
  const grants = new Map<string, DynamoGrant[]>();
  const observed = new Map<string, Observed[]>();
  const replies = new Map<string, Reply[]>();
  let current: string | undefined;

  beforeAll(async () => {
    const synth = synthesized();
    const indexNames = ordersTable.indexes.map((index) => index.indexName);
    for (const [name, fn] of toolFunctions(synth.apiTemplate)) {
      grants.set(name, dynamoGrantsOf(synth.apiTemplate, fn.properties.Role["Fn::GetAtt"][0] as string, tableArnNames(synth, indexNames)));
    }

    world = await newWorld(
      compoundFixture(today, {
        extraOrders: [
          compoundOrder("SU-40001", today, { status: "placed", version: 1 }),
          compoundOrder("SU-40002", today, { status: "placed", version: 1 }),
          compoundOrder("SU-40003", today, { status: "placed", version: 1, customerId: "C-2002" }),
          compoundOrder("SU-40004", today, { status: "processing", version: 2 }),
          compoundOrder("SU-40005", today, { status: "processing", version: 4 }),
          compoundOrder("SU-40006", today, { status: "placed", version: 1, customerId: "C-2002" }),
          compoundOrder("SU-40007", today, { status: "placed", version: 1, customerId: "C-2002" }),
        ],
      }),
    );
    await world.deps.doc.send(
      new UpdateCommand({ TableName: world.names.orders, Key: orderKey("SU-30003"), UpdateExpression: "REMOVE sellerName" }),
    );
    const tables: TableModel = {
      nameOf: (tableName) =>
        tableName === world.names.orders ? "orders" : tableName === world.names.idempotency ? "idempotency" : undefined,
      partitionKeyOf: (resource) => (resource === "idempotency" ? idempotencyTable.partitionKey : ordersTable.partitionKey),
    };
    const record = (requests: AccessRequest[]) => {
      const tool = current as string;
      for (const request of requests)
        observed
          .get(tool)!
          .push({ request, ...(grantFor(grants.get(tool) ?? [], request) ? { allowedBy: grantFor(grants.get(tool)!, request)! } : {}) });
    };
    observeAccess(world.client, tables, record, () => current !== undefined);
    // Caps and budget on, as deployed, so their writes happen.
    const deps: StoreDeps = {
      ...world.deps,
      now: clockAt(today),
      hourlyCap: 10,
      supportHourlyCap: 60,
      sellerHourlyCap: 60,
      requestBudget: 120,
      observeClient: (client) => {
        world.deps.observeClient?.(client);
        observeAccess(client, tables, record, () => current !== undefined);
      },
    };

    for (const tool of tools) {
      const { createHandler } = (await import(join(repoRoot, tool.entry))) as { createHandler: (deps: StoreDeps) => ToolHandler };
      // Dependencies of its own, as each function has its own execution environment (and seller cache).
      const handler = createHandler({ ...deps });
      const tight = createHandler({ ...deps, hourlyCap: 1, supportHourlyCap: 1, sellerHourlyCap: 1 });
      observed.set(tool.name, []);
      replies.set(tool.name, []);
      current = tool.name;
      for (const sample of samples[tool.name]?.() ?? []) {
        replies.get(tool.name)!.push(await world.call(sample.tightCaps ? tight : handler, sample.caller, sample.body, sample.route));
      }
      current = undefined;
    }
  }, 120_000);
  afterAll(removeSynthesizedOutput);

  it.each(tools.map((tool) => [tool.name]))("%s: the samples reach its store code and every outcome it can give", (name) => {
    expect(samples[name], `add sample requests for ${name} to grants-in-use.test.ts`).toBeDefined();
    const statuses = replies.get(name)!.map((r) => r.status);
    expect(statuses).not.toContain(500);
    expect(observed.get(name)!.length).toBeGreaterThan(0);
    if (tools.find((t) => t.name === name)!.kind === "change") {
      // A success, a replay or rejection recorded, and a refusal before any write (the caps).
      expect(statuses).toContain(200);
      expect(statuses.some((s) => s >= 400 && s < 500 && s !== 429)).toBe(true);
      expect(statuses).toContain(429);
    }
  });

  it.each(tools.map((tool) => [tool.name]))("%s: its policy allows every request it sends", (name) => {
    const denied = observed
      .get(name)!
      .filter((o) => !o.allowedBy)
      .map((o) => o.request);
    expect(denied).toEqual([]);
  });

  it.each(tools.map((tool) => [tool.name]))(
    "%s: every grant on the orders table, and every key pattern of it, is used by some request",
    (name) => {
      const used = observed.get(name)!;
      const unused: string[] = [];
      for (const grant of grants.get(name)!.filter((g) => g.resource.startsWith("orders"))) {
        const requests = used
          .filter((o) => o.request.action === grant.action && o.request.resource === grant.resource)
          .map((o) => o.request);
        if (requests.length === 0) unused.push(`${grant.action} on ${grant.resource}`);
        for (const pattern of grant.leadingKeys ?? []) {
          if (!requests.some((r) => r.leadingKeys?.some((key) => stringLike(pattern, key))))
            unused.push(`${grant.action} on ${grant.resource} for ${pattern}`);
        }
      }
      expect(unused).toEqual([]);
    },
  );

  it("holds a narrower policy to account: a tool's requests checked against another's grants are refused", () => {
    // The check can fail: cancel_order's requests under get_order's policy (reads and the budget only).
    const cancels = observed.get("cancel_order")!.map((o) => o.request);
    const refused = cancels.filter((request) => !grantFor(grants.get("get_order")!, request));
    expect(refused.map((r) => `${r.action} ${r.leadingKeys?.[0]?.split("#")[0]}`)).toEqual(
      expect.arrayContaining(["dynamodb:UpdateItem ORDER", "dynamodb:PutItem OPERATION", "dynamodb:PutItem RATE"]),
    );
    // And a key outside every pattern is refused even where the action is granted.
    expect(
      grantFor(grants.get("start_return")!, { action: "dynamodb:UpdateItem", resource: "orders", leadingKeys: ["STOCK#ASH-4SHELF-OAK"] }),
    ).toBeUndefined();
    expect(
      grantFor(grants.get("start_return")!, { action: "dynamodb:UpdateItem", resource: "orders", leadingKeys: ["PICKUP"] }),
    ).toBeDefined();
    expect(
      grantFor(grants.get("start_return")!, { action: "dynamodb:UpdateItem", resource: "orders", leadingKeys: ["PICKUPS"] }),
    ).toBeUndefined();
  });
});
