import { request as httpRequest } from "node:http";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lambdaContext } from "#local/lambda-context";
import { devAudience, devIssuer, devSigningKey, principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { operationKey, orderKey } from "#store/keys";
import { apiGatewayEvent } from "#runtime/api-event";
import { inProcessInvoker } from "#runtime/invoker-in-process";
import { localMcpAuthentication } from "#local/mcp-resource";
import { createMcpHandler, latestLegacyProtocolVersion } from "#service/mcp";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * Hostile input over real HTTP on the local gateway (`npm start`), in front of the real handlers and fresh tables:
 * deeply nested bodies at every entry point (a tool's route, MCP's message and its tools/call arguments), a
 * malformed customer_id claim, a token without `kid`, the OpenAPI server under a forged Host, and MCP's
 * DNS-rebinding rule for a local server.
 */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
let ana: string;

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await startGateway({ port: 0 });
  ana = await signDevToken(principalClaims({ customer: "C-1001" }));
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

interface WireReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, any> | undefined;
}

/** A raw HTTP request, so that Host (which fetch will not let a caller set) can be forged. */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<WireReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: gateway.port,
        method,
        path,
        headers: { ...headers, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: Record<string, any> | undefined;
          try {
            json = text === "" ? undefined : (JSON.parse(text) as Record<string, any>);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const mcpHeaders = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${ana}`,
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "mcp-protocol-version": latestLegacyProtocolVersion,
  ...extra,
});
const mcp = (body: string, extra: Record<string, string> = {}) => send("POST", "/v1/mcp", mcpHeaders(extra), body);
const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

const nested = (levels: number, inner = "1") => `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`;
const storedOrder = async (orderId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;
const storedOperation = async (sub: string, operationId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: operationKey(sub, operationId), ConsistentRead: true }))).Item;

describe("deep nesting is INVALID_INPUT at every entry point", () => {
  it("a tool's route: 400 with the contract §3 body and an issue naming the field; the order untouched, nothing recorded", async () => {
    const operationId = "op-deep-route-0001";
    const body = `{"operationId":"${operationId}","orderId":"SU-10001","reason":${nested(5000, '"x"')}}`;
    const reply = await send(
      "POST",
      "/v1/tools/cancel_order",
      { authorization: `Bearer ${ana}`, "content-type": "application/json" },
      body,
    );

    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      error: {
        code: "INVALID_INPUT",
        retryable: false,
        message: expect.any(String),
        issues: [
          {
            path: "reason",
            message: expect.stringMatching(
              /^Arrays and objects nest 5001 levels deep in the body \(under reason\); at most 32 levels are accepted\. Send/,
            ),
          },
        ],
      },
    });
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("user-C-1001", operationId)).toBeUndefined();
  });

  it("MCP tools/call with ~5,000 levels in its arguments: the tool's INVALID_INPUT as an error result, never INTERNAL 'outcome unknown'", async () => {
    const operationId = "op-deep-mcp-00001";
    const args = `{"operationId":"${operationId}","orderId":"SU-10001","reason":${nested(5000, '"x"')}}`;
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"cancel_order","arguments":${args}}}`;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(16 * 1024);
    const reply = await mcp(body);

    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: expect.any(String) }], isError: true } });
    const told = JSON.parse(reply.json?.result.content[0].text);
    expect(told).toEqual({
      error: {
        code: "INVALID_INPUT",
        retryable: false,
        message: expect.any(String),
        issues: [
          {
            path: "reason",
            message: expect.stringMatching(/^Arrays and objects nest 5001 levels deep in the arguments \(under reason\); at most 32/),
          },
        ],
      },
    });
    expect(told.error.message).not.toMatch(/outcome is unknown|get_operation_status/);
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("user-C-1001", operationId)).toBeUndefined();
  });

  it("an MCP message nested too deeply outside the arguments: 400 Invalid Request carrying the INVALID_INPUT body", async () => {
    const body = `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":${nested(5000)}}}`;
    const reply = await mcp(body);

    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      jsonrpc: "2.0",
      id: 8,
      error: {
        code: -32600,
        message: expect.stringMatching(
          /^Invalid Request: Arrays and objects nest 5002 levels deep in the JSON-RPC message \(under params\); at most 32/,
        ),
        data: {
          error: {
            code: "INVALID_INPUT",
            retryable: false,
            message: expect.any(String),
            issues: [{ path: "params", message: expect.stringMatching(/5002 levels deep/) }],
          },
        },
      },
    });
  });

  it("ordinary MCP messages and arguments are not affected", async () => {
    const reply = await mcp(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "search_orders", arguments: { dateRange: { dateField: "placed", from: "2020-01-01", to: "2020-03-01" } } },
      }),
    );
    expect(reply.status).toBe(200);
    expect(reply.json?.result.isError).toBeUndefined();
    expect(reply.json?.result.structuredContent).toEqual({ orders: [], truncated: false });
  });
});

