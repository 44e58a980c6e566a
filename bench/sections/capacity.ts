/**
 * What a call costs: DynamoDB capacity units per call of every tool and of the read-then-write peer
 * (bench/peers/read-then-write.ts), and from them, the measured durations and the functions' memory, a cost per
 * million calls (DynamoDB on demand, Lambda, API Gateway's HTTP API) at the list prices below.
 *
 * Every request is measured two ways (bench/support/capacity.ts): DynamoDB Local's ReturnConsumedCapacity, and
 * DynamoDB's documented sizing computed from the items themselves. The section says per kind of request whether
 * they agree, and uses Local's figure where they do and the documented one where they do not.
 *
 * Each change runs on a fresh order per call, then once more with the same operationId (the replay). Limits
 * (request budget, hourly caps) off, as the peer has none; then the changes again with them on, for what they
 * add (one UpdateItem per call; a GetItem and a Put in the change's transaction for capped changes).
 *
 * The peer runs twice. As the design order-tools replaces: on tables of its own in the previous layout (each order
 * one ~3 KB item, the order indexes projecting its lines and charges: test/support/previous-layout.ts), the layout
 * a read-then-write design keeps its orders in. And on the present layout, beside order-tools, to show what the
 * guarantees themselves cost once the layout is the same.
 */
import "#bench/support/setup";
import { pathToFileURL } from "node:url";
import {
  type BenchFixture,
  benchFixture,
  benchToday,
  chooser,
  ordersIn,
  plentifulPickupSlots,
  plentifulStock,
} from "#bench/support/bench-orders";
import { benchTables, callHandler, customer, type Endpoint, withDynamoDb } from "#bench/support/bench-world";
import { CapacityLog, type MeasuredRequest, type Units } from "#bench/support/capacity";
import { mean, median, table } from "#bench/support/stats";
import { readThenWriteHandler } from "#bench/peers/read-then-write";
import type { StoreDeps } from "#store/client";
import { loadFixture, parseFixture, writeItems } from "#store/fixture";
import { idempotencyTable, ordersTable, ordersTableAt, type TableDesign } from "#store/table-design";
import { previousActivityItem, previousLayoutItems } from "#test/support/previous-layout";
import { migrateLayout } from "#lib/layout-migration";
import type { ToolHandler } from "#runtime/handler";
import { createHandler as createAddNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createGetOperationStatus } from "#tools/get-operation-status";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createOfferReplacement } from "#tools/offer-replacement";
import { createHandler as createSearchOrders } from "#tools/search-orders";
import { createHandler as createStartReturn } from "#tools/start-return";

export interface CapacityBenchOptions {
  /** Calls per row. */
  calls?: number;
  endpoint?: Endpoint;
  log?: (line: string) => void;
}

/**
 * List prices, us-east-1, as published in 2025 (the DynamoDB ones since its on-demand price cut of 1 November 2024):
 * DynamoDB on demand, Standard table class — airbyte.com, "Amazon DynamoDB Pricing" (21 July 2025); Lambda on
 * Arm — cloudchipr.com, "AWS Lambda Pricing Breakdown: Ultimate Guide 2024", and aws.amazon.com/lambda/pricing;
 * API Gateway HTTP APIs, first 300 million requests a month — awsforengineers.com, "AWS API Gateway Pricing
 * Explained" (19 May 2025). Free tiers left out.
 */
export const prices = {
  asOf: "2025 list prices, us-east-1",
  dynamoWriteRequestUnit: 0.625 / 1e6,
  dynamoReadRequestUnit: 0.125 / 1e6,
  lambdaArmGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  httpApiRequest: 1.0 / 1e6,
} as const;

/** The tools' functions' memory (lib/tool-function.ts). */
export const functionMemoryGb = 512 / 1024;

