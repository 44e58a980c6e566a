import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { orderKey } from "#store/keys";
import { latestLegacyProtocolVersion, modernProtocolVersion } from "#service/mcp";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * POST /v1/mcp on the wire: the Streamable HTTP rules of MCP 2025-11-25 and of 2026-07-28 for a stateless server
 * that answers in JSON, both on the same URL, checked with plain HTTP requests against the local gateway and the
 * real handlers.
 */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
let token: string;

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await startGateway({ port: 0 });
  token = await signDevToken(principalClaims({ customer: "C-1001" }));
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

const mcpHeaders = { accept: "application/json, text/event-stream", "content-type": "application/json" };

async function post(body: unknown, headers: Record<string, string | undefined> = {}) {
  const merged = Object.fromEntries(
    Object.entries({ authorization: `Bearer ${token}`, ...mcpHeaders, ...headers }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  const response = await fetch(`${gateway.url}/v1/mcp`, {
    method: "POST",
    headers: merged,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Record<string, any> | undefined;
  try {
    json = text === "" ? undefined : (JSON.parse(text) as Record<string, any>);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const request = (method: string, params?: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params ? { params } : {}),
});
const versioned = { "mcp-protocol-version": latestLegacyProtocolVersion };

describe("POST /v1/mcp, the 2025 revisions: Streamable HTTP without sessions", () => {
  it("answers initialize in JSON with the client's revision when it speaks it, else its latest, and issues no session id", async () => {
    for (const [asked, agreed] of [
      ["2025-11-25", "2025-11-25"],
      ["2025-06-18", "2025-06-18"],
      ["2025-03-26", "2025-03-26"],
      ["2024-11-05", "2025-11-25"],
      ["2099-01-01", "2025-11-25"],
    ]) {
      const reply = await post(
        request("initialize", { protocolVersion: asked, capabilities: {}, clientInfo: { name: "curl", version: "1" } }),
      );
      expect(reply.status, asked).toBe(200);
      expect(reply.headers.get("content-type")).toBe("application/json");
      expect(reply.headers.get("mcp-session-id")).toBeNull();
      expect(reply.json).toEqual({
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: agreed,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: "order-tools", version: expect.any(String) },
          instructions: expect.any(String),
        },
      });
    }
    expect(latestLegacyProtocolVersion).toBe("2025-11-25");
  });

  it("accepts notifications and responses with 202 and no body", async () => {
    for (const message of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "user" } },
      { jsonrpc: "2.0", id: 9, result: {} },
    ]) {
      const reply = await post(message, versioned);
      expect(reply.status, JSON.stringify(message)).toBe(202);
      expect(reply.text).toBe("");
    }
  });

  it("answers a client that accepts only text/event-stream with one SSE message event", async () => {
    const reply = await post(request("ping", undefined, "p-1"), { ...versioned, accept: "text/event-stream" });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/event-stream");
    expect(reply.text).toBe(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: "p-1", result: {} })}\n\n`);
  });

  it("publishes output schemas and structured results from 2025-06-18 on; to a client without a version header, as 2025-03-26", async () => {
    const current = await post(request("tools/list"), versioned);
    expect(current.json?.result.tools.every((t: Record<string, unknown>) => t.outputSchema)).toBe(true);
    const legacy = await post(request("tools/list"));
    expect(legacy.json?.result.tools.some((t: Record<string, unknown>) => "outputSchema" in t)).toBe(false);
    expect(legacy.json?.result.tools.map((t: { name: string }) => t.name)).toEqual(
      current.json?.result.tools.map((t: { name: string }) => t.name),
    );

    const args = { name: "get_order", arguments: { orderId: "SU-10005" } };
    const structured = await post(request("tools/call", args), versioned);
    expect(structured.json?.result.structuredContent).toMatchObject({ orderId: "SU-10005", status: "delivered" });
    expect(JSON.parse(structured.json?.result.content[0].text)).toEqual(structured.json?.result.structuredContent);
    const plain = await post(request("tools/call", args));
    expect(plain.json?.result.structuredContent).toBeUndefined();
    expect(JSON.parse(plain.json?.result.content[0].text)).toEqual(structured.json?.result.structuredContent);
  });

  it("refuses a protocol version it does not speak with 400, the request's id, and the versions it does speak", async () => {
    const reply = await post(request("tools/list", undefined, 3), { "mcp-protocol-version": "2099-01-01" });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32022,
        message: expect.stringMatching(
          /Unsupported protocol version: 2099-01-01 \(supported versions: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26\)/,
        ),
        data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested: "2099-01-01" },
      },
    });
  });

  it("answers an unknown method and malformed parameters with JSON-RPC errors, with the request's id", async () => {
    expect((await post(request("resources/list", undefined, 4), versioned)).json).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32601, message: expect.stringMatching(/resources\/list.*tools\/call/) },
    });
    expect((await post(request("tools/call", { arguments: {} }, 5), versioned)).json).toMatchObject({
      id: 5,
      error: { code: -32602, message: expect.stringMatching(/params.name/) },
    });
    expect((await post(request("initialize", {}, 6))).json).toMatchObject({ id: 6, error: { code: -32602 } });
  });

  it("refuses what is not one JSON-RPC message: bad JSON, a batch, a wrong version, a bad id — echoing the id where it can be read", async () => {
    const cases: Array<[unknown, number, RegExp, number | null]> = [
      ["{not json", -32700, /Parse error/, null],
      [[request("ping")], -32600, /batches are not supported/, null],
      [{ jsonrpc: "1.0", id: 1, method: "ping" }, -32600, /jsonrpc must be "2.0"/, 1],
      [{ jsonrpc: "2.0", id: { n: 1 }, method: "ping" }, -32600, /id must be a string or an integer/, null],
      [{ jsonrpc: "2.0", id: 7, method: "ping", params: [1] }, -32600, /params must be an object/, 7],
      [{ jsonrpc: "2.0", id: 8 }, -32600, /needs a method/, 8],
    ];
    for (const [body, code, message, id] of cases) {
      const reply = await post(body, versioned);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json, JSON.stringify(body)).toEqual({ jsonrpc: "2.0", id, error: { code, message: expect.stringMatching(message) } });
    }
  });

  it("refuses a body it cannot answer in a format the client takes (406) or that is not JSON (415)", async () => {
    const notAcceptable = await post(request("ping"), { ...versioned, accept: "text/html" });
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.json?.error.code).toBe(-32000);
    const unsupported = await post(request("ping"), { ...versioned, "content-type": "text/plain" });
    expect(unsupported.status).toBe(415);
    expect(unsupported.json?.error.message).toMatch(/application\/json/);
  });

  it("refuses a browser origin it was not told to allow (MCP's DNS-rebinding rule)", async () => {
    const reply = await post(request("ping"), { ...versioned, origin: "https://evil.example" });
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/origin https:\/\/evil\.example are not allowed/) },
    });
  });

  it("needs a verified token, which it checks itself, and answers without one with the challenge that says where to get one", async () => {
    const metadata = `${gateway.url}/.well-known/oauth-protected-resource/v1/mcp`;
    const anonymous = await post(request("ping"), { ...versioned, authorization: undefined });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json?.error).toMatchObject({ code: "UNAUTHENTICATED", message: expect.stringContaining(metadata) });
    expect(anonymous.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata}", scope="orders:read orders:write"`);

    const malformed = await post(request("ping"), { ...versioned, authorization: "Basic dXNlcjpwYXNz" });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get("www-authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="The Authorization header must be Bearer <token>\.", resource_metadata=/,
    );

    const otherAudience = await signDevToken({ ...principalClaims({ customer: "C-1001" }), aud: "https://elsewhere.example/mcp" });
    const refused = await post(request("ping"), { ...versioned, authorization: `Bearer ${otherAudience}` });
    expect(refused.status).toBe(401);
    expect(refused.json?.error.message).toMatch(
      /audience "https:\/\/elsewhere.example\/mcp"; this gateway accepts the audience order-tools or http:\/\/127.0.0.1:\d+\/v1\/mcp/,
    );

    // No route scope: orders:read is all the endpoint itself needs; each tool checks its own.
    const readOnly = await signDevToken(principalClaims({ customer: "C-1001" }, "orders:read"));
    expect((await post(request("ping"), { ...versioned, authorization: `Bearer ${readOnly}` })).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {},
    });
    const writeOnly = await signDevToken(principalClaims({ customer: "C-1001" }, "orders:write"));
    const insufficient = await post(request("ping"), { ...versioned, authorization: `Bearer ${writeOnly}` });
    expect(insufficient.status).toBe(403);
    expect(insufficient.json?.error).toMatchObject({ code: "FORBIDDEN", requiredScope: "orders:read" });
    expect(insufficient.headers.get("www-authenticate")).toMatch(
      /^Bearer error="insufficient_scope", error_description="[^"]+", resource_metadata="[^"]+", scope="orders:read orders:write"$/,
    );
  });

  it("offers no stream and keeps no session: GET and DELETE are 405 with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${gateway.url}/v1/mcp`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", "mcp-session-id": "s-1" },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow"), method).toBe("POST");
      expect(await response.json(), method).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: expect.stringMatching(/takes POST.*no sessions to DELETE and offers no stream to GET/) },
      });
    }
  });
});

