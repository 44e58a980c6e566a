import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalClaims, signDevToken } from "#local/dev-auth";
import type { Gateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { confirmationTtlSeconds } from "#runtime/mcp-confirmation";
import { localRequestStateKey, sealState, unavailableRequestStateKey } from "#runtime/request-state";
import { modernProtocolVersion } from "#service/mcp";
import { parseFixture } from "#store/fixture";
import { operationKey, orderKey } from "#store/keys";
import { seededLocalTables } from "#test/support/local-tables";
import { gatewayWithConfirmation } from "#test/support/mcp-gateway";
import { testFixture } from "#test/support/test-shop";

/**
 * What the MCP endpoint refuses of a confirmation, by hand-built 2026-07-28 requests (contract §2.1): a requestState
 * that was changed, has expired, is brought by another principal or for another call, an answer without its state or
 * in the wrong shape, and a language it does not speak. Each is a JSON-RPC -32602 that says what happened and what
 * to send instead, and each leaves the order and the operation records as they were. The endpoint runs with a clock
 * the test moves.
 */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
let now = new Date("2026-12-01T10:00:00Z");
let ana: string;
let ben: string;

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await gatewayWithConfirmation({ key: localRequestStateKey(Buffer.alloc(32, 7)), now: () => now });
  ana = await signDevToken(principalClaims({ customer: "C-1001" }));
  ben = await signDevToken(principalClaims({ customer: "C-2002" }));
});
afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

const form = { elicitation: { form: {} } };
let nextId = 1;