describe("tokens the gateway or the functions refuse", () => {
  it("a token without kid: 401 saying the key id is missing, and no function runs", async () => {
    const key = await devSigningKey();
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      ...principalClaims({ customer: "C-1001" }),
      iss: devIssuer,
      aud: devAudience,
      iat: now,
      exp: now + 600,
    })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .sign(key.privateKey);
    const reply = await send(
      "POST",
      "/v1/tools/cancel_order",
      { authorization: `Bearer ${token}`, "content-type": "application/json" },
      JSON.stringify({ operationId: "op-no-kid-00001", orderId: "SU-10001" }),
    );

    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(reply.json).toEqual({
      error: {
        code: "UNAUTHENTICATED",
        retryable: false,
        message: expect.stringMatching(/^The bearer token's header has no key id \(kid\).*npm run --silent token -- --customer C-1001/),
      },
    });
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("user-C-1001", "op-no-kid-00001")).toBeUndefined();
  });

  it('a signed token with customer_id "c-1001" and the support scope: 403 from the function, another customer\'s order untouched', async () => {
    const token = await signDevToken({ sub: "staff-S-7", customer_id: "c-1001", scope: "orders:read orders:write orders:support" });
    const reply = await send(
      "POST",
      "/v1/tools/cancel_order",
      { authorization: `Bearer ${token}`, "content-type": "application/json" },
      JSON.stringify({ operationId: "op-bad-claim-0001", orderId: "SU-20001" }),
    );

    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      error: {
        code: "FORBIDDEN",
        retryable: false,
        requiredScope: "orders:write",
        message: expect.stringMatching(
          /customer_id claim is "c-1001", which is not a customer id\. A valid claim is C- followed by 1 to 12 digits, like C-1001/,
        ),
      },
    });
    expect(await storedOrder("SU-20001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("staff-S-7", "op-bad-claim-0001")).toBeUndefined();
  });

  it("a numeric customer_id (printed as a string by the gateway, as API Gateway does) is refused the same way", async () => {
    const token = await signDevToken({ sub: "staff-S-7", customer_id: 1001, scope: "orders:read orders:support" });
    const reply = await send(
      "POST",
      "/v1/tools/search_orders",
      { authorization: `Bearer ${token}`, "content-type": "application/json" },
      JSON.stringify({ orderId: "SU-20001" }),
    );
    expect(reply.status).toBe(403);
    expect(reply.json?.error.message).toMatch(/customer_id claim is "1001", which is not a customer id/);
    expect(reply.json?.orders).toBeUndefined();
  });
});

describe("GET /v1/openapi.json names the gateway's own address, not the client's Host", () => {
  it("a forged Host and X-Forwarded-Proto leave the document exactly as an honest request gets it", async () => {
    const honest = await send("GET", "/v1/openapi.json", {});
    const forged = await send("GET", "/v1/openapi.json", {
      host: "evil.example.com",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "evil.example.com",
    });

    expect(honest.status).toBe(200);
    expect(honest.json?.servers).toEqual([{ url: gateway.url }]);
    expect(forged.status).toBe(200);
    expect(forged.text).toBe(honest.text);
    expect(forged.text).not.toContain("evil.example.com");
  });
});

describe("MCP's DNS-rebinding rule on the local server", () => {
  it("accepts pages served from this machine's loopback address: its own origin, localhost and [::1] on any port", async () => {
    for (const origin of [
      gateway.url,
      `http://localhost:${gateway.port}`,
      "http://localhost:5173",
      "http://[::1]:8080",
      "https://127.0.0.1",
    ]) {
      const reply = await mcp(ping, { origin });
      expect(reply.status, origin).toBe(200);
      expect(reply.json, origin).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    }
  });

  it("refuses foreign origins, look-alikes included, with 403 and a JSON-RPC error without id", async () => {
    for (const origin of [
      "http://evil.example.com",
      "http://127.0.0.1.evil.example",
      "http://localhost.evil.example:3000",
      "null",
      `${gateway.url}/`,
    ]) {
      const reply = await mcp(ping, { origin });
      expect(reply.status, origin).toBe(403);
      expect(reply.json, origin).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32000,
          message: expect.stringMatching(
            /origin .* not allowed: this local server accepts pages served from 127\.0\.0\.1, localhost or \[::1\].*ORDER_TOOLS_MCP_ALLOWED_ORIGINS/,
          ),
        },
      });
    }
  });

  it("refuses a request addressed to a foreign Host, as a DNS-rebound page sends it, even with no Origin", async () => {
    const rebound: Array<Record<string, string>> = [
      { host: "evil.example.com", origin: "http://evil.example.com" },
      { host: `evil.example.com:${gateway.port}` },
    ];
    for (const headers of rebound) {
      const reply = await mcp(ping, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.json?.error.message, JSON.stringify(headers)).toMatch(
        /host evil\.example\.com(:\d+)? are not allowed: this local server answers only requests addressed to 127\.0\.0\.1, localhost or \[::1\]/,
      );
    }
    expect((await mcp(ping, { host: `localhost:${gateway.port}` })).status).toBe(200);
  });

  it("the deployed function keeps refusing every Origin not in its allow-list, loopback ones included", async () => {
    const deployed = createMcpHandler(
      inProcessInvoker(async () => async () => ({ statusCode: 500, body: "" })),
      {
        allowedOrigins: ["https://app.example.com"],
        authentication: localMcpAuthentication,
      },
    );
    const event = (origin: string) =>
      apiGatewayEvent({
        method: "POST",
        path: "/v1/mcp",
        headers: { ...mcpHeaders(), origin, host: "abc.execute-api.eu-west-1.amazonaws.com" },
        body: ping,
      });
    for (const origin of ["http://127.0.0.1:3000", "http://localhost:5173"]) {
      const reply = await deployed(event(origin), lambdaContext("mcp"));
      expect(reply.statusCode, origin).toBe(403);
      expect(JSON.parse(reply.body ?? "").error.message, origin).toMatch(
        /browser origin .* are not allowed\. Call from a server-side MCP client, or have the operator allow this origin/,
      );
    }
    expect((await deployed(event("https://app.example.com"), lambdaContext("mcp"))).statusCode).toBe(200);
  });
});
