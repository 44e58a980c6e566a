import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import type { TableAccess } from "#deploy/access";
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

/** One DynamoDB action a request asks for: on which table, which index, and the partition key it writes. */
interface Asked {
  action: string;
  table: string;
  index?: string;
  partition?: string;
}

/** The string in an attribute value as the client sends it (`{S: …}`), or as written. */
const text = (value: unknown) => (typeof value === "object" && value !== null && "S" in value ? String(value.S) : String(value));

/** The actions a request asks IAM for: one per request, or one per part of a transaction. */
function actionsOf(commandName: string, input: Record<string, any>): Asked[] {
  const action = `dynamodb:${commandName.replace(/Command$/, "")}`;
  if (commandName === "TransactWriteItemsCommand") {
    return (input.TransactItems as Record<string, any>[]).flatMap((part) =>
      Object.entries(part).map(([kind, write]) => ({
        action: `dynamodb:${kind === "ConditionCheck" ? "ConditionCheckItem" : `${kind}Item`}`,
        table: write.TableName,
        partition: text((write.Key ?? write.Item).PK),
      })),
    );
  }
  if (commandName === "BatchGetItemCommand") return Object.keys(input.RequestItems).map((table) => ({ action, table }));
  const key = input.Key ?? input.Item;
  return [
    { action, table: input.TableName, ...(input.IndexName ? { index: input.IndexName } : {}), ...(key ? { partition: text(key.PK) } : {}) },
  ];
}

/** Whether a tool's grants (functions/deploy/access.ts, what its deployed role is given) allow what it asked. */
function allowed(access: TableAccess, asked: Asked, names: { orders: string; idempotency: string }): boolean {
  if (asked.table === names.idempotency) return access.idempotency.includes(asked.action as never);
  if (asked.table !== names.orders) return false;
  if (asked.index) return asked.action === "dynamodb:Query" && (access.ordersIndexes ?? []).includes(asked.index);
  if ((access.orders as readonly string[]).includes(asked.action)) return true;
  const patterns = access.ordersWrites[asked.action as keyof typeof access.ordersWrites] ?? [];
  // IAM's StringLike: `*` is any run of characters, everything else itself.
  return patterns.some((pattern) =>
    new RegExp(
      `^${pattern
        .split("*")
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
    ).test(asked.partition ?? ""),
  );
}

describe("no tool ever issues a Scan, or a request its deployed role is not granted", () => {
  let world: World;
  let deps: StoreDeps;
  const scans: string[] = [];
  const asked: Asked[] = [];

  /** Refuses every Scan on a client, and remembers who tried. */
  const refuseScans = (client: DynamoDBClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (/Scan/i.test(String(context.commandName))) {
          scans.push(String(context.commandName));
          throw new Error(`${context.commandName} issued: tools must query by key or index, never Scan.`);
        }
        asked.push(...actionsOf(String(context.commandName), args.input as Record<string, any>));
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

  it.each(tools.map((tool) => [tool.name, tool.entry, tool.access] as const))(
    "%s runs its requests without a Scan, each one its role allows",
    async (name, entry, access) => {
      const sample = samples[name];
      expect(sample, `add sample requests for ${name} to no-scan.test.ts`).toBeDefined();
      const module = (await import(join(root, entry))) as { createHandler: (deps: StoreDeps) => ToolHandler };
      const handler = module.createHandler(deps);
      const callers: Caller[] = [customer("C-1001"), support("S-7"), seller("SLR-2210")];
      world.counter.reset();
      asked.splice(0);
      const statuses: number[] = [];
      // Each sample twice per caller: a function's second call meets what it keeps warm (a seller, an order's content).
      for (const caller of callers) {
        for (const body of [...(sample?.() ?? []), ...(sample?.() ?? [])]) statuses.push((await world.call(handler, caller, body)).status);
      }
      expect(scans).toEqual([]);
      expect(asked.filter((request) => !allowed(access, request, world.names))).toEqual([]);
      // Every request counted was checked against the grants (a transaction is one request and several actions).
      expect(asked.length).toBeGreaterThanOrEqual(world.counter.total);
      // The samples reached the store: they were not all refused before any request.
      expect(world.counter.total).toBeGreaterThan(0);
      expect(statuses).not.toContain(500);
    },
  );

  it("no file under functions/ so much as imports a Scan", () => {
    const files = (readdirSync(join(root, "functions"), { recursive: true }) as string[]).filter((f) => /\.[cm]?[jt]s$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) =>
      /\b(ScanCommand\w*|paginateScan|ParallelScan)\b|dynamodb:Scan\b/.test(readFileSync(join(root, "functions", file), "utf8")),
    );
    expect(offenders.map((f) => relative(root, join(root, "functions", f)))).toEqual([]);
  });
});
