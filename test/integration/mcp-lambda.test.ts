import { LambdaClient } from "@aws-sdk/client-lambda";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tools } from "#catalog/tools";
import { lambdaContext } from "#scripts/api-event";
import { apiGatewayEvent } from "#tools/api-event";
import type { ToolHandler } from "#tools/handler";
import type { HttpEvent } from "#tools/http";
import { lambdaInvoker } from "#tools/invoker-lambda";
import { createMcpHandler, handler as deployedHandler, latestProtocolVersion } from "#tools/mcp";
import { type Invocation, startLocalLambdaApi } from "#test/support/local-lambda-api";
import { type Caller, customer, newWorld, type World } from "#test/support/world";

/**
 * The MCP function as deployed: it holds no table grants and invokes each tool's own Lambda function. Here the
 * Lambda Invoke API is a small local server (the SDK's real client talks to it over HTTP) whose "functions" are
 * the tools' real handlers on fresh DynamoDB Local tables — so the whole path is exercised except AWS itself.
 */

let world: World;
let lambdaApi: Awaited<ReturnType<typeof startLocalLambdaApi>>;
let endpoint: string;
let invocations: Invocation[];

beforeAll(async () => {
  world = await newWorld();
  lambdaApi = await startLocalLambdaApi(world.deps);
  ({ endpoint, invocations } = lambdaApi);
});

afterAll(() => lambdaApi?.close());

beforeEach(() => {
  invocations.length = 0;
});

function mcpEvent(caller: Caller, message: Record<string, unknown>): HttpEvent {
  return apiGatewayEvent({
    method: "POST",
    path: "/v1/mcp",
    routeKey: "POST /v1/mcp",
    headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": latestProtocolVersion, authorization: "Bearer not-passed-on" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }),
    claims: caller.claims,
    scopes: caller.scopes,
  });
}

async function rpc(handler: ToolHandler, caller: Caller, message: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await handler(mcpEvent(caller, message), lambdaContext("mcp", 20_000));
  expect(result.statusCode).toBe(200);
  return JSON.parse(result.body ?? "null") as Record<string, any>;
}

describe("the deployed MCP function", () => {
  it("invokes the tool's own function with the event its route would get, the caller's claims included, and answers as the route does", async () => {
    const ana = customer("C-1001");
    const operationId = "op-mcp-lambda-0001";
    const reply = await rpc(deployedHandler, ana, { method: "tools/call", params: { name: "cancel_order", arguments: { operationId, orderId: "SU-10002", expectedVersion: 4 } } });

    const expected = { operationId, status: "completed", orderId: "SU-10002", orderVersion: 5, orderStatus: "cancelled" };
    expect(reply.result).toEqual({ content: [{ type: "text", text: JSON.stringify(expected) }], structuredContent: expected });
    expect(await world.order("SU-10002")).toMatchObject({ status: "cancelled", version: 5 });
    expect(await world.operation(ana, operationId)).toMatchObject({ tool: "cancel_order", status: "completed", orderVersion: 5 });

    expect(invocations.map((i) => i.functionName)).toEqual(["fn-cancel_order"]);
    const { event } = invocations[0]!;
    expect(event).toMatchObject({
      version: "2.0",
      routeKey: "POST /v1/tools/cancel_order",
      rawPath: "/v1/tools/cancel_order",
      body: JSON.stringify({ operationId, orderId: "SU-10002", expectedVersion: 4 }),
      requestContext: { http: { method: "POST", path: "/v1/tools/cancel_order" }, authorizer: { jwt: { claims: ana.claims, scopes: ana.scopes } } },
    });
    expect(event.headers.authorization).toBeUndefined();

    // The retry an agent makes after a lost response is the tool's replay, marked as one.
    const again = await rpc(deployedHandler, ana, { method: "tools/call", params: { name: "cancel_order", arguments: { operationId, orderId: "SU-10002", expectedVersion: 4 } } });
    expect(again.result).toMatchObject({ structuredContent: expected, _meta: { "order-tools/idempotentReplayed": true } });
    expect(await world.order("SU-10002")).toMatchObject({ version: 5 });
  });

  it("answers initialize and tools/list itself, invoking nothing", async () => {
    const ana = customer("C-1001");
    expect((await rpc(deployedHandler, ana, { method: "initialize", params: { protocolVersion: latestProtocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } } })).result).toMatchObject({
      protocolVersion: latestProtocolVersion,
    });
    expect((await rpc(deployedHandler, ana, { method: "tools/list" })).result.tools).toHaveLength(tools.length);
    expect(invocations).toEqual([]);
  });

  it("refuses a change to a token without orders:write before invoking anything, with the tool's FORBIDDEN body", async () => {
    const reader = customer("C-1001", "orders:read");
    const reply = await rpc(deployedHandler, reader, { method: "tools/call", params: { name: "cancel_order", arguments: { operationId: "op-mcp-lambda-ro-0001", orderId: "SU-10001" } } });
    expect(reply.result.isError).toBe(true);
    expect(JSON.parse(reply.result.content[0].text)).toEqual({ error: { code: "FORBIDDEN", message: expect.stringMatching(/orders:write/), retryable: false, requiredScope: "orders:write" } });
    expect(invocations).toEqual([]);
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await world.operation(reader, "op-mcp-lambda-ro-0001")).toBeUndefined();
  });

  it("turns a function that failed into INTERNAL: for a change, the outcome is unknown and get_operation_status is the next step", async () => {
    const broken = createMcpHandler(lambdaInvoker({ cancel_order: "fn-missing", get_order: "fn-missing" }, new LambdaClient({ endpoint })));
    const ana = customer("C-1001");
    const change = await rpc(broken, ana, { method: "tools/call", params: { name: "cancel_order", arguments: { operationId: "op-mcp-lambda-err-0001", orderId: "SU-10001" } } });
    expect(change.result.isError).toBe(true);
    expect(JSON.parse(change.result.content[0].text)).toEqual({
      error: { code: "INTERNAL", retryable: true, message: expect.stringMatching(/outcome is unknown — ask get_operation_status with the same operationId/) },
    });
    const read = await rpc(broken, ana, { method: "tools/call", params: { name: "get_order", arguments: { orderId: "SU-10001" } } });
    expect(JSON.parse(read.result.content[0].text).error).toMatchObject({ code: "INTERNAL", message: expect.stringMatching(/Retry the request/) });
    expect(invocations.map((i) => i.functionName)).toEqual(["fn-missing", "fn-missing"]);

    // A tool without a configured function is the same INTERNAL, and invokes nothing.
    const unconfigured = createMcpHandler(lambdaInvoker({}, new LambdaClient({ endpoint })));
    const none = await rpc(unconfigured, ana, { method: "tools/call", params: { name: "get_order", arguments: { orderId: "SU-10001" } } });
    expect(JSON.parse(none.result.content[0].text).error.code).toBe("INTERNAL");
    expect(invocations).toHaveLength(2);
  });
});