interface Scenario {
  name: string;
  /** Changes and reads are priced per million of their own kind. */
  kind: "read" | "change";
  /** Before the measured call, not measured (a warm-up). */
  prepare?: (i: number) => Promise<unknown>;
  /** One call; returns the reply's status, to check the scenario does what it says. */
  call: (i: number) => Promise<{ statusCode: number; replayed?: boolean }>;
  expect: { statusCode: number; replayed?: boolean };
}

interface Measured {
  scenario: Scenario;
  calls: Array<{ requests: MeasuredRequest[]; ms: number }>;
}

/** How a request is named by kind, for the question whether Local reports it faithfully. */
const kindOf = (r: MeasuredRequest) => `${r.command}${r.parts ? ` (${r.parts})` : ""}${r.error ? ` refused (${r.error})` : ""}`;

const sameUnits = (a: Units | undefined, b: Units) =>
  a !== undefined && a.read === b.read && a.write === b.write && a.indexWrite === b.indexWrite;

export async function benchCapacity(options: CapacityBenchOptions = {}): Promise<void> {
  const calls = options.calls ?? 30;
  const log = options.log ?? console.log;
  await withDynamoDb(options.endpoint, async (endpoint) => {
    const world = await benchTables(endpoint, "capacity", () => benchToday);
    const previous = ordersTableAt(0);
    const peerWorld = await benchTables(endpoint, "capacity-peer", () => benchToday, previous);
    try {
      const designs = new Map<string, TableDesign>([
        [world.names.orders, ordersTable],
        [world.names.idempotency, idempotencyTable],
        [peerWorld.names.orders, previous],
        [peerWorld.names.idempotency, idempotencyTable],
      ]);
      const capacity = new CapacityLog(world.plain, designs);
      capacity.observe(world.client);
      capacity.observe(peerWorld.client);
      const observed: StoreDeps = {
        ...world.deps,
        observeClient: (client) => {
          world.requests.observe(client);
          capacity.observe(client);
        },
      };
      const peerObserved: StoreDeps = { ...peerWorld.deps, observeClient: capacity.observe };
      // On, as deployed, but never reached: what the limits cost, not what they refuse.
      const limitsOn: StoreDeps = {
        ...observed,
        requestBudget: 1_000_000,
        hourlyCap: 1_000_000,
        supportHourlyCap: 1_000_000,
        sellerHourlyCap: 1_000_000,
      };

      const base = benchFixture(600);
      const c = chooser(28);
      const taken = new Set<string>();
      const series = (status: Parameters<typeof ordersIn>[3]) => ordersIn(base, c, taken, status, calls);
      const orders = {
        cancel: series("processing"),
        cancelVersion: series("processing"),
        note: series("placed"),
        ret: series("delivered"),
        replacement: series("delivered"),
        peerCancel: series("processing"),
        peerNote: series("placed"),
        limitedCancel: series("processing"),
        limitedNote: series("placed"),
        limitedReturn: series("delivered"),
        limitedReplacement: series("delivered"),
        splitPeerCancel: series("processing"),
        splitPeerNote: series("placed"),
      };
      const dedicated = Object.values(orders).flat();
      await loadFixture(world.deps, {
        ...base,
        orders: [...base.orders, ...dedicated],
        pickupSlots: plentifulPickupSlots(),
        stock: plentifulStock(dedicated),
      });
      // The peer's own orders, as the previous layout stored them, among the same shop's.
      await writeItems(
        peerWorld.deps,
        previousLayoutItems(parseFixture({ ...base, orders: [...base.orders, ...orders.peerCancel, ...orders.peerNote] })),
      );
      log(
        `DynamoDB Local ${endpoint}: ${base.orders.length + dedicated.length} orders (the bench's, ~3 KB each: a state and a content item; the peer's own tables hold each as one item, the previous layout), ${calls} calls per row`,
      );

      const scenarios = buildScenarios(base, orders, observed, limitsOn, peerObserved);
      const measured: Measured[] = [];
      for (const scenario of scenarios) {
        const m: Measured = { scenario, calls: [] };
        for (let i = 0; i < calls; i++) {
          await scenario.prepare?.(i);
          const started = performance.now();
          const { result, requests } = await capacity.record(() => scenario.call(i));
          const ms = performance.now() - started;
          if (
            result.statusCode !== scenario.expect.statusCode ||
            (scenario.expect.replayed !== undefined && result.replayed !== scenario.expect.replayed)
          )
            throw new Error(`${scenario.name}: call ${i} answered ${result.statusCode}${result.replayed ? " (replayed)" : ""}`);
          m.calls.push({ requests, ms });
        }
        measured.push(m);
      }

      // ——— which kinds of request DynamoDB Local reports as DynamoDB documents them ———
      const kinds = new Map<string, MeasuredRequest[]>();
      for (const m of measured)
        for (const call of m.calls) for (const r of call.requests) kinds.set(kindOf(r), [...(kinds.get(kindOf(r)) ?? []), r]);
      const faithful = new Map([...kinds].map(([kind, requests]) => [kind, requests.every((r) => sameUnits(r.local, r.documented))]));
      const describe = (u: Units | undefined) =>
        u === undefined
          ? "nothing"
          : [u.read ? `${u.read} RCU` : "", u.write ? `${u.write} WCU` : "", u.indexWrite ? `${u.indexWrite} index WCU` : ""]
              .filter(Boolean)
              .join(" + ") || "0";
      log("");
      table(
        log,
        ["request kind", "requests", "DynamoDB Local reports", "documented sizing", "figure used"],
        [...kinds].map(([kind, requests]) => {
          const locals = [...new Set(requests.map((r) => describe(r.local)))];
          const documented = [...new Set(requests.map((r) => describe(r.documented)))];
          return [
            kind,
            String(requests.length),
            locals.slice(0, 3).join("; ") + (locals.length > 3 ? "; …" : ""),
            documented.slice(0, 3).join("; ") + (documented.length > 3 ? "; …" : ""),
            faithful.get(kind) ? "Local (agrees)" : "documented",
          ];
        }),
        [0, 2, 3, 4],
      );

      // ——— per call ———
      const used = (r: MeasuredRequest): Units => (faithful.get(kindOf(r)) && r.local ? r.local : r.documented);
      const rows = measured.map((m) => {
        const perCall = m.calls.map((call) =>
          call.requests
            .map(used)
            .reduce((t, u) => ({ read: t.read + u.read, write: t.write + u.write, indexWrite: t.indexWrite + u.indexWrite }), {
              read: 0,
              write: 0,
              indexWrite: 0,
            }),
        );
        const localPerCall = m.calls.map((call) =>
          call.requests.reduce((t, r) => t + (r.local ? r.local.read + r.local.write + r.local.indexWrite : 0), 0),
        );
        const read = mean(perCall.map((u) => u.read));
        const write = mean(perCall.map((u) => u.write));
        const indexWrite = mean(perCall.map((u) => u.indexWrite));
        const requests = counted(m.calls[0]?.requests ?? []);
        const durationMs = median(m.calls.map((call) => call.ms));
        const cost = {
          dynamo: (read * prices.dynamoReadRequestUnit + (write + indexWrite) * prices.dynamoWriteRequestUnit) * 1e6,
          lambda: (functionMemoryGb * (Math.ceil(durationMs) / 1000) * prices.lambdaArmGbSecond + prices.lambdaRequest) * 1e6,
          api: prices.httpApiRequest * 1e6,
        };
        return { m, read, write, indexWrite, requests, durationMs, cost, local: mean(localPerCall) };
      });
      log("");
      table(
        log,
        [
          "per call",
          "requests",
          "RCU",
          "WCU table",
          "WCU indexes",
          "WCU",
          "Local's total",
          "median ms",
          "$/M DynamoDB",
          "$/M Lambda",
          "$/M API",
          "$/M total",
        ],
        rows.map((r) => [
          r.m.scenario.name,
          r.requests,
          r.read.toFixed(2),
          r.write.toFixed(2),
          r.indexWrite.toFixed(2),
          (r.write + r.indexWrite).toFixed(2),
          r.local.toFixed(2),
          r.durationMs.toFixed(1),
          r.cost.dynamo.toFixed(2),
          r.cost.lambda.toFixed(2),
          r.cost.api.toFixed(2),
          (r.cost.dynamo + r.cost.lambda + r.cost.api).toFixed(2),
        ]),
        [0, 1],
      );
      log(
        `\nMeans over ${calls} calls per row (each request's units by the figure the first table says). "Local's total": the units DynamoDB Local reported for the same requests (none for a refused request). "median ms": the call in-process against DynamoDB Local (not a Lambda's duration; it prices Lambda at ${functionMemoryGb * 1024} MB, billed by the ms). $/M: per million such calls at ${prices.asOf}: DynamoDB on demand $${(prices.dynamoWriteRequestUnit * 1e6).toFixed(3)}/M write and $${(prices.dynamoReadRequestUnit * 1e6).toFixed(3)}/M read request units; Lambda on Arm $${prices.lambdaArmGbSecond}/GB-s and $${(prices.lambdaRequest * 1e6).toFixed(2)}/M requests; HTTP API $${(prices.httpApiRequest * 1e6).toFixed(2)}/M requests. Free tiers, data transfer and CloudWatch (logs, EMF metrics) left out.`,
      );
      // What each change's writes hold: the items behind the write units, from the first call of each row.
      log("");
      table(
        log,
        ["a change's writes (first call)", "items written or checked, larger of before and after"],
        measured
          .filter((m) => m.scenario.kind === "change" && !m.scenario.name.endsWith("replay") && !m.scenario.name.includes("limits on"))
          .map((m) => [
            m.scenario.name,
            (m.calls[0]?.requests ?? [])
              .filter((r) => r.items?.length)
              .map((r) => `${r.command}: ${r.items!.map((i) => `${i.what} ${i.bytes} B`).join(", ")}`)
              .join("; "),
          ]),
        [0, 1],
      );
      log("");
      await migrationCost(endpoint, base, log);
    } finally {
      await Promise.all([world.drop(), peerWorld.drop()]);
    }
  });
}

