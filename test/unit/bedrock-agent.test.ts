import { describe, expect, it } from "vitest";
import { operationId as operationIdSchema } from "#contract/fields";
import { tools } from "#contract/tools";
import {
  actionGroupTools,
  type BedrockAgentEvent,
  derivedOperationId,
  sessionClaims,
  turnIdAttribute,
  typedValue,
} from "#service/bedrock-agent";
import { UnauthenticatedError } from "#core/errors";

/** What the action-group function derives from an event on its own: the operationId, typed values, the claims. */

const base: Pick<BedrockAgentEvent, "agent" | "sessionId" | "inputText" | "promptSessionAttributes"> = {
  agent: { name: "orders-agent", id: "AGENT12345", alias: "TSTALIASID", version: "1" },
  sessionId: "session-1",
  inputText: "Please cancel SU-10001",
  promptSessionAttributes: {},
};
const args = { orderId: "SU-10001", reason: "Changed my mind" };

describe("the derived operationId", () => {
  it("is a valid contract §4 operationId, the same for the same call whatever the order of its arguments", () => {
    const id = derivedOperationId(base, "cancel_order", args);
    expect(operationIdSchema.safeParse(id).success).toBe(true);
    expect(id).toMatch(/^bedrock:[A-Za-z0-9_-]{43}$/);
    expect(derivedOperationId(structuredClone(base), "cancel_order", { reason: "Changed my mind", orderId: "SU-10001" })).toBe(id);
  });

  it("differs when anything that makes it another change differs: agent, session, turn, tool or arguments", () => {
    const id = derivedOperationId(base, "cancel_order", args);
    const variants = [
      derivedOperationId({ ...base, agent: { ...base.agent, id: "AGENT99999" } }, "cancel_order", args),
      derivedOperationId({ ...base, sessionId: "session-2" }, "cancel_order", args),
      derivedOperationId({ ...base, inputText: "Cancel it" }, "cancel_order", args),
      derivedOperationId(base, "start_return", args),
      derivedOperationId(base, "cancel_order", { ...args, orderId: "SU-10002" }),
      derivedOperationId(base, "cancel_order", { ...args, expectedVersion: 2 }),
    ];
    expect(new Set([id, ...variants]).size).toBe(variants.length + 1);
  });

  it("follows the application's turn id when there is one, in place of the user's words", () => {
    const turn = (turnId: string, inputText: string) =>
      derivedOperationId({ ...base, inputText, promptSessionAttributes: { [turnIdAttribute]: turnId } }, "cancel_order", args);
    expect(turn("t-1", "yes")).toBe(turn("t-1", "yes please"));
    expect(turn("t-1", "yes")).not.toBe(turn("t-2", "yes"));
    // The agent alias and version are not part of it: a retry across an alias update is still the same change.
    expect(derivedOperationId({ ...base, agent: { ...base.agent, alias: "LIVE", version: "2" } }, "cancel_order", args)).toBe(
      derivedOperationId(base, "cancel_order", args),
    );
  });
});

describe("Bedrock's string values, typed by the tool's schema", () => {
  it("reads integers, booleans, arrays and objects in JSON and in Bedrock's own rendering", () => {
    expect(typedValue("3", { type: "integer" })).toBe(3);
    expect(typedValue("three", { type: "integer" })).toBe("three");
    expect(typedValue("true", { type: "boolean" })).toBe(true);
    expect(typedValue('["ITM-1","ITM-2"]', { type: "array", items: { type: "string" } })).toEqual(["ITM-1", "ITM-2"]);
    expect(typedValue("[ITM-1, ITM-2]", { type: "array", items: { type: "string" } })).toEqual(["ITM-1", "ITM-2"]);
    expect(typedValue("[]", { type: "array", items: { type: "string" } })).toEqual([]);
    expect(typedValue("ITM-1", { type: "array", items: { type: "string" } })).toBe("ITM-1");
    const range = { type: "object", properties: { dateField: { type: "string" }, from: { type: "string" }, to: { type: "string" } } };
    expect(typedValue("{dateField=placed, from=2026-03-01, to=2026-03-31}", range)).toEqual({
      dateField: "placed",
      from: "2026-03-01",
      to: "2026-03-31",
    });
    expect(typedValue('{"dateField":"placed","from":"2026-03-01","to":"2026-03-31"}', range)).toEqual({
      dateField: "placed",
      from: "2026-03-01",
      to: "2026-03-31",
    });
    expect(typedValue("placed in March", range)).toBe("placed in March");
    expect(typedValue("SU-10001", { type: "string" })).toBe("SU-10001");
  });
});

describe("the session's user", () => {
  it("becomes the claims a token would carry, only from the attributes the application set", () => {
    expect(
      sessionClaims({ orderToolsSub: "user-C-1001", orderToolsCustomerId: "C-1001", orderToolsScope: "orders:read orders:write" }),
    ).toEqual({
      claims: { sub: "user-C-1001", customer_id: "C-1001", scope: "orders:read orders:write" },
      scopes: ["orders:read", "orders:write"],
    });
    expect(() => sessionClaims({})).toThrow(UnauthenticatedError);
    expect(() => sessionClaims(undefined)).toThrow(/session attribute orderToolsSub/);
  });

  it("a seller's session: orderToolsSellerId becomes seller_id, and a session naming a customer too carries both (which the tool refuses)", () => {
    expect(
      sessionClaims({ orderToolsSub: "agent-ashcombe", orderToolsSellerId: "SLR-2210", orderToolsScope: "orders:read orders:write" }),
    ).toEqual({
      claims: { sub: "agent-ashcombe", seller_id: "SLR-2210", scope: "orders:read orders:write" },
      scopes: ["orders:read", "orders:write"],
    });
    expect(sessionClaims({ orderToolsSub: "x", orderToolsSellerId: "SLR-2210", orderToolsCustomerId: "C-1001" }).claims).toMatchObject({
      seller_id: "SLR-2210",
      customer_id: "C-1001",
    });
  });

  it("is offered every tool with a POST route but get_operation_status", () => {
    expect(actionGroupTools().map((t) => t.name)).toEqual(tools.filter((t) => t.name !== "get_operation_status").map((t) => t.name));
  });
});
