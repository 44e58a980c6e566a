/**
 * What the local stack's processes share: where the repository is, the local table names, and a small state
 * file through which `npm start` tells `seed` and `invoke` where its DynamoDB Local and tables are.
 *
 * The state file is per gateway port (`.data/local-stack-<port>.json`, gitignored), so two stacks on two ports
 * (a developer's `npm start` and a test's) never overwrite each other's. `seed` and `invoke` read the one for
 * `PORT` (default 3000), the same variable `npm start` listens on.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { localClientConfig } from "#local/create-tables";
import { documentClient, type StoreDeps, type TableNames } from "#store/client";
import { type Fixture, parseFixture } from "#store/fixture";
import { tableEnv } from "#store/table-design";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where `--persist` keeps DynamoDB Local's data, and where the state files live. Gitignored. */
export const dataDir = join(repoRoot, ".data");

/** Fixed names: each stack has its own DynamoDB Local, and `--persist` must find its tables again. */
export const localTableNames: TableNames = { orders: "order-tools-orders", idempotency: "order-tools-idempotency" };

export const defaultGatewayPort = 3000;

export interface LocalStackState {
  gatewayUrl: string;
  port: number;
  dynamodbEndpoint: string;
  tables: TableNames;
  /** The `npm start` process; a state file whose process is gone is stale. */
  pid: number;
  persist: boolean;
  startedAt: string;
}

/** The gateway port from `PORT`, as `npm start`, `seed` and `invoke` all read it. */
export function gatewayPortFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PORT;
  if (raw === undefined || raw === "") return defaultGatewayPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number (0–65535), not ${JSON.stringify(raw)}.`);
  return port;
}

export const stateFile = (port: number) => join(dataDir, `local-stack-${port}.json`);

export async function writeState(state: LocalStackState): Promise<string> {
  const file = stateFile(state.port);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(state, null, 2)}\n`);
  return file;
}

/** Removes the state file, but only if it is still ours: a newer stack on the same port may have replaced it. */
export async function removeState(port: number, pid = process.pid): Promise<void> {
  const current = await readStateFile(port);
  if (current?.pid === pid) await rm(stateFile(port), { force: true });
}

async function readStateFile(port: number): Promise<LocalStackState | undefined> {
  try {
    return JSON.parse(await readFile(stateFile(port), "utf8")) as LocalStackState;
  } catch {
    return undefined;
  }
}

/** Whether a process exists (EPERM: it does, but is not ours). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running stack on `PORT`, or an error that says how to start one. */
export async function runningStack(port = gatewayPortFromEnv()): Promise<LocalStackState> {
  const state = await readStateFile(port);
  if (!state || !isProcessAlive(state.pid)) {
    throw new Error(
      `No local stack is running on port ${port}. Start one with \`npm start\` in another terminal` +
        (port === defaultGatewayPort ? " (or set PORT to the port yours listens on)." : ` (with PORT=${port}).`),
    );
  }
  return state;
}

/** The environment the handlers read (functions/store/client.ts): DynamoDB Local, its tables, dummy credentials. */
export function handlerEnv(dynamodbEndpoint: string, tables: TableNames): Record<string, string> {
  return {
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    [tableEnv.orders]: tables.orders,
    [tableEnv.idempotency]: tables.idempotency,
    AWS_REGION: "eu-west-1",
    AWS_DEFAULT_REGION: "eu-west-1",
    // DynamoDB Local ignores credentials but rejects non-alphanumeric ones; these can reach nothing real.
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    POWERTOOLS_SERVICE_NAME: process.env.POWERTOOLS_SERVICE_NAME ?? "order-tools-local",
  };
}

/** Points this process's handlers at the given tables. Call before the first handler runs: they cache their clients. */
export function useTables(dynamodbEndpoint: string, tables: TableNames): void {
  Object.assign(process.env, handlerEnv(dynamodbEndpoint, tables));
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
}

/** Store dependencies for scripts that write to the local tables themselves (seeding). */
export function localDeps(dynamodbEndpoint: string, tables: TableNames): StoreDeps & { client: DynamoDBClient } {
  const clientConfig = localClientConfig(dynamodbEndpoint);
  const client = new DynamoDBClient(clientConfig);
  return { client, doc: documentClient(client), tables, now: () => new Date(), clientConfig };
}

/** A path as the user typed it: npm runs scripts from the package root, INIT_CWD is where they ran npm. */
export function userPath(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** Reads and validates a fixture file; the error names the file and, for a bad entry, the first one. */
export async function readFixtureFile(path: string): Promise<Fixture> {
  const file = userPath(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`Cannot read the fixture ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`The fixture ${file} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseFixture(json);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

/** "45 orders, 4 customers, …" for the console. */
export function describeCounts(counts: Record<string, number>): string {
  const names: Record<string, [string, string]> = {
    orders: ["order", "orders"],
    sellers: ["seller", "sellers"],
    policies: ["policy", "policies"],
    customers: ["customer", "customers"],
    stock: ["stock item", "stock items"],
    pickupSlots: ["pickup slot", "pickup slots"],
  };
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a === "orders" ? -1 : b === "orders" ? 1 : 0))
    .map(([kind, n]) => `${n.toLocaleString("en-GB")} ${(names[kind] ?? [kind, kind])[n === 1 ? 0 : 1]}`)
    .join(", ");
}
