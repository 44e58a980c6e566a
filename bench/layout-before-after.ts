/**
 * Latency before and after the order layout's split, tool by tool, in one process on one DynamoDB Local: the
 * handlers of a commit from before the split (a plain checkout of it at `--before <dir>`, e.g. `git worktree add
 * /tmp/before <commit>` with a `node_modules` link to this tree's) on tables written the previous way (each order one
 * item, the previous indexes), this tree's handlers on tables written the present way, and the previous handlers
 * again as an A/A control: called in turn (B, A, B') on the same orders every round, so the three meet the same
 * JVM and machine state and B'/B is the noise. Not an `npm run bench` section, since it needs that checkout; its
 * figures are in docs/benchmarks.md ("The order layout, before and after").
 *
 *   npx tsx bench/layout-before-after.ts --before /tmp/before [--calls 300]
 */
import "#bench/support/setup";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import {
  type BenchOrder,
  benchFixture,
  benchToday,
  chooser,
  ordersIn,
  plentifulPickupSlots,
  plentifulStock,
} from "#bench/support/bench-orders";
import { benchTables, type Caller, callHandler, customer, orderQuery, support, withDynamoDb } from "#bench/support/bench-world";
import { ms, p50, p95, table, times } from "#bench/support/stats";
import { documentClient } from "#store/client";
import { loadFixture, parseFixture, writeItems } from "#store/fixture";
import { orderKey } from "#store/keys";
import { ordersTableAt } from "#store/table-design";
import { previousLayoutItems } from "#test/support/previous-layout";
import type { ToolHandler } from "#runtime/handler";

const { values } = parseArgs({ options: { before: { type: "string" }, calls: { type: "string", default: "300" } } });
if (!values.before) throw new Error("--before <dir> is required: a checkout of a commit from before the layout's split.");
const before = values.before;
const calls = Number(values.calls);
if (!Number.isInteger(calls) || calls < 1) throw new Error(`--calls is a whole number of rounds, at least 1, not ${values.calls}.`);

const tools = [
  "get-order",
  "search-orders",
  "get-operation-status",
  "cancel-order",
  "add-delivery-note",
  "start-return",
  "offer-replacement",
] as const;
type Tool = (typeof tools)[number];
type Handlers = Record<Tool, (deps: unknown) => ToolHandler>;
const sides = ["b", "a", "bb"] as const;
type Side = (typeof sides)[number];

async function handlersOf(root: string): Promise<Handlers> {
  const entries = await Promise.all(
    tools.map(async (tool) => {
      const module = (await import(`${root}/functions/tools/${tool}.ts`)) as { createHandler: Handlers[Tool] };
      return [tool, module.createHandler] as const;
    }),
  );
  return Object.fromEntries(entries) as Handlers;
}

