import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DeployedTool } from "#deploy/tool-functions";
import { lambdaContext } from "#local/lambda-context";
import {
  type BedrockAgentEvent,
  type BedrockAgentResponse,
  createBedrockAgentHandler,
  handler as deployedHandler,
  derivedOperationId,
  sessionAttributeNames,
  turnIdAttribute,
} from "#service/bedrock-agent";
import type { ToolHandler } from "#runtime/handler";
import { inProcessInvoker } from "#runtime/invoker-in-process";
import { type Invocation, startLocalLambdaApi } from "#test/support/local-lambda-api";
import { type Caller, customer, newWorld, support, type World } from "#test/support/world";

/**
 * The Bedrock Agents action-group function against DynamoDB Local: who the session is, how Bedrock's string
 * values become the tool's arguments, the derived operationId and what it makes of Bedrock's retries, the
 * reconciliation of an outcome it did not see, and the deployed function invoking each tool's own Lambda.
 */

let world: World;
let lambdaApi: Awaited<ReturnType<typeof startLocalLambdaApi>>;
let handlers: Map<string, ToolHandler>;
let invocations: Invocation[];

beforeAll(async () => {
  world = await newWorld();
  lambdaApi = await startLocalLambdaApi(world.deps);
  ({ handlers, invocations } = lambdaApi);
});

afterAll(() => lambdaApi?.close());

beforeEach(() => {
  invocations.length = 0;
});

/** The session attributes an application sets for its signed-in user. */
function sessionOf(caller: Caller): Record<string, string> {
  return {
    [sessionAttributeNames.sub]: caller.claims.sub!,
    ...(caller.claims.customer_id ? { [sessionAttributeNames.customerId]: caller.claims.customer_id } : {}),
    [sessionAttributeNames.scope]: caller.claims.scope!,
  };
}

let sessions = 0;
/** An action-group event for `tool` with these body properties (as strings, the way Bedrock sends them). */
function bedrockEvent(
  tool: string,
  body: Record<string, string>,
  options: { caller?: Caller; sessionId?: string; inputText?: string; turnId?: string; types?: Record<string, string> } = {},
): BedrockAgentEvent {
  return {
    messageVersion: "1.0",
    agent: { name: "orders-agent", id: "AGENT12345", alias: "TSTALIASID", version: "1" },
    inputText: options.inputText ?? "Please do this for me.",
    sessionId: options.sessionId ?? `session-${++sessions}`,
    actionGroup: "order-tools",
    apiPath: `/v1/tools/${tool}`,
    httpMethod: "POST",
    parameters: [],
    requestBody: {
      content: {
        "application/json": {
          properties: Object.entries(body).map(([name, value]) => ({ name, type: options.types?.[name] ?? "string", value })),
        },
      },
    },
    sessionAttributes: options.caller ? sessionOf(options.caller) : {},
    promptSessionAttributes: options.turnId ? { [turnIdAttribute]: options.turnId } : {},
  };
}

async function send(
  event: BedrockAgentEvent,
  handler = deployedHandler,
): Promise<{ status: number; body: any; response: BedrockAgentResponse }> {
  const response = await handler(event, lambdaContext("bedrock-agent", 20_000));
  return { status: response.response.httpStatusCode, body: JSON.parse(response.response.responseBody["application/json"].body), response };
}

const ana = customer("C-1001");
const ben = customer("C-2002");

