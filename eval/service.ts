import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { isChangeTool } from "#contract/tools";
import { deployedTools as tools } from "#deploy/tool-functions";
import { createTables, localClientConfig } from "#local/create-tables";
import { type DynamoDbLocal, startDynamoDbLocal } from "#local/dynamodb-local";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { GatewayRoute } from "#local/routes";
import { repoRoot } from "#local/stack";
import { documentClient, type StoreDeps, type TableNames } from "#store/client";
import { type Fixture, writeFixture } from "#store/fixture";
import { defaultHourlyCap, defaultSupportHourlyCap } from "#store/hourly-cap";
import { orderKey } from "#store/keys";
import { defaultRequestBudget } from "#store/request-budget";
import type { ToolHandler } from "#runtime/handler";

/**
 * The service side of the harness: one DynamoDB Local, and per case a local stack of its own — fresh tables
 * loaded with only that case's fixture, and the local gateway (the same one `npm start` serves) in front of the
 * real handlers made on those tables. Cases can therefore run side by side without meeting.
 *
 * The gateway's handlers are wrapped in a tap: every request that reaches a handler is noted with the
 * principal, the arguments and what the service answered. That is the service's own account of what it was
 * asked and what it decided, independent of the controller and its trace; the judges read it.
 */

/** The limits every case runs under: the service's defaults (fresh tables per case, so nothing carries over). */
export const caseLimits = {
  hourlyCap: defaultHourlyCap,
  supportHourlyCap: defaultSupportHourlyCap,
  requestBudget: defaultRequestBudget,
} as const;

export type Principal = { customer: string } | { support: string } | { seller: string };

/** One request as the service saw it. */
export interface TappedRequest {
  seq: number;
  tool: string;
  kind: "read" | "change" | "other";
  /** The token's `sub`. */
  sub: string | undefined;
  body: unknown;
  status: number;
  response: unknown;
  replayed: boolean;
}

export interface CaseStack {
  url: string;
  deps: StoreDeps;
  /** Every request that reached a handler, in arrival order. */
  tap: TappedRequest[];
  /** A token for the case's caller (full scopes): the controller's, and the harness's own for status lookups. */
  token: string;
  /** The stored order item, read straight from the table. */
  storedOrder(orderId: string): Promise<Record<string, unknown> | undefined>;
  /** Every operation record in the case's tables. */
  operationRecords(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface EvalService {
  endpoint: string;
  openCase(fixture: Fixture, principal: Principal): Promise<CaseStack>;
  close(): Promise<void>;
}

const readTools = new Set<string>(tools.filter((t) => t.kind === "read").map((t) => t.name));

/** A handler module: `createHandler(deps)` where it has one (every tool), else its module-scope `handler`. */
type HandlerModule = { createHandler?: (deps: StoreDeps) => ToolHandler; handler?: ToolHandler };
const modules = new Map<string, Promise<HandlerModule>>();
function handlerModule(entry: string): Promise<HandlerModule> {
  let module = modules.get(entry);
  if (!module) {
    module = import(pathToFileURL(join(repoRoot, entry)).href) as Promise<HandlerModule>;
    modules.set(entry, module);
  }
  return module;
}

/** Starts the harness's DynamoDB Local, or uses one already running (the test suite's). */
export async function startEvalService(options: { dynamodbEndpoint?: string } = {}): Promise<EvalService> {
  let local: DynamoDbLocal | undefined;
  if (options.dynamodbEndpoint === undefined) local = await startDynamoDbLocal();
  const endpoint = options.dynamodbEndpoint ?? local!.endpoint;
  const client = new DynamoDBClient(localClientConfig(endpoint));
  const doc = documentClient(client);
  // Load (and let tsx compile) every handler module once, up front.
  await Promise.all(tools.map((t) => handlerModule(t.entry)));

  return {
    endpoint,
    async openCase(fixture, principal) {
      const suffix = randomUUID().slice(0, 8);
      const tables: TableNames = { orders: `eval-orders-${suffix}`, idempotency: `eval-idem-${suffix}` };
      await createTables(client, tables);
      const extraClients: DynamoDBClient[] = [];
      const deps: StoreDeps = {
        doc,
        tables,
        now: () => new Date(),
        clientConfig: localClientConfig(endpoint),
        ...caseLimits,
        // The idempotency layer makes a client per changing tool; they are closed with the case.
        observeClient: (c) => {
          if (c !== client) extraClients.push(c);
        },
      };
      await writeFixture(deps, fixture);

      const tap: TappedRequest[] = [];
      const resolveHandler = async (route: GatewayRoute): Promise<ToolHandler> => {
        const module = await handlerModule(route.entry);
        const handler = module.createHandler?.(deps) ?? module.handler;
        if (!handler) throw new Error(`${route.entry} exports neither createHandler nor handler`);
        const kind = isChangeTool(route.name) ? "change" : readTools.has(route.name) ? "read" : "other";
        return async (event, context) => {
          const result = await handler(event, context);
          let body: unknown = event.body;
          let response: unknown = result.body;
          try {
            body = event.body === undefined ? (event.pathParameters ?? null) : JSON.parse(event.body);
          } catch {
            // not JSON: noted as sent
          }
          try {
            response = result.body === undefined ? null : JSON.parse(result.body);
          } catch {
            // not JSON: noted as sent
          }
          const claims = event.requestContext?.authorizer?.jwt?.claims ?? {};
          tap.push({
            seq: tap.length + 1,
            tool: route.name,
            kind,
            sub: typeof claims.sub === "string" ? claims.sub : undefined,
            body,
            status: result.statusCode ?? 200,
            response,
            replayed: String(result.headers?.["idempotent-replayed"] ?? "") === "true",
          });
          return result;
        };
      };
      const gateway: Gateway = await startGateway({ port: 0, resolveHandler });
      const token = await signDevToken(principalClaims(principal), { ttlSeconds: 3600 });

      return {
        url: gateway.url,
        deps,
        tap,
        token,
        async storedOrder(orderId) {
          return (await doc.send(new GetCommand({ TableName: tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;
        },
        async operationRecords() {
          // Fresh tables per case: a scan of this one case's few items, in a test harness only.
          const items: Record<string, unknown>[] = [];
          let start: Record<string, unknown> | undefined;
          do {
            const page = await doc.send(
              new ScanCommand({
                TableName: tables.orders,
                ConsistentRead: true,
                FilterExpression: "begins_with(PK, :operation)",
                ExpressionAttributeValues: { ":operation": "OPERATION#" },
                ...(start ? { ExclusiveStartKey: start } : {}),
              }),
            );
            items.push(...(page.Items ?? []));
            start = page.LastEvaluatedKey;
          } while (start);
          return items;
        },
        async close() {
          await gateway.close();
          for (const c of extraClients) c.destroy();
          await Promise.all(
            [tables.orders, tables.idempotency].map((name) =>
              client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined),
            ),
          );
        },
      };
    },
    async close() {
      client.destroy();
      await local?.stop();
    },
  };
}
