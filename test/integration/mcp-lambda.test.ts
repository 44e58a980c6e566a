import { LambdaClient } from "@aws-sdk/client-lambda";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tools } from "#contract/tools";
import { lambdaContext } from "#local/lambda-context";
import { apiGatewayEvent } from "#runtime/api-event";
import type { ToolHandler } from "#runtime/handler";
import type { HttpEvent } from "#runtime/http";
import { lambdaInvoker } from "#runtime/invoker-lambda";
import {
  createMcpHandler,
  deployedAuthentication,
  handler as deployedHandler,
  latestLegacyProtocolVersion,
  modernProtocolVersion,
} from "#service/mcp";
import { mcpAuthEnv } from "#runtime/oauth-resource";
import {
  type CognitoTokens,
  cognitoTokens,
  providerTokens,
  testApiAuth,
  testAppClient,
  testIssuer,
  testMcpClient,
  testProviderAuth,
} from "#test/support/cognito-tokens";
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
let tokens: CognitoTokens;

beforeAll(async () => {
  world = await newWorld();
  lambdaApi = await startLocalLambdaApi(world.deps);
  ({ endpoint, invocations } = lambdaApi);
  // As the stack configures the function: the API (id `local` in these events) trusts one user pool.
  process.env[mcpAuthEnv] = JSON.stringify({ local: testApiAuth });
  tokens = await cognitoTokens();
});

afterAll(() => {
  delete process.env[mcpAuthEnv];
  return lambdaApi?.close();
});

beforeEach(() => {
  invocations.length = 0;
});

/** The event API Gateway gives the function for this POST: no authorizer in front of the route, so no claims, only the header. */
function mcpEvent(authorization: string | undefined, message: Record<string, unknown>, headers: Record<string, string> = {}): HttpEvent {
  const event = apiGatewayEvent({
    method: "POST",
    path: "/v1/mcp",
    routeKey: "POST /v1/mcp",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": latestLegacyProtocolVersion,
      ...(authorization ? { authorization } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }),
  });
  event.requestContext.domainName = "abc123.execute-api.eu-west-1.amazonaws.com";
  delete (event.requestContext as { authorizer?: unknown }).authorizer;
  return event;
}

async function call(handler: ToolHandler, caller: Caller, message: Record<string, unknown>, headers: Record<string, string> = {}) {
  const token = await tokens.sign(caller);
  return handler(mcpEvent(`Bearer ${token}`, message, headers), lambdaContext("mcp", 20_000));
}

async function rpc(handler: ToolHandler, caller: Caller, message: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await call(handler, caller, message);
  expect(result.statusCode).toBe(200);
  return JSON.parse(result.body ?? "null") as Record<string, any>;
}

const deployedWith = (invoker: Parameters<typeof createMcpHandler>[0]) =>
  createMcpHandler(invoker, { authentication: deployedAuthentication() });

