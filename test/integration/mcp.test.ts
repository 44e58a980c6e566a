import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { toolCatalog } from "#contract/json-schema";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { operationKey, orderKey } from "#store/keys";
import { latestLegacyProtocolVersion } from "#service/mcp";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * An MCP client — the official SDK's Client over its Streamable HTTP transport — against `npm start`'s local
 * gateway, in front of the real handlers and fresh tables on the run's DynamoDB Local. tools/call must behave
 * exactly as the tool's HTTP route: same body, same refusals, same operation records and replays.
 */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
/** Open clients, with what each reported through onerror; every test ends with none. */
const clients: Array<{ client: Client; errors: Error[] }> = [];

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await startGateway({ port: 0 });
});

afterEach(async () => {
  const open = clients.splice(0);
  await Promise.all(open.map(({ client }) => client.close()));
  // The transport reports trouble it does not throw for (e.g. a failed GET for a stream) through onerror.
  expect(open.flatMap(({ errors }) => errors)).toEqual([]);
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

const anaToken = (scope?: string) => signDevToken(principalClaims({ customer: "C-1001" }, scope));

async function connect(token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "order-tools-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  clients.push({ client, errors });
  return { client, transport };
}

async function http(path: string, token: string, body: unknown) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    body: (await response.json()) as Record<string, any>,
  };
}

const storedOrder = async (orderId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;
const storedOperation = async (sub: string, operationId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: operationKey(sub, operationId), ConsistentRead: true }))).Item;

/** The tool's result text, which for a refusal is the tool's error body. */
const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  JSON.parse((result.content as Array<{ type: string; text: string }>)[0]!.text) as Record<string, any>;

