/**
 * What every part of the reliability suite stands on, usable both from vitest (CI sizes) and from
 * `test/reliability/soak.ts` (soak sizes): fresh tables on a given DynamoDB Local endpoint, the real handlers built with
 * store dependencies whose every client counts (and can fault) its requests, callers as API Gateway presents
 * them, and direct reads of what the tables hold. Nothing here imports vitest.
 */
import { randomUUID } from "node:crypto";
import { DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";
import { createTables, localClientConfig, type TableNames } from "#local/create-tables";
import { documentClient, type StoreDeps } from "#store/client";
import { loadFixture } from "#store/fixture";
import { operationKey, orderKey, pickupSlotKey, stockKey } from "#store/keys";
import { readActivity } from "#store/operations";
import { createHandler as createNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { createHandler as createGetOrder } from "#tools/get-order";
import type { ToolHandler } from "#runtime/handler";
import { createHandler as createReplace } from "#tools/offer-replacement";
import { createHandler as createSearch } from "#tools/search-orders";
import { createHandler as createReturn } from "#tools/start-return";
import type { Caller } from "#test/support/callers";

export type FixtureInput = Record<string, unknown[]>;

// ——— callers ———

// A caller as API Gateway's JWT authorizer presents it; undefined is a request with no token at all.
export { type Caller, customer, seller, support } from "#test/support/callers";

/** A verified token that names neither a customer nor support staff. */
export const nobody = (sub = "someone-unnamed"): Caller => ({
  claims: { sub, scope: "orders:read orders:write" },
  scopes: ["orders:read", "orders:write"],
});

// ——— tools ———

export const changingTools = ["cancel_order", "add_delivery_note", "start_return", "offer_replacement"] as const;
export const readingTools = ["search_orders", "get_order", "get_operation_status"] as const;
export const allTools = [...readingTools, ...changingTools] as const;
export type ToolName = (typeof allTools)[number];
export type ChangingTool = (typeof changingTools)[number];

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** Parsed body; undefined when the body is not JSON (itself a finding). */
  body: any;
  /** The body exactly as sent. */
  text: string;
  ms: number;
}

// ——— clock and days ———

/** A tiny deterministic generator (xorshift32), so a run can be repeated from its seed. */
export function random(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

export const todayUtc = () => new Date().toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

// ——— requests to DynamoDB: counting and faults ———

export const writeCommands = new Set([
  "PutItemCommand",
  "UpdateItemCommand",
  "DeleteItemCommand",
  "TransactWriteItemsCommand",
  "BatchWriteItemCommand",
]);

/** One hook into every DynamoDB request the store makes: before it is sent and after its response arrives. */
export interface RequestHook {
  /** Runs before the request; may throw (nothing is sent) or wait. `inner`: inside the SDK's retries. */
  before?(request: DynamoRequest): Promise<void> | void;
  /** Runs once the response has arrived (the write, if any, has committed); may throw to lose the response. */
  after?(request: DynamoRequest): Promise<void> | void;
}

export interface DynamoRequest {
  /** e.g. "TransactWriteItemsCommand". */
  command: string;
  input: Record<string, unknown>;
  /** "store" for the store's own client, "powertools" for the idempotency persistence client. */
  client: "store" | "powertools";
  /** Where the hook runs: "outer" sees one call per send, "inner" one per attempt inside the SDK's retries. */
  layer: "outer" | "inner";
}

/**
 * A retry strategy with the SDK's classification (throttling, transient and server errors are retried) but a
 * 5 ms pause instead of the standard back-off of up to seconds, so a run with a thousand injected throttles
 * stays short. `maxAttempts` as the SDK's default.
 */
function quickRetryStrategy(maxAttempts = 3) {
  type Token = { getRetryCount(): number; getRetryDelay(): number };
  const token = (count: number): Token => ({ getRetryCount: () => count, getRetryDelay: () => 5 });
  return {
    mode: "standard",
    acquireInitialRetryToken: async () => token(0),
    refreshRetryTokenForRetry: async (previous: Token, info: { errorType: string }) => {
      if (info.errorType === "CLIENT_ERROR" || previous.getRetryCount() + 1 >= maxAttempts) throw new Error("no more retries");
      return token(previous.getRetryCount() + 1);
    },
    recordSuccess: () => undefined,
  };
}

export class RequestLog {
  readonly counts = new Map<string, number>();
  hooks: RequestHook[] = [];
  get writes(): number {
    let n = 0;
    for (const [command, count] of this.counts) if (writeCommands.has(command)) n += count;
    return n;
  }
  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  reset(): void {
    this.counts.clear();
  }
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort());
  }

  /** Adds the counting and hook middleware to a client: outermost (one per send) and innermost (one per attempt). */
  observe(client: DynamoDBClient, kind: DynamoRequest["client"]): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const request: DynamoRequest = {
          command: String(context.commandName),
          input: args.input as Record<string, unknown>,
          client: kind,
          layer: "outer",
        };
        this.counts.set(request.command, (this.counts.get(request.command) ?? 0) + 1);
        for (const hook of [...this.hooks]) await hook.before?.(request);
        const result = await next(args);
        for (const hook of [...this.hooks]) await hook.after?.(request);
        return result;
      },
      { step: "initialize", priority: "high", name: `reliabilityOuter-${randomUUID()}` },
    );
    // The deserialize step runs inside the retry middleware (finalizeRequest): an error thrown here is one the
    // SDK itself sees and retries, exactly as a throttled or dropped attempt would be.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const request: DynamoRequest = {
          command: String(context.commandName),
          input: (args as unknown as { input?: Record<string, unknown> }).input ?? {},
          client: kind,
          layer: "inner",
        };
        for (const hook of [...this.hooks]) await hook.before?.(request);
        const result = await next(args);
        for (const hook of [...this.hooks]) await hook.after?.(request);
        return result;
      },
      { step: "deserialize", name: `reliabilityInner-${randomUUID()}` },
    );
  }
}