/** The same value for the same round, whichever side asks first. */
function perRound<T>(make: (round: number) => T): (round: number) => T {
  const made = new Map<number, T>();
  return (round) => {
    if (!made.has(round)) made.set(round, make(round));
    return made.get(round) as T;
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

await withDynamoDb(undefined, async (endpoint) => {
  const [previous, present] = await Promise.all([
    benchTables(endpoint, "before", () => benchToday, ordersTableAt(0)),
    benchTables(endpoint, "after", () => benchToday),
  ]);
  try {
    const base = benchFixture(600);
    const fresh = chooser(77);
    const taken = new Set<string>();
    const series = (status: Parameters<typeof ordersIn>[3]): Record<Side, BenchOrder[]> => ({
      b: ordersIn(base, fresh, taken, status, calls),
      a: ordersIn(base, fresh, taken, status, calls),
      bb: ordersIn(base, fresh, taken, status, calls),
    });
    const changes = { cancel: series("processing"), note: series("placed"), ret: series("delivered"), replacement: series("delivered") };
    // Orders no side reads before its row: what a function meets the first time it reads an order.
    const unread = series("delivered");
    const dedicated = [...Object.values(changes), unread].flatMap((s) => [...s.b, ...s.a, ...s.bb]);
    const fixture = {
      ...base,
      orders: [...base.orders, ...dedicated],
      pickupSlots: plentifulPickupSlots(),
      stock: plentifulStock(dedicated),
    };
    await Promise.all([writeItems(previous.deps, previousLayoutItems(parseFixture(fixture))), loadFixture(present.deps, fixture)]);

    const [beforeHandlers, presentHandlers] = await Promise.all([handlersOf(before), handlersOf(process.cwd())]);
    const depsOf: Record<Side, typeof present.deps> = { b: previous.deps, a: present.deps, bb: previous.deps };
    const makersOf: Record<Side, Handlers> = { b: beforeHandlers, a: presentHandlers, bb: beforeHandlers };
    const handlers = Object.fromEntries(
      sides.map((side) => [side, Object.fromEntries(tools.map((tool) => [tool, makersOf[side][tool](depsOf[side])]))]),
    ) as Record<Side, Record<Tool, ToolHandler>>;
    const docOf: Record<Side, ReturnType<typeof documentClient>> = {
      b: documentClient(previous.plain),
      a: documentClient(present.plain),
      bb: documentClient(previous.plain),
    };
    const tableOf: Record<Side, string> = { b: previous.names.orders, a: present.names.orders, bb: previous.names.orders };

    const { pick } = chooser(7);
    const orderIds = base.orders.map((o) => o.id);
    const ownerOf = new Map(base.orders.map((o) => [o.id, customer(o.customerId)]));
    const emailOf = new Map(base.customers.map((c) => [c.id, c.email]));
    const ordersOf = new Map<string, BenchOrder[]>();
    for (const o of base.orders) ordersOf.set(o.customerId, [...(ordersOf.get(o.customerId) ?? []), o]);
    const busy = [...ordersOf.entries()].filter(([, os]) => os.length >= 2).map(([id]) => id);
    const staff = support("S-7");
    // Every side's seller cache warm, and every order read once, before anything is timed.
    for (const side of sides) for (const id of orderIds) await callHandler(handlers[side]["get-order"], staff, { orderId: id });

    const rows: string[][] = [];
    async function row(name: string, call: (side: Side, round: number) => Promise<{ statusCode: number }>) {
      const took: Record<Side, number[]> = { b: [], a: [], bb: [] };
      for (let round = 0; round < calls; round++) {
        for (const side of sides) {
          const started = performance.now();
          const reply = await call(side, round);
          took[side].push(performance.now() - started);
          if (reply.statusCode !== 200) throw new Error(`${name}, side ${side}, round ${round}: ${JSON.stringify(reply)}`);
        }
      }
      rows.push([
        name,
        ms(p50(took.b)),
        ms(p50(took.a)),
        times(p50(took.a), p50(took.b)),
        ms(p50(took.bb)),
        times(p50(took.bb), p50(took.b)),
        ms(p95(took.b)),
        ms(p95(took.a)),
      ]);
      console.log(`  ${name}: done`);
    }
    const tool = (name: Tool, caller: (round: number) => Caller, body: (round: number) => unknown) => (side: Side, round: number) =>
      callHandler(handlers[side][name], caller(round), body(round));
    const plain = (read: (side: Side, orderId: string) => Promise<unknown>) => {
      const id = perRound(() => pick(orderIds));
      return async (side: Side, round: number) => {
        await read(side, id(round));
        return { statusCode: 200 };
      };
    };
    const getItem = (side: Side, orderId: string) =>
      docOf[side].send(new GetCommand({ TableName: tableOf[side], Key: orderKey(orderId), ConsistentRead: true }));
    const query = (side: Side, orderId: string) => docOf[side].send(orderQuery(tableOf[side], orderId));

    console.log(`load average at the start: ${load()}; ${calls} rounds per row`);
    await row(
      "plain read: B GetItem, A Query (state, content)",
      plain((s, id) => (s === "a" ? query(s, id) : getItem(s, id))),
    );
    await row("plain read: B Query (its one item), A Query", plain(query));
    await row("plain read: GetItem (A: of the state)", plain(getItem));
    const id1 = perRound(() => pick(orderIds));
    await row(
      "get_order (support, warm)",
      tool(
        "get-order",
        () => staff,
        (r) => ({ orderId: id1(r) }),
      ),
    );
    const id2 = perRound(() => pick(orderIds));
    await row(
      "get_order (owner, warm)",
      tool(
        "get-order",
        (r) => ownerOf.get(id2(r)) as Caller,
        (r) => ({ orderId: id2(r) }),
      ),
    );
    await row("get_order (an order not read before)", (side, r) =>
      callHandler(handlers[side]["get-order"], staff, { orderId: (unread[side][r] as BenchOrder).id }),
    );
    const id3 = perRound(() => pick(orderIds));
    // A function of its own each call: nothing kept from an earlier one, neither the seller nor an order's content.
    await row("get_order (seller not cached)", (side, r) =>
      callHandler(makersOf[side]["get-order"]({ ...depsOf[side] }), staff, { orderId: id3(r) }),
    );
    const c4 = perRound(() => pick(busy));
    const d4 = perRound((r) => pick(ordersOf.get(c4(r)) ?? []).id.slice(4, 7));
    await row(
      "search: customer, 3 id digits",
      tool(
        "search-orders",
        (r) => customer(c4(r)),
        (r) => ({ orderId: d4(r) }),
      ),
    );
    const c5 = perRound(() => pick(busy));
    const month = { dateRange: { dateField: "placed", from: "2026-11-01", to: "2026-11-30" } };
    await row(
      "search: customer, 30 days placed",
      tool(
        "search-orders",
        (r) => customer(c5(r)),
        () => month,
      ),
    );
    const c6 = perRound(() => pick(busy));
    await row(
      "search: support, e-mail",
      tool(
        "search-orders",
        () => staff,
        (r) => ({ email: emailOf.get(c6(r)) }),
      ),
    );
    const d7 = perRound(() => pick(orderIds).slice(5, 8));
    await row(
      "search: support, 3 id digits",
      tool(
        "search-orders",
        () => staff,
        (r) => ({ orderId: d7(r) }),
      ),
    );
    const d8 = perRound(() => pick(orderIds).slice(3, 7));
    await row(
      "search: support, 4 id digits",
      tool(
        "search-orders",
        () => staff,
        (r) => ({ orderId: d8(r) }),
      ),
    );
    const d9 = perRound(() => pick(orderIds));
    await row(
      "search: support, full id",
      tool(
        "search-orders",
        () => staff,
        (r) => ({ orderId: d9(r) }),
      ),
    );

    const operationOf = (name: string, side: Side, round: number) => `before-after-${name}-${side}-${round}`;
    const change = (name: string, key: string, list: Record<Side, BenchOrder[]>, toolName: Tool, body: (o: BenchOrder) => object) =>
      row(name, (side, round) => {
        const order = list[side][round] as BenchOrder;
        return callHandler(handlers[side][toolName], customer(order.customerId), {
          operationId: operationOf(key, side, round),
          orderId: order.id,
          ...body(order),
        });
      });
    await change("cancel_order (expectedVersion)", "cancel", changes.cancel, "cancel-order", (o) => ({
      expectedVersion: o.version,
      reason: "Ordered twice",
    }));
    await row("get_operation_status (completed)", (side, round) =>
      callHandler(handlers[side]["get-operation-status"], customer((changes.cancel[side][round] as BenchOrder).customerId), {
        operationId: operationOf("cancel", side, round),
      }),
    );
    await change("add_delivery_note", "note", changes.note, "add-delivery-note", (o) => ({
      expectedVersion: o.version,
      deliveryNote: "Side gate is open.",
    }));
    await change("start_return", "return", changes.ret, "start-return", () => ({ itemIds: ["ITM-1"], reason: "damaged" }));
    await change("offer_replacement", "replacement", changes.replacement, "offer-replacement", (o) => ({
      expectedVersion: o.version,
      itemId: "ITM-1",
      reason: "damaged",
    }));

    console.log("");
    table(console.log, ["p50 and p95 in ms", "B p50", "A p50", "A/B", "B' p50", "B'/B", "B p95", "A p95"], rows);
    console.log(
      `\nB: the handlers at ${before} on the previous layout; A: this tree's on the present one; B': B again, the A/A control (B'/B is the noise). ${calls} rounds per row, the three sides in turn on the same orders. Load average at the end: ${load()}.`,
    );
  } finally {
    await Promise.all([previous.drop(), present.drop()]);
  }
});