/**
 * What `npm run migrate-layout` costs per order: the bench's shop written the previous way (each order one item, up
 * to three `ACTIVITY#` entries for the changes that took it past version 1), on the orders table as designed (the
 * migration runs once its indexes have moved, docs/deploy.md), migrated whole under the capacity log. Documented
 * sizing throughout (Local prices transactions and scans otherwise, see the first table).
 */
async function migrationCost(endpoint: string, base: BenchFixture, log: (line: string) => void): Promise<void> {
  const world = await benchTables(endpoint, "capacity-migration", () => benchToday);
  try {
    const fixture = parseFixture(base);
    const actor = { kind: "customer", sub: "bench", customerId: "C-bench" };
    const history = fixture.orders.flatMap((order) =>
      Array.from({ length: Math.min(order.version - 1, 3) }, (_, k) =>
        previousActivityItem(order.id, order.version - k, {
          at: benchToday.toISOString(),
          tool: "add_delivery_note",
          operationId: `op-bench-${order.id}-${k}`,
          actor,
          summary: "Delivery note set",
        }),
      ),
    );
    await writeItems(world.deps, [...previousLayoutItems(fixture), ...history]);
    const capacity = new CapacityLog(world.plain, new Map([[world.names.orders, ordersTable]]));
    capacity.observe(world.client);
    const { result, requests } = await capacity.record(() => migrateLayout(world.deps, { segments: 1 }));
    const orders = fixture.orders.length;
    const byKind = new Map<string, { requests: number; read: number; write: number; indexWrite: number }>();
    for (const r of requests) {
      const kind = byKind.get(kindOf(r)) ?? { requests: 0, read: 0, write: 0, indexWrite: 0 };
      byKind.set(kindOf(r), {
        requests: kind.requests + 1,
        read: kind.read + r.documented.read,
        write: kind.write + r.documented.write,
        indexWrite: kind.indexWrite + r.documented.indexWrite,
      });
    }
    const total = [...byKind.values()].reduce((t, k) => ({
      requests: t.requests + k.requests,
      read: t.read + k.read,
      write: t.write + k.write,
      indexWrite: t.indexWrite + k.indexWrite,
    }));
    const row = (name: string, k: typeof total) => [
      name,
      (k.requests / orders).toFixed(2),
      (k.read / orders).toFixed(2),
      (k.write / orders).toFixed(2),
      (k.indexWrite / orders).toFixed(2),
    ];
    table(
      log,
      ["the layout migration, per order", "requests", "RCU", "WCU table", "WCU indexes"],
      [...[...byKind].map(([kind, k]) => row(kind, k)), row("all", total)],
      [0],
    );
    const dollars =
      ((total.read * prices.dynamoReadRequestUnit + (total.write + total.indexWrite) * prices.dynamoWriteRequestUnit) / orders) * 1e6;
    log(
      `${orders} orders (${result.split} split, ${result.linked} with ${history.length} earlier history entries linked, ${result.retried} read again), every item of the table scanned once: $${dollars.toFixed(2)} of DynamoDB per million such orders. Documented sizing.`,
    );
  } finally {
    await world.drop();
  }
}

