import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { verifyDevToken } from "#local/dev-auth";
import { localDeps, removeState, repoRoot, writeState } from "#local/stack";
import { writeFixture } from "#store/fixture";
import { orderKey } from "#store/keys";
import { freshTables } from "#test/support/tables";

/** token, seed and invoke as a developer runs them: through npm, in child processes. */

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function npmRun(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run token", () => {
  it("prints only a JWT the gateway accepts: a customer with the default scopes, valid an hour", async () => {
    const run = await npmRun(["token", "--", "--customer", "C-1001"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = run.stdout.trim();
    const check = await verifyDevToken(token);
    expect(check.ok).toBe(true);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "RS256", typ: "JWT" });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: "user-C-1001", customer_id: "C-1001", scope: "orders:read orders:write" });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
  });

  it("support staff, with narrowed scopes and a short life", async () => {
    const run = await npmRun(["token", "--", "--support", "S-7", "--scope", "orders:read orders:support", "--ttl", "60"]);
    expect(run.code).toBe(0);
    const claims = decodeJwt(run.stdout.trim());
    expect(claims).toMatchObject({ sub: "staff-S-7", scope: "orders:read orders:support" });
    expect(claims.customer_id).toBeUndefined();
    expect((claims.exp as number) - (claims.iat as number)).toBe(60);
  });

  it("a marketplace seller: the seller_id claim, read and write, no customer or support", async () => {
    const run = await npmRun(["token", "--", "--seller", "SLR-2210"]);
    expect(run.code).toBe(0);
    const token = run.stdout.trim();
    expect((await verifyDevToken(token)).ok).toBe(true);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: "seller-SLR-2210", seller_id: "SLR-2210", scope: "orders:read orders:write" });
    expect(claims.customer_id).toBeUndefined();
  });

  it.each([
    [["--customer", "C-1001", "--support", "S-7"], /exactly one of --customer, --support or --seller/],
    [[], /exactly one of --customer, --support or --seller/],
    [["--customr", "C-1001"], /Unknown option '--customr'/],
    [["--customer", "1001"], /not a customer id: C- followed by digits/],
    [["--seller", "SLR-2210", "--customer", "C-1001"], /exactly one of --customer, --support or --seller/],
    [["--seller", "2210"], /--seller "2210" is not a seller id: SLR- followed by 1 to 12 digits/],
    [["--customer", "C-1001", "--ttl", "an hour"], /--ttl "an hour" must be a whole number of seconds/],
    [["--support", "S-7", "--scope", ""], /--scope "" must be scopes separated by single spaces/],
  ])("refuses %j with a usage message and exit code 2", async (flags, message) => {
    const run = await npmRun(["token", "--", ...flags]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/Usage: npm run --silent token/);
  });
});

