/**
 * The changing tools through the local gateway (HTTP, JWT verification, the v2.0 event, the real handler),
 * each against the raw DynamoDB requests it makes, measured in the same run.
 *
 * Every call's requests are recorded as they go on the wire (middleware on the store's client and on
 * Powertools') and sent again, one after another, from a plain client to mirror tables loaded with the same
 * data: the mirror has met every earlier request too, so each replayed request meets the state the original
 * met (the same conditions pass or fail; the section counts any that do not). The raw floor of a tool is the
 * sum, over the requests it makes, of each request's p50; the target is p50 ≤ 1.25× that floor.
 *
 * Each tool's series changes a fresh order per call (cancel: processing orders; note: placed; return and
 * replacement: delivered two days ago), then repeats the identical request: the replay, which Powertools
 * answers from its record.
 */
import "#bench/support/setup";
import { pathToFileURL } from "node:url";
import type { ChangeToolName } from "#contract/tools";
import { deployedToolNamed } from "#deploy/tool-functions";
import {
  type BenchFixture,
  benchFixture,
  benchToday,
  chooser,
  ordersIn,
  plentifulPickupSlots,
  plentifulStock,
} from "#bench/support/bench-orders";
import { type BenchGateway, benchGateway, type HttpReply } from "#bench/support/bench-gateway";
import { describeRequests, replay, type SentRequest, signature } from "#bench/support/requests";
import { mean, ms, p50, p95, sum, table, times } from "#bench/support/stats";
import { benchTables, type BenchTables, type Endpoint, outcomeOf, withDynamoDb } from "#bench/support/bench-world";
import { loadFixture } from "#store/fixture";
import { createHandler as createAddNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createOfferReplacement } from "#tools/offer-replacement";
import { createHandler as createStartReturn } from "#tools/start-return";

export interface ChangeBenchOptions {
  /** Calls per series (each also replayed once). */
  calls?: number;
  endpoint?: Endpoint;
  log?: (line: string) => void;
}

/** The target for a changing tool's p50 against its raw requests. */
export const changeTarget = 1.25;

interface Case {
  name: string;
  tool: ChangeToolName;
  /** The arguments for the i-th order of the series. */
  body: (order: BenchFixture["orders"][number], operationId: string) => Record<string, unknown>;
  orders: BenchFixture["orders"];
}

/** One measured call: through the gateway, and its requests sent raw. */
interface Sample {
  reply: HttpReply;
  requests: SentRequest[];
  raw: SentRequest[];
}

