import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { createController } from "#controller/controller";
import type { TurnResult } from "#controller/conversation";
import type { Fetch } from "#controller/http/faults";
import type { IntentStore } from "#controller/intents/store";
import { scriptedModel } from "#controller/model/scripted";
import { withTestSeams } from "#controller/testing";
import type { TraceSink } from "#controller/trace/record";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { createTables, localClientConfig } from "#local/create-tables";
import { startDynamoDbLocal } from "#local/dynamodb-local";
import { startGateway } from "#local/gateway";
import { dynamoOrderWriter } from "#local/order-writer";
import { gatewayPortFromEnv, localDeps, localTableNames, runningStack, useTables } from "#local/stack";
import { type DemoCase, type DemoWorld, demoOrderIds } from "#examples/controller-demo/cases";
import type { StoreDeps } from "#store/client";
import { writeFixture } from "#store/fixture";
import { orderKey } from "#store/keys";

/** A running service and direct access to its tables (for seeding, the set_before_dispatch fault and checks). */
export interface DemoStack {
  gatewayUrl: string;
  deps: StoreDeps;
}

export interface CaseRun {
  turns: TurnResult[];
  /** The case's order as stored afterwards. */
  order: Record<string, unknown> | undefined;
  /** Version increments made through the tools (the fault's own change is not counted). */
  changes: number;
  /** HTTP requests the controller sent, per turn. */
  httpRequests: number[];
}

/** How a case's run differs from what the case expects: nothing when it ended as expected. */
export function demoVerdict(demoCase: DemoCase, run: CaseRun): string[] {
  const last = run.turns.at(-1);
  const problems: string[] = [];
  const { expect } = demoCase;
  if (last?.replyKind !== expect.reply) problems.push(`reply is ${last?.replyKind}, expected ${expect.reply}`);
  if (!last?.reply.includes(expect.replyIncludes)) problems.push(`reply lacks ${JSON.stringify(expect.replyIncludes)}`);
  if (run.order?.status !== expect.order.status)
    problems.push(`${expect.order.orderId} is ${String(run.order?.status)}, expected ${expect.order.status}`);
  if (run.changes !== expect.order.changes) problems.push(`${run.changes} changes, expected ${expect.order.changes}`);
  const mismatch = run.turns.some((t) => t.trace.flags.includes("claim_mismatch"));
  if (mismatch !== expect.claimMismatch)
    problems.push(mismatch ? "the gate replaced the model's reply (claim_mismatch)" : "expected the gate to catch a false reply");
  const waiting = (last?.confirmations ?? []).map((c) => c.tool);
  if (waiting.join() !== (expect.waiting ?? []).join())
    problems.push(`waiting for a yes: ${waiting.join(", ") || "nothing"}, expected ${(expect.waiting ?? []).join(", ") || "nothing"}`);
  const problem = run.turns.find((t) => t.problem)?.problem;
  if (problem) problems.push(`a turn met a problem: ${problem.code}: ${problem.message}`);
  return problems;
}

export async function seedDemoWorld(stack: DemoStack, world: DemoWorld): Promise<void> {
  await writeFixture(stack.deps, world.fixture);
}

/**
 * A block of demo order ids no earlier run on this stack has used (checked against the stored orders),
 * starting from a random one.
 */
export async function freeDemoBlock(stack: DemoStack, random = Math.random): Promise<number> {
  const start = Math.floor(random() * 1000);
  for (let i = 0; i < 1000; i++) {
    const block = (start + i) % 1000;
    const ids = Object.values(demoOrderIds(block));
    const taken = await Promise.all(ids.map((id) => storedOrder(stack, id)));
    if (taken.every((order) => order === undefined)) return block;
  }
  throw new Error("Every block of demo order ids (SU-9xxxx) is taken on this stack; start a fresh one (npm start without --persist).");
}

export async function storedOrder(stack: DemoStack, orderId: string): Promise<Record<string, unknown> | undefined> {
  return (await stack.deps.doc.send(new GetCommand({ TableName: stack.deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true })))
    .Item;
}

