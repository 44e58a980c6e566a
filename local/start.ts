/**
 * `npm start [-- --persist]`: the whole service on a laptop. Starts DynamoDB Local (in memory, or under
 * `.data/` with --persist), creates the tables, seeds the demo data (or ORDER_TOOLS_FIXTURE=<file>), and serves
 * every registered route on http://127.0.0.1:${PORT:-3000} through the real handlers. SIGINT / SIGTERM stop the
 * server and DynamoDB Local.
 */
import { execFileSync } from "node:child_process";
import { join, relative } from "node:path";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { deployedToolNamed } from "#deploy/tool-functions";
import { preloadAuthorizationServer } from "#local/authorization-server";
import { createTables, localClientConfig } from "#local/create-tables";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { type DynamoDbLocal, startDynamoDbLocal } from "#local/dynamodb-local";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { divertStructuredLogs } from "#local/log-sink";
import { assertPortFree, type Gateway, importHandler, startGateway } from "#local/gateway";
import { routeKey, routes } from "#local/routes";
import {
  dataDir,
  describeCounts,
  gatewayPortFromEnv,
  isProcessAlive,
  localDeps,
  localTableNames,
  readFixtureFile,
  removeState,
  useTables,
  writeState,
} from "#local/stack";
import { writeFixture } from "#store/fixture";
import { mcpConfirmationLine, unconfirmedChangesEnv, unconfirmedChangesFrom } from "#runtime/mcp-confirmation-settings";
import type { Fixture } from "#store/fixture";

const usage = `Usage: npm start [-- --persist] [-- --logs]

  --persist   keep the data in .data/ between runs (default: in memory, fresh demo data each start)
  --logs      print the handlers' structured log and metric lines (JSON, as CloudWatch gets them) here;
              by default they go to .data/logs/gateway-<port>.jsonl and the console shows one line per request

Environment: PORT (default 3000), DYNAMODB_PORT (default: a free port),
ORDER_TOOLS_FIXTURE=<file> to seed that fixture instead of the demo data.`;

const sampleTokenTtlSeconds = 24 * 3600;

// Before the handler modules load (Powertools reads its service name then).
process.env.POWERTOOLS_SERVICE_NAME ??= "order-tools-local";

let gateway: Gateway | undefined;
let dynamoDb: DynamoDbLocal | undefined;
let port: number | undefined;
let stopping = false;

async function shutdown(exitCode: number): Promise<never> {
  if (stopping) process.exit(exitCode);
  stopping = true;
  // Java gets SIGKILL after 2 s (local/dynamodb-local.ts); nothing here should take longer than this.
  setTimeout(() => process.exit(exitCode || 1), 10_000).unref();
  await gateway?.close().catch(() => undefined);
  await dynamoDb?.stop().catch(() => undefined);
  if (port !== undefined) await removeState(port).catch(() => undefined);
  process.exit(exitCode);
}

// Installed before Java starts, so the DynamoDB Local launcher leaves the shutdown to us. Ctrl-C reaches us
// twice (from the terminal, and relayed by tsx), so a repeat within a few seconds is the same request; a later
// one means "now": exit at once, and the launcher's exit hook still kills Java.
let firstSignalAt = 0;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (stopping) {
      if (Date.now() - firstSignalAt > 3_000) process.exit(1);
      return;
    }
    firstSignalAt = Date.now();
    console.log(`\n${signal}: stopping the gateway and DynamoDB Local…`);
    void shutdown(0);
  });
}

/**
 * `npm start` runs us as npm → sh → tsx → node. A SIGTERM sent to npm alone (a process manager, `kill <pid>`,
 * a test) ends npm and sh but does not reach us, which would leave the gateway and Java running with nobody to
 * stop them. So we watch the launchers above us and stop when one of them goes. (Ctrl-C in a terminal signals
 * the whole process group, us included.)
 */