/** One tools/call on the 2026-07-28 wire, with the envelope, the headers that mirror it, and the params given. */
async function call(token: string, name: string, args: unknown, extra: Record<string, unknown> = {}, capabilities: object = form) {
  const { _meta: meta, ...rest } = extra as { _meta?: Record<string, unknown> };
  const body = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: {
      name,
      arguments: args,
      ...rest,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": modernProtocolVersion,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        ...meta,
      },
    },
  };
  const response = await fetch(`${gateway.url}/v1/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": modernProtocolVersion,
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const yes = { confirm_change: { action: "accept", content: { confirm: true } } };

/** Asks for a change and returns the question's state. */
async function asked(token: string, name: string, args: unknown): Promise<string> {
  const reply = await call(token, name, args);
  expect(reply.json.result?.resultType, JSON.stringify(reply.json)).toBe("input_required");
  return reply.json.result.requestState as string;
}

const storedOrder = async (orderId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;
const storedOperation = async (sub: string, operationId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: operationKey(sub, operationId), ConsistentRead: true }))).Item;

/** The refusal every case expects: -32602 on HTTP 200 with the request's id, the message, and which check failed. */
function expectRefused(reply: Awaited<ReturnType<typeof call>>, message: RegExp, data: Record<string, unknown>) {
  expect(reply.status).toBe(200);
  expect(reply.json).toEqual({
    jsonrpc: "2.0",
    id: expect.any(Number),
    error: { code: -32602, message: expect.stringMatching(message), data },
  });
}

describe("a question on the wire", () => {
  it("is input_required with one form elicitation and a requestState, and asking changes nothing", async () => {
    const args = { operationId: "op-wire-question-1", orderId: "SU-10001", reason: "Ordered twice" };
    const reply = await call(ana, "cancel_order", args);
    expect(reply.json.result).toEqual({
      resultType: "input_required",
      inputRequests: {
        confirm_change: {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: expect.stringMatching(/^Cancel order SU-10001\?/),
            requestedSchema: expect.objectContaining({ required: ["confirm"] }),
          },
        },
      },
      requestState: expect.stringMatching(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "order-tools", version: expect.any(String) } },
    });
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("user-C-1001", args.operationId)).toBeUndefined();
  });

  it("a retry whose answer is missing is asked again, with a new state", async () => {
    const args = { operationId: "op-wire-again-1", orderId: "SU-10001" };
    const state = await asked(ana, "cancel_order", args);
    const again = await call(ana, "cancel_order", args, { requestState: state, inputResponses: {} });
    expect(again.json.result).toMatchObject({ resultType: "input_required", inputRequests: { confirm_change: expect.any(Object) } });
    expect(again.json.result.requestState).not.toBe(state);
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("a client that declares no form elicitation (none, or only url) is never sent one: by default the change runs as before", async () => {
    for (const [capabilities, orderId] of [
      [{}, "SU-10003"],
      [{ elicitation: { url: {} } }, "SU-10002"],
    ] as const) {
      const reply = await call(ana, "cancel_order", { operationId: `op-wire-noform-${orderId}`, orderId }, {}, capabilities);
      expect(reply.json.result, JSON.stringify(capabilities)).toMatchObject({
        resultType: "complete",
        structuredContent: { status: "completed" },
      });
      expect(reply.json.result).not.toHaveProperty("inputRequests");
      expect(await storedOrder(orderId)).toMatchObject({ status: "cancelled" });
    }
  });
});

describe("a requestState that cannot be taken is refused, and nothing changes", () => {
  const args = { operationId: "op-wire-refuse-1", orderId: "SU-10001", reason: "Ordered twice" };

  it("changed in any part, or signed with another key, or not a state at all: it does not verify", async () => {
    const state = await asked(ana, "cancel_order", args);
    const [, payload, mac] = state.split(".") as [string, string, string];
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
    const otherKey = (
      await sealState(localRequestStateKey(), JSON.parse(Buffer.from(payload, "base64url").toString()) as Parameters<typeof sealState>[1], {
        now,
        ttlSeconds: 600,
      })
    ).state;
    for (const tampered of [
      `v1.${flip(payload, 5)}.${mac}`,
      `v1.${payload}.${flip(mac, 3)}`,
      `v2.${payload}.${mac}`,
      state.slice(0, -2),
      "",
      "hello",
      otherKey,
    ]) {
      const reply = await call(ana, "cancel_order", args, { requestState: tampered, inputResponses: yes });
      expectRefused(
        reply,
        /^Invalid params: requestState does not verify: it is not one this server issued, or it was changed\. Nothing was changed\. Send the tools\/call again without requestState and inputResponses/,
        {
          requestState: "tampered",
        },
      );
    }
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("user-C-1001", args.operationId)).toBeUndefined();
  });

  it("past its ten minutes it has expired, whatever the answer", async () => {
    const state = await asked(ana, "cancel_order", args);
    const asOf = now;
    now = new Date(asOf.getTime() + confirmationTtlSeconds * 1000);
    try {
      const reply = await call(ana, "cancel_order", args, { requestState: state, inputResponses: yes });
      const expiredAt = new Date(asOf.getTime() + confirmationTtlSeconds * 1000).toISOString();
      expectRefused(
        reply,
        new RegExp(
          `^Invalid params: requestState expired at ${expiredAt} \\(a question is good for 10 minutes after it is asked\\)\\. Nothing was changed`,
        ),
        {
          requestState: "expired",
        },
      );
    } finally {
      now = asOf;
    }
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("brought by another principal, it counts for nobody: a confirmation is the asked person's", async () => {
    const state = await asked(ben, "cancel_order", { operationId: "op-wire-bens-1", orderId: "SU-20001" });
    const reply = await call(
      ana,
      "cancel_order",
      { operationId: "op-wire-bens-1", orderId: "SU-20001" },
      { requestState: state, inputResponses: yes },
    );
    expectRefused(reply, /^Invalid params: requestState was issued to another signed-in principal/, { requestState: "other_principal" });
    expect(await storedOrder("SU-20001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("user-C-1001", "op-wire-bens-1")).toBeUndefined();
    expect(await storedOperation("user-C-2002", "op-wire-bens-1")).toBeUndefined();
  });

  it("brought with other arguments, another operationId or another tool, it is not this call's", async () => {
    const state = await asked(ana, "cancel_order", args);
    for (const [name, other, named] of [
      ["cancel_order", { ...args, reason: "Found it cheaper" }, "cancel_order with other arguments"],
      ["cancel_order", { ...args, operationId: "op-wire-refuse-2" }, "cancel_order with other arguments"],
      ["cancel_order", { ...args, orderId: "SU-10004" }, "cancel_order with other arguments"],
      [
        "add_delivery_note",
        { operationId: args.operationId, orderId: "SU-10001", expectedVersion: 1, deliveryNote: "Porch" },
        "cancel_order",
      ],
      ["get_order", { orderId: "SU-10001" }, "cancel_order"],
    ] as const) {
      const reply = await call(ana, name, other, { requestState: state, inputResponses: yes });
      expectRefused(
        reply,
        new RegExp(
          `^Invalid params: requestState was issued for ${named}; a retry must repeat the original call's name and arguments exactly, operationId included`,
        ),
        {
          requestState: "other_request",
        },
      );
    }
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1, deliveryNote: null });
    expect(await storedOrder("SU-10004")).toMatchObject({ status: "shipped", version: 5 });
  });

  it("an answer without its state, in the wrong shape, or a state that is not a string, is refused saying what is expected", async () => {
    const state = await asked(ana, "cancel_order", args);
    const cases: Array<[Record<string, unknown>, RegExp, Record<string, unknown>]> = [
      [
        { inputResponses: yes },
        /^Invalid params: inputResponses came without the requestState/,
        { inputResponses: "without_request_state" },
      ],
      [{ requestState: 42, inputResponses: yes }, /^Invalid params: requestState must be the string/, { requestState: "not_a_string" }],
      [
        { requestState: state, inputResponses: { confirm_change: { action: "accept", content: { confirm: "yes" } } } },
        /^Invalid params: inputResponses\.confirm_change must be the form's result: \{"action": "accept", "content": \{"confirm": true or false\}\}/,
        { inputResponses: "malformed" },
      ],
      [
        { requestState: state, inputResponses: { confirm_change: { action: "maybe" } } },
        /must be the form's result/,
        { inputResponses: "malformed" },
      ],
    ];
    for (const [extra, message, data] of cases) expectRefused(await call(ana, "cancel_order", args, extra), message, data);
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    expect(await storedOperation("user-C-1001", args.operationId)).toBeUndefined();
  });

  it("a language it has no messages for is refused naming the ones it has", async () => {
    const reply = await call(ana, "cancel_order", args, { _meta: { "order-tools/locale": "sv-SE" } });
    expectRefused(
      reply,
      /^Invalid params: params\._meta\["order-tools\/locale"\]: No messages for locale "sv-SE": use one of en, de, fr, es, it, pt, nl, pl/,
      {
        locale: "unsupported",
      },
    );
  });

  it("and the state that was asked for, brought back with a yes (beside answers it did not ask for, which it ignores), makes the change", async () => {
    const state = await asked(ana, "cancel_order", args);
    const inputResponses = { ...yes, something_else: { action: "decline" } };
    const reply = await call(ana, "cancel_order", args, { requestState: state, inputResponses, unexpected: true });
    expect(reply.json.result).toMatchObject({
      resultType: "complete",
      structuredContent: { operationId: args.operationId, status: "completed", orderVersion: 2 },
    });
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
  });
});

