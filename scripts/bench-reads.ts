/**
 * The read section of `npm run bench`: get_order and search_orders through their real handlers, against a
 * DynamoDB Local of its own, loaded with a realistic fixture (2,000 sellers with supplements, 600 raw orders
 * of ~68 fields each). For each it prints DynamoDB requests per call (counted by SDK middleware on every
 * client), result bytes against the raw stored orders' bytes, and p50/p95 latency over ≥ 200 calls next to a
 * plain GetItem p50 measured in the same run.
 *
 * DynamoDB Local runs on this machine, so absolute times are local round trips plus handler work; the ratios
 * to a plain GetItem are the figures that carry over.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { apiGatewayEvent, lambdaContext } from "#scripts/api-event";
import { createTables, localClientConfig } from "#scripts/create-tables";
import { startDynamoDbLocal } from "#scripts/dynamodb-local";
import { documentClient, type StoreDeps } from "#store/client";
import { loadFixture } from "#store/fixture";
import { orderKey, withoutStoreAttributes } from "#store/keys";
import type { ToolHandler } from "#tools/handler";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createSearchOrders } from "#tools/search-orders";

export interface ReadBenchOptions {
  /** Calls per measured series; at least 200. */
  calls?: number;
  /** Orders in the fixture. */
  orders?: number;
  log?: (line: string) => void;
}

/** "Today" for the fixture and the handlers, so every run reads the same data the same way. */
const today = new Date("2026-12-01T10:00:00Z");