export async function benchChanges(options: ChangeBenchOptions = {}): Promise<void> {
  const calls = options.calls ?? 300;
  const log = options.log ?? console.log;
  const warmup = Math.min(50, Math.ceil(calls / 5));
  await withDynamoDb(options.endpoint, async (endpoint) => {
    const world = await benchTables(endpoint, "changes", () => benchToday);
    const mirror = await benchTables(endpoint, "changes-raw", () => benchToday);
    let gateway: BenchGateway | undefined;
    try {
      const base = benchFixture(600);
      const c = chooser(11);
      const taken = new Set<string>();
      const perCase = calls + warmup;
      const cases: Case[] = [
        {
          name: "cancel_order",
          tool: "cancel_order",
          orders: ordersIn(base, c, taken, "processing", perCase),
          body: (o, operationId) => ({ operationId, orderId: o.id, reason: "Ordered twice by mistake" }),
        },
        {
          name: "cancel_order (expectedVersion)",
          tool: "cancel_order",
          orders: ordersIn(base, c, taken, "processing", perCase),
          body: (o, operationId) => ({ operationId, orderId: o.id, expectedVersion: o.version, reason: "Ordered twice by mistake" }),
        },
        {
          name: "add_delivery_note",
          tool: "add_delivery_note",
          orders: ordersIn(base, c, taken, "placed", perCase),
          body: (o, operationId) => ({
            operationId,
            orderId: o.id,
            expectedVersion: o.version,
            deliveryNote: "Side gate is open; please leave it behind the bins.",
          }),
        },
        {
          name: "start_return",
          tool: "start_return",
          orders: ordersIn(base, c, taken, "delivered", perCase),
          body: (o, operationId) => ({ operationId, orderId: o.id, itemIds: ["ITM-1"], reason: "damaged" }),
        },
        {
          name: "offer_replacement",
          tool: "offer_replacement",
          orders: ordersIn(base, c, taken, "delivered", perCase),
          body: (o, operationId) => ({ operationId, orderId: o.id, expectedVersion: o.version, itemId: "ITM-1", reason: "damaged" }),
        },
      ];
      const dedicated = cases.flatMap((k) => k.orders);
      const fixture = {
        ...base,
        orders: [...base.orders, ...dedicated],
        pickupSlots: plentifulPickupSlots(),
        stock: plentifulStock(dedicated),
      };
      const loadStarted = performance.now();
      await Promise.all([loadFixture(world.deps, fixture), loadFixture(mirror.deps, fixture)]);
      log(
        `DynamoDB Local ${endpoint}: loaded ${fixture.orders.length} orders (${dedicated.length} to change), ${fixture.sellers.length} sellers, twice (tables and raw mirror) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
      );

      gateway = await benchGateway([
        { path: deployedToolNamed("cancel_order").routes[0]!.path, scope: "orders:write", handler: createCancel(world.deps) },
        { path: deployedToolNamed("add_delivery_note").routes[0]!.path, scope: "orders:write", handler: createAddNote(world.deps) },
        { path: deployedToolNamed("start_return").routes[0]!.path, scope: "orders:write", handler: createStartReturn(world.deps) },
        {
          path: deployedToolNamed("offer_replacement").routes[0]!.path,
          scope: "orders:write",
          handler: createOfferReplacement(world.deps),
        },
      ]);
      const toMirror = mirrorOf(world, mirror);

      const rows: string[][] = [];
      const notes: string[] = [];
      const gatewayOverhead: number[] = [];
      for (const k of cases) {
        const path = deployedToolNamed(k.tool).routes[0]!.path;
        const first: Sample[] = [];
        const again: Sample[] = [];
        for (const [i, order] of k.orders.entries()) {
          const body = k.body(order, `bench-${k.tool}-${process.pid}-${i}-${k.name.length}`);
          const once = await measured(gateway, world, mirror, toMirror, path, order.customerId, body);
          const replayed = await measured(gateway, world, mirror, toMirror, path, order.customerId, body);
          if (once.reply.statusCode !== 200) throw new Error(`${k.name} on ${order.id}: ${once.reply.statusCode} ${once.reply.body}`);
          if (replayed.reply.headers["idempotent-replayed"] !== "true" || replayed.reply.body !== once.reply.body) {
            throw new Error(
              `${k.name} on ${order.id}: the repeat was not a replay of the same body (${replayed.reply.statusCode} ${replayed.reply.body})`,
            );
          }
          if (i < warmup) continue;
          first.push(once);
          again.push(replayed);
        }
        for (const [name, samples] of [
          [k.name, first],
          [`${k.name} replay`, again],
        ] as const) {
          const row = summarise(name, samples);
          rows.push(row.cells);
          notes.push(...row.notes);
          gatewayOverhead.push(...samples.map((s) => s.reply.ms - s.reply.handlerMs));
        }
      }

      log("");
      table(
        log,
        [
          "through the gateway",
          "req/call",
          "requests per call",
          "p50 ms",
          "p95 ms",
          "handler p50",
          "its requests p50",
          "raw Σp50",
          "p50/raw",
          "p95/raw",
          `≤ ${changeTarget}×`,
          "handler/raw",
        ],
        rows,
        [0, 2],
      );
      log(
        `\n${calls} calls per row after ${warmup} warm-up calls; each call made on a fresh order by its owner's token, then repeated (the replay). ` +
          `"raw Σp50": the sum over the requests the call made (in the order made) of each request's p50, sent again from a plain client to the mirror tables. ` +
          `"handler p50": the time inside the handler, and "its requests p50" the time its DynamoDB requests took in it (SDK middleware to response); the rest of a call (HTTP on loopback, JWT verification, the event: API Gateway's part when deployed) had p50 ${ms(p50(gatewayOverhead))} ms, and "handler/raw" leaves it out. Limits (request budget, hourly caps) off.`,
      );
      for (const note of notes) log(note);
    } finally {
      await gateway?.close();
      await world.drop();
      await mirror.drop();
    }
  });
}