describe("the deployed action-group function", () => {
  it("invokes the tool's own function with its route's event, the session's user as the claims and a derived operationId, and answers as Bedrock reads it", async () => {
    const event = bedrockEvent(
      "add_delivery_note",
      { orderId: "SU-10002", expectedVersion: "4", deliveryNote: "Back door, please." },
      { caller: ana, types: { expectedVersion: "integer" } },
    );
    const { status, body, response } = await send(event);

    const operationId = derivedOperationId(event, "add_delivery_note", {
      orderId: "SU-10002",
      expectedVersion: 4,
      deliveryNote: "Back door, please.",
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      operationId,
      status: "completed",
      orderId: "SU-10002",
      orderVersion: 5,
      deliveryNote: { origin: "customer", text: "Back door, please." },
    });
    expect(response.response).toMatchObject({ actionGroup: "order-tools", apiPath: "/v1/tools/add_delivery_note", httpMethod: "POST" });
    expect(await world.order("SU-10002")).toMatchObject({ version: 5, deliveryNote: "Back door, please." });
    expect(await world.operation(ana, operationId)).toMatchObject({ tool: "add_delivery_note", status: "completed", orderVersion: 5 });

    expect(invocations.map((i) => i.functionName)).toEqual(["fn-add_delivery_note"]);
    expect(invocations[0]!.event).toMatchObject({
      routeKey: "POST /v1/tools/add_delivery_note",
      body: JSON.stringify({ orderId: "SU-10002", expectedVersion: 4, deliveryNote: "Back door, please.", operationId }),
      headers: { "x-order-tools-via": "bedrock-agent" },
      requestContext: {
        authorizer: {
          jwt: {
            claims: { sub: "user-C-1001", customer_id: "C-1001", scope: "orders:read orders:write" },
            scopes: ["orders:read", "orders:write"],
          },
        },
      },
    });
  });

  it("replays Bedrock's retry of an invocation: the same event is the same operation, applied once", async () => {
    const event = bedrockEvent(
      "cancel_order",
      { orderId: "SU-10001", reason: "Changed my mind" },
      { caller: ana, inputText: "Cancel SU-10001 please" },
    );
    const first = await send(event);
    const retry = await send(structuredClone(event));
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await world.order("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
    expect((await world.order("SU-10001"))!.activity).toHaveLength(1);
    const bodies = invocations.map((i) => JSON.parse(i.event.body ?? "{}").operationId);
    expect(bodies).toEqual([first.body.operationId, first.body.operationId]);
  });

  it("treats a new turn or another session as a new operation, which the order's state then decides", async () => {
    const words = { orderId: "SU-10005", itemId: "ITM-1", reason: "damaged", expectedVersion: "3" };
    const types = { expectedVersion: "integer" };
    const first = await send(
      bedrockEvent("offer_replacement", words, { caller: ana, sessionId: "session-turns", turnId: "turn-1", types }),
    );
    const sameTurn = await send(
      bedrockEvent("offer_replacement", words, { caller: ana, sessionId: "session-turns", turnId: "turn-1", types }),
    );
    const nextTurn = await send(
      bedrockEvent("offer_replacement", words, { caller: ana, sessionId: "session-turns", turnId: "turn-2", types }),
    );
    expect(first.status).toBe(200);
    expect(sameTurn.body).toEqual(first.body);
    // Another operation, which the order's state refuses: the item has been replaced already; nothing changes.
    expect(nextTurn.status).toBe(409);
    expect(nextTurn.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_REPLACED" });
    expect(nextTurn.body.operationId).not.toBe(first.body.operationId);
    expect(await world.order("SU-10005")).toMatchObject({ version: 4 });
  });

  it("takes who is calling only from the session: another customer's order is not found, a missing scope is refused before anything runs", async () => {
    const other = await send(bedrockEvent("get_order", { orderId: "SU-20001" }, { caller: ana }));
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: "ORDER_NOT_FOUND" });

    // A model that writes a customer id into the request gains nothing: it is an unknown argument.
    const claimed = await send(bedrockEvent("get_order", { orderId: "SU-20001", customerId: "C-2002" }, { caller: ana }));
    expect(claimed.status).toBe(400);
    expect(claimed.body.error.issues[0].message).toMatch(/unknown field 'customerId'/);

    invocations.length = 0;
    const reader = customer("C-2002", "orders:read");
    const refused = await send(bedrockEvent("cancel_order", { orderId: "SU-20001" }, { caller: reader }));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", requiredScope: "orders:write" });
    expect(invocations).toEqual([]);
    expect(await world.order("SU-20001")).toMatchObject({ status: "placed", version: 1 });

    const staff = await send(bedrockEvent("get_order", { orderId: "SU-20001" }, { caller: support("S-7") }));
    expect(staff.status).toBe(200);
    expect(staff.body.orderId).toBe("SU-20001");
  });

  it("reads Bedrock's strings as the schema's types, and leaves what does not read to the tool's own message", async () => {
    const search = await send(
      bedrockEvent(
        "search_orders",
        { dateRange: "{dateField=placed, from=2026-11-19, to=2026-11-21}", limit: "2" },
        { caller: ben, types: { dateRange: "object", limit: "integer" } },
      ),
    );
    expect(search.status).toBe(200);
    expect(JSON.parse(invocations.at(-1)!.event.body ?? "{}")).toEqual({
      dateRange: { dateField: "placed", from: "2026-11-19", to: "2026-11-21" },
      limit: 2,
    });
    expect(search.body.orders.map((o: { orderId: string }) => o.orderId)).toEqual(["SU-20001"]);

    const asJson = await send(
      bedrockEvent("search_orders", { dateRange: '{"dateField": "placed", "from": "2026-11-19", "to": "2026-11-21"}' }, { caller: ben }),
    );
    expect(asJson.body.orders).toHaveLength(1);

    const words = await send(
      bedrockEvent("add_delivery_note", { orderId: "SU-20001", expectedVersion: "one", deliveryNote: "Side gate" }, { caller: ben }),
    );
    expect(words.status).toBe(400);
    expect(words.body.error.issues).toEqual([{ path: "expectedVersion", message: expect.stringMatching(/whole number ≥ 1.*get_order/) }]);
    expect(await world.order("SU-20001")).toMatchObject({ version: 1 });
  });

  it("refuses an event it cannot read, naming what would be right, and invokes nothing", async () => {
    const wrongVersion = await send({ ...bedrockEvent("get_order", { orderId: "SU-10001" }, { caller: ana }), messageVersion: "2.0" });
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.body.error.issues[0]).toMatchObject({ path: "messageVersion" });

    const status = await send(bedrockEvent("get_operation_status", { operationId: "op-12345678" }, { caller: ana }));
    expect(status.status).toBe(400);
    expect(status.body.error.message).toMatch(/no operation POST \/v1\/tools\/get_operation_status.*POST \/v1\/tools\/search_orders/);

    const twice = bedrockEvent("get_order", { orderId: "SU-10001" }, { caller: ana });
    twice.parameters = [{ name: "orderId", type: "string", value: "SU-10002" }];
    const duplicate = await send(twice);
    expect(duplicate.body.error.issues).toEqual([{ path: "orderId", message: expect.stringMatching(/given twice/) }]);
    expect(invocations).toEqual([]);
  });
});

