import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalClaims, signDevToken } from "#scripts/local/dev-auth";
import { type Gateway, startGateway } from "#scripts/local/gateway";
import { localDeps } from "#scripts/local/stack";
import { parseFixture } from "#store/fixture";
import { latestProtocolVersion, supportedProtocolVersions } from "#tools/mcp";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/fixture";

/**
 * POST /v1/mcp on the wire: the Streamable HTTP rules of MCP 2025-11-25 for a stateless server that answers in
 * JSON, checked with plain HTTP requests against the local gateway and the real handlers.
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
  const merged = Object.fromEntries(Object.entries({ authorization: `Bearer ${token}`, ...mcpHeaders, ...headers }).filter((e): e is [string, string] => e[1] !== undefined));
  const response = await fetch(`${gateway.url}/v1/mcp`, { method: "POST", headers: merged, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await response.text();
  let json: Record<string, any> | undefined;
  try {
    json = text === "" ? undefined : (JSON.parse(text) as Record<string, any>);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const request = (method: string, params?: Record<string, unknown>, id: number | string = 1) => ({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
const versioned = { "mcp-protocol-version": latestProtocolVersion };

describe("POST /v1/mcp: Streamable HTTP without sessions", () => {
  it("answers initialize in JSON with the client's revision when it speaks it, else its latest, and issues no session id", async () => {
    for (const [asked, agreed] of [
      ["2025-11-25", "2025-11-25"],
      ["2025-06-18", "2025-06-18"],
      ["2025-03-26", "2025-03-26"],
      ["2024-11-05", "2025-11-25"],
      ["2099-01-01", "2025-11-25"],
    ]) {
      const reply = await post(request("initialize", { protocolVersion: asked, capabilities: {}, clientInfo: { name: "curl", version: "1" } }));
      expect(reply.status, asked).toBe(200);
      expect(reply.headers.get("content-type")).toBe("application/json");
      expect(reply.headers.get("mcp-session-id")).toBeNull();
      expect(reply.json).toEqual({
        jsonrpc: "2.0",
        id: 1,
        result: { protocolVersion: agreed, capabilities: { tools: { listChanged: false } }, serverInfo: { name: "order-tools", version: expect.any(String) }, instructions: expect.any(String) },
      });
    }
    expect(latestProtocolVersion).toBe("2025-11-25");
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
    expect(legacy.json?.result.tools.map((t: { name: string }) => t.name)).toEqual(current.json?.result.tools.map((t: { name: string }) => t.name));

    const args = { name: "get_order", arguments: { orderId: "SU-10005" } };
    const structured = await post(request("tools/call", args), versioned);
    expect(structured.json?.result.structuredContent).toMatchObject({ orderId: "SU-10005", status: "delivered" });
    expect(JSON.parse(structured.json?.result.content[0].text)).toEqual(structured.json?.result.structuredContent);
    const plain = await post(request("tools/call", args));
    expect(plain.json?.result.structuredContent).toBeUndefined();
    expect(JSON.parse(plain.json?.result.content[0].text)).toEqual(structured.json?.result.structuredContent);
  });

  it("refuses a protocol version it does not speak with 400", async () => {
    const reply = await post(request("tools/list"), { "mcp-protocol-version": "2026-07-28" });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringMatching(/Unsupported protocol version: 2026-07-28 \(supported versions: 2025-11-25, 2025-06-18, 2025-03-26\)/) } });
  });

  it("answers an unknown method and malformed parameters with JSON-RPC errors, with the request's id", async () => {
    expect((await post(request("resources/list", undefined, 4), versioned)).json).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32601, message: expect.stringMatching(/resources\/list.*tools\/call/) } });
    expect((await post(request("tools/call", { arguments: {} }, 5), versioned)).json).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringMatching(/params.name/) } });
    expect((await post(request("initialize", {}, 6))).json).toMatchObject({ id: 6, error: { code: -32602 } });
  });

  it("refuses what is not one JSON-RPC message: bad JSON, a batch, a wrong version, a bad id", async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      ["{not json", -32700, /Parse error/],
      [[request("ping")], -32600, /batches are not supported/],
      [{ jsonrpc: "1.0", id: 1, method: "ping" }, -32600, /jsonrpc must be "2.0"/],
      [{ jsonrpc: "2.0", id: { n: 1 }, method: "ping" }, -32600, /id must be a string or an integer/],
      [{ jsonrpc: "2.0", id: 1, method: "ping", params: [1] }, -32600, /params must be an object/],
      [{ jsonrpc: "2.0", id: 1 }, -32600, /needs a method/],
    ];
    for (const [body, code, message] of cases) {
      const reply = await post(body, versioned);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json, JSON.stringify(body)).toEqual({ jsonrpc: "2.0", id: null, error: { code, message: expect.stringMatching(message) } });
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
    expect(reply.json).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringMatching(/origin https:\/\/evil\.example are not allowed/) } });
  });

  it("needs a verified token, checked by the gateway as for every tool route, but no route scope", async () => {
    const anonymous = await post(request("ping"), { ...versioned, authorization: undefined });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json?.error.code).toBe("UNAUTHENTICATED");
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);

    const readOnly = await signDevToken(principalClaims({ customer: "C-1001" }, "orders:read"));
    expect((await post(request("ping"), { ...versioned, authorization: `Bearer ${readOnly}` })).json).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("offers no stream: GET is 405 with Allow: POST", async () => {
    const response = await fetch(`${gateway.url}/v1/mcp`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    await response.body?.cancel();
  });
});