/** The mirror table that stands for each of the world's tables. */
function mirrorOf(world: BenchTables, mirror: BenchTables) {
  const names = new Map([
    [world.names.orders, mirror.names.orders],
    [world.names.idempotency, mirror.names.idempotency],
  ]);
  return (table: string) => {
    const name = names.get(table);
    if (!name) throw new Error(`No mirror for table ${table}`);
    return name;
  };
}

/** One call through the gateway, its requests recorded, then the same requests sent raw to the mirror. */
async function measured(
  gateway: BenchGateway,
  world: BenchTables,
  mirror: BenchTables,
  toMirror: (table: string) => string,
  path: string,
  customerId: string,
  body: unknown,
): Promise<Sample> {
  const { result: reply, requests } = await world.requests.record(() => gateway.post(path, customerId, body));
  const raw = await replay(mirror.plain, requests, toMirror);
  return { reply, requests, raw };
}

/** A row of the table: the calls with the commonest request sequence, against the p50 of each of those requests sent raw. */
function summarise(name: string, samples: readonly Sample[]): { cells: string[]; notes: string[] } {
  const bySignature = new Map<string, Sample[]>();
  for (const s of samples) bySignature.set(signature(s.requests), [...(bySignature.get(signature(s.requests)) ?? []), s]);
  const [, usual] = [...bySignature.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? ["", []];
  const notes: string[] = [];
  if (usual.length < samples.length) {
    notes.push(
      `${name}: ${samples.length - usual.length} of ${samples.length} calls made other requests than the usual ${describeRequests(usual[0]?.requests ?? [])} (${[...bySignature.keys()].filter((k) => k !== signature(usual[0]?.requests ?? [])).join("; ")}); the row counts the usual ones.`,
    );
  }
  const mismatched = samples.filter((s) => s.requests.some((r, i) => (r.error ?? "") !== (s.raw[i]?.error ?? ""))).length;
  if (mismatched > 0)
    notes.push(
      `${name}: in ${mismatched} calls a raw request did not meet the same outcome as the original (the mirror drifted); those ratios are suspect.`,
    );
  const width = usual[0]?.requests.length ?? 0;
  const rawFloor = sum(Array.from({ length: width }, (_, i) => p50(usual.map((s) => s.raw[i]?.ms ?? Number.NaN))));
  const latency = usual.map((s) => s.reply.ms);
  const outcomes = new Set(samples.map((s) => outcomeOf({ statusCode: s.reply.statusCode, body: s.reply.body })));
  if (outcomes.size !== 1 || !outcomes.has("200")) notes.push(`${name}: outcomes ${[...outcomes].join(", ")}`);
  return {
    cells: [
      name,
      mean(samples.map((s) => s.requests.length)).toFixed(2),
      describeRequests(usual[0]?.requests ?? []),
      ms(p50(latency)),
      ms(p95(latency)),
      ms(p50(usual.map((s) => s.reply.handlerMs))),
      ms(p50(usual.map((s) => sum(s.requests.map((r) => r.ms))))),
      ms(rawFloor),
      times(p50(latency), rawFloor),
      times(p95(latency), rawFloor),
      p50(latency) / rawFloor <= changeTarget ? "yes" : "no",
      times(p50(usual.map((s) => s.reply.handlerMs)), rawFloor),
    ],
    notes,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const callsArg = process.argv.indexOf("--calls");
  await benchChanges(callsArg > 0 ? { calls: Number(process.argv[callsArg + 1]) } : {});
}
