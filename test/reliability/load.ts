/**
 * Load through the local gateway: real HTTP on 127.0.0.1, bearer tokens verified as API Gateway would, the real
 * handlers behind them. A seeded mix of every tool by several customers, a member of staff and a marketplace
 * seller (whose changes of another seller's orders, cancellations and notes must never succeed), with duplicate
 * requests and conflicting reuse of operationIds, many in flight at once. Afterwards the tables themselves are
 * read and must hold:
 * - stock and pickup capacity are never negative;
 * - every order's versions are contiguous from its fixture version, with exactly one activity entry per version;
 * - every completed operation record matches exactly one change (one activity entry with its operationId and
 *   actor, at the version it records), and every change has exactly one completed record;
 * - every 200 from a changing tool is what its operation record holds; no answer is a 5xx.
 * It reports throughput and p50 / p95 / p99 latency as the caller measured them.
 */
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import { routes } from "#local/routes";
import {
  addDays,
  baseSellers,
  basePolicies,
  customers,
  Failures,
  newOperationId,
  orderItem,
  type PartReport,
  percentile,
  random,
  reliabilityWorld,
  show,
  todayUtc,
  type ToolName,
} from "#test/reliability/harness";

export interface LoadOptions {
  requests: number;
  concurrency: number;
  seed?: number;
}

interface Planned {
  tool: ToolName;
  who: string;
  body: Record<string, unknown>;
  get?: boolean;
  kind: "fresh" | "duplicate" | "reuse" | "lookup" | "read";
}

interface Answer {
  planned: Planned;
  status: number;
  text: string;
  replayed: boolean;
  ms: number;
}

/** The marketplace seller in the mix, and the other seller whose orders it must never reach. */
const loadSeller = "SLR-2210";
const otherSeller = "SLR-4400";
const statuses = ["placed", "processing", "dispatching", "shipped", "delivered", "delivered", "cancelled"] as const;

