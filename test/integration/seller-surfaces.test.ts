import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#core/days";
import { lambdaContext } from "#local/lambda-context";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, importHandler, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { type BedrockAgentEvent, createBedrockAgentHandler, sessionAttributeNames } from "#service/bedrock-agent";
import { inProcessInvoker } from "#runtime/invoker-in-process";
import { seededLocalTables } from "#test/support/local-tables";

/**
 * Another seller's order is not found, exactly as an order that does not exist, on every surface a seller's
 * agent reaches the tools by: the HTTP routes, MCP's tools/call, and the Bedrock action group (whose session
 * attributes stand for the token). And the refusals of tools a seller may not use read the same everywhere.
 */

const today = new Date().toISOString().slice(0, 10);

function fixture() {
  const order = (id: string, sellerId: string) => ({
    id,
    customerId: "C-1001",
    sellerId,
    status: "delivered",
    version: 2,
    placedAt: `${addDays(today, -5)}T09:00:00Z`,
    deliveredAt: `${addDays(today, -2)}T15:00:00Z`,
    currency: "GBP",
    items: [{ itemId: "ITM-1", sku: "SKU-1", title: "Oak stool", quantity: 1, unitCents: 3900, description: "Two-step stool" }],
    charges: [{ kind: "item", cents: 3900 }],
    delivery: { carrier: "Parcelline", trackingId: `PL-${id}` },
    deliveryNote: null,
    internal: {},
  });
  return parseFixture({
    sellers: [
      { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
      { id: "SLR-4400", name: "Corran Textiles", type: "marketplace", status: "active" },
    ],
    customers: [{ id: "C-1001", email: "ana@example.com", name: "Ana Costa" }],
    stock: [{ sku: "SKU-1", available: 10 }],
    pickupSlots: [{ date: addDays(today, 1), window: "08:00-12:00", capacity: 10 }],
    orders: [order("SU-51001", "SLR-2210"), order("SU-52002", "SLR-4400")],
  });
}

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
let token: string;
let op = 0;
const nextOp = () => `op-seller-surface-${Date.now().toString(36)}-${op++}`;

beforeAll(async () => {
  deps = await seededLocalTables(fixture());
  gateway = await startGateway({ port: 0 });
  token = await signDevToken(principalClaims({ seller: "SLR-2210" }));
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

/** Each order-naming tool, with the arguments that would make it act on `orderId`. */
const calls: {
  tool: string;
  args: (orderId: string, operationId: string) => Record<string, unknown>;
  bedrock: (orderId: string) => Record<string, string>;
}[] = [
  { tool: "get_order", args: (orderId) => ({ orderId }), bedrock: (orderId) => ({ orderId }) },
  { tool: "search_orders", args: (orderId) => ({ orderId }), bedrock: (orderId) => ({ orderId }) },
  {
    tool: "start_return",
    args: (orderId, operationId) => ({ operationId, orderId, itemIds: ["ITM-1"], reason: "damaged" }),
    bedrock: (orderId) => ({ orderId, itemIds: '["ITM-1"]', reason: "damaged" }),
  },
  {
    tool: "offer_replacement",
    args: (orderId, operationId) => ({ operationId, orderId, expectedVersion: 2, itemId: "ITM-1", reason: "damaged" }),
    bedrock: (orderId) => ({ orderId, expectedVersion: "2", itemId: "ITM-1", reason: "damaged" }),
  },
  { tool: "cancel_order", args: (orderId, operationId) => ({ operationId, orderId }), bedrock: (orderId) => ({ orderId }) },
  {
    tool: "add_delivery_note",
    args: (orderId, operationId) => ({ operationId, orderId, expectedVersion: 2, deliveryNote: "Leave at the gate" }),
    bedrock: (orderId) => ({ orderId, expectedVersion: "2", deliveryNote: "Leave at the gate" }),
  },
];

const normalised = (text: string, orderId: string, operationId?: string) => {
  let out = text.replaceAll(orderId, "<orderId>");
  if (operationId) out = out.replaceAll(operationId, "<operationId>");
  return out;
};

async function http(tool: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gateway.url}/v1/tools/${tool}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

async function mcp(tool: string, args: unknown): Promise<{ text: string; isError: boolean }> {
  const response = await fetch(`${gateway.url}/v1/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
  });
  const body = (await response.json()) as { result: { content: { text: string }[]; isError?: boolean } };
  return { text: body.result.content[0]?.text ?? "", isError: body.result.isError === true };
}

const bedrock = createBedrockAgentHandler(inProcessInvoker((tool) => importHandler(tool.entry)));
let sessions = 0;
async function viaBedrock(tool: string, body: Record<string, string>): Promise<{ status: number; text: string }> {
  const event: BedrockAgentEvent = {
    messageVersion: "1.0",
    agent: { name: "seller-ops", id: "AGENT54321", alias: "TSTALIASID", version: "1" },
    inputText: `Please handle this (${++sessions}).`,
    sessionId: `seller-session-${sessions}`,
    actionGroup: "order-tools",
    apiPath: `/v1/tools/${tool}`,
    httpMethod: "POST",
    parameters: [],
    requestBody: {
      content: {
        "application/json": {
          properties: Object.entries(body).map(([name, value]) => ({
            name,
            type: name === "expectedVersion" ? "integer" : name === "itemIds" ? "array" : "string",
            value,
          })),
        },
      },
    },
    sessionAttributes: {
      [sessionAttributeNames.sub]: "seller-SLR-2210",
      [sessionAttributeNames.sellerId]: "SLR-2210",
      [sessionAttributeNames.scope]: "orders:read orders:write",
    },
    promptSessionAttributes: {},
  };
  const response = await bedrock(event, lambdaContext("bedrock-agent", 20_000));
  return { status: response.response.httpStatusCode, text: response.response.responseBody["application/json"].body };
}

describe("another seller's order, on every surface", () => {
  it.each(calls.map((c) => [c.tool, c] as const))(
    "%s: over HTTP, MCP and Bedrock the other seller's order reads exactly as a nonexistent one",
    async (_tool, call) => {
      const answers: Record<string, { foreign: string; absent: string }> = {};
      const foreignOp = nextOp();
      const absentOp = nextOp();
      const viaHttp = {
        foreign: await http(call.tool, call.args("SU-52002", foreignOp)),
        absent: await http(call.tool, call.args("SU-59999", absentOp)),
      };
      expect(viaHttp.foreign.status).toBe(viaHttp.absent.status);
      answers.http = {
        foreign: normalised(viaHttp.foreign.text, "SU-52002", foreignOp),
        absent: normalised(viaHttp.absent.text, "SU-59999", absentOp),
      };

      const mcpForeignOp = nextOp();
      const mcpAbsentOp = nextOp();
      const viaMcp = {
        foreign: await mcp(call.tool, call.args("SU-52002", mcpForeignOp)),
        absent: await mcp(call.tool, call.args("SU-59999", mcpAbsentOp)),
      };
      expect(viaMcp.foreign.isError).toBe(viaMcp.absent.isError);
      answers.mcp = {
        foreign: normalised(viaMcp.foreign.text, "SU-52002", mcpForeignOp),
        absent: normalised(viaMcp.absent.text, "SU-59999", mcpAbsentOp),
      };

      const viaAgent = {
        foreign: await viaBedrock(call.tool, call.bedrock("SU-52002")),
        absent: await viaBedrock(call.tool, call.bedrock("SU-59999")),
      };
      expect(viaAgent.foreign.status).toBe(viaAgent.absent.status);
      const opOf = (text: string) => (JSON.parse(text) as { operationId?: string }).operationId;
      answers.bedrock = {
        foreign: normalised(viaAgent.foreign.text, "SU-52002", opOf(viaAgent.foreign.text)),
        absent: normalised(viaAgent.absent.text, "SU-59999", opOf(viaAgent.absent.text)),
      };

      for (const [surface, { foreign, absent }] of Object.entries(answers)) expect(foreign, surface).toBe(absent);
      // The three surfaces tell the same thing (the operationId aside, which each makes its own way).
      expect(answers.mcp.foreign).toBe(answers.http.foreign);
      expect(answers.bedrock.foreign).toBe(answers.http.foreign);

      const expected =
        call.tool === "search_orders"
          ? { orders: [], truncated: false }
          : call.tool === "cancel_order" || call.tool === "add_delivery_note"
            ? { error: { code: "FORBIDDEN" } }
            : { error: { code: "ORDER_NOT_FOUND" } };
      expect(JSON.parse(answers.http.foreign)).toMatchObject(expected);
    },
  );

  it("its own order answers on every surface, so the sameness above is not everything refused alike", async () => {
    expect((await http("get_order", { orderId: "SU-51001" })).status).toBe(200);
    expect((await mcp("get_order", { orderId: "SU-51001" })).isError).toBe(false);
    const viaAgent = await viaBedrock("start_return", { orderId: "SU-51001", itemIds: '["ITM-1"]', reason: "damaged" });
    expect(viaAgent.status).toBe(200);
    expect(JSON.parse(viaAgent.text)).toMatchObject({ status: "completed", orderId: "SU-51001" });
  });

  it("a Bedrock session naming both a customer and a seller is refused before any tool runs", async () => {
    const event = {
      messageVersion: "1.0",
      agent: { name: "seller-ops", id: "AGENT54321", alias: "TSTALIASID", version: "1" },
      inputText: "Read it",
      sessionId: "both",
      actionGroup: "order-tools",
      apiPath: "/v1/tools/get_order",
      httpMethod: "POST",
      parameters: [],
      requestBody: { content: { "application/json": { properties: [{ name: "orderId", type: "string", value: "SU-51001" }] } } },
      sessionAttributes: {
        orderToolsSub: "x",
        orderToolsSellerId: "SLR-2210",
        orderToolsCustomerId: "C-1001",
        orderToolsScope: "orders:read",
      },
      promptSessionAttributes: {},
    } satisfies BedrockAgentEvent;
    const response = await bedrock(event, lambdaContext("bedrock-agent", 20_000));
    expect(response.response.httpStatusCode).toBe(403);
    expect(response.response.responseBody["application/json"].body).toMatch(/both a customer_id and a seller_id claim/);
  });
});
