/**
 * What every bench section stands on: DynamoDB Local (one per `npm run bench`, shared by the sections so that
 * every comparison meets the same JVM), fresh tables per section, store dependencies whose every client is
 * observed, and callers for the handlers.
 */
import { DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";
import { createTable, localClientConfig } from "#local/create-tables";
import { startDynamoDbLocal } from "#local/dynamodb-local";
import { RequestLog } from "#bench/support/requests";
import { documentClient, type StoreDeps, type TableNames } from "#store/client";
import { orderKey, orderSortKeyPrefix } from "#store/keys";
import { idempotencyTable, ordersTable, type TableDesign } from "#store/table-design";
import type { ToolHandler } from "#runtime/handler";

/** The request budget and hourly caps, all off: a benchmark sends far more than one caller may per minute or hour. */
export const limitsOff = { requestBudget: 0, hourlyCap: 0, supportHourlyCap: 0 } as const;

/** How a section reaches DynamoDB Local: the run's shared one, or (run alone) one it starts and stops itself. */
export type Endpoint = () => Promise<string>;

export async function withDynamoDb<T>(endpoint: Endpoint | undefined, work: (endpoint: string) => Promise<T>): Promise<T> {
  if (endpoint) return work(await endpoint());
  const dynamo = await startDynamoDbLocal();
  try {
    return await work(dynamo.endpoint);
  } finally {
    await dynamo.stop();
  }
}

export interface BenchTables {
  names: TableNames;
  client: DynamoDBClient;
  deps: StoreDeps;
  /** Sees every request of `client` and of every client the store makes (Powertools'). */
  requests: RequestLog;
  /** A plain client of its own, observed by nothing: for baselines and for changes made "by the order system". */
  plain: DynamoDBClient;
  drop(): Promise<void>;
}

let tableSets = 0;

/**
 * A fresh pair of tables named after `label`, with the limits off and `now` as the store's clock; the orders table
 * as designed now, or as `ordersDesign` (the previous layout's, for the peer that stands for the design replaced).
 */
export async function benchTables(
  endpoint: string,
  label: string,
  now: () => Date = () => new Date(),
  ordersDesign: TableDesign = ordersTable,
): Promise<BenchTables> {
  const suffix = `${label}-${process.pid}-${tableSets++}`;
  const names = { orders: `bench-orders-${suffix}`, idempotency: `bench-idempotency-${suffix}` };
  const clientConfig = localClientConfig(endpoint);
  const requests = new RequestLog();
  const client = new DynamoDBClient({ ...clientConfig, maxAttempts: 1 });
  requests.observe(client);
  const plain = new DynamoDBClient({ ...clientConfig, maxAttempts: 1 });
  await Promise.all([createTable(plain, ordersDesign, names.orders), createTable(plain, idempotencyTable, names.idempotency)]);
  const deps: StoreDeps = {
    doc: documentClient(client),
    tables: names,
    now,
    clientConfig: { ...clientConfig, maxAttempts: 1 },
    observeClient: requests.observe,
    ...limitsOff,
  };
  return {
    names,
    client,
    deps,
    requests,
    plain,
    async drop() {
      // DynamoDB Local keeps every table in the JVM's memory until the run ends; a finished section gives its back.
      await Promise.all(
        [names.orders, names.idempotency].map((TableName) => plain.send(new DeleteTableCommand({ TableName })).catch(() => undefined)),
      );
      client.destroy();
      plain.destroy();
    },
  };
}

/** One consistent read of an order as stored: its partition's state and content items, as get_order reads them. */
export const orderQuery = (TableName: string, orderId: string) =>
  new QueryCommand({
    TableName,
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :order)",
    ExpressionAttributeValues: { ":pk": orderKey(orderId).PK, ":order": orderSortKeyPrefix },
    ConsistentRead: true,
  });

// ——— calling a handler as API Gateway does ———

export interface Caller {
  claims: Record<string, string>;
  scopes: string[];
}

export const customer = (customerId: string): Caller => ({
  claims: { sub: `user-${customerId}`, customer_id: customerId, scope: "orders:read orders:write" },
  scopes: ["orders:read", "orders:write"],
});
export const support = (staffId: string): Caller => ({
  claims: { sub: `staff-${staffId}`, scope: "orders:read orders:write orders:support" },
  scopes: ["orders:read", "orders:write", "orders:support"],
});

export interface Reply {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Calls a handler in-process with the event API Gateway would send; `timeoutMs` is the Lambda's remaining time. */
export async function callHandler(handler: ToolHandler, caller: Caller, body: unknown, timeoutMs?: number): Promise<Reply> {
  const event = apiGatewayEvent({
    method: "POST",
    path: "/v1/tools/bench",
    body: JSON.stringify(body),
    claims: caller.claims,
    scopes: caller.scopes,
  });
  const result = await handler(event, lambdaContext("bench", timeoutMs));
  return { statusCode: result.statusCode ?? 0, headers: (result.headers ?? {}) as Record<string, string>, body: result.body ?? "" };
}

/** The error code (and NOT_ELIGIBLE's reason) of a reply, or `200` / its status. */
export function outcomeOf(reply: { statusCode: number; body: string }): string {
  if (reply.statusCode === 200) return "200";
  try {
    const error = (JSON.parse(reply.body) as { error?: { code?: string; reason?: string } }).error;
    return error?.code ? (error.reason ? `${error.code} ${error.reason}` : error.code) : String(reply.statusCode);
  } catch {
    return String(reply.statusCode);
  }
}