describe("an MCP client on the local gateway", () => {
  it("connects statelessly: initialize agrees on the latest revision, no session id, and tools/list publishes exactly the catalogue", async () => {
    const { client, transport } = await connect(await anaToken());
    expect(client.getServerVersion()).toMatchObject({ name: "order-tools" });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(client.getInstructions()).toMatch(/operationId/);
    expect(transport.protocolVersion).toBe(latestLegacyProtocolVersion);
    expect(transport.sessionId).toBeUndefined();

    const { tools } = await client.listTools();
    expect(tools).toEqual(toolCatalog().tools);
    const served = (await (await fetch(`${gateway.url}/v1/tools`)).json()) as ReturnType<typeof toolCatalog>;
    expect(tools).toEqual(served.tools);
    expect(await client.ping()).toEqual({});
  });

  it("reads through tools/call exactly what the tool's route returns, as structured content the SDK checks against the output schema", async () => {
    const token = await anaToken();
    const { client } = await connect(token);
    for (const [name, args] of [
      ["get_order", { orderId: "SU-10005" }],
      ["search_orders", { email: "ana@example.com", limit: 3 }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      const route = await http(`/v1/tools/${name}`, token, args);
      expect(route.status).toBe(200);
      expect(result.isError, name).toBeUndefined();
      expect(result.structuredContent, name).toEqual(route.body);
      expect(textOf(result), name).toEqual(route.body);
    }
  });

  it("a customer cancels an order through MCP: the order is cancelled and recorded once, and the same call — by MCP or HTTP — replays it", async () => {
    const token = await anaToken();
    const { client } = await connect(token);
    const operationId = "op-mcp-cancel-0001";
    const args = { operationId, orderId: "SU-10001", expectedVersion: 1, reason: "Ordered twice" };

    const first = await client.callTool({ name: "cancel_order", arguments: args });
    const expected = { operationId, status: "completed", orderId: "SU-10001", orderVersion: 2, orderStatus: "cancelled" };
    expect(first.isError).toBeUndefined();
    expect(first.structuredContent).toEqual(expected);
    expect(first._meta).toBeUndefined();
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
    expect(await storedOperation("user-C-1001", operationId)).toMatchObject({
      tool: "cancel_order",
      status: "completed",
      orderVersion: 2,
      actor: { kind: "customer", sub: "user-C-1001" },
    });

    const again = await client.callTool({ name: "cancel_order", arguments: args });
    expect(again.structuredContent).toEqual(expected);
    expect(again._meta).toEqual({ "order-tools/idempotentReplayed": true });
    const overHttp = await http("/v1/tools/cancel_order", token, args);
    expect(overHttp).toEqual({ status: 200, replayed: "true", body: expected });
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });

    // The same operationId for other arguments is refused, as on the route.
    const reused = await client.callTool({ name: "cancel_order", arguments: { ...args, reason: "Changed my mind" } });
    expect(reused.isError).toBe(true);
    expect(textOf(reused).error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });

    const status = await client.callTool({ name: "get_operation_status", arguments: { operationId } });
    expect(status.structuredContent).toEqual({
      operationId,
      status: "completed",
      tool: "cancel_order",
      orderId: "SU-10001",
      orderVersion: 2,
      result: expected,
    });
  });

  it("a business refusal is a tool error carrying the tool's own body, recorded and replayed like any other", async () => {
    const { client } = await connect(await anaToken());
    const operationId = "op-mcp-shipped-0001";
    const result = await client.callTool({ name: "cancel_order", arguments: { operationId, orderId: "SU-10004" } });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const body = textOf(result);
    expect(body).toMatchObject({
      operationId,
      status: "rejected",
      orderId: "SU-10004",
      error: { code: "NOT_ELIGIBLE", reason: "ALREADY_SHIPPED", orderStatus: "shipped", retryable: false },
    });
    expect(body.error.message).toMatch(/start_return/);
    expect(await storedOrder("SU-10004")).toMatchObject({ status: "shipped", version: 5 });
    expect(await storedOperation("user-C-1001", operationId)).toMatchObject({ status: "rejected", httpStatus: 409 });

    const replay = await client.callTool({ name: "cancel_order", arguments: { operationId, orderId: "SU-10004" } });
    expect(textOf(replay)).toEqual(body);
    expect(replay._meta).toEqual({ "order-tools/idempotentReplayed": true });
  });

  it("a token without orders:write lists every tool and reads, but a change is refused with FORBIDDEN naming the scope, and nothing is written", async () => {
    const { client } = await connect(await anaToken("orders:read"));
    expect((await client.listTools()).tools).toHaveLength(toolCatalog().tools.length);
    expect((await client.callTool({ name: "get_order", arguments: { orderId: "SU-10002" } })).isError).toBeUndefined();

    const operationId = "op-mcp-readonly-0001";
    const refused = await client.callTool({ name: "cancel_order", arguments: { operationId, orderId: "SU-10002" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toEqual({
      error: { code: "FORBIDDEN", message: expect.stringMatching(/orders:write/), retryable: false, requiredScope: "orders:write" },
    });
    expect(await storedOrder("SU-10002")).toMatchObject({ status: "processing", version: 4 });
    expect(await storedOperation("user-C-1001", operationId)).toBeUndefined();
  });

  it("another customer's order is not found, with the same body the route gives", async () => {
    const token = await anaToken();
    const { client } = await connect(token);
    const result = await client.callTool({ name: "get_order", arguments: { orderId: "SU-20001" } });
    const route = await http("/v1/tools/get_order", token, { orderId: "SU-20001" });
    expect(route.status).toBe(404);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toEqual(route.body);
    expect(textOf(result).error.code).toBe("ORDER_NOT_FOUND");
  });

  it("arguments that fail the schema are a tool error whose issues say what would be right, so the model can correct itself", async () => {
    const { client } = await connect(await anaToken());
    const result = await client.callTool({ name: "get_order", arguments: { orderId: "SU-1234", customerId: "C-2002" } });
    expect(result.isError).toBe(true);
    const { error } = textOf(result);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toEqual(
      expect.arrayContaining([
        { path: "orderId", message: expect.stringContaining("SU- followed by five digits, and this one has four") },
        { path: "", message: expect.stringMatching(/unknown field 'customerId'/) },
      ]),
    );
    const none = await client.callTool({ name: "get_order" });
    expect(textOf(none).error).toMatchObject({ code: "INVALID_INPUT", issues: [expect.objectContaining({ path: "orderId" })] });
  });

  it("an unknown tool is a JSON-RPC invalid-params error that names the tools", async () => {
    const { client } = await connect(await anaToken());
    const failure = await client.callTool({ name: "delete_order", arguments: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringMatching(/Unknown tool: delete_order.*get_order/),
    });
  });

  it("refuses to connect without a valid token", async () => {
    const client = new Client({ name: "order-tools-test", version: "1.0.0" });
    const failure = await client
      .connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/v1/mcp`)))
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 401, message: expect.stringMatching(/UNAUTHENTICATED/) });
  });
});