// ——— the world ———

/** Every limit off: the suite's volume would trip them. Spread, so fields the store does not know yet are harmless. */
const limitsOff: Record<string, number> = { hourlyCap: 0, supportHourlyCap: 0, sellerHourlyCap: 0, requestBudget: 0 };

export interface WorldOptions {
  now?: () => Date;
  /** Overrides of the store's limits (hourlyCap, supportHourlyCap, sellerHourlyCap, requestBudget); all 0 otherwise. */
  limits?: Record<string, number>;
  maxAttempts?: number;
}

export type Handlers = Record<ToolName, ToolHandler>;

/**
 * Fresh tables on `endpoint`, loaded with `fixture`, and the real handlers built on counting, hookable clients.
 */
export async function reliabilityWorld(endpoint: string, fixture: FixtureInput, options: WorldOptions = {}) {
  const log = new RequestLog();
  const clientConfig: DynamoDBClientConfig = {
    ...localClientConfig(endpoint),
    maxAttempts: options.maxAttempts ?? 3,
    retryStrategy: quickRetryStrategy(options.maxAttempts ?? 3) as unknown as DynamoDBClientConfig["retryStrategy"],
  };
  const admin = new DynamoDBClient(localClientConfig(endpoint));
  const suffix = randomUUID().slice(0, 8);
  const names: TableNames = { orders: `rel-orders-${suffix}`, idempotency: `rel-idem-${suffix}` };
  await createTables(admin, names);
  const adminDoc = documentClient(admin);

  const client = new DynamoDBClient(clientConfig);
  log.observe(client, "store");
  const deps = {
    doc: documentClient(client),
    tables: names,
    now: options.now ?? (() => new Date()),
    clientConfig,
    observeClient: (c: DynamoDBClient) => log.observe(c, "powertools"),
    ...limitsOff,
    ...options.limits,
  } as StoreDeps;
  await loadFixture({ ...deps, doc: adminDoc }, fixture);

  const handlers: Handlers = {
    search_orders: createSearch(deps),
    get_order: createGetOrder(deps),
    get_operation_status: createStatus(deps),
    cancel_order: createCancel(deps),
    add_delivery_note: createNote(deps),
    start_return: createReturn(deps),
    offer_replacement: createReplace(deps),
  };

  /** Calls a tool as API Gateway would: a JSON (or raw text) body, or the GET route's path parameter. */
  async function call(
    tool: ToolName,
    caller: Caller | undefined,
    body: unknown,
    options: { raw?: boolean; get?: boolean } = {},
  ): Promise<Reply> {
    const started = performance.now();
    const event = options.get
      ? apiGatewayEvent({
          method: "GET",
          path: `/v1/operations/${encodeURIComponent(String((body as { operationId?: unknown }).operationId))}`,
          routeKey: "GET /v1/operations/{operationId}",
          pathParameters: { operationId: String((body as { operationId?: unknown }).operationId) },
          ...(caller ? { claims: caller.claims, scopes: caller.scopes } : {}),
        })
      : apiGatewayEvent({
          method: "POST",
          path: `/v1/tools/${tool}`,
          routeKey: `POST /v1/tools/${tool}`,
          body: options.raw ? String(body) : JSON.stringify(body),
          ...(caller ? { claims: caller.claims, scopes: caller.scopes } : {}),
        });
    if (!caller) delete (event.requestContext as { authorizer?: unknown }).authorizer;
    const result = await handlers[tool](event, lambdaContext(tool));
    const text = result.body ?? "";
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return {
      status: result.statusCode ?? 0,
      headers: (result.headers ?? {}) as Record<string, string>,
      body: parsed,
      text,
      ms: performance.now() - started,
    };
  }

  const get = async (Key: object) => (await adminDoc.send(new GetCommand({ TableName: names.orders, Key, ConsistentRead: true }))).Item;

  return {
    endpoint,
    names,
    deps,
    client,
    admin: adminDoc,
    log,
    handlers,
    call,
    order: (orderId: string) => get(orderKey(orderId)),
    stock: async (sku: string) => (await get(stockKey(sku)))?.available as number | undefined,
    slot: async (date: string, window: string) => (await get(pickupSlotKey(date, window)))?.capacity as number | undefined,
    operation: async (sub: string, operationId: string) => {
      const item = await get(operationKey(sub, operationId));
      return item && ({ ...item, body: typeof item.body === "string" ? JSON.parse(item.body) : item.body } as Record<string, any>);
    },
    activity: (orderId: string) => activityOf(adminDoc, names, orderId),
    load: (items: FixtureInput) => loadFixture({ ...deps, doc: adminDoc }, items),
    scan: (table: "orders" | "idempotency") => scanAll(adminDoc, names[table]),
    async destroy() {
      client.destroy();
      admin.destroy();
    },
  };
}