describe("npm run seed and npm run invoke, against a running stack's tables", () => {
  let deps: ReturnType<typeof localDeps>;
  let dir: string;
  // A port no gateway uses: seed and invoke only read the state file that `npm start` leaves for its port.
  const port = String(40_000 + Math.floor(Math.random() * 20_000));
  // DYNAMODB_ENDPOINT (set for the test run) would send seed elsewhere; these runs target the stack on PORT.
  const env = { PORT: port, DYNAMODB_ENDPOINT: "" };

  beforeAll(async () => {
    const { names } = await freshTables();
    const endpoint = inject("dynamodbEndpoint");
    deps = localDeps(endpoint, names);
    await writeFixture(deps, splitDemoFixture(demoFixture()).first);
    await writeState({
      gatewayUrl: `http://127.0.0.1:${port}`,
      port: Number(port),
      dynamodbEndpoint: endpoint,
      tables: names,
      pid: process.pid,
      persist: false,
      startedAt: new Date().toISOString(),
    });
    dir = await mkdtemp(join(tmpdir(), "order-tools-seed-"));
  });
  afterAll(async () => {
    await removeState(Number(port));
    await rm(dir, { recursive: true, force: true });
    deps?.client.destroy();
  });

  const order = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    customerId: "C-9001",
    sellerId: "SLR-9001",
    status: "placed",
    version: 1,
    placedAt: "2026-11-01T10:00:00Z",
    deliveredAt: null,
    currency: "GBP",
    items: [{ itemId: "ITM-1", sku: "SKU-1", title: "A thing", quantity: 1, unitCents: 500, description: "A thing." }],
    charges: [{ kind: "item", cents: 500 }],
    delivery: { carrier: "Parcelline", trackingId: null },
    ...extra,
  });
  const fixture = (orders: unknown[]) => ({
    sellers: [{ id: "SLR-9001", name: "Seed Test Seller", type: "marketplace", status: "active" }],
    customers: [{ id: "C-9001", email: "seed@example.com", name: "Seed Test" }],
    orders,
  });
  const stored = async (id: string) =>
    (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(id), ConsistentRead: true }))).Item;

  it("loads a fixture file into the stack's tables and says what it loaded", async () => {
    const file = join(dir, "good.json");
    await writeFile(file, JSON.stringify(fixture([order("SU-90001"), order("SU-90002", { status: "processing", version: 2 })])));
    const run = await npmRun(["seed", "--", file], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Loaded .*good\.json.*: 2 orders, 1 seller, 1 customer/);
    expect(await stored("SU-90002")).toMatchObject({ status: "processing", version: 2, sellerName: "Seed Test Seller" });
  });

  it("refuses a bad file, naming the first bad entry, and writes nothing", async () => {
    const file = join(dir, "bad.json");
    await writeFile(file, JSON.stringify(fixture([order("SU-90011"), order("SU-90012", { status: "lost" }), order("SU-9003")])));
    const run = await npmRun(["seed", "--", file], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Fixture is invalid at orders\[1\] \(SU-90012\) field status/);
    expect(await stored("SU-90011")).toBeUndefined();
  });

  it("with DYNAMODB_ENDPOINT, loads into the tables ORDERS_TABLE and IDEMPOTENCY_TABLE name, creating them first", async () => {
    const file = join(dir, "direct.json");
    await writeFile(file, JSON.stringify(fixture([order("SU-90021")])));
    const suffix = Math.random().toString(36).slice(2, 10);
    const tables = { orders: `seeded-${suffix}`, idempotency: `seeded-idem-${suffix}` };
    const run = await npmRun(["seed", "--", file], {
      PORT: "1",
      DYNAMODB_ENDPOINT: inject("dynamodbEndpoint"),
      ORDERS_TABLE: tables.orders,
      IDEMPOTENCY_TABLE: tables.idempotency,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/: 1 order, 1 seller, 1 customer/);
    const item = (await deps.doc.send(new GetCommand({ TableName: tables.orders, Key: orderKey("SU-90021"), ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ orderId: "SU-90021", status: "placed", GSI1PK: "CUSTOMER#C-9001" });
  });

  it("refuses a file that is not JSON", async () => {
    const file = join(dir, "not.json");
    await writeFile(file, "orders: []");
    const run = await npmRun(["seed", "--", file], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not\.json is not valid JSON/);
  });

  it("says how to start a stack when none runs on PORT", async () => {
    const file = join(dir, "good.json");
    const run = await npmRun(["seed", "--", file], { PORT: "1", DYNAMODB_ENDPOINT: "" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No local stack is running on port 1\. Start one with `npm start`/);
  });

  it("invoke runs a sample event through its handler and prints the response, alone on stdout; the second run is the replay", {
    timeout: 60_000,
  }, async () => {
    // The handler logs and emits metrics as deployed (the test run turns both off): those lines go to stderr,
    // so stdout is the response and nothing else, ready for `| jq`.
    const logging = { ...env, POWERTOOLS_LOG_LEVEL: "INFO", POWERTOOLS_METRICS_DISABLED: "false" };
    const first = await npmRun(["invoke", "--", "cancel_order", "events/cancel_order.valid.json"], logging);
    expect(first.code).toBe(0);
    const response = JSON.parse(first.stdout);
    const structured = first.stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      structured.some((line) => line._aws !== undefined),
      "an EMF metric line, on stderr",
    ).toBe(true);
    expect(
      structured.some((line) => line.level !== undefined && line.message !== undefined),
      "a log line, on stderr",
    ).toBe(true);
    expect(response).toMatchObject({
      statusCode: 200,
      body: { operationId: "op-event-cancel-0001", status: "completed", orderId: "SU-20533", orderStatus: "cancelled" },
    });
    expect(await stored("SU-20533")).toMatchObject({ status: "cancelled" });

    const second = JSON.parse((await npmRun(["invoke", "--", "cancel_order", "events/cancel_order.valid.json"], env)).stdout);
    expect(second).toMatchObject({ statusCode: 200, headers: { "idempotent-replayed": "true" }, body: response.body });
  });

  it("invoke refuses an unknown tool or a file that is not an event", async () => {
    const unknown = await npmRun(["invoke", "--", "refund_everything", "events/cancel_order.valid.json"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no tool "refund_everything"; the tools are .*cancel_order/);
    const notEvent = await npmRun(["invoke", "--", "cancel_order", "package.json"], env);
    expect(notEvent.code).toBe(1);
    expect(notEvent.stderr).toMatch(/not an API Gateway HTTP API payload v2\.0 event/);
  });
});
