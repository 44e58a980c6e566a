import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * Which channel of an MCP tool result carries what, pinned per protocol era through the official clients of both
 * SDK generations (contract §2.1): clients read them differently — some show a model only `structuredContent` on
 * success, others only the text on an error, and a strict client refuses an error whose `structuredContent` fails
 * the output schema. A success carries the tool's body twice, as `structuredContent` and as the one text content;
 * a refusal carries `isError` and the tool's error body, code and message, as the one text content, and no
 * `structuredContent`. Each result is checked both as the client hands it over and as it crossed the wire.
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

type CallResult = Record<string, unknown>;

/** One connected client: its negotiated revision, a tools/call, and the results exactly as they came over HTTP. */
interface Connected {
  version: string | undefined;
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  /** The JSON-RPC `result` of each tools/call, as the server sent it. */
  wire: CallResult[];
  close(): Promise<void>;
}

/** A fetch that keeps the result of every tools/call response it carries, JSON or one SSE event. */
function recordingFetch(wire: CallResult[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const sent = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : undefined;
    if (sent?.method === "tools/call") {
      const text = await response.clone().text();
      const json = text.startsWith("event:") ? text.slice(text.indexOf("data: ") + 6).trim() : text;
      wire.push((JSON.parse(json) as { result: CallResult }).result);
    }
    return response;
  };
}

const headers = () => ({ authorization: `Bearer ${token}` });

async function viaSdk1(): Promise<Connected> {
  const wire: CallResult[] = [];
  const client = new ClientV1({ name: "order-tools-channels", version: "1.0.0" });
  const transport = new TransportV1(new URL(`${gateway.url}/v1/mcp`), { requestInit: { headers: headers() }, fetch: recordingFetch(wire) });
  await client.connect(transport);
  await client.listTools();
  return {
    version: transport.protocolVersion,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
    wire,
    close: () => client.close(),
  };
}

async function viaSdk2(negotiation: "pin-2026-07-28" | "legacy" | "legacy-2025-06-18"): Promise<Connected> {
  const wire: CallResult[] = [];
  const client = new ClientV2(
    { name: "order-tools-channels", version: "2.0.0" },
    negotiation === "pin-2026-07-28"
      ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
      : negotiation === "legacy-2025-06-18"
        ? { supportedProtocolVersions: ["2025-06-18"] }
        : {},
  );
  const transport = new TransportV2(new URL(`${gateway.url}/v1/mcp`), { requestInit: { headers: headers() }, fetch: recordingFetch(wire) });
  await client.connect(transport);
  await client.listTools();
  return {
    version: client.getNegotiatedProtocolVersion(),
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
    wire,
    close: () => client.close(),
  };
}

async function route(name: string, args: Record<string, unknown>) {
  const response = await fetch(`${gateway.url}/v1/tools/${name}`, {
    method: "POST",
    headers: { ...headers(), "content-type": "application/json" },
    body: JSON.stringify(args),
  });
  return { status: response.status, text: await response.text() };
}

/** The one text content of a result. */
function onlyText(result: CallResult): string {
  expect(result.content).toEqual([{ type: "text", text: expect.any(String) }]);
  return (result.content as Array<{ text: string }>)[0]!.text;
}

describe.each([
  { sdk: "@modelcontextprotocol/sdk 1.x", era: "2025-11-25", connect: () => viaSdk1() },
  { sdk: "@modelcontextprotocol/client 2.x", era: "2026-07-28", connect: () => viaSdk2("pin-2026-07-28") },
  { sdk: "@modelcontextprotocol/client 2.x", era: "2025-11-25", connect: () => viaSdk2("legacy") },
  { sdk: "@modelcontextprotocol/client 2.x", era: "2025-06-18", connect: () => viaSdk2("legacy-2025-06-18") },
])("MCP result channels through $sdk at $era", ({ sdk, era, connect }) => {
  let client: Connected;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client?.close());

  it("negotiates that revision", () => {
    expect(client.version).toBe(era);
  });

  it("a success carries the tool's body as structuredContent and as its one text content, and no isError", async () => {
    for (const [name, args] of [
      ["get_order", { orderId: "SU-10005" }],
      ["search_orders", { email: "ana@example.com", limit: 3 }],
    ] as const) {
      client.wire.length = 0;
      const result = await client.call(name, args);
      const http = await route(name, args);
      expect(http.status, name).toBe(200);
      for (const seen of [result, client.wire[0] as CallResult]) {
        expect(onlyText(seen), name).toBe(http.text);
        expect(seen.structuredContent, name).toEqual(JSON.parse(http.text));
        expect(seen.isError ?? false, name).toBe(false);
      }
      expect(client.wire[0], name).not.toHaveProperty("isError");
    }
  });

  it("a refusal is isError with the code and message in its one text content, and no structuredContent", async () => {
    const operationId = `op-channels-${sdk.includes("2.x") ? "v2" : "v1"}-${era}`;
    for (const [name, args, code, status] of [
      ["get_order", { orderId: "SU-99999" }, "ORDER_NOT_FOUND", 404],
      ["get_order", { orderId: "8842" }, "INVALID_INPUT", 400],
      ["cancel_order", { operationId, orderId: "SU-10004" }, "NOT_ELIGIBLE", 409],
    ] as const) {
      client.wire.length = 0;
      const result = await client.call(name, args);
      // The route's answer to the same call: for the change, its replay, byte for byte the recorded rejection.
      const http = await route(name, args);
      expect(http.status, code).toBe(status);
      for (const seen of [result, client.wire[0] as CallResult]) {
        expect(seen.isError, code).toBe(true);
        expect(seen, code).not.toHaveProperty("structuredContent");
        const text = onlyText(seen);
        expect(text, code).toBe(http.text);
        const { error } = JSON.parse(text) as { error: { code: string; message: string } };
        expect(error.code, code).toBe(code);
        expect(error.message.length, code).toBeGreaterThan(20);
      }
    }
  });
});
