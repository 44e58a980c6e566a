import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeployedTool, deployedTools as tools } from "#deploy/tool-functions";
import { lambdaContext } from "#local/lambda-context";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { bedrockEventCases, eventsDir } from "#local/event-cases";
import { importHandler } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { operationKey, orderKey } from "#store/keys";
import { type BedrockAgentEvent, type BedrockAgentResponse, createBedrockAgentHandler, derivedOperationId } from "#service/bedrock-agent";
import type { HttpEvent } from "#runtime/http";
import { inProcessInvoker } from "#runtime/invoker-in-process";
import { seededLocalTables } from "#test/support/local-tables";

/**
 * The Bedrock Agents action-group events in events/, run in their order through the action-group function on
 * fresh demo data, its tools called in this process: each answers with the status and code events/README.md
 * lists, in the response format Bedrock reads, and leaves the store as the answer says.
 */

const cases = bedrockEventCases();
let deps: ReturnType<typeof localDeps>;
/** Every tool call the function made, in order. */
const calls: Array<{ tool: string; event: HttpEvent }> = [];
const adapter = createBedrockAgentHandler(
  inProcessInvoker(async (tool: DeployedTool) => {
    const handler = await importHandler(tool.entry);
    return (event, context) => {
      calls.push({ tool: tool.name, event });
      return handler(event, context);
    };
  }),
);

beforeAll(async () => {
  deps = await seededLocalTables(splitDemoFixture(demoFixture()).first);
});
afterAll(() => deps?.client.destroy());

const read = async (file: string) => JSON.parse(await readFile(join(eventsDir, file), "utf8")) as BedrockAgentEvent;
const order = async (orderId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;
const operation = async (sub: string, operationId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: operationKey(sub, operationId), ConsistentRead: true }))).Item;

async function run(file: string): Promise<{ response: BedrockAgentResponse; body: any }> {
  const response = await adapter(await read(file), lambdaContext("bedrock-agent", 20_000));
  const text = response.response.responseBody["application/json"].body;
  expect(typeof text).toBe("string");
  return { response, body: JSON.parse(text) };
}

describe("the Bedrock action-group events, through the action-group function", () => {
  it("covers every tool the action group offers, each with a success, and refusals of the session and the request", () => {
    const offered = tools.filter((t) => t.name !== "get_operation_status").map((t) => t.name);
    for (const name of offered.filter((n) => n !== "offer_replacement" && n !== "add_delivery_note")) {
      expect(
        cases.some((c) => c.tool === name && c.expect.status === 200),
        name,
      ).toBe(true);
    }
    expect(cases.map((c) => c.expect.code)).toEqual(
      expect.arrayContaining(["UNAUTHENTICATED", "INVALID_INPUT", "ORDER_NOT_FOUND", "VERSION_CONFLICT", "NOT_ELIGIBLE"]),
    );
  });

  it.each(cases.map((c) => [c.file, c] as const))("%s", async (file, c) => {
    const event = await read(file);
    const before = calls.length;
    const { response, body } = await run(file);

    // The response format Bedrock reads (agents-lambda.html): the operation echoed, the status, the body as a string.
    expect(response).toEqual({
      messageVersion: "1.0",
      response: {
        actionGroup: event.actionGroup,
        apiPath: event.apiPath,
        httpMethod: event.httpMethod,
        httpStatusCode: c.expect.status,
        responseBody: { "application/json": { body: expect.any(String) } },
      },
      sessionAttributes: event.sessionAttributes,
      promptSessionAttributes: event.promptSessionAttributes,
    });
    expect(body?.error?.code, JSON.stringify(body)).toBe(c.expect.code);
    if (c.expect.status >= 400) expect(body.error.message.length).toBeGreaterThan(20);

    const made = calls.slice(before);
    if (c.expect.code === "UNAUTHENTICATED" || c.expect.code === "INVALID_INPUT") {
      // Refused before any tool ran.
      expect(made).toEqual([]);
      return;
    }
    expect(made.map((m) => m.tool)).toEqual([c.tool]);
    const toolEvent = made[0]!.event;
    // The tool got its own route's event, with the session's user as the authorizer's claims.
    expect(toolEvent).toMatchObject({
      routeKey: `POST ${event.apiPath}`,
      requestContext: {
        authorizer: {
          jwt: { claims: { sub: event.sessionAttributes?.orderToolsSub, customer_id: event.sessionAttributes?.orderToolsCustomerId } },
        },
      },
    });
    const sent = JSON.parse(toolEvent.body ?? "{}");
    if (tools.find((t) => t.name === c.tool)?.kind === "change") {
      expect(sent.operationId).toBe(
        derivedOperationId(event, c.tool!, Object.fromEntries(Object.entries(sent).filter(([k]) => k !== "operationId"))),
      );
      expect(sent.operationId).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
    } else {
      expect(sent.operationId).toBeUndefined();
    }

    // What the store holds says the same as the answer.
    if (file === "bedrock-search_orders.valid.json") {
      expect(sent).toEqual({ orderId: "884", limit: 5 });
      expect(body.orders.map((o: { orderId: string }) => o.orderId)).toEqual(["SU-88421"]);
    }
    if (file === "bedrock-cancel_order.valid.json") {
      expect(await order("SU-10234")).toMatchObject({ status: "cancelled", version: 2 });
      expect(await operation("user-C-1001", sent.operationId)).toMatchObject({
        tool: "cancel_order",
        status: "completed",
        orderVersion: 2,
      });
      // Bedrock retrying the same invocation: the same operation, replayed; the order changes once.
      const again = await run(file);
      expect(again.response.response.httpStatusCode).toBe(200);
      expect(again.body).toEqual(body);
      expect(JSON.parse(calls.at(-1)!.event.body ?? "{}").operationId).toBe(sent.operationId);
      expect(await order("SU-10234")).toMatchObject({ status: "cancelled", version: 2 });
    }
    if (file === "bedrock-cancel_order.new-session.json") {
      expect(body.error).toMatchObject({ reason: "ALREADY_CANCELLED" });
      expect(await order("SU-10234")).toMatchObject({ status: "cancelled", version: 2 });
    }
    if (file === "bedrock-start_return.valid.json") {
      expect(sent.itemIds).toEqual(["ITM-1", "ITM-2"]);
      expect(body.return.itemIds).toEqual(["ITM-1", "ITM-2"]);
      expect((await order("SU-77310"))?.version).toBe(3);
    }
    if (file === "bedrock-add_delivery_note.stale-version.json") {
      expect(sent.expectedVersion).toBe(1);
      expect(body.error).toMatchObject({ expectedVersion: 1, currentVersion: 2 });
      expect(await order("SU-10387")).toMatchObject({ version: 2, status: "processing" });
    }
  });

  it("left SU-10387 as it was: neither the refused session nor the model's own operationId changed it", async () => {
    expect(await order("SU-10387")).toMatchObject({ status: "processing", version: 2 });
    expect(await operation("user-C-1001", "op-chosen-by-model")).toBeUndefined();
  });
});