export type World = Awaited<ReturnType<typeof reliabilityWorld>>;

/**
 * An order's history as the store keeps it: one entry per version a change committed, read from the order's state
 * back through each change's operation record (`readActivity`), so the invariants hold for what the service reads.
 */
export async function activityOf(doc: DynamoDBDocumentClient, names: TableNames, orderId: string): Promise<Record<string, any>[]> {
  return readActivity({ doc, tables: names, now: () => new Date(), clientConfig: {} }, orderId);
}

export async function scanAll(doc: DynamoDBDocumentClient, TableName: string): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName, ConsistentRead: true, ...(ExclusiveStartKey ? { ExclusiveStartKey } : {}) }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

// ——— fixtures ———

export interface OrderSpec {
  customerId: string;
  sellerId?: string;
  status?: string;
  version?: number;
  /** Days before today it was delivered (delivered orders only). */
  deliveredDaysAgo?: number;
  items?: { itemId: string; sku: string; title?: string; quantity?: number }[];
  /** Text put in places that must never reach a caller who may not see the order (and `internal` never at all). */
  marker?: string;
}

export function orderItem(id: string, today: string, spec: OrderSpec) {
  const status = spec.status ?? "placed";
  const marker = spec.marker ?? `MARK-${id}`;
  return {
    id,
    customerId: spec.customerId,
    sellerId: spec.sellerId ?? "SLR-2210",
    status,
    version: spec.version ?? 1,
    placedAt: `${addDays(today, -30)}T09:12:00Z`,
    deliveredAt: status === "delivered" ? `${addDays(today, -(spec.deliveredDaysAgo ?? 2))}T15:40:00Z` : null,
    currency: "GBP",
    items: (spec.items ?? [{ itemId: "ITM-1", sku: "REL-SKU" }]).map((item) => ({
      itemId: item.itemId,
      sku: item.sku,
      title: item.title ?? `Item ${item.itemId} ${marker}`,
      quantity: item.quantity ?? 1,
      unitCents: 1500,
      description: `Described ${marker}`,
    })),
    charges: [{ kind: "item", cents: 1500 }],
    delivery: { carrier: "Parcelline", trackingId: `TRK-${marker}` },
    deliveryNote: null,
    internal: { secret: `INTERNAL-${marker}` },
  };
}

