import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { orderContentKey, orderKey } from "#store/keys";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * The published get_order schema is true of the stored data (contract §5): the order system owns its carriers and
 * charge kinds, so an order stored with a carrier and a charge kind outside today's sets is answered as it is, and
 * the official MCP clients, which validate structured output against the published schema, take the answer.
 */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
let token: string;
const orderId = "SU-10005";
const carrier = "Blue Heron Freight";
const trackingId = "bh/77 12 Ä";

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  // As the order system writes it when the shop adds a carrier and a charge: past the seeder, which stays strict.
  await deps.doc.send(
    new UpdateCommand({
      TableName: deps.tables.orders,
      Key: orderKey(orderId),
      UpdateExpression: "SET delivery.carrier = :carrier, delivery.trackingId = :trackingId",
      ExpressionAttributeValues: { ":carrier": carrier, ":trackingId": trackingId },
    }),
  );
  const content = await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderContentKey(orderId) }));
  const charges = [...((content.Item?.charges ?? []) as { kind: string; cents: number }[]), { kind: "gift_wrap", cents: 250 }];
  await deps.doc.send(
    new UpdateCommand({
      TableName: deps.tables.orders,
      Key: orderContentKey(orderId),
      UpdateExpression: "SET charges = :charges",
      ExpressionAttributeValues: { ":charges": charges },
    }),
  );
  gateway = await startGateway({ port: 0 });
  token = await signDevToken(principalClaims({ customer: "C-1001" }));
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

const url = () => new URL(`${gateway.url}/v1/mcp`);
const requestInit = () => ({ headers: { authorization: `Bearer ${token}` } });

describe("get_order over MCP on an order whose stored carrier and charge kind are outside today's sets", () => {
  it("validates and is answered through @modelcontextprotocol/client (2026-07-28)", async () => {
    const client = new ClientV2({ name: "stored-values", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new TransportV2(url(), { requestInit: requestInit() }));
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "get_order")?.outputSchema as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(schema.properties.delivery?.properties?.carrier).not.toHaveProperty("enum");
    const result = (await client.callTool({ name: "get_order", arguments: { orderId } })) as Record<string, unknown>;
    await client.close();
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as { delivery: { carrier: string; trackingId: string }; charges: { kind: string }[] };
    expect(body.delivery.carrier).toBe(carrier);
    expect(body.delivery.trackingId).toBe(trackingId);
    expect(body.charges.map((c) => c.kind)).toContain("gift_wrap");
  });

  it("validates and is answered through @modelcontextprotocol/sdk 1.x", async () => {
    const client = new ClientV1({ name: "stored-values", version: "1.0.0" });
    await client.connect(new TransportV1(url(), { requestInit: requestInit() }));
    await client.listTools();
    const result = (await client.callTool({ name: "get_order", arguments: { orderId } })) as Record<string, unknown>;
    await client.close();
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { delivery: { carrier: string } }).delivery.carrier).toBe(carrier);
  });
});