/** A 2026-07-28 request: the envelope in params._meta, and the headers that mirror the body. */
const meta = {
  "io.modelcontextprotocol/protocolVersion": modernProtocolVersion,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1" },
};
const modern = (method: string, params: Record<string, unknown> = {}, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: meta },
});
const modernHeaders = (method: string, name?: string) => ({
  "mcp-protocol-version": modernProtocolVersion,
  "mcp-method": method,
  ...(name ? { "mcp-name": name } : {}),
});

describe("POST /v1/mcp, 2026-07-28: stateless, with the version and capabilities on every request", () => {
  it("server/discover says which revisions it speaks, what it offers and who it is, with a cache hint", async () => {
    const reply = await post(modern("server/discover"), modernHeaders("server/discover"));
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "complete",
        supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
        capabilities: { tools: {} },
        instructions: expect.stringMatching(/operationId/),
        ttlMs: 300_000,
        cacheScope: "public",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "order-tools", version: expect.any(String) } },
      },
    });
  });

  it("tools/list and tools/call answer with resultType, the list with a cache hint, the call with its structured result", async () => {
    const listed = await post(modern("tools/list"), modernHeaders("tools/list"));
    expect(listed.json?.result).toMatchObject({ resultType: "complete", ttlMs: 300_000, cacheScope: "public" });
    expect(listed.json?.result.tools.every((t: Record<string, unknown>) => t.outputSchema && t.annotations)).toBe(true);

    const called = await post(
      modern("tools/call", { name: "get_order", arguments: { orderId: "SU-10005" } }),
      modernHeaders("tools/call", "get_order"),
    );
    expect(called.status).toBe(200);
    expect(called.json?.result).toMatchObject({
      resultType: "complete",
      structuredContent: { orderId: "SU-10005", status: "delivered" },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "order-tools" } },
    });
    // A header value in the base64 form, and with the spaces HTTP allows around a value, is the same name.
    const encoded = await post(
      modern("tools/call", { name: "get_order", arguments: { orderId: "SU-10005" } }),
      modernHeaders("tools/call", `  =?base64?${Buffer.from("get_order").toString("base64")}?=  `),
    );
    expect(encoded.json?.result.resultType).toBe("complete");
  });

  it("a change replayed under the same operationId says so in _meta, beside the server's identity", async () => {
    const args = {
      name: "add_delivery_note",
      arguments: {
        operationId: "op-modern-replay-01",
        orderId: "SU-10002",
        expectedVersion: 4,
        deliveryNote: "Leave it with the neighbour at 12.",
      },
    };
    const first = await post(modern("tools/call", args), modernHeaders("tools/call", "add_delivery_note"));
    expect(first.json?.result).toMatchObject({ resultType: "complete", structuredContent: { status: "completed" } });
    expect(first.json?.result._meta).toEqual({
      "io.modelcontextprotocol/serverInfo": { name: "order-tools", version: expect.any(String) },
    });
    const again = await post(modern("tools/call", args), modernHeaders("tools/call", "add_delivery_note"));
    expect(again.json?.result.structuredContent).toEqual(first.json?.result.structuredContent);
    expect(again.json?.result._meta).toEqual({
      "order-tools/idempotentReplayed": true,
      "io.modelcontextprotocol/serverInfo": { name: "order-tools", version: expect.any(String) },
    });
  });

  it("a tool's refusal stays a tool result with isError, the tool's body as text", async () => {
    const reply = await post(
      modern("tools/call", { name: "get_order", arguments: { orderId: "SU-20001" } }),
      modernHeaders("tools/call", "get_order"),
    );
    expect(reply.status).toBe(200);
    expect(reply.json?.result).toMatchObject({ resultType: "complete", isError: true });
    expect(JSON.parse(reply.json?.result.content[0].text).error.code).toBe("ORDER_NOT_FOUND");
  });

  it("a malformed or missing envelope is -32602 with HTTP 400 and the request's id, saying what a request carries", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ jsonrpc: "2.0", id: 11, method: "tools/list" }, /the request has no params._meta/],
      [
        { jsonrpc: "2.0", id: 12, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } } },
        /params._meta has no "io.modelcontextprotocol\/protocolVersion"/,
      ],
      [
        {
          jsonrpc: "2.0",
          id: 13,
          method: "tools/list",
          params: { _meta: { "io.modelcontextprotocol/protocolVersion": modernProtocolVersion } },
        },
        /params._meta has no "io.modelcontextprotocol\/clientCapabilities"/,
      ],
      [
        { jsonrpc: "2.0", id: 14, method: "tools/list", params: { _meta: { ...meta, "io.modelcontextprotocol/clientCapabilities": [] } } },
        /clientCapabilities"\] must be an object/,
      ],
      [
        { jsonrpc: "2.0", id: 15, method: "tools/list", params: { _meta: { ...meta, "io.modelcontextprotocol/clientInfo": "curl" } } },
        /clientInfo"\] must be an object with a string name and version/,
      ],
    ];
    for (const [body, message] of cases) {
      const reply = await post(body, modernHeaders("tools/list"));
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json, JSON.stringify(body)).toMatchObject({
        jsonrpc: "2.0",
        id: body.id,
        error: { code: -32602, message: expect.stringMatching(message) },
      });
      expect(reply.json?.error.message).toMatch(/A 2026-07-28 request carries params._meta with/);
    }
  });

  it("headers that disagree with the body, or are missing, are -32020 Header mismatch with HTTP 400 and the id", async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string | undefined>, RegExp]> = [
      [
        modern("tools/list", {}, 21),
        { ...modernHeaders("tools/list"), "mcp-protocol-version": "2025-11-25" },
        /MCP-Protocol-Version is 2025-11-25, but params._meta\["io.modelcontextprotocol\/protocolVersion"\] is 2026-07-28/,
      ],
      [
        modern("tools/list", {}, 22),
        { ...modernHeaders("tools/list"), "mcp-method": "prompts/list" },
        /Mcp-Method is prompts\/list, but the body's method is tools\/list/,
      ],
      [
        modern("tools/list", {}, 23),
        { "mcp-protocol-version": undefined, "mcp-method": "tools/list" },
        /required MCP-Protocol-Version header is missing/,
      ],
      [
        modern("tools/list", {}, 24),
        { "mcp-protocol-version": modernProtocolVersion },
        /required Mcp-Method header is missing; send Mcp-Method: tools\/list/,
      ],
      [
        modern("tools/call", { name: "get_order", arguments: { orderId: "SU-10005" } }, 25),
        modernHeaders("tools/call"),
        /required Mcp-Name header is missing; send Mcp-Name: get_order/,
      ],
      [
        modern("tools/call", { name: "get_order", arguments: { orderId: "SU-10005" } }, 26),
        modernHeaders("tools/call", "cancel_order"),
        /Mcp-Name is "cancel_order", but the body's params.name is "get_order"/,
      ],
      [
        modern("tools/call", { name: "get_order", arguments: { orderId: "SU-10005" } }, 27),
        modernHeaders("tools/call", "=?base64?not base64?="),
        /malformed =\?base64\?…\?= value/,
      ],
    ];
    for (const [body, headers, message] of cases) {
      const reply = await post(body, headers);
      expect(reply.status, message.source).toBe(400);
      expect(reply.json, message.source).toMatchObject({
        jsonrpc: "2.0",
        id: body.id,
        error: { code: -32020, message: expect.stringMatching(message) },
      });
    }
    const untouched = await post(
      modern("tools/call", { name: "cancel_order", arguments: { operationId: "op-hdr-mismatch-01", orderId: "SU-10001" } }, 28),
      modernHeaders("tools/call", "get_order"),
    );
    expect(untouched.json?.error.code).toBe(-32020);
    expect(await storedStatus("SU-10001")).toBe("placed");
  });

  it("an unknown version in the envelope is -32022 with the versions it speaks", async () => {
    const reply = await post(
      { ...modern("server/discover", {}, 31), params: { _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "v999.0.0" } } },
      { ...modernHeaders("server/discover"), "mcp-protocol-version": "v999.0.0" },
    );
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      id: 31,
      error: { code: -32022, data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested: "v999.0.0" } },
    });
  });

  it("a method it does not offer is HTTP 404 with -32601 and the id; the 2025 methods say what replaced them", async () => {
    const cases: Array<[string, RegExp]> = [
      [
        "resources/list",
        /Method not found: resources\/list\. On 2026-07-28 this server offers server\/discover, tools\/list and tools\/call/,
      ],
      ["initialize", /2026-07-28 has no handshake/],
      ["ping", /2026-07-28 has no ping/],
      ["logging/setLevel", /sets the log level per request/],
      ["subscriptions/listen", /Method not found: subscriptions\/listen/],
    ];
    for (const [method, message] of cases) {
      const reply = await post(modern(method, {}, `m-${method}`), modernHeaders(method));
      expect(reply.status, method).toBe(404);
      expect(reply.json, method).toEqual({
        jsonrpc: "2.0",
        id: `m-${method}`,
        error: { code: -32601, message: expect.stringMatching(message) },
      });
    }
    // initialize without the envelope is the 2025 handshake, so a modern header on it is a contradiction.
    const contradictory = await post(
      request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }, 41),
      modernHeaders("initialize"),
    );
    expect(contradictory.status).toBe(400);
    expect(contradictory.json).toMatchObject({
      id: 41,
      error: { code: -32020, message: expect.stringMatching(/initialize is the 2025 handshake/) },
    });
  });

  it("what is not one message, on the 2026-07-28 wire: 400, and no id member where none could be read", async () => {
    const batch = await post([modern("tools/list")], modernHeaders("tools/list"));
    expect(batch.status).toBe(400);
    expect(batch.json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } });
    const notJson = await post("{nope", modernHeaders("tools/list"));
    expect(notJson.json).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: expect.stringMatching(/Parse error/) } });
    const get = await fetch(`${gateway.url}/v1/mcp`, { headers: { authorization: `Bearer ${token}`, ...modernHeaders("tools/list") } });
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringMatching(/takes POST/) } });
  });

  it("notifications are accepted with 202 and no body", async () => {
    const reply = await post(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      modernHeaders("notifications/cancelled"),
    );
    expect(reply.status).toBe(202);
    expect(reply.text).toBe("");
  });
});

async function storedStatus(orderId: string): Promise<unknown> {
  return (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item
    ?.status;
}
