/**
 * How the read tools scale with what they read, through their handlers on the run's DynamoDB Local:
 * - get_order for orders of 1 to 50 items (ten orders per size, ~68 raw fields each plus the items): latency
 *   beside a plain consistent read of the same order (one Query of its partition, get_order's own read), response
 *   bytes and tokens.
 * - search_orders for a customer with 1 to 1,000 orders (placed evenly over three years): by their own
 *   e-mail, by 30 days placed, and by 3 id digits that only their oldest order has (the worst case: the
 *   customer's whole partition is paged through, 100 orders a Query).
 * Both are drawn as SVG charts into docs/ (scaling-get-order.svg, scaling-search-orders.svg).
 */
import "#bench/support/setup";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type BenchOrder,
  benchFixture,
  benchOrder,
  benchToday,
  chooser,
  dayMs,
  freshOrderIds,
  type OrderStatus,
} from "#bench/support/bench-orders";
import { mean, ms, p50, p95, table, times, utf8Bytes } from "#bench/support/stats";
import { chartSvg } from "#bench/support/svg";
import { tokensOf } from "#bench/support/token-encoding";
import { benchTables, callHandler, customer, type Endpoint, orderQuery, withDynamoDb } from "#bench/support/bench-world";
import { repoRoot } from "#local/stack";
import { documentClient } from "#store/client";
import { loadFixture } from "#store/fixture";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createSearchOrders } from "#tools/search-orders";

export interface ScalingBenchOptions {
  /** Calls per point. */
  calls?: number;
  /** Write the charts to docs/ (off for smoke runs, whose figures mean little). */
  writeCharts?: boolean;
  endpoint?: Endpoint;
  log?: (line: string) => void;
}

export const itemCounts = [1, 2, 5, 10, 20, 30, 40, 50] as const;
export const customerSizes = [1, 10, 100, 300, 1000] as const;
export const chartFiles = { getOrder: "docs/scaling-get-order.svg", search: "docs/scaling-search-orders.svg" } as const;

/** Three digits only the oldest order of each scaling customer has, so that fragment matches exactly one order. */
const rareDigits = "777";
const searches = {
  "own e-mail": (c: { email: string }) => ({ email: c.email }),
  "30 days placed": () => ({ dateRange: { dateField: "placed", from: "2026-11-01", to: "2026-11-30" } }),
  "3 id digits (oldest only)": () => ({ orderId: rareDigits }),
} as const;