describe("when the question cannot be asked", () => {
  it("a key that fails (a deployment without one, or KMS failing) answers INTERNAL saying nothing was sent, and nothing changes", async () => {
    const keyless = await gatewayWithConfirmation({ key: unavailableRequestStateKey("no key here") });
    try {
      const response = await fetch(`${keyless.url}/v1/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${ana}`,
          accept: "application/json",
          "content-type": "application/json",
          "mcp-protocol-version": modernProtocolVersion,
          "mcp-method": "tools/call",
          "mcp-name": "cancel_order",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "cancel_order",
            arguments: { operationId: "op-wire-keyless-1", orderId: "SU-10005" },
            _meta: { "io.modelcontextprotocol/protocolVersion": modernProtocolVersion, "io.modelcontextprotocol/clientCapabilities": form },
          },
        }),
      });
      const { result } = (await response.json()) as { result: Record<string, any> };
      expect(result).toMatchObject({ resultType: "complete", isError: true });
      expect(JSON.parse(result.content[0].text)).toEqual({
        error: {
          code: "INTERNAL",
          message:
            "The person could not be asked to confirm this cancel_order just now, so it was not sent and nothing changed. Retry the request.",
          retryable: true,
        },
      });
      expect(await storedOrder("SU-10005")).toMatchObject({ status: "delivered", version: 3 });
      expect(await storedOperation("user-C-1001", "op-wire-keyless-1")).toBeUndefined();
    } finally {
      await keyless.close();
    }
  });
});