export async function benchReads(options: ReadBenchOptions = {}): Promise<void> {
  const calls = Math.max(200, options.calls ?? 300);
  const log = options.log ?? console.log;
  const dynamo = await startDynamoDbLocal();
  const client = new DynamoDBClient({ ...localClientConfig(dynamo.endpoint), maxAttempts: 1 });
  let plainClient: DynamoDBClient | undefined;
  try {
    const counter = new RequestCounter();
    counter.observe(client);
    const tables = { orders: "bench-orders", idempotency: "bench-idempotency" };
    await createTables(client, tables);
    const deps: StoreDeps = {
      doc: documentClient(client),
      tables,
      now: () => today,
      clientConfig: localClientConfig(dynamo.endpoint),
      observeClient: counter.observe,
    };
    const fixture = benchFixture(options.orders ?? 600);
    const loadStarted = performance.now();
    await loadFixture(deps, fixture);
    log(
      `DynamoDB Local ${dynamo.endpoint}: loaded ${fixture.sellers.length} sellers, ${fixture.policies.length} supplements, ${fixture.customers.length} customers, ${fixture.orders.length} orders in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    // Every order as stored (minus the store's keys): the raw payload the tools trim.
    const raw = new Map<string, number>();
    const fields: number[] = [];
    for (const order of fixture.orders) {
      const { Item } = await deps.doc.send(new GetCommand({ TableName: tables.orders, Key: orderKey(order.id) }));
      const stored = withoutStoreAttributes(Item ?? {});
      raw.set(order.id, bytes(JSON.stringify(stored)));
      fields.push(Object.keys(stored).length - 1 + Object.keys((stored.internal ?? {}) as object).length);
    }
    log(`raw stored order: ${Math.round(mean(fields))} fields (its own and internal's), mean ${Math.round(mean([...raw.values()]))} B as JSON\n`);

    const pick = sampler(7);
    const orderIds = fixture.orders.map((o) => o.id);
    const ordersOf = new Map<string, typeof fixture.orders>();
    for (const order of fixture.orders) ordersOf.set(order.customerId, [...(ordersOf.get(order.customerId) ?? []), order]);
    const busyCustomers = [...ordersOf.entries()].filter(([, orders]) => orders.length >= 2).map(([id]) => id);
    const emails = new Map(fixture.customers.map((c) => [c.id, c.email]));

    // The baseline: a plain consistent GetItem of one order (as get_order's own read is), on a client of its
    // own so the counter sees only the tools' requests. Each series interleaves it with the handler's calls,
    // so both meet the same JVM, cache and machine state; the warm-up lets DynamoDB Local's JIT settle first.
    plainClient = new DynamoDBClient({ ...localClientConfig(dynamo.endpoint), maxAttempts: 1 });
    const plainDoc = documentClient(plainClient);
    const plainGetItem = () => plainDoc.send(new GetCommand({ TableName: tables.orders, Key: orderKey(pick(orderIds)), ConsistentRead: true }));
    for (let i = 0; i < 500; i++) await plainGetItem();

    const rows: Row[] = [];
    /** `next` gives each call's caller and arguments. */
    const run = async (name: string, handler: ToolHandler, next: () => { caller: Caller; body: Record<string, unknown> }) => {
      counter.reset();
      const series = await measure(calls, plainGetItem, async () => {
        const { caller, body } = next();
        const reply = await call(handler, caller, body);
        if (reply.statusCode !== 200) throw new Error(`${name}: HTTP ${reply.statusCode} ${reply.body}`);
        const parsed = JSON.parse(reply.body) as { orderId?: string; orders?: { orderId: string }[] };
        const ids = parsed.orders ? parsed.orders.map((o) => o.orderId) : [parsed.orderId as string];
        return { bytes: bytes(reply.body), raw: ids.reduce((sum, id) => sum + (raw.get(id) ?? 0), 0) };
      });
      rows.push({ name, series, requests: counter.total / calls, commands: counter.perCall(calls) });
    };

    const staff = support("S-7");
    const ownerOf = new Map(fixture.orders.map((o) => [o.id, customer(o.customerId)]));

    // 2. get_order, warm: every seller already in the 60 s cache (one warm-up call per order first).
    const getOrder = createGetOrder(deps);
    for (const id of orderIds) await call(getOrder, staff, { orderId: id });
    await run("get_order (support, warm)", getOrder, () => ({ caller: staff, body: { orderId: pick(orderIds) } }));
    await run("get_order (owner, warm)", getOrder, () => {
      const orderId = pick(orderIds);
      return { caller: ownerOf.get(orderId) as Caller, body: { orderId } };
    });
    // 3. get_order, cold: a fresh handler and seller cache per call, so the seller is read every time.
    {
      counter.reset();
      const series = await measure(calls, plainGetItem, async () => {
        const reply = await call(createGetOrder({ ...deps }), staff, { orderId: pick(orderIds) });
        const id = (JSON.parse(reply.body) as { orderId: string }).orderId;
        return { bytes: bytes(reply.body), raw: raw.get(id) ?? 0 };
      });
      rows.push({ name: "get_order (seller not cached)", series, requests: counter.total / calls, commands: counter.perCall(calls) });
    }

    // 4. search_orders, on each path it has.
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
    log(`plain GetItem (consistent, one order), interleaved with every series: p50 ${percentile(plainMs, 50).toFixed(2)} ms, p95 ${percentile(plainMs, 95).toFixed(2)} ms over ${plainMs.length} calls\n`);
    const header = ["through the handler", "req/call", "requests per call", "result B", "raw B", "result/raw", "p50 ms", "p95 ms", "GetItem p50", "p50/GetItem", "p95/GetItem p50"];
    const table = rows.map((r) => [
      r.name,
      r.requests.toFixed(2),
      r.commands,
      Math.round(mean(r.series.bytes)).toString(),
      Math.round(mean(r.series.raw)).toString(),
      mean(r.series.raw) > 0 ? `${((mean(r.series.bytes) / mean(r.series.raw)) * 100).toFixed(1)}%` : "–",
      percentile(r.series.ms, 50).toFixed(2),
      percentile(r.series.ms, 95).toFixed(2),
      percentile(r.series.plainMs, 50).toFixed(2),
      `${(percentile(r.series.ms, 50) / percentile(r.series.plainMs, 50)).toFixed(2)}×`,
      `${(percentile(r.series.ms, 95) / percentile(r.series.plainMs, 50)).toFixed(2)}×`,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] as string).length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
    log(line(header));
    for (const row of table) log(line(row));
    log(
      `\n${calls} calls per row, each paired with a plain GetItem (its p50 is the row's "GetItem p50"). "raw B": the stored order(s) the result describes, as JSON without the store's keys (for a search: the orders returned).`,
    );
  } finally {
    client.destroy();
    plainClient?.destroy();
    await dynamo.stop();
  }
}

// ——— measuring ———

interface Series {
  ms: number[];
  /** The paired plain GetItem calls. */
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

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** Counts every DynamoDB request of every client it observes, by command. */
class RequestCounter {
  readonly counts = new Map<string, number>();
  observe = (client: DynamoDBClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const name = String(context.commandName).replace(/Command$/, "");
        this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
        return next(args);
      },
      { step: "initialize", name: "benchRequestCounter" },
    );
  };
  reset() {
    this.counts.clear();
  }
  get total() {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  perCall(calls: number) {
    return [...this.counts.entries()].map(([name, n]) => `${name} ${+(n / calls).toFixed(2)}`).join(", ");
  }
}

// ——— calling a handler as API Gateway does ———

interface Caller {
  claims: Record<string, string>;
  scopes: string[];
}

const customer = (customerId: string): Caller => ({ claims: { sub: `user-${customerId}`, customer_id: customerId, scope: "orders:read orders:write" }, scopes: ["orders:read", "orders:write"] });
const support = (staffId: string): Caller => ({ claims: { sub: `staff-${staffId}`, scope: "orders:read orders:write orders:support" }, scopes: ["orders:read", "orders:write", "orders:support"] });

async function call(handler: ToolHandler, caller: Caller, body: unknown): Promise<{ statusCode: number; body: string }> {
  const event = apiGatewayEvent({ method: "POST", path: "/v1/tools/bench", body: JSON.stringify(body), claims: caller.claims, scopes: caller.scopes });
  const result = await handler(event, lambdaContext("bench"));
  return { statusCode: result.statusCode ?? 0, body: result.body ?? "" };
}

// ——— the fixture ———

/** A deterministic pseudo-random generator (mulberry32), so every run benchmarks the same data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sampler(seed: number) {
  const next = random(seed);
  return <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
}

const words = "oak walnut linen steel brass ceramic cotton wool glass lamp shelf chair table rug mug bowl vase throw cushion frame mirror hook rail basket crate stool bench desk lantern kettle".split(" ");

/**
 * ~2,000 sellers (5 % Sundry's own, 3 % suspended), a supplement for 95 % of them, 300 customers, and
 * `orderCount` orders of 1–4 items whose raw payload has ~68 fields: the order's own plus a noisy `internal`
 * (routing codes, tax ids, two internal status enums, three disagreeing timestamps, and more).
 */
export function benchFixture(orderCount: number) {
  const rnd = random(42);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rnd() * values.length)] as T;
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const phrase = (n: number) => Array.from({ length: n }, () => pick(words)).join(" ");

  const sellers = Array.from({ length: 2000 }, (_, i) => ({
    id: `SLR-${10000 + i}`,
    name: `${phrase(2).replace(/\b\w/g, (c) => c.toUpperCase())} ${pick(["Ltd", "Co", "Studio", "Works", "Goods"])}`,
    type: (i % 20 === 0 ? "sundry" : "marketplace") as "sundry" | "marketplace",
    status: (i % 33 === 7 ? "suspended" : "active") as "active" | "suspended",
  }));
  const policies = sellers.filter((_, i) => i % 20 !== 3).map((s) => ({ ref: `seller-supp/${s.id}`, returnWindowDays: pick([14, 21, 28, 30, 45, 60]) }));
  const customers = Array.from({ length: 300 }, (_, i) => ({ id: `C-${1000 + i}`, email: `customer${1000 + i}@example.com`, name: `Customer ${1000 + i}` }));

  const ids = new Set<string>();
  while (ids.size < orderCount) ids.add(`SU-${String(int(0, 99999)).padStart(5, "0")}`);
  const statuses = ["placed", "processing", "dispatching", "shipped", "delivered", "delivered", "delivered", "delivered", "cancelled"] as const;
  const day = 86_400_000;

  const orders = [...ids].map((id) => {
    const placed = new Date(today.getTime() - int(1, 120) * day - int(0, day - 1));
    const status = pick(statuses);
    const delivered = status === "delivered" ? new Date(Math.min(placed.getTime() + int(1, 6) * day, today.getTime() - 3_600_000)) : null;
    const items = Array.from({ length: int(1, 4) }, (_, i) => {
      const unitCents = int(300, 25000);
      return {
        itemId: `ITM-${i + 1}`,
        sku: `SKU-${int(1000, 9999)}-${pick(words).toUpperCase()}`,
        title: phrase(int(2, 5)).replace(/^\w/, (c) => c.toUpperCase()),
        quantity: int(1, 3),
        unitCents,
        description: `${phrase(int(30, 90))}.`,
      };
    });
    const itemCents = items.reduce((sum, item) => sum + item.unitCents * item.quantity, 0);
    const stamp = (offsetMs: number) => new Date(placed.getTime() + offsetMs).toISOString();
    const internal: Record<string, unknown> = {
      warehouseRoutingCode: `W${int(1, 9)}-${pick(["A", "B", "C"])}`,
      taxJurisdictionId: `GB-${pick(["ENG", "SCT", "WLS", "NIR"])}-${int(1, 9)}`,
      internalStatusA: pick(["NEW", "ALLOC", "PICK", "PACK", "MANIFEST", "CLOSED"]),
      internalStatusB: pick(["OK", "HOLD", "REVIEW", "RELEASED"]),
      createdTs: stamp(0),
      createdAtLegacy: stamp(400),
      createdEpochSeconds: Math.round(placed.getTime() / 1000) + 1,
    };
    for (const name of noiseFields) internal[name] = pick([() => int(0, 1_000_000), () => `${pick(words)}-${int(100, 999)}`, () => rnd() > 0.5, () => stamp(int(0, 9) * day)])();
    return {
      id,
      customerId: pick(customers).id,
      sellerId: pick(sellers).id,
      status,
      version: int(1, 6),
      placedAt: placed.toISOString(),
      deliveredAt: delivered?.toISOString() ?? null,
      currency: "GBP",
      items,
      charges: [{ kind: "item", cents: itemCents }, { kind: "delivery", cents: 995 }, ...(rnd() < 0.05 ? [{ kind: "delivery", cents: 995 }] : [])],
      delivery: { carrier: pick(["Parcelline", "Swiftpost", "Northway"]), trackingId: status === "placed" ? null : `PL${int(1_000_000, 9_999_999)}` },
      deliveryNote: rnd() < 0.2 ? "Please leave with the neighbour at number 12 if nobody answers." : null,
      internal,
    };
  });
  return { sellers, policies, customers, stock: [], pickupSlots: [], orders };
}

/** 46 more of the fields an order system accumulates: fulfilment, finance, risk, marketing. */
const noiseFields = [
  "fulfilmentCentre", "pickWave", "binLocation", "packStation", "manifestId", "consignmentRef", "carrierServiceCode", "carrierAccount",
  "riskScore", "fraudCheckId", "fraudDecision", "paymentProviderRef", "paymentMethodToken", "ledgerBatchId", "invoiceNumber", "vatRateBasisPoints",
  "vatCents", "dutyCents", "fxRateMicros", "settlementDate", "marketingChannel", "campaignId", "affiliateId", "basketId", "sessionId",
  "storefrontVersion", "adminLastTouchedBy", "adminNotesRef", "slaTier", "promiseDate", "promiseDateOriginal", "promiseDateRevised",
  "splitShipmentGroup", "backorderFlag", "giftWrapSku", "loyaltyPointsEarned", "loyaltyAccountRef", "returnsProfile", "crmContactId",
  "exportBatch", "legacyOrderNumber", "sourceSystem", "schemaVersion", "shardHint", "auditTrailRef", "pickerId",
] as const;
