/**
 * `npm run seed -- <fixture.json>` loads a fixture (contract §6) into the tables of the running local stack;
 * `npm run seed -- --demo` loads today's demo data again (resetting the demo orders). The file is validated
 * first; a bad one is refused with the first bad entry named, and nothing is written.
 * The stack is the one `npm start` runs on PORT (default 3000): it leaves its DynamoDB endpoint and table names
 * in `.data/local-stack-<port>.json`. With DYNAMODB_ENDPOINT set, the fixture goes there instead, into the tables
 * ORDERS_TABLE and IDEMPOTENCY_TABLE name, which are created first if they do not exist.
 */
import { runCommand } from "#local/command-line";
import { demoFixture } from "#local/demo-shop";
import { describeCounts, localDeps, readFixtureFile, runningStack } from "#local/stack";
import { createTables } from "#local/create-tables";
import { tableNamesFromEnv } from "#runtime/deps";
import { type Fixture, writeFixture } from "#store/fixture";

const usage = `Usage: npm run seed -- <fixture.json>    load a fixture (format: docs/contract.md §6) into the running local stack
       npm run seed -- --demo              load the demo data again (today's dates; resets the demo orders)

The stack is the \`npm start\` on PORT (default 3000). With DYNAMODB_ENDPOINT set, the fixture goes to that
DynamoDB instead, into the tables ORDERS_TABLE and IDEMPOTENCY_TABLE name (created if missing).`;

async function main(args: string[]): Promise<number> {
  if (args.length !== 1 || (args[0]?.startsWith("-") && args[0] !== "--demo")) {
    console.error(`${args.length === 0 ? "Name the fixture file to load." : `Unexpected arguments: ${args.join(" ")}`}\n\n${usage}`);
    return 2;
  }
  const source = args[0] as string;
  let fixture: Fixture;
  try {
    fixture = source === "--demo" ? demoFixture() : await readFixtureFile(source);
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const stack = endpoint ? { dynamodbEndpoint: endpoint, tables: tableNamesFromEnv(), gatewayUrl: endpoint } : await runningStack();
  const deps = localDeps(stack.dynamodbEndpoint, stack.tables);
  try {
    if (endpoint) await createTables(deps.client, stack.tables);
    const counts = await writeFixture(deps, fixture);
    console.log(
      `Loaded ${source === "--demo" ? "the demo data" : source} into ${stack.gatewayUrl} (table ${stack.tables.orders}): ${describeCounts(counts)}.`,
    );
  } finally {
    deps.client.destroy();
  }
  return 0;
}

runCommand(usage, main);
