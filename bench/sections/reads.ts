/**
 * The read section of `npm run bench`: get_order and search_orders through their real handlers, against the
 * run's DynamoDB Local (its own when run alone), on tables of their own loaded with a realistic fixture (2,000
 * sellers with supplements, 600 raw orders of ~68 fields each). For each it prints DynamoDB requests per call
 * (counted by SDK middleware on every client), result bytes against the raw stored orders' bytes, and p50/p95 latency over ≥ 200 calls next to a
 * plain read's p50 measured in the same run (one consistent Query of one order's partition, get_order's own read).
 *
 * DynamoDB Local runs on this machine, so absolute times are local round trips plus handler work; the ratios
 * to a plain read are the figures that carry over.
 */
import "#bench/support/setup";
import { pathToFileURL } from "node:url";
import { benchFixture, benchToday, chooser } from "#bench/support/bench-orders";
import { mean, p50, p95, table, times, utf8Bytes as bytes } from "#bench/support/stats";
import {
  benchTables,
  callHandler as call,
  type Caller,
  customer,
  type Endpoint,
  orderQuery,
  support,
  withDynamoDb,
} from "#bench/support/bench-world";
import { documentClient } from "#store/client";
import { loadFixture } from "#store/fixture";
import { readOrder } from "#store/order-items";
import type { ToolHandler } from "#runtime/handler";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createSearchOrders } from "#tools/search-orders";

export interface ReadBenchOptions {
  /** Calls per measured series. */
  calls?: number;
  /** Orders in the fixture. */
  orders?: number;
  /** The run's DynamoDB Local; without it the section starts its own. */
  endpoint?: Endpoint;
  log?: (line: string) => void;
}

