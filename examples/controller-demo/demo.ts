/**
 * `npm run demo`: the five core cancellation cases, a seller's return confirmed with the application's button, and a
 * German customer's cancellation, as scripted conversations through the controller, against the
 * local stack — the one `npm start` runs on PORT (default 3000), or, when none runs, one started here for the
 * demo and stopped after it. Each case prints its trace compactly and the reply the customer sees, then the
 * stored order and the HTTP requests the controller made. Exit 1 if any case did not end as expected.
 */
import "#examples/controller-demo/quiet";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { formatTrace } from "#controller/trace-format";
import { createTables, localClientConfig } from "#local/create-tables";
import { demoCases, demoWorld } from "#examples/controller-demo/cases";
import { type DemoStack, demoVerdict, freeDemoBlock, runDemoCase, seedDemoWorld } from "#examples/controller-demo/run";
import { startDynamoDbLocal } from "#local/dynamodb-local";
import { startGateway } from "#local/gateway";
import { gatewayPortFromEnv, localDeps, localTableNames, runningStack, useTables } from "#local/stack";

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

async function connect(): Promise<{ stack: DemoStack; stop: () => Promise<void>; where: string }> {
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
      where: `a local stack started for the demo at ${gateway.url} (none was running on port ${port})`,
    };
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const { stack, stop, where } = await connect();
  let failures = 0;
  try {
    const world = demoWorld(await freeDemoBlock(stack));
    await seedDemoWorld(stack, world);
    const cases = demoCases(world);
    console.log(`${cases.length} conversations through the controller, with a scripted model, and ${where}.`);
    console.log(
      `Customer: ${world.ana.name} (${world.ana.customerId}); her token is her own. ${world.ben.name} is ${world.ben.customerId}. The seller is ${world.seller.name} (${world.seller.sellerId}).`,
    );
    console.log(
      `These customers, the seller and their orders (${Object.values(world.orders).at(0)} to ${Object.values(world.orders).at(-1)}) are made for this run, not the tour's C-1001 and C-2002: each run spends only its own hourly allowances and meets no earlier run's orders.\n`,
    );
    for (const [i, demoCase] of cases.entries()) {
      const run = await runDemoCase(stack, world, demoCase);
      console.log(bold(`━━ ${i + 1}/${cases.length} ${demoCase.title}`));
      for (const [t, turn] of run.turns.entries()) {
        const step = demoCase.turns[t];
        if (run.turns.length > 1)
          console.log(
            typeof step === "object"
              ? `  · turn ${t + 1}: the ${demoCase.principal ?? "customer"} presses confirm on ${step.confirm} (conversation.confirm)`
              : `  · turn ${t + 1}`,
          );
        console.log(formatTrace(turn.trace, { reply: false }));
        // The turn's whole result, as the application gets it: the reply, then each change still waiting for the
        // principal, with what the application renders beside its confirm and decline buttons (contract §8.5).
        const sees = t === run.turns.length - 1 ? "▶ the customer sees:" : "▶ reply:";
        console.log(`  ${bold(sees)} ${turn.reply}  [${turn.replyKind}]`);
        for (const held of turn.confirmations)
          console.log(
            `  ${bold("⏸ waiting for the principal:")} ${JSON.stringify({ confirmationId: held.confirmationId, tool: held.tool, orderId: held.orderId, values: held.values, question: held.question })}`,
          );
      }
      const problems = demoVerdict(demoCase, run);
      failures += problems.length > 0 ? 1 : 0;
      console.log(
        `  stored ${demoCase.expect.order.orderId}: ${String(run.order?.status)}, version ${String(run.order?.version)} (${run.changes} change${run.changes === 1 ? "" : "s"} through the tools)` +
          ` · HTTP requests per turn: ${run.httpRequests.join(", ")} · ${problems.length === 0 ? "as expected" : `NOT as expected: ${problems.join("; ")}`}\n`,
      );
    }
    console.log(
      `demo: ${cases.length - failures}/${cases.length} cases as expected (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await stop();
  }
  process.exitCode = failures === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(`npm run demo failed: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