export async function runLoad(endpoint: string, options: LoadOptions): Promise<PartReport> {
  const started = performance.now();
  const today = todayUtc();
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const next = random(seed);
  const choose = <T>(values: readonly T[]) => values[next(values.length)] as T;

  const customerIds = Array.from({ length: 8 }, (_, i) => `C-${3001 + i}`);
  const skus = ["LOAD-A", "LOAD-B", "LOAD-C"];
  const orders: ReturnType<typeof orderItem>[] = [];
  const initialVersion = new Map<string, number>();
  let number = 80_000;
  for (const customerId of customerIds) {
    for (const status of statuses) {
      const id = `SU-${number++}`;
      const version = 1 + (number % 4);
      initialVersion.set(id, version);
      // Two marketplace sellers share the orders: the seller in the mix reaches half of them.
      const sellerId = number % 2 === 0 ? loadSeller : otherSeller;
      orders.push(
        orderItem(id, today, {
          customerId,
          sellerId,
          status,
          version,
          items: [
            { itemId: "ITM-1", sku: choose(skus) },
            { itemId: "ITM-2", sku: choose(skus) },
          ],
        }),
      );
    }
  }
  const ordersOf = (customerId: string) => orders.filter((o) => o.customerId === customerId);
  const slots = [1, 2, 3].map((d) => ({ date: addDays(today, d), window: "08:00-12:00", capacity: 4 }));
  const world = await reliabilityWorld(endpoint, {
    sellers: [...baseSellers, { id: otherSeller, name: "Corran Textiles", type: "marketplace", status: "active" }],
    policies: basePolicies,
    customers: customers(customerIds),
    stock: skus.map((sku) => ({ sku, available: 4 })),
    pickupSlots: slots,
    orders,
  });

  const tokens = new Map<string, string>();
  for (const customerId of customerIds) tokens.set(customerId, await signDevToken(principalClaims({ customer: customerId })));
  tokens.set("support", await signDevToken(principalClaims({ support: "S-9" })));
  tokens.set("seller", await signDevToken(principalClaims({ seller: loadSeller })));
  const subOf = (who: string) => (who === "support" ? "staff-S-9" : who === "seller" ? `seller-${loadSeller}` : `user-${who}`);
  const sellerOf = new Map(orders.map((o) => [o.id, o.sellerId]));

  // The plan: fresh changes and reads by owners (and some on others' orders), support changes, a seller's (on
  // any order: its own and the other seller's alike), then duplicates, conflicting reuse and status lookups of
  // earlier operations.
  const plan: Planned[] = [];
  const changes: Planned[] = [];
  for (let i = 0; plan.length < options.requests; i++) {
    const roll = next(100);
    const whoRoll = next(10);
    const who = whoRoll === 0 ? "support" : whoRoll === 1 ? "seller" : choose(customerIds);
    const target = choose(who === "support" || who === "seller" || next(8) === 0 ? orders : ordersOf(who));
    const v = initialVersion.get(target.id) as number;
    const operationId = newOperationId("op-load");
    if (roll < 12 && changes.length > 0) {
      const earlier = choose(changes);
      plan.push({ ...earlier, kind: "duplicate" });
    } else if (roll < 20 && changes.length > 0) {
      const earlier = choose(changes);
      if (earlier.who === "seller") {
        // A seller reuses an id with a tool it may use: any other is FORBIDDEN before the id is looked at.
        const body = { operationId: earlier.body.operationId, orderId: earlier.body.orderId, itemIds: ["ITM-1", "ITM-2"], reason: "other" };
        plan.push({ tool: "start_return", who: earlier.who, body, kind: "reuse" });
      } else {
        const body =
          earlier.tool === "cancel_order"
            ? { ...earlier.body, reason: "A different reason" }
            : { operationId: earlier.body.operationId, orderId: earlier.body.orderId };
        plan.push({ tool: "cancel_order", who: earlier.who, body, kind: "reuse" });
      }
    } else if (roll < 30 && changes.length > 0) {
      const earlier = choose(changes);
      plan.push({
        tool: "get_operation_status",
        who: earlier.who,
        body: { operationId: earlier.body.operationId },
        get: next(2) === 0,
        kind: "lookup",
      });
    } else if (roll < 40) {
      plan.push({ tool: "get_order", who, body: { orderId: target.id }, kind: "read" });
    } else if (roll < 48) {
      plan.push({
        tool: "search_orders",
        who,
        body: who === "support" ? { email: `${target.customerId.toLowerCase()}@example.com` } : { orderId: target.id.slice(5) },
        kind: "read",
      });
    } else {
      const tool = choose(["cancel_order", "add_delivery_note", "start_return", "offer_replacement"] as const);
      const version = next(3) === 0 ? v + 1 : v;
      const body: Record<string, unknown> =
        tool === "cancel_order"
          ? { operationId, orderId: target.id, ...(next(2) ? { expectedVersion: version } : {}) }
          : tool === "add_delivery_note"
            ? { operationId, orderId: target.id, expectedVersion: version, deliveryNote: `Note ${i}` }
            : tool === "start_return"
              ? { operationId, orderId: target.id, itemIds: [choose(["ITM-1", "ITM-2"])], reason: "damaged" }
              : { operationId, orderId: target.id, expectedVersion: version, itemId: choose(["ITM-1", "ITM-2"]), reason: "missing" };
      const planned: Planned = { tool, who, body, kind: "fresh" };
      plan.push(planned);
      changes.push(planned);
    }
  }

  const byName = new Map(Object.entries(world.handlers));
  const gateway: Gateway = await startGateway({
    port: 0,
    routes: routes.filter((route) => byName.has(route.name)),
    resolveHandler: (route) => world.handlers[route.name as ToolName],
  });
  const failures = new Failures();
  const answers: Answer[] = [];
  let loadStarted = 0;
  let loadSeconds = 0;
  try {
    let cursor = 0;
    loadStarted = performance.now();
    const worker = async () => {
      for (;;) {
        const planned = plan[cursor++];
        if (!planned) return;
        const t0 = performance.now();
        const operationId = encodeURIComponent(String(planned.body.operationId));
        const response = await fetch(
          planned.get ? `${gateway.url}/v1/operations/${operationId}` : `${gateway.url}/v1/tools/${planned.tool}`,
          {
            method: planned.get ? "GET" : "POST",
            headers: { authorization: `Bearer ${tokens.get(planned.who)}`, ...(planned.get ? {} : { "content-type": "application/json" }) },
            ...(planned.get ? {} : { body: JSON.stringify(planned.body) }),
          },
        );
        const text = await response.text();
        answers.push({
          planned,
          status: response.status,
          text,
          replayed: response.headers.get("idempotent-replayed") === "true",
          ms: performance.now() - t0,
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, plan.length) }, worker));
    loadSeconds = (performance.now() - loadStarted) / 1000;
  } finally {
    await gateway.close();
  }

  try {
    const tally: Record<string, number> = {
      requests: answers.length,
      concurrency: Math.min(options.concurrency, plan.length),
      "5xx": 0,
      completed: 0,
      replayed: 0,
      duplicates: 0,
      reuses: 0,
    };
    for (const answer of answers) {
      if (answer.status >= 500) {
        tally["5xx"] = (tally["5xx"] ?? 0) + 1;
        failures.add(`a 5xx: ${answer.planned.tool} ${show(answer.planned.body)} → ${answer.status} ${show(answer.text)}`);
      }
      if (answer.planned.kind === "duplicate") tally.duplicates = (tally.duplicates ?? 0) + 1;
      if (answer.planned.kind === "reuse") tally.reuses = (tally.reuses ?? 0) + 1;
      if (answer.replayed) tally.replayed = (tally.replayed ?? 0) + 1;
      const changing = ["cancel_order", "add_delivery_note", "start_return", "offer_replacement"].includes(answer.planned.tool);
      if (changing && answer.status === 200) {
        tally.completed = (tally.completed ?? 0) + 1;
        const record = await world.operation(subOf(answer.planned.who), String(answer.planned.body.operationId));
        if (record?.status !== "completed" || JSON.stringify(record.body) !== answer.text)
          failures.add(
            `a 200 that its operation record does not hold: ${answer.planned.tool} ${show(answer.planned.body)} → ${show(answer.text)}; record ${show(record)}`,
          );
      }
      if (answer.planned.who === "seller") {
        tally["seller requests"] = (tally["seller requests"] ?? 0) + 1;
        const orderId = String(answer.planned.body.orderId ?? "");
        const notItsOwn = sellerOf.has(orderId) && sellerOf.get(orderId) !== loadSeller;
        if (
          answer.status === 200 &&
          changing &&
          (notItsOwn || answer.planned.tool === "cancel_order" || answer.planned.tool === "add_delivery_note")
        ) {
          failures.add(`the seller changed what it may not: ${answer.planned.tool} ${show(answer.planned.body)} → ${show(answer.text)}`);
        }
        if (answer.status === 200 && answer.planned.tool === "get_order" && notItsOwn)
          failures.add(`the seller read another seller's order: ${show(answer.text)}`);
        if (answer.status === 200 && answer.planned.tool === "search_orders" && /"orderId"/.test(answer.text)) {
          const found = (JSON.parse(answer.text) as { orders: { orderId: string }[] }).orders.map((o) => o.orderId);
          const foreign = found.filter((id) => sellerOf.get(id) !== loadSeller);
          if (foreign.length) failures.add(`the seller's search found another seller's orders ${foreign.join(", ")}`);
        }
      }
      if (answer.planned.kind === "reuse" && answer.status !== 422 && answer.status !== 409 && answer.status !== 429) {
        // A reuse may also meet an id whose first request has not arrived yet: then it is simply the first.
        const record = await world.operation(subOf(answer.planned.who), String(answer.planned.body.operationId));
        if (record && JSON.stringify(record.body) !== answer.text)
          failures.add(`a conflicting reuse was answered ${answer.status} ${show(answer.text)}`);
      }
    }

    // The tables themselves.
    const items = await world.scan("orders");
    for (const item of items) {
      if (item.entity === "stock" && item.available < 0) failures.add(`stock ${item.sku} is ${item.available}`);
      if (item.entity === "pickupSlot" && item.capacity < 0) failures.add(`slot ${item.date} ${item.window} is ${item.capacity}`);
    }
    const records = items.filter((item) => String(item.PK).startsWith("OPERATION#") && item.status === "completed");
    const recordKey = (sub: string, operationId: string) => `${sub}#${operationId}`;
    const completed = new Map(records.map((r) => [recordKey(r.actor?.sub, r.operationId), r]));
    let versionsChecked = 0;
    const seen = new Set<string>();
    for (const order of orders) {
      const stored = await world.order(order.id);
      const from = initialVersion.get(order.id) as number;
      const activity = await world.activity(order.id);
      const current = stored?.version as number;
      const versions = activity
        .map((a) => a.version)
        .filter((v) => typeof v === "number")
        .sort((a, b) => a - b);
      const expected = Array.from({ length: current - from }, (_, i) => from + 1 + i);
      versionsChecked += current - from;
      if (activity.length !== current - from)
        failures.add(`order ${order.id} went from v${from} to v${current} with ${activity.length} activity entries`);
      if (versions.length === activity.length && JSON.stringify(versions) !== JSON.stringify(expected))
        failures.add(`order ${order.id}: activity versions ${show(versions)}, expected ${show(expected)}`);
      for (const entry of activity) {
        const key = recordKey(entry.actor?.sub, entry.operationId);
        if (seen.has(key)) failures.add(`operation ${key} has more than one activity entry`);
        seen.add(key);
        const record = completed.get(key);
        if (!record) failures.add(`order ${order.id} v${entry.version}: a change by ${key} with no completed operation record`);
        else if (record.orderId !== order.id || (typeof entry.version === "number" && record.orderVersion !== entry.version))
          failures.add(`record ${key} says ${record.orderId} v${record.orderVersion}, the change is ${order.id} v${entry.version}`);
      }
    }
    for (const key of completed.keys()) if (!seen.has(key)) failures.add(`completed operation ${key} matches no change`);

    const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
    return {
      part: "load",
      figures: {
        ...tally,
        "operation records (completed)": records.length,
        "versions checked": versionsChecked,
        "throughput (req/s)": Number((answers.length / loadSeconds).toFixed(1)),
        "p50 (ms)": Number(percentile(latencies, 50).toFixed(1)),
        "p95 (ms)": Number(percentile(latencies, 95).toFixed(1)),
        "p99 (ms)": Number(percentile(latencies, 99).toFixed(1)),
        seed,
      },
      failures: failures.list,
      failureCount: failures.count,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await world.destroy();
  }
}