describe("the deployed MCP function", () => {
  it("invokes the tool's own function with the event its route would get, the caller's claims included, and answers as the route does", async () => {
    const ana = customer("C-1001");
    const operationId = "op-mcp-lambda-0001";
    const reply = await rpc(deployedHandler, ana, {
      method: "tools/call",
      params: { name: "cancel_order", arguments: { operationId, orderId: "SU-10002", expectedVersion: 4 } },
    });

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
      requestContext: {
        http: { method: "POST", path: "/v1/tools/cancel_order" },
        authorizer: {
          jwt: { claims: { ...ana.claims, iss: testIssuer, client_id: testAppClient, token_use: "access" }, scopes: ana.scopes },
        },
      },
    });
    // The verified claims go on; the token itself never does.
    expect(event.headers.authorization).toBeUndefined();
    expect(JSON.stringify(event)).not.toMatch(/eyJ[\w-]+\.eyJ/);

    // The retry an agent makes after a lost response is the tool's replay, marked as one.
    const again = await rpc(deployedHandler, ana, {
      method: "tools/call",
      params: { name: "cancel_order", arguments: { operationId, orderId: "SU-10002", expectedVersion: 4 } },
    });
    expect(again.result).toMatchObject({ structuredContent: expected, _meta: { "order-tools/idempotentReplayed": true } });
    expect(await world.order("SU-10002")).toMatchObject({ version: 5 });
  });

  it("answers initialize and tools/list itself, invoking nothing", async () => {
    const ana = customer("C-1001");
    expect(
      (
        await rpc(deployedHandler, ana, {
          method: "initialize",
          params: { protocolVersion: latestLegacyProtocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } },
        })
      ).result,
    ).toMatchObject({
      protocolVersion: latestLegacyProtocolVersion,
    });
    expect((await rpc(deployedHandler, ana, { method: "tools/list" })).result.tools).toHaveLength(tools.length);
    expect(invocations).toEqual([]);
  });

  it("refuses a change to a token without orders:write before invoking anything, with the tool's FORBIDDEN body", async () => {
    const reader = customer("C-1001", "orders:read");
    const reply = await rpc(deployedHandler, reader, {
      method: "tools/call",
      params: { name: "cancel_order", arguments: { operationId: "op-mcp-lambda-ro-0001", orderId: "SU-10001" } },
    });
    expect(reply.result.isError).toBe(true);
    expect(JSON.parse(reply.result.content[0].text)).toEqual({
      error: { code: "FORBIDDEN", message: expect.stringMatching(/orders:write/), retryable: false, requiredScope: "orders:write" },
    });
    expect(invocations).toEqual([]);
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await world.operation(reader, "op-mcp-lambda-ro-0001")).toBeUndefined();
  });

  it("turns a function that failed into INTERNAL: for a change, the outcome is unknown and get_operation_status is the next step", async () => {
    const broken = deployedWith(lambdaInvoker({ cancel_order: "fn-missing", get_order: "fn-missing" }, new LambdaClient({ endpoint })));
    const ana = customer("C-1001");
    const change = await rpc(broken, ana, {
      method: "tools/call",
      params: { name: "cancel_order", arguments: { operationId: "op-mcp-lambda-err-0001", orderId: "SU-10001" } },
    });
    expect(change.result.isError).toBe(true);
    expect(JSON.parse(change.result.content[0].text)).toEqual({
      error: {
        code: "INTERNAL",
        retryable: true,
        message: expect.stringMatching(/outcome is unknown — ask get_operation_status with the same operationId/),
      },
    });
    const read = await rpc(broken, ana, { method: "tools/call", params: { name: "get_order", arguments: { orderId: "SU-10001" } } });
    expect(JSON.parse(read.result.content[0].text).error).toMatchObject({
      code: "INTERNAL",
      message: expect.stringMatching(/Retry the request/),
    });
    expect(invocations.map((i) => i.functionName)).toEqual(["fn-missing", "fn-missing"]);

    // A tool without a configured function is the same INTERNAL, and invokes nothing.
    const unconfigured = deployedWith(lambdaInvoker({}, new LambdaClient({ endpoint })));
    const none = await rpc(unconfigured, ana, { method: "tools/call", params: { name: "get_order", arguments: { orderId: "SU-10001" } } });
    expect(JSON.parse(none.result.content[0].text).error.code).toBe("INTERNAL");
    expect(invocations).toHaveLength(2);
  });
});

