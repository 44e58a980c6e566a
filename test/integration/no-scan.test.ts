import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { deployedTools as tools } from "#deploy/tool-functions";
import type { StoreDeps } from "#store/client";
import type { ToolHandler } from "#runtime/handler";
import { type Caller, customer, newOperationId, newWorld, seller, support, type World } from "#test/support/world";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Requests for every tool in the registry that reach its store code: a read for each search path, a change
 * that succeeds, one that is refused. A tool added to the registry without samples here fails the test.
 */
const samples: Record<string, () => Record<string, unknown>[]> = {
  search_orders: () => [
    { orderId: "100" },
    { orderId: "1000" },
    { orderId: "SU-10001" },
    { email: "ana@example.com", dateRange: { dateField: "delivered", from: "2026-11-01", to: "2026-11-30" } },
    { dateRange: { dateField: "placed", from: "2026-11-01", to: "2026-11-30" } },
    // A seller's date searches read its month partitions of the seller indexes, placed and delivered.
    { dateRange: { dateField: "placed", from: "2026-09-15", to: "2026-12-15" } },
    { dateRange: { dateField: "delivered", from: "2026-10-01", to: "2026-11-30" } },
  ],
  get_order: () => [{ orderId: "SU-10005" }, { orderId: "SU-20001" }, { orderId: "SU-99999" }],
  cancel_order: () => [
    { operationId: newOperationId(), orderId: "SU-10001" },
    { operationId: newOperationId(), orderId: "SU-10004" },
  ],
  add_delivery_note: () => [
    { operationId: newOperationId(), orderId: "SU-10002", expectedVersion: 4, deliveryNote: "Side gate." },
    { operationId: newOperationId(), orderId: "SU-10005", expectedVersion: 3, deliveryNote: "Side gate." },
  ],
  get_operation_status: () => [{ operationId: newOperationId() }],
  start_return: () => [{ operationId: newOperationId(), orderId: "SU-10005", itemIds: ["ITM-1"], reason: "damaged" }],
  offer_replacement: () => [{ operationId: newOperationId(), orderId: "SU-10005", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" }],
};

describe("no tool ever issues a Scan", () => {
  let world: World;
  let deps: StoreDeps;
  const scans: string[] = [];

  /** Refuses every Scan on a client, and remembers who tried. */
  const refuseScans = (client: DynamoDBClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (/Scan/i.test(String(context.commandName))) {
          scans.push(String(context.commandName));
          throw new Error(`${context.commandName} issued: tools must query by key or index, never Scan.`);
        }
        return next(args);
      },
      { step: "initialize", name: "refuseScans" },
    );
  };

  beforeAll(async () => {
    world = await newWorld();
    refuseScans(world.client);
    deps = {
      ...world.deps,
      observeClient: (client) => {
        world.deps.observeClient?.(client);
        refuseScans(client);
      },
    };
  });

  it("the guard itself refuses a Scan", async () => {
    await expect(world.deps.doc.send(new ScanCommand({ TableName: world.names.orders }))).rejects.toThrow(/ScanCommand issued/);
    expect(scans.splice(0)).toEqual(["ScanCommand"]);
  });

  it.each(tools.map((tool) => [tool.name, tool.entry] as const))("%s runs its requests without a Scan", async (name, entry) => {
    const sample = samples[name];
    expect(sample, `add sample requests for ${name} to no-scan.test.ts`).toBeDefined();
    const module = (await import(join(root, entry))) as { createHandler: (deps: StoreDeps) => ToolHandler };
    const handler = module.createHandler(deps);
    const callers: Caller[] = [customer("C-1001"), support("S-7"), seller("SLR-2210")];
    world.counter.reset();
    const statuses: number[] = [];
    for (const caller of callers) {
      for (const body of sample?.() ?? []) statuses.push((await world.call(handler, caller, body)).status);
    }
    expect(scans).toEqual([]);
    // The samples reached the store: they were not all refused before any request.
    expect(world.counter.total).toBeGreaterThan(0);
    expect(statuses).not.toContain(500);
  });

  it("no file under functions/ so much as imports a Scan", () => {
    const files = (readdirSync(join(root, "functions"), { recursive: true }) as string[]).filter((f) => /\.[cm]?[jt]s$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) =>
      /\b(ScanCommand\w*|paginateScan|ParallelScan)\b|dynamodb:Scan\b/.test(readFileSync(join(root, "functions", file), "utf8")),
    );
    expect(offenders.map((f) => relative(root, join(root, "functions", f)))).toEqual([]);
  });
});
