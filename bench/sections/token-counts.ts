/**
 * Tokens a model pays for what the read tools return, counted with a real tokenizer (bench/support/token-encoding.ts):
 * per get_order against the raw stored order and against peer 2's six API-shaped reads of the same order, and
 * per search_orders against the raw stored orders it returns (what an order API's own search would hand back).
 * Every order of the fixture is read once by its owner; the searches are a customer's by e-mail, by 3 id
 * digits and by 30 days placed, for every customer with two or more orders.
 */
import "#bench/support/setup";
import { pathToFileURL } from "node:url";
import { benchFixture, benchToday, chooser } from "#bench/support/bench-orders";
import { apiShapedHandlers, apiShapedTools, needsSeller } from "#bench/peers/api-shaped";
import { mean, p50, p95, table, times, utf8Bytes } from "#bench/support/stats";
import { tokenEncoding, tokensOf } from "#bench/support/token-encoding";
import { benchTables, callHandler, customer, type Endpoint, withDynamoDb } from "#bench/support/bench-world";
import { loadFixture } from "#store/fixture";
import { readOrder } from "#store/order-items";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createSearchOrders } from "#tools/search-orders";

export interface TokenBenchOptions {
  /** Orders in the fixture. */
  orders?: number;
  endpoint?: Endpoint;
  log?: (line: string) => void;
}

interface Payloads {
  tokens: number[];
  bytes: number[];
}

const payloads = (): Payloads => ({ tokens: [], bytes: [] });
const add = (p: Payloads, text: string) => {
  p.tokens.push(tokensOf(text));
  p.bytes.push(utf8Bytes(text));
};

export async function benchTokens(options: TokenBenchOptions = {}): Promise<void> {
  const log = options.log ?? console.log;
  await withDynamoDb(options.endpoint, async (endpoint) => {
    const world = await benchTables(endpoint, "tokens", () => benchToday);
    try {
      const fixture = benchFixture(options.orders ?? 600);
      await loadFixture(world.deps, fixture);
      const getOrder = createGetOrder(world.deps);
      const search = createSearchOrders(world.deps);
      const peer = apiShapedHandlers(world.deps);

      const rawText = new Map<string, string>();
      for (const order of fixture.orders) {
        rawText.set(order.id, JSON.stringify((await readOrder(world.deps, order.id)) ?? {}));
      }

      const ours = payloads();
      const raw = payloads();
      const chained = payloads();
      for (const order of fixture.orders) {
        const caller = customer(order.customerId);
        const reply = await callHandler(getOrder, caller, { orderId: order.id });
        if (reply.statusCode !== 200) throw new Error(`get_order ${order.id}: ${reply.statusCode} ${reply.body}`);
        add(ours, reply.body);
        add(raw, rawText.get(order.id) as string);
        const bodies: string[] = [];
        for (const tool of apiShapedTools) {
          const answer = await callHandler(peer[tool], caller, needsSeller(tool) ? { sellerId: order.sellerId } : { orderId: order.id });
          if (answer.statusCode !== 200) throw new Error(`${tool} ${order.id}: ${answer.statusCode} ${answer.body}`);
          bodies.push(answer.body);
        }
        chained.tokens.push(bodies.reduce((total, body) => total + tokensOf(body), 0));
        chained.bytes.push(bodies.reduce((total, body) => total + utf8Bytes(body), 0));
      }

      const ordersOf = new Map<string, typeof fixture.orders>();
      for (const order of fixture.orders) ordersOf.set(order.customerId, [...(ordersOf.get(order.customerId) ?? []), order]);
      const { pick } = chooser(41);
      const kinds = {
        "e-mail (own)": (customerId: string) => ({ email: `customer${customerId.slice(2)}@example.com` }),
        "3 id digits": (customerId: string) => ({ orderId: pick(ordersOf.get(customerId) ?? []).id.slice(4, 7) }),
        "30 days placed": () => ({ dateRange: { dateField: "placed", from: "2026-11-01", to: "2026-11-30" } }),
      } as const;
      const searchRows: string[][] = [];
      for (const [kind, input] of Object.entries(kinds)) {
        const result = payloads();
        const rawOfResult = payloads();
        const perOrder: number[] = [];
        const rawPerOrder: number[] = [];
        for (const [customerId, orders] of ordersOf) {
          if (orders.length < 2) continue;
          const reply = await callHandler(search, customer(customerId), input(customerId));
          if (reply.statusCode !== 200) throw new Error(`search ${kind} for ${customerId}: ${reply.statusCode} ${reply.body}`);
          const found = (JSON.parse(reply.body) as { orders: { orderId: string }[] }).orders.map((o) => o.orderId);
          if (found.length === 0) continue;
          add(result, reply.body);
          // What an order API's search would return for the same orders: their records as stored, in a list.
          add(rawOfResult, `[${found.map((id) => rawText.get(id)).join(",")}]`);
          perOrder.push(tokensOf(reply.body) / found.length);
          rawPerOrder.push(found.reduce((total, id) => total + tokensOf(rawText.get(id) as string), 0) / found.length);
        }
        searchRows.push([
          `search: customer, ${kind}`,
          String(result.tokens.length),
          Math.round(mean(result.tokens)).toString(),
          Math.round(p95(result.tokens)).toString(),
          Math.round(mean(rawOfResult.tokens)).toString(),
          times(mean(result.tokens), mean(rawOfResult.tokens)),
          Math.round(mean(perOrder)).toString(),
          Math.round(mean(rawPerOrder)).toString(),
        ]);
      }

      log(`Tokens: ${tokenEncoding}. ${fixture.orders.length} orders, each read once by its owner.\n`);
      const row = (name: string, p: Payloads) => [
        name,
        Math.round(mean(p.tokens)).toString(),
        Math.round(p50(p.tokens)).toString(),
        Math.round(p95(p.tokens)).toString(),
        Math.round(mean(p.bytes)).toString(),
        times(mean(p.tokens), mean(raw.tokens)),
        times(mean(p.tokens), mean(chained.tokens)),
      ];
      table(
        log,
        ["per order", "mean tokens", "p50", "p95", "mean B", "vs raw", "vs peer 2"],
        [row("get_order result", ours), row("raw stored order", raw), row("peer 2: six API-shaped reads", chained)],
      );
      log("");
      table(
        log,
        ["per search (customers with ≥ 2 orders)", "searches", "mean tokens", "p95", "raw tokens", "vs raw", "tokens/order", "raw/order"],
        searchRows,
      );
      log(
        `\n"raw": the stored orders as JSON without the store's keys (a search's raw: the orders it returned, as an order API's search would list them). ` +
          `Peer 2 has no search of its own: its search is the raw column.`,
      );
    } finally {
      await world.drop();
    }
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchTokens();
}
