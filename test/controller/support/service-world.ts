import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { inject } from "vitest";
import { intentTable } from "#controller/intents/intent-table";
import { createTable, localClientConfig } from "#local/create-tables";
import type { Fetch } from "#controller/http/faults";
import type { Intent } from "#controller/intents/intent";
import type { IntentStore } from "#controller/intents/store";
import { type DemoWorld, demoWorld } from "#examples/controller-demo/cases";
import { type DemoStack, seedDemoWorld, storedOrder } from "#examples/controller-demo/run";
import { type Gateway, startGateway } from "#local/gateway";
import { principalClaims, signDevToken } from "#local/dev-auth";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { seededLocalTables } from "#test/support/local-tables";

/**
 * The service as the controller meets it in production: the real handlers behind the local gateway, over real
 * HTTP, on fresh tables of the run's DynamoDB Local (as `npm start` serves them). One per test file.
 */
export interface ServiceWorld extends DemoStack {
  gateway: Gateway;
  deps: ReturnType<typeof localDeps>;
  /** A fresh pair of customers and the demo's orders in a block of ids no other test of this file used. */
  freshWorld(block?: number): Promise<DemoWorld>;
  token(customerId: string): Promise<string>;
  order(orderId: string): Promise<Record<string, any> | undefined>;
  /** Every operation record of a customer (`sub` user-<id>), as stored. */
  operations(customerId: string): Promise<Record<string, any>[]>;
  close(): Promise<void>;
}

let worlds = 0;

export async function startService(options: { log?: (line: string) => void } = {}): Promise<ServiceWorld> {
  const deps = await seededLocalTables(parseFixture({}));
  const gateway = await startGateway({ port: 0, ...(options.log ? { log: options.log } : {}) });
  const stack: DemoStack = { gatewayUrl: gateway.url, deps };
  return {
    ...stack,
    gateway,
    deps,
    async freshWorld(block) {
      worlds += 1;
      const world = demoWorld(block ?? worlds, `${process.pid % 10_000}`.padStart(4, "0") + String(worlds).padStart(2, "0"));
      await seedDemoWorld(stack, world);
      return world;
    },
    token: (customerId) => signDevToken(principalClaims({ customer: customerId })),
    order: (orderId) => storedOrder(stack, orderId),
    async operations(customerId) {
      const { Items = [] } = await deps.doc.send(
        new ScanCommand({
          TableName: deps.tables.orders,
          ConsistentRead: true,
          FilterExpression: "begins_with(PK, :prefix)",
          ExpressionAttributeValues: { ":prefix": `OPERATION#user-${customerId}#` },
        }),
      );
      return Items;
    },
    async close() {
      await gateway.close();
      deps.client.destroy();
    },
  };
}

export interface SentRequest {
  tool: string;
  body: Record<string, any>;
}

/** A fetch that notes every request the controller sends (its tool and body) before passing it on. */
export function watchedFetch(base: Fetch = globalThis.fetch): Fetch & { requests: SentRequest[] } {
  const requests: SentRequest[] = [];
  const fetch: Fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    requests.push({ tool: new URL(url).pathname.split("/").at(-1) ?? url, body: JSON.parse(String(init?.body ?? "null")) });
    return base(input, init);
  };
  return Object.assign(fetch, { requests });
}

export class SimulatedCrash extends Error {
  constructor(state: string) {
    super(`simulated crash at the write of state ${state}`);
    this.name = "SimulatedCrash";
  }
}

/**
 * An intent store whose process "dies" at one write: `before` throws instead of writing (the state never
 * reaches the store), `after` throws once the write is done (nothing after it runs). Either way the turn
 * stops there, as a crashed process would.
 */
export function crashingStore(inner: IntentStore, state: Intent["state"], when: "before" | "after"): IntentStore {
  return {
    async save(intent) {
      if (intent.state === state && when === "before") throw new SimulatedCrash(state);
      await inner.save(intent);
      if (intent.state === state && when === "after") throw new SimulatedCrash(state);
    },
    forConversation: (id) => inner.forConversation(id),
    resumable: () => inner.resumable(),
    acquireLease: (...args) => inner.acquireLease(...args),
    releaseLease: (...args) => inner.releaseLease(...args),
  };
}

/** The intent store of a process that dies at its first write of a persisted intent, and works after it (restarted). */
export function dyingOnce(store: IntentStore): IntentStore {
  let died = false;
  return {
    ...crashingStore(store, "persisted", "before"),
    save: async (intent) => {
      if (intent.state === "persisted" && !died) {
        died = true;
        throw new SimulatedCrash(intent.state);
      }
      await store.save(intent);
    },
  };
}

/** Whether a text says a change was made: the words a confirmation uses. Progress lines and uncertain replies must not. */
export function claimsSuccess(text: string): boolean {
  return (
    /\b(?:cancelled|saved|booked|reserved|done|completed|confirmed|went through|on its way)\b/i.test(text) &&
    !/can't confirm|cannot confirm/i.test(text)
  );
}

/** A fresh intent table on the run's DynamoDB Local, made from the one table design in controller/. */
export async function freshIntentTable(): Promise<{ client: DynamoDBClient; tableName: string }> {
  const client = new DynamoDBClient(localClientConfig(inject("dynamodbEndpoint")));
  const tableName = `intents-${randomUUID().slice(0, 8)}`;
  await createTable(client, intentTable, tableName);
  return { client, tableName };
}