/** `PutItem, GetItem, TransactWriteItems` — a call's requests in the order made (refusals marked). */
function counted(requests: readonly MeasuredRequest[]): string {
  return requests.map((r) => `${r.command}${r.error ? " (refused)" : ""}`).join(", ");
}

function buildScenarios(
  base: BenchFixture,
  orders: Record<string, BenchFixture["orders"]>,
  deps: StoreDeps,
  limited: StoreDeps,
  peerDeps: StoreDeps,
): Scenario[] {
  const ownerOf = (order: BenchFixture["orders"][number]) => customer(order.customerId);
  const reply = async (handler: ToolHandler, order: BenchFixture["orders"][number], body: unknown) => {
    const r = await callHandler(handler, ownerOf(order), body);
    return { statusCode: r.statusCode, replayed: r.headers["idempotent-replayed"] === "true" };
  };
  const scenarios: Scenario[] = [];
  /** A change on a fresh order per call, then its replay. */
  const change = (
    name: string,
    handler: ToolHandler,
    list: BenchFixture["orders"],
    body: (o: BenchFixture["orders"][number], operationId: string) => unknown,
  ) => {
    const operationId = (i: number) => `capacity-${name.replace(/\W+/g, "-")}-${i}`;
    scenarios.push(
      {
        name,
        kind: "change",
        call: (i) => reply(handler, list[i]!, body(list[i]!, operationId(i))),
        expect: { statusCode: 200, replayed: false },
      },
      {
        name: `${name} replay`,
        kind: "change",
        call: (i) => reply(handler, list[i]!, body(list[i]!, operationId(i))),
        expect: { statusCode: 200, replayed: true },
      },
    );
  };
  const cancel = (o: { id: string }, operationId: string) => ({ operationId, orderId: o.id, reason: "Ordered twice by mistake" });
  const cancelVersion = (o: { id: string; version: number }, operationId: string) => ({
    ...cancel(o, operationId),
    expectedVersion: o.version,
  });
  const note = (o: { id: string; version: number }, operationId: string) => ({
    operationId,
    orderId: o.id,
    expectedVersion: o.version,
    deliveryNote: "Side gate is open; please leave it behind the bins.",
  });
  const ret = (o: { id: string }, operationId: string) => ({ operationId, orderId: o.id, itemIds: ["ITM-1"], reason: "damaged" });
  const replacement = (o: { id: string; version: number }, operationId: string) => ({
    operationId,
    orderId: o.id,
    expectedVersion: o.version,
    itemId: "ITM-1",
    reason: "damaged",
  });

  // Reads.
  const getOrder = createGetOrder(deps);
  const sample = base.orders.filter((o) => o.status === "delivered");
  const emails = new Map(base.customers.map((cu) => [cu.id, cu.email]));
  const read = (name: string, call: Scenario["call"]) => scenarios.push({ name, kind: "read", call, expect: { statusCode: 200 } });
  read("search_orders (customer, own e-mail)", (i) =>
    reply(createSearchOrders(deps), sample[i]!, { email: emails.get(sample[i]!.customerId) }),
  );
  read("search_orders (customer, 3 id digits)", (i) => reply(createSearchOrders(deps), sample[i]!, { orderId: sample[i]!.id.slice(3, 6) }));
  // A fresh handler per call has an empty seller cache; the same handler's second call finds the seller cached.
  read("get_order (seller not cached)", (i) => reply(createGetOrder({ ...deps }), sample[i]!, { orderId: sample[i]!.id }));
  scenarios.push({
    name: "get_order (seller cached)",
    kind: "read",
    prepare: (i) => callHandler(getOrder, ownerOf(sample[i]!), { orderId: sample[i]!.id }),
    call: (i) => reply(getOrder, sample[i]!, { orderId: sample[i]!.id }),
    expect: { statusCode: 200 },
  });
  read("get_operation_status (completed)", (i) =>
    reply(createGetOperationStatus(deps), orders.cancel![i]!, { operationId: `capacity-cancel_order-${i}` }),
  );

  // Changes, and the peer's, limits off.
  change("cancel_order", createCancel(deps), orders.cancel!, cancel);
  change("cancel_order (expectedVersion)", createCancel(deps), orders.cancelVersion!, cancelVersion);
  change("add_delivery_note", createAddNote(deps), orders.note!, note);
  change("start_return", createStartReturn(deps), orders.ret!, ret);
  change("offer_replacement", createOfferReplacement(deps), orders.replacement!, replacement);
  // The peer as the design replaced (the previous layout, its own tables), then on the layout order-tools has now.
  change("peer: cancel_order", readThenWriteHandler(peerDeps, "cancel_order"), orders.peerCancel!, cancel);
  change("peer: add_delivery_note", readThenWriteHandler(peerDeps, "add_delivery_note"), orders.peerNote!, note);
  change("peer, split layout: cancel_order", readThenWriteHandler(deps, "cancel_order"), orders.splitPeerCancel!, cancel);
  change("peer, split layout: add_delivery_note", readThenWriteHandler(deps, "add_delivery_note"), orders.splitPeerNote!, note);

  // The changes with the limits on: the request budget on every call, the hourly cap on the capped ones.
  change("cancel_order, limits on", createCancel(limited), orders.limitedCancel!, cancel);
  change("add_delivery_note, limits on", createAddNote(limited), orders.limitedNote!, note);
  change("start_return, limits on", createStartReturn(limited), orders.limitedReturn!, ret);
  change("offer_replacement, limits on", createOfferReplacement(limited), orders.limitedReplacement!, replacement);
  // get_operation_status must come after the cancellations it asks about.
  const status = scenarios.findIndex((s) => s.name.startsWith("get_operation_status"));
  const [lookup] = scenarios.splice(status, 1);
  const lastCancelReplay = scenarios.findIndex((s) => s.name === "cancel_order replay");
  scenarios.splice(lastCancelReplay + 1, 0, lookup!);
  return scenarios;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const callsArg = process.argv.indexOf("--calls");
  await benchCapacity(callsArg > 0 ? { calls: Number(process.argv[callsArg + 1]) } : {});
}