/**
 * One case as a scripted conversation through the controller, over HTTP with the principal's own token (Ana's,
 * or the world's seller's). Reconciliation
 * waits are short (tens of ms) so the demo reads at once; the logic is the same as with the defaults.
 */
export async function runDemoCase(
  stack: DemoStack,
  world: DemoWorld,
  demoCase: DemoCase,
  options: { intents?: IntentStore; fetch?: Fetch; trace?: TraceSink; conversationId?: string } = {},
): Promise<CaseRun> {
  const seller = demoCase.principal === "seller";
  const token = await signDevToken(principalClaims(seller ? { seller: world.seller.sellerId } : { customer: world.ana.customerId }));
  const initial = world.fixture.orders.find((o) => o.id === demoCase.expect.order.orderId)?.version ?? 1;
  // The demo shows what the controller does when things go wrong: its faults are injected through the test seams.
  const controller = createController(
    withTestSeams(
      {
        service: { baseUrl: stack.gatewayUrl, token, ...(options.fetch ? { fetch: options.fetch } : {}) },
        principal: seller ? "seller" : "customer",
        model: scriptedModel(demoCase.script),
        ...(options.intents ? { intents: options.intents } : {}),
        reconcile: { baseDelayMs: 40, maxDelayMs: 400 },
        ...(options.trace ? { trace: options.trace } : {}),
      },
      { faults: demoCase.faults, orderWriter: dynamoOrderWriter(stack.deps) },
    ),
  );
  const conversation = controller.conversation(
    options.conversationId ?? `demo-${world.tag}-${demoCase.id}`,
    undefined,
    demoCase.locale ? { locale: demoCase.locale } : {},
  );
  const turns: TurnResult[] = [];
  for (const message of demoCase.turns) {
    if (typeof message === "string") {
      turns.push(await conversation.turn(message));
      continue;
    }
    // The application's confirm button, on the change of that tool the last turn left waiting.
    const waiting = turns.at(-1)?.confirmations.find((c) => c.tool === message.confirm);
    if (!waiting) throw new Error(`Case ${demoCase.id}: no ${message.confirm} waiting for a confirmation to press confirm on.`);
    turns.push(await conversation.confirm(waiting.confirmationId));
  }
  const order = await storedOrder(stack, demoCase.expect.order.orderId);
  const faultChanges = turns.flatMap((t) => t.trace.events).filter((e) => e.type === "fault" && e.kind === "set_before_dispatch").length;
  return {
    turns,
    order,
    changes: Number(order?.version ?? initial) - initial - faultChanges,
    httpRequests: turns.map((t) => t.trace.counts.httpRequests),
  };
}

/**
 * The local stack an example runs against: the one `npm start` runs on PORT (default 3000), or, when none runs, the
 * same stack started here (DynamoDB Local, the tables, the real handlers behind the gateway) and stopped by `stop`.
 */
export async function connectDemoStack(purpose: string): Promise<{ stack: DemoStack; stop: () => Promise<void>; where: string }> {
  const port = gatewayPortFromEnv();
  try {
    const state = await runningStack(port);
    const deps = localDeps(state.dynamodbEndpoint, state.tables);
    return {
      stack: { gatewayUrl: state.gatewayUrl, deps },
      stop: async () => deps.client.destroy(),
      where: `the running local stack at ${state.gatewayUrl}`,
    };
  } catch {
    // No `npm start` on this port: start the same stack here (DynamoDB Local, tables, the real handlers behind the gateway).
  }
  const dynamo = await startDynamoDbLocal();
  try {
    const client = new DynamoDBClient(localClientConfig(dynamo.endpoint));
    await createTables(client, localTableNames);
    client.destroy();
    useTables(dynamo.endpoint, localTableNames);
    const gateway = await startGateway({ port: 0 });
    const deps = localDeps(dynamo.endpoint, localTableNames);
    return {
      stack: { gatewayUrl: gateway.url, deps },
      stop: async () => {
        deps.client.destroy();
        await gateway.close();
        await dynamo.stop();
      },
      where: `a local stack started for ${purpose} at ${gateway.url} (none was running on port ${port})`,
    };
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
}
