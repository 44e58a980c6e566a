import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { inject } from "vitest";
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";
import { localClientConfig } from "#local/create-tables";
import { documentClient, type StoreDeps } from "#store/client";
import { loadFixture } from "#store/fixture";
import { operationKey, orderKey } from "#store/keys";
import { readActivity } from "#store/operations";
import { orderOf, readStoredOrder } from "#store/order-items";
import type { ToolHandler } from "#runtime/handler";
import { testFixture } from "#test/support/test-shop";
import type { Caller } from "#test/support/callers";
import { freshTables } from "#test/support/tables";

export { type Caller, customer, seller, support } from "#test/support/callers";

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Record<string, any>;
  /** The body exactly as sent: a replay must repeat it byte for byte. */
  text: string;
}

/** Counts the DynamoDB requests of every client it is given, by command name. */
export class RequestCounter {
  readonly counts = new Map<string, number>();
  observe = (client: DynamoDBClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        this.counts.set(context.commandName as string, (this.counts.get(context.commandName as string) ?? 0) + 1);
        return next(args);
      },
      { step: "initialize", name: "requestCounter" },
    );
  };
  reset() {
    this.counts.clear();
  }
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort());
  }
  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
}

/**
 * A fresh pair of tables on DynamoDB Local, seeded with the test fixture, and helpers to call tools the way
 * API Gateway does and to read what is stored.
 */
export async function newWorld(fixture: unknown = testFixture()) {
  const { client, names } = await freshTables();
  const counter = new RequestCounter();
  counter.observe(client);
  const deps: StoreDeps = {
    doc: documentClient(client),
    tables: names,
    now: () => new Date(),
    clientConfig: localClientConfig(inject("dynamodbEndpoint")),
    observeClient: counter.observe,
  };
  await loadFixture(deps, fixture);
  counter.reset();

  async function call(
    handler: ToolHandler,
    caller: Caller | undefined,
    body: unknown,
    route?: { method: "GET"; path: string; pathParameters: Record<string, string> },
  ): Promise<Reply> {
    const event = apiGatewayEvent({
      method: route?.method ?? "POST",
      path: route?.path ?? "/v1/tools/test",
      ...(route ? { pathParameters: route.pathParameters } : {}),
      ...(route ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      ...(caller ? { claims: caller.claims, scopes: caller.scopes } : {}),
    });
    const result = await handler(event, lambdaContext("test"));
    return {
      status: result.statusCode ?? 0,
      headers: (result.headers ?? {}) as Record<string, string>,
      body: JSON.parse(result.body ?? "null"),
      text: result.body ?? "",
    };
  }

  /** The order's state item as it is, without its content or history (see `order`). */
  async function orderItem(orderId: string): Promise<Record<string, any> | undefined> {
    return (await deps.doc.send(new GetCommand({ TableName: names.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;
  }

  /**
   * The stored order: its state item as it is, with the lines (replacement lines made from their records), charges
   * and internal fields of its content item, and `activity`, its history (one entry per committed version).
   */
  async function order(orderId: string): Promise<Record<string, any> | undefined> {
    // A copy of the deps holds no content of its own (functions/store/order-items.ts): this reads what is stored.
    const [stored, activity] = await Promise.all([readStoredOrder({ ...deps }, orderId, true), readActivity(deps, orderId)]);
    if (!stored) return undefined;
    const { items, charges, internal } = orderOf(stored);
    return { ...stored.state, items, charges, internal, activity };
  }

  async function operation(caller: Caller, operationId: string): Promise<Record<string, any> | undefined> {
    const key = operationKey(caller.claims.sub as string, operationId);
    const item = (await deps.doc.send(new GetCommand({ TableName: names.orders, Key: key, ConsistentRead: true }))).Item;
    // The record keeps the body as JSON text, so that a replay repeats it exactly.
    return item && { ...item, body: JSON.parse(item.body) };
  }

  return { deps, client, names, counter, call, order, orderItem, operation };
}

export type World = Awaited<ReturnType<typeof newWorld>>;

let sequence = 0;
/** A fresh, valid operationId. */
export const newOperationId = () => `op-test-${Date.now().toString(36)}-${(sequence++).toString(36)}`;