export async function benchScaling(options: ScalingBenchOptions = {}): Promise<void> {
  const calls = options.calls ?? 100;
  const log = options.log ?? console.log;
  await withDynamoDb(options.endpoint, async (endpoint) => {
    const world = await benchTables(endpoint, "scaling", () => benchToday);
    try {
      const base = benchFixture(0);
      const c = chooser(51);
      const taken = new Set<string>();
      const active = base.sellers.filter((s) => s.status === "active");

      // get_order: ten delivered orders of each size, by customers of the base fixture.
      const bySize = new Map<number, BenchOrder[]>();
      for (const items of itemCounts) {
        bySize.set(
          items,
          freshOrderIds(c, taken, 10).map((id) =>
            benchOrder(c, {
              id,
              customerId: c.pick(base.customers).id,
              sellerId: c.pick(active).id,
              status: "delivered",
              placed: new Date(benchToday.getTime() - 5 * dayMs),
              delivered: new Date(benchToday.getTime() - 2 * dayMs),
              items,
            }),
          ),
        );
      }
      // search_orders: one customer per size, orders evenly over three years; only the oldest holds rareDigits.
      for (let id = 0; id < 100_000; id++) {
        const digits = String(id).padStart(5, "0");
        if (digits.includes(rareDigits)) taken.add(`SU-${digits}`);
      }
      const scaled = customerSizes.map((n, i) => ({
        id: `C-77000${i}`,
        email: `scaling${n}@example.com`,
        name: `Customer with ${n} orders`,
        n,
      }));
      const searchOrders: BenchOrder[] = [];
      const statuses: OrderStatus[] = ["delivered", "delivered", "delivered", "cancelled", "shipped"];
      scaled.forEach((who, i) => {
        const ids = [`SU-${rareDigits}0${i}`, ...freshOrderIds(c, taken, who.n - 1)];
        ids.forEach((id, j) => {
          // j = 0 is the oldest, three years back; the newest (of more than one) was placed yesterday.
          const age = who.n === 1 ? 1 : (who.n - 1 - j) / (who.n - 1);
          const placed = new Date(benchToday.getTime() - dayMs - Math.round(age * 3 * 365 * dayMs) - j * 1000);
          const status = c.pick(statuses);
          const delivered = status === "delivered" ? new Date(placed.getTime() + 2 * dayMs) : null;
          searchOrders.push(
            benchOrder(c, { id, customerId: who.id, sellerId: c.pick(active).id, status, placed, delivered, items: c.int(1, 3) }),
          );
        });
      });
      const fixture = {
        ...base,
        customers: [...base.customers, ...scaled.map(({ n: _n, ...who }) => who)],
        orders: [...[...bySize.values()].flat(), ...searchOrders],
      };
      const loadStarted = performance.now();
      await loadFixture(world.deps, fixture);
      log(
        `DynamoDB Local ${endpoint}: ${fixture.orders.length} orders loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s\n`,
      );

      // ——— get_order by items ———
      const getOrder = createGetOrder(world.deps);
      const plain = documentClient(world.plain);
      const { pick } = chooser(52);
      for (const orders of bySize.values()) for (const o of orders) await callHandler(getOrder, customer(o.customerId), { orderId: o.id });
      for (let i = 0; i < 300; i++) await plain.send(orderQuery(world.names.orders, pick([...bySize.values()].flat()).id));
      const itemRows: { items: number; p50: number; p95: number; plain: number; bytes: number; tokens: number; raw: number }[] = [];
      const samples = new Map(
        [...bySize.keys()].map((items) => [
          items,
          { latency: [] as number[], plainMs: [] as number[], bytes: [] as number[], tokens: [] as number[], raw: [] as number[] },
        ]),
      );
      // Round by round over every size, so that DynamoDB Local's drift over the run falls on all sizes alike.
      for (let i = 0; i < calls; i++) {
        for (const [items, orders] of bySize) {
          const s = samples.get(items)!;
          const order = pick(orders);
          const timePlain = async () => {
            const started = performance.now();
            const { Items } = await plain.send(orderQuery(world.names.orders, order.id));
            s.plainMs.push(performance.now() - started);
            s.raw.push(utf8Bytes(JSON.stringify(Items)));
          };
          if (i % 2 === 0) await timePlain();
          const started = performance.now();
          const reply = await callHandler(getOrder, customer(order.customerId), { orderId: order.id });
          s.latency.push(performance.now() - started);
          if (reply.statusCode !== 200) throw new Error(`get_order ${order.id}: ${reply.statusCode} ${reply.body}`);
          s.bytes.push(utf8Bytes(reply.body));
          if (i < orders.length) s.tokens.push(tokensOf(reply.body));
          if (i % 2 === 1) await timePlain();
        }
      }
      for (const [items, s] of samples) {
        itemRows.push({
          items,
          p50: p50(s.latency),
          p95: p95(s.latency),
          plain: p50(s.plainMs),
          bytes: mean(s.bytes),
          tokens: mean(s.tokens),
          raw: mean(s.raw),
        });
      }
      table(
        log,
        ["get_order, items", "p50 ms", "p95 ms", "read p50", "p50/read", "result B", "tokens", "stored B"],
        itemRows.map((r) => [
          String(r.items),
          ms(r.p50),
          ms(r.p95),
          ms(r.plain),
          times(r.p50, r.plain),
          Math.round(r.bytes).toString(),
          Math.round(r.tokens).toString(),
          Math.round(r.raw).toString(),
        ]),
      );
      log(
        `${calls} calls per size over ten orders of that size, by their owners, seller cache warm, the sizes taken in turn; "read p50": a plain consistent read of the same orders (a Query of each one's partition), interleaved; "stored B": its items as stored.\n`,
      );

      // ——— search_orders by the customer's orders ———
      const search = createSearchOrders(world.deps);
      const searchRows: {
        kind: string;
        n: number;
        p50: number;
        p95: number;
        requests: number;
        bytes: number;
        found: number;
        truncated: boolean;
      }[] = [];
      for (const who of scaled) for (const input of Object.values(searches)) await callHandler(search, customer(who.id), input(who));
      const points = scaled.flatMap((who) =>
        Object.entries(searches).map(([kind, input]) => ({
          who,
          kind,
          input,
          latency: [] as number[],
          requests: 0,
          bytes: 0,
          last: { orders: [] as unknown[], truncated: false },
        })),
      );
      // Round by round over every customer and kind of search, as above.
      for (let i = 0; i < calls; i++) {
        for (const point of points) {
          const before = world.requests.total;
          const started = performance.now();
          const reply = await callHandler(search, customer(point.who.id), point.input(point.who));
          point.latency.push(performance.now() - started);
          point.requests += world.requests.total - before;
          if (reply.statusCode !== 200) throw new Error(`search ${point.kind} for ${point.who.id}: ${reply.statusCode} ${reply.body}`);
          point.last = JSON.parse(reply.body) as typeof point.last;
          point.bytes = utf8Bytes(reply.body);
        }
      }
      for (const p of points) {
        searchRows.push({
          kind: p.kind,
          n: p.who.n,
          p50: p50(p.latency),
          p95: p95(p.latency),
          requests: p.requests / calls,
          bytes: p.bytes,
          found: p.last.orders.length,
          truncated: p.last.truncated,
        });
      }
      table(
        log,
        ["search_orders, customer", "orders", "p50 ms", "p95 ms", "req/call", "result B", "returned"],
        searchRows.map((r) => [
          r.kind,
          String(r.n),
          ms(r.p50),
          ms(r.p95),
          r.requests.toFixed(2),
          String(r.bytes),
          `${r.found}${r.truncated ? " (truncated)" : ""}`,
        ]),
      );
      log(
        `${calls} calls per row, by the customer, the rows taken in turn; the default limit (10). Orders placed evenly over three years; the 3 id digits appear only in the customer's oldest order.`,
      );

      if (options.writeCharts ?? true) {
        const getOrderChart = chartSvg({
          title: "get_order by items on the order",
          subtitle: `through the handler on DynamoDB Local, ${calls} calls per size; ${new Date().toISOString().slice(0, 10)}`,
          xLabel: "items on the order",
          panels: [
            {
              title: "latency",
              yLabel: "ms",
              series: [
                { name: "get_order p50", points: itemRows.map((r) => [r.items, r.p50]) },
                { name: "get_order p95", points: itemRows.map((r) => [r.items, r.p95]) },
                { name: "plain read p50", points: itemRows.map((r) => [r.items, r.plain]), dashed: true },
              ],
            },
            {
              title: "size",
              yLabel: "KB",
              series: [
                { name: "get_order result", points: itemRows.map((r) => [r.items, r.bytes / 1024]) },
                { name: "order as stored", points: itemRows.map((r) => [r.items, r.raw / 1024]), dashed: true },
              ],
            },
          ],
        });
        const searchChart = chartSvg({
          title: "search_orders by the customer's orders",
          subtitle: `a customer searching their own orders, ${calls} calls per point; ${new Date().toISOString().slice(0, 10)}`,
          xLabel: "orders the customer has (log scale)",
          xLog: true,
          panels: [
            {
              title: "latency p50",
              yLabel: "ms",
              series: Object.keys(searches).map((kind) => ({
                name: kind,
                points: searchRows.filter((r) => r.kind === kind).map((r) => [r.n, r.p50] as const),
              })),
            },
            {
              title: "DynamoDB requests per call",
              yLabel: "requests",
              series: Object.keys(searches).map((kind) => ({
                name: kind,
                points: searchRows.filter((r) => r.kind === kind).map((r) => [r.n, r.requests] as const),
              })),
            },
          ],
        });
        writeFileSync(join(repoRoot, chartFiles.getOrder), getOrderChart);
        writeFileSync(join(repoRoot, chartFiles.search), searchChart);
        log(`\nCharts: ${chartFiles.getOrder}, ${chartFiles.search}`);
      }
    } finally {
      await world.drop();
    }
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const callsArg = process.argv.indexOf("--calls");
  await benchScaling(callsArg > 0 ? { calls: Number(process.argv[callsArg + 1]) } : {});
}