function watchLaunchers(): void {
  const launchers: number[] = [];
  let pid = process.ppid;
  try {
    for (let depth = 0; depth < 5 && pid > 1; depth++) {
      const line = execFileSync("ps", ["-o", "ppid=,args=", "-p", String(pid)], { encoding: "utf8" }).trim();
      const match = /^(\d+)\s+(.*)$/.exec(line);
      if (!match || !/\b(npm|npx|tsx|node|sh)\b|npm-cli/.test(match[2] as string)) break;
      launchers.push(pid);
      if (/\bnpm\b|\bnpx\b|npm-cli/.test(match[2] as string)) break;
      pid = Number(match[1]);
    }
  } catch {
    return; // no `ps` (Windows): signals still stop us
  }
  if (launchers.length === 0) return;
  const timer = setInterval(() => {
    if (launchers.every(isProcessAlive)) return;
    clearInterval(timer);
    if (stopping) return;
    console.log("\nThe process that started the gateway has ended: stopping the gateway and DynamoDB Local…");
    void shutdown(0);
  }, 500);
  timer.unref();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  const unknown = args.filter((a) => a !== "--persist" && a !== "--logs");
  if (unknown.length > 0) {
    console.error(`Unknown argument ${unknown.map((a) => JSON.stringify(a)).join(", ")}.\n\n${usage}`);
    process.exit(2);
  }
  const persist = args.includes("--persist");
  watchLaunchers();
  port = gatewayPortFromEnv();
  const logFile = args.includes("--logs") ? undefined : divertStructuredLogs(join(dataDir, "logs", `gateway-${port}.jsonl`));
  const dynamodbPort = process.env.DYNAMODB_PORT ? Number(process.env.DYNAMODB_PORT) : 0;
  if (!Number.isInteger(dynamodbPort) || dynamodbPort < 0 || dynamodbPort > 65_535) {
    throw new Error(`DYNAMODB_PORT must be a port number, not ${JSON.stringify(process.env.DYNAMODB_PORT)}.`);
  }
  // A bad fixture file or a taken port fails now, not after Java has started.
  const fixtureFile = process.env.ORDER_TOOLS_FIXTURE;
  const fixture = fixtureFile ? await readFixtureFile(fixtureFile) : undefined;
  if (port !== 0) await assertPortFree(port);

  const starting = startDynamoDbLocal({ port: dynamodbPort, ...(persist ? { persistDir: dataDir } : {}) });
  // While Java boots: load (and let tsx compile) every handler module, so the first request does not wait for
  // it. Handlers read their table names on first use, not on import. A module that fails to load fails its
  // route's requests, with the error, as in Lambda.
  const warming = Promise.allSettled(routes.map((route) => importHandler(route.entry)));
  const authorizationServer = preloadAuthorizationServer().catch(() => undefined);
  const demo = fixture ? undefined : demoFixture();
  dynamoDb = await starting;
  await warming;
  const runtimeNotice = await authorizationServer;
  if (stopping) return;
  // On stderr, as the notice is, so the two stay together.
  if (runtimeNotice)
    console.warn(
      `  ↳ That is the library behind the local OAuth sign-in (MCP clients): it is made for Node 22 and later, and the sign-in works on this Node ${process.versions.node} too (the tests sign in through it on Node 20). Nothing to do.`,
    );
  console.log(`DynamoDB Local on ${dynamoDb.endpoint} (${persist ? `data kept in ${dataDir}` : "in memory"}) after ${seconds()}`);

  const client = new DynamoDBClient(localClientConfig(dynamoDb.endpoint));
  const { TableNames: existing = [] } = await client.send(new ListTablesCommand({}));
  const fresh = !existing.includes(localTableNames.orders);
  await createTables(client, localTableNames);
  client.destroy();

  const deps = localDeps(dynamoDb.endpoint, localTableNames);
  // The demo's bulk (generated sellers, 2,000 supplements, order history) loads after the gateway is up.
  let bulk: Fixture | undefined;
  if (fixture) {
    console.log(`Seeded ${fixtureFile}: ${describeCounts(await writeFixture(deps, fixture))} (${seconds()})`);
  } else if (fresh) {
    const { first, rest } = splitDemoFixture(demo ?? demoFixture());
    console.log(`Seeded the demo orders: ${describeCounts(await writeFixture(deps, first))} (${seconds()})`);
    bulk = rest;
  } else {
    console.log(`Kept the data in ${dataDir} (delete that folder, or run \`npm run seed -- --demo\`, for fresh demo data)`);
  }

  useTables(dynamoDb.endpoint, localTableNames);
  // A 5xx's error is in the structured log: say where, on the request's own line.
  const where = logFile ? ` — the error is in ${relative(process.cwd(), logFile)}` : "";
  gateway = await startGateway({ port, log: (line) => console.log(`  ${line}${/→ 5\d\d /.test(line) ? where : ""}`) });
  port = gateway.port;
  await writeState({
    gatewayUrl: gateway.url,
    port: gateway.port,
    dynamodbEndpoint: dynamoDb.endpoint,
    tables: localTableNames,
    pid: process.pid,
    persist,
    startedAt: new Date().toISOString(),
  });
  if (stopping) return;

  const token = await signDevToken(principalClaims({ customer: "C-1001" }), { ttlSeconds: sampleTokenTtlSeconds });
  console.log(`order-tools listening on ${gateway.url}`);
  console.log(`Ready ${seconds()} after start. Routes: ${routes.map(routeKey).join(", ")}`);
  console.log("");
  console.log("A token for the customer Ana Costa (C-1001), valid 24 h:");
  console.log(`  TOKEN=${token}`);
  console.log("Then:");
  console.log(`  ${sampleCurl(gateway.url)}`);
  console.log(
    "Other tokens: npm run --silent token -- --customer C-2002 | --support S-7 | --seller SLR-2210. docs/tour.md has a 5-minute tour. Ctrl-C stops.",
  );
  console.log(
    `MCP: ${gateway.url}/v1/mcp, for 2026-07-28 and 2025 clients. They sign in by OAuth (the authorization server at ${gateway.url}; pick a demo customer, support S-7 or seller SLR-2210), or send a token as above.`,
  );
  console.log(mcpConfirmationLine(unconfirmedChangesFrom(process.env[unconfirmedChangesEnv])));
  if (logFile)
    console.log(`Structured logs and metrics (JSON lines): ${relative(process.cwd(), logFile)}; \`npm start -- --logs\` prints them here.`);
  console.log("");

  if (bulk) {
    // A failure here leaves a working gateway with less data; say so, and keep serving.
    const counts = await writeFixture(deps, bulk).catch((error: unknown) => {
      if (!stopping)
        console.error(
          `Could not seed the rest of the demo data (generated sellers, supplements, order history): ${(error as Error).message}`,
        );
    });
    if (counts && !stopping) console.log(`Seeded the rest of the demo data: ${describeCounts(counts)} (${seconds()})`);
  }
  deps.client.destroy();
}

/** A harmless first request on the demo data: find Ana's order from a fragment of its id. */
function sampleCurl(url: string): string {
  return `curl -s ${url}${deployedToolNamed("search_orders").routes[0]?.path} -H "authorization: Bearer $TOKEN" -d '{"orderId": "884"}'`;
}

const seconds = () => `${process.uptime().toFixed(1)} s`;

main().catch(async (error: unknown) => {
  if (stopping) return; // a signal stopped DynamoDB Local under a startup step; the shutdown is under way
  console.error(`npm start failed: ${(error as Error).message}`);
  await shutdown(1);
});