export async function benchReads(options: ReadBenchOptions = {}): Promise<void> {
  const calls = options.calls ?? 300;
  const log = options.log ?? console.log;
  await withDynamoDb(options.endpoint, async (endpoint) => {
    const world = await benchTables(endpoint, "reads", () => benchToday);
    try {
      const { deps, requests: counter, names: tables } = world;
      const fixture = benchFixture(options.orders ?? 600);
      const loadStarted = performance.now();
      await loadFixture(deps, fixture);
      log(
        `DynamoDB Local ${endpoint}: loaded ${fixture.sellers.length} sellers, ${fixture.policies.length} supplements, ${fixture.customers.length} customers, ${fixture.orders.length} orders in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
      );

      // Every order as stored (its state and content, minus the store's keys): the raw payload the tools trim.
      const raw = new Map<string, number>();
      const fields: number[] = [];
      for (const order of fixture.orders) {
        const stored: Record<string, unknown> = (await readOrder(deps, order.id)) ?? {};
        raw.set(order.id, bytes(JSON.stringify(stored)));
        fields.push(Object.keys(stored).length - 1 + Object.keys((stored.internal ?? {}) as object).length);
      }
      log(
        `raw stored order: ${Math.round(mean(fields))} fields (its own and internal's), mean ${Math.round(mean([...raw.values()]))} B as JSON\n`,
      );

      const { pick } = chooser(7);
      const orderIds = fixture.orders.map((o) => o.id);
      const ordersOf = new Map<string, typeof fixture.orders>();
      for (const order of fixture.orders) ordersOf.set(order.customerId, [...(ordersOf.get(order.customerId) ?? []), order]);
      const busyCustomers = [...ordersOf.entries()].filter(([, orders]) => orders.length >= 2).map(([id]) => id);
      const emails = new Map(fixture.customers.map((c) => [c.id, c.email]));

      // The baseline: a plain consistent read of one order as stored, the request get_order makes (one Query of its
      // partition: its state and content items), on a client of its own so the counter sees only the tools'
      // requests. Each series interleaves it with the handler's calls, so both meet the same JVM, cache and machine
      // state; the warm-up lets DynamoDB Local's JIT settle first.
      const plainDoc = documentClient(world.plain);
      const plainRead = () => plainDoc.send(orderQuery(tables.orders, pick(orderIds)));
      for (let i = 0; i < 500; i++) await plainRead();

      const rows: Row[] = [];
      /** `next` gives each call's caller and arguments. */
      const run = async (name: string, handler: ToolHandler, next: () => { caller: Caller; body: Record<string, unknown> }) => {
        counter.reset();
        const series = await measure(calls, plainRead, async () => {
          const { caller, body } = next();
          const reply = await call(handler, caller, body);
          if (reply.statusCode !== 200) throw new Error(`${name}: HTTP ${reply.statusCode} ${reply.body}`);
          const parsed = JSON.parse(reply.body) as { orderId?: string; orders?: { orderId: string }[] };
          const ids = parsed.orders ? parsed.orders.map((o) => o.orderId) : [parsed.orderId as string];
          return { bytes: bytes(reply.body), raw: ids.reduce((total, id) => total + (raw.get(id) ?? 0), 0) };
        });
        rows.push({ name, series, requests: counter.total / calls, commands: counter.perCall(calls) });
      };

      const staff = support("S-7");
      const ownerOf = new Map(fixture.orders.map((o) => [o.id, customer(o.customerId)]));

      // get_order, warm: every seller already in the 60 s cache (one warm-up call per order first).
      const getOrder = createGetOrder(deps);
      for (const id of orderIds) await call(getOrder, staff, { orderId: id });
      await run("get_order (support, warm)", getOrder, () => ({ caller: staff, body: { orderId: pick(orderIds) } }));
      await run("get_order (owner, warm)", getOrder, () => {
        const orderId = pick(orderIds);
        return { caller: ownerOf.get(orderId) as Caller, body: { orderId } };
      });
      // get_order, cold: a fresh handler and seller cache per call, so the seller is read every time.
      {
        counter.reset();
        const series = await measure(calls, plainRead, async () => {
          const reply = await call(createGetOrder({ ...deps }), staff, { orderId: pick(orderIds) });
          const id = (JSON.parse(reply.body) as { orderId: string }).orderId;
          return { bytes: bytes(reply.body), raw: raw.get(id) ?? 0 };
        });
        rows.push({ name: "get_order (seller not cached)", series, requests: counter.total / calls, commands: counter.perCall(calls) });
      }

      // search_orders, on each path it has.
      const search = createSearchOrders(deps);
      await run("search: customer, 3 id digits", search, () => {
        const customerId = pick(busyCustomers);
        return { caller: customer(customerId), body: { orderId: pick(ordersOf.get(customerId) ?? []).id.slice(4, 7) } };
      });
      await run("search: customer, 30 days placed", search, () => ({
        caller: customer(pick(busyCustomers)),
        body: { dateRange: { dateField: "placed", from: "2026-11-01", to: "2026-11-30" } },
      }));
      await run("search: support, e-mail", search, () => ({ caller: staff, body: { email: emails.get(pick(busyCustomers)) as string } }));
      await run("search: support, 3 id digits", search, () => ({ caller: staff, body: { orderId: pick(orderIds).slice(5, 8) } }));
      await run("search: support, 4 id digits", search, () => ({ caller: staff, body: { orderId: pick(orderIds).slice(3, 7) } }));
      await run("search: support, full id", search, () => ({ caller: staff, body: { orderId: pick(orderIds) } }));

      const plainMs = rows.flatMap((r) => r.series.plainMs);
      log(
        `plain read (one consistent Query of one order's partition: state and content), interleaved with every series: p50 ${p50(plainMs).toFixed(2)} ms, p95 ${p95(plainMs).toFixed(2)} ms over ${plainMs.length} calls\n`,
      );
      table(
        log,
        [
          "through the handler",
          "req/call",
          "requests per call",
          "result B",
          "raw B",
          "result/raw",
          "p50 ms",
          "p95 ms",
          "read p50",
          "p50/read",
          "p95/read p50",
        ],
        rows.map((r) => [
          r.name,
          r.requests.toFixed(2),
          r.commands,
          Math.round(mean(r.series.bytes)).toString(),
          Math.round(mean(r.series.raw)).toString(),
          mean(r.series.raw) > 0 ? `${((mean(r.series.bytes) / mean(r.series.raw)) * 100).toFixed(1)}%` : "–",
          p50(r.series.ms).toFixed(2),
          p95(r.series.ms).toFixed(2),
          p50(r.series.plainMs).toFixed(2),
          times(p50(r.series.ms), p50(r.series.plainMs)),
          times(p95(r.series.ms), p50(r.series.plainMs)),
        ]),
        [0, 2],
      );
      log(
        `\n${calls} calls per row, each paired with a plain read of one order (its p50 is the row's "read p50"). "raw B": the stored order(s) the result describes, as JSON without the store's keys (for a search: the orders returned).`,
      );
    } finally {
      await world.drop();
    }
  });
}

// ——— measuring ———

interface Series {
  ms: number[];
  /** The paired plain reads. */
  plainMs: number[];
  bytes: number[];
  raw: number[];
}

interface Row {
  name: string;
  series: Series;
  requests: number;
  commands: string;
}

/** `calls` timed calls of `once`, each paired with a timed `plain` call (which goes first alternates). */
async function measure(calls: number, plain: () => Promise<unknown>, once: () => Promise<{ bytes: number; raw: number }>): Promise<Series> {
  const series: Series = { ms: [], plainMs: [], bytes: [], raw: [] };
  const timePlain = async () => {
    const started = performance.now();
    await plain();
    series.plainMs.push(performance.now() - started);
  };
  for (let i = 0; i < calls; i++) {
    if (i % 2 === 0) await timePlain();
    const started = performance.now();
    const { bytes, raw } = await once();
    series.ms.push(performance.now() - started);
    series.bytes.push(bytes);
    series.raw.push(raw);
    if (i % 2 === 1) await timePlain();
  }
  return series;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const callsArg = process.argv.indexOf("--calls");
  await benchReads(callsArg > 0 ? { calls: Number(process.argv[callsArg + 1]) } : {});
}