export const baseSellers = [
  { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
  { id: "SLR-3300", name: "Brightwell Lighting", type: "marketplace", status: "suspended" },
  { id: "SLR-1", name: "Sundry", type: "sundry", status: "active" },
];

export const basePolicies = [{ ref: "seller-supp/SLR-2210", returnWindowDays: 14 }];

export const customers = (ids: string[]) => ids.map((id) => ({ id, email: `${id.toLowerCase()}@example.com`, name: `Customer ${id}` }));

// ——— small things ———

let sequence = 0;
/** A fresh, valid operationId, unique within the process. */
export const newOperationId = (prefix = "op-rel") =>
  `${prefix}-${Date.now().toString(36)}-${(sequence++).toString(36)}-${randomUUID().slice(0, 6)}`;

/** Five-digit order ids, handed out in order from `first`. */
export function orderIds(first: number) {
  let next = first;
  return () => {
    if (next > 99_999) throw new Error("out of five-digit order ids");
    return `SU-${String(next++).padStart(5, "0")}`;
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

/** contract §3: every failure is `{"error": {code, message, retryable, ...}}`; a list of what is wrong, empty when fine. */
export function errorShapeProblems(reply: Reply): string[] {
  const problems: string[] = [];
  const error = reply.body?.error;
  if (reply.body === undefined) return [`the body is not JSON: ${reply.text.slice(0, 120)}`];
  if (typeof error !== "object" || error === null) return [`no error object in ${reply.text.slice(0, 200)}`];
  if (typeof error.code !== "string" || error.code === "") problems.push("error.code missing");
  if (typeof error.message !== "string" || error.message.trim() === "") problems.push("error.message missing");
  if (typeof error.retryable !== "boolean") problems.push("error.retryable missing");
  if (/\bat .+\.(ts|js):\d+|Error: .*\n\s+at /.test(reply.text)) problems.push("a stack trace in the body");
  if (reply.headers["content-type"] !== "application/json") problems.push(`content-type ${reply.headers["content-type"]}`);
  return problems;
}

// ——— reports ———

/** What each part hands back: its figures for the table, and each failure as a reproduction a person can rerun. */
export interface PartReport {
  part: string;
  figures: Record<string, number | string>;
  /** The first failures, each self-contained (the request, what came back, what the contract wanted). */
  failures: string[];
  failureCount: number;
  seconds: number;
}

/** Collects failures; keeps the first `keep` in full so a report stays readable however many there are. */
export class Failures {
  readonly list: string[] = [];
  count = 0;
  constructor(private readonly keep = 25) {}
  add(message: string): void {
    this.count++;
    if (this.list.length < this.keep) this.list.push(message);
  }
}

/** A short, printable form of a value for a failure message. */
export function show(value: unknown, max = 400): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