describe("the deployed MCP function as an OAuth protected resource: it verifies the token itself", () => {
  const metadataUrl = "https://abc123.execute-api.eu-west-1.amazonaws.com/.well-known/oauth-protected-resource/v1/mcp";
  const resource = "https://abc123.execute-api.eu-west-1.amazonaws.com/v1/mcp";
  const listTools = { method: "tools/list" };

  async function refused(authorization: string | undefined) {
    const result = await deployedHandler(mcpEvent(authorization, listTools), lambdaContext("mcp"));
    return {
      status: result.statusCode,
      challenge: String(result.headers?.["www-authenticate"] ?? ""),
      body: JSON.parse(result.body ?? "null") as Record<string, any>,
    };
  }

  it("without a token: 401 whose challenge names the metadata URL and every scope, and nothing is invoked", async () => {
    const reply = await refused(undefined);
    expect(reply.status).toBe(401);
    expect(reply.challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="orders:read orders:write"`);
    expect(reply.body.error).toMatchObject({ code: "UNAUTHENTICATED", message: expect.stringContaining(metadataUrl), retryable: false });
    expect(invocations).toEqual([]);
  });

  it.each([
    ["signed with a key the pool does not have", { keyOf: "stranger" as const }, /signature does not verify/],
    [
      "from an app client the deployment does not pin",
      { clientId: "someoneelsesclient00000001" },
      /app client this deployment does not know/,
    ],
    [
      "bound to another resource (RFC 8707 audience)",
      { overrides: { aud: "https://other.example/mcp" } },
      /issued for "https:\/\/other.example\/mcp", not for this MCP endpoint/,
    ],
    ["an ID token, not an access token", { overrides: { token_use: "id" } }, /not an access token/],
    ["from another issuer", { overrides: { iss: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Elsewhere" } }, /another issuer/],
    ["expired", { overrides: { exp: Math.floor(Date.now() / 1000) - 60 } }, /expired/],
    ["that never expires (no exp)", { overrides: { exp: undefined } }, /has no expiry \(exp\); tokens must expire/],
  ])("a token %s: 401 invalid_token with the challenge, and its claims never reach a tool", async (_what, options, message) => {
    const token = await tokens.sign(customer("C-1001"), options);
    const listed = await refused(`Bearer ${token}`);
    expect(listed.status).toBe(401);
    expect(listed.challenge).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="https:\/\/abc123[^"]+", scope="orders:read orders:write"$/,
    );
    expect(listed.body.error).toMatchObject({ code: "UNAUTHENTICATED", message: expect.stringMatching(message) });
    const cancel = await deployedHandler(
      mcpEvent(`Bearer ${token}`, {
        method: "tools/call",
        params: { name: "cancel_order", arguments: { operationId: "op-mcp-lambda-aud-0001", orderId: "SU-10001" } },
      }),
      lambdaContext("mcp"),
    );
    expect(cancel.statusCode).toBe(401);
    expect(invocations).toEqual([]);
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("with an existing identity provider, a token that never expires (no exp) is refused like an expired one; the same token with exp is accepted", async () => {
    const provider = await providerTokens();
    const handler = createMcpHandler(lambdaInvoker({}, new LambdaClient({ endpoint })), {
      authentication: deployedAuthentication({ [mcpAuthEnv]: JSON.stringify({ local: testProviderAuth }) }),
    });
    const send = async (token: string) => handler(mcpEvent(`Bearer ${token}`, listTools), lambdaContext("mcp"));

    const lasting = await send(await provider.sign(customer("C-1001")));
    expect(lasting.statusCode).toBe(200);
    expect(JSON.parse(lasting.body ?? "").result.tools).toHaveLength(tools.length);

    for (const token of [
      await provider.sign(customer("C-1001"), { exp: undefined }),
      await provider.sign(customer("C-1001"), { exp: undefined, aud: resource }),
    ]) {
      const forever = await send(token);
      expect(forever.statusCode).toBe(401);
      expect(String(forever.headers?.["www-authenticate"])).toMatch(
        /^Bearer error="invalid_token", error_description="The bearer token has no expiry \(exp\)/,
      );
      expect(JSON.parse(forever.body ?? "").error).toMatchObject({
        code: "UNAUTHENTICATED",
        message: expect.stringMatching(/^The bearer token has no expiry \(exp\); tokens must expire\. Sign in again/),
      });
    }
    expect(invocations).toEqual([]);
  });

  it("a pinned MCP client's token, bound to this resource, is accepted", async () => {
    const token = await tokens.sign(customer("C-1001"), { clientId: testMcpClient, overrides: { aud: resource } });
    const result = await deployedHandler(mcpEvent(`Bearer ${token}`, listTools), lambdaContext("mcp"));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body ?? "").result.tools).toHaveLength(tools.length);
  });

  it("a valid token without orders:read: 403 insufficient_scope naming every scope the endpoint needs", async () => {
    const token = await tokens.sign(customer("C-1001", "openid email"));
    const reply = await refused(`Bearer ${token}`);
    expect(reply.status).toBe(403);
    expect(reply.challenge).toMatch(
      /^Bearer error="insufficient_scope", error_description="[^"]*orders:read[^"]*", resource_metadata="https:\/\/abc123[^"]+", scope="orders:read orders:write"$/,
    );
    expect(reply.body.error).toMatchObject({ code: "FORBIDDEN", requiredScope: "orders:read" });
  });

  it("speaks 2026-07-28 too: discovery, then a tools/call whose result says it is complete", async () => {
    const ana = customer("C-1001");
    const meta = { "io.modelcontextprotocol/protocolVersion": modernProtocolVersion, "io.modelcontextprotocol/clientCapabilities": {} };
    const modern = { "mcp-protocol-version": modernProtocolVersion };
    const discover = await call(
      deployedHandler,
      ana,
      { method: "server/discover", params: { _meta: meta } },
      { ...modern, "mcp-method": "server/discover" },
    );
    expect(discover.statusCode).toBe(200);
    expect(JSON.parse(discover.body ?? "").result).toMatchObject({
      resultType: "complete",
      supportedVersions: [modernProtocolVersion, "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: {} },
      cacheScope: "public",
    });
    const read = await call(
      deployedHandler,
      ana,
      { method: "tools/call", params: { name: "get_order", arguments: { orderId: "SU-10005" }, _meta: meta } },
      { ...modern, "mcp-method": "tools/call", "mcp-name": "get_order" },
    );
    expect(read.statusCode).toBe(200);
    expect(JSON.parse(read.body ?? "").result).toMatchObject({
      resultType: "complete",
      structuredContent: { orderId: "SU-10005" },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "order-tools" } },
    });
    expect(invocations.map((i) => i.functionName)).toEqual(["fn-get_order"]);
  });
});