describe("an outcome the function did not see", () => {
  /** Runs each tool in this process; `lose` makes the named tool's response never arrive, after it ran. */
  function adapterLosing(lose: { tool: string; times: number; before?: boolean }) {
    let left = lose.times;
    const ran: string[] = [];
    const handler = createBedrockAgentHandler(
      inProcessInvoker((tool: DeployedTool) => async (event, context) => {
        ran.push(tool.name);
        if (tool.name === lose.tool && left > 0) {
          left -= 1;
          if (lose.before) throw new Error("connection reset before the function ran");
          await handlers.get(tool.name)!(event, context);
          throw new Error("response lost after the function ran");
        }
        return handlers.get(tool.name)!(event, context);
      }),
    );
    return { handler, ran };
  }

  it("asks get_operation_status with the derived id and answers with the recorded result, as the original would have", async () => {
    const { handler, ran } = adapterLosing({ tool: "start_return", times: 1 });
    const event = bedrockEvent("start_return", { orderId: "SU-10005", itemIds: '["ITM-1"]', reason: "no_longer_needed" }, { caller: ben });
    // SU-10005 is Ana's; Ben's session finds nothing and that rejection is recorded: the lookup returns it.
    const rejected = await send(event, handler);
    expect(rejected.status).toBe(404);
    expect(rejected.body).toMatchObject({ error: { code: "ORDER_NOT_FOUND" }, status: "rejected", orderId: "SU-10005" });
    expect(ran).toEqual(["start_return", "get_operation_status"]);

    const anaLosing = adapterLosing({ tool: "cancel_order", times: 1 });
    const cancel = bedrockEvent("cancel_order", { orderId: "SU-10002" }, { caller: ana });
    const completed = await send(cancel, anaLosing.handler);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      status: "completed",
      orderId: "SU-10002",
      orderStatus: "cancelled",
      operationId: derivedOperationId(cancel, "cancel_order", { orderId: "SU-10002" }),
    });
    expect(await world.order("SU-10002")).toMatchObject({ status: "cancelled" });
  });

  it("when nothing was recorded, says the outcome is not known yet and that repeating the request is safe; the repeat applies it once", async () => {
    const { handler, ran } = adapterLosing({ tool: "cancel_order", times: 1, before: true });
    const event = bedrockEvent("cancel_order", { orderId: "SU-20001" }, { caller: ben, inputText: "cancel it" });
    const unknown = await send(event, handler);
    expect(unknown.status).toBe(500);
    expect(unknown.body.error).toMatchObject({
      code: "INTERNAL",
      message: expect.stringMatching(/not known yet.*Repeating the identical request.*at most once/),
    });
    expect(unknown.body.error.message).not.toMatch(/get_operation_status/);
    expect(await world.order("SU-20001")).toMatchObject({ status: "placed", version: 1 });

    const repeated = await send(event, handler);
    expect(repeated.status).toBe(200);
    expect(await world.order("SU-20001")).toMatchObject({ status: "cancelled", version: 2 });
    expect(ran).toEqual(["cancel_order", "get_operation_status", "cancel_order"]);
  });
});
