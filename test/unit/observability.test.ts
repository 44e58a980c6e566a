import { describe, expect, it } from "vitest";
import { RateLimitedError } from "#core/errors";
import { jsonResponse } from "#runtime/http";
import { factsOf, principalHash } from "#runtime/observability";

describe("the facts a call's metrics are made from", () => {
  it("a status lookup is counted by its answer, a not_found included; a refused lookup has no answer", () => {
    expect(
      factsOf(
        "get_operation_status",
        false,
        jsonResponse(200, { operationId: "op-12345678", status: "pending", tool: "cancel_order", retryAfterSeconds: 2 }),
      ),
    ).toEqual({ outcome: "ok", replayed: false, answer: "pending" });
    expect(
      factsOf(
        "get_operation_status",
        false,
        jsonResponse(404, { operationId: "op-12345678", status: "not_found", error: { code: "OPERATION_NOT_FOUND" } }),
      ),
    ).toEqual({ outcome: "OPERATION_NOT_FOUND", replayed: false, answer: "not_found" });
    expect(factsOf("get_operation_status", false, jsonResponse(401, { error: { code: "UNAUTHENTICATED" } }))).toEqual({
      outcome: "UNAUTHENTICATED",
      replayed: false,
    });
  });

  it("a refusal by a per-caller limit names which limit, and only in the metric", () => {
    const error = new RateLimitedError("Wait.", { retryAfterSeconds: 3 }, "support_hourly_cap");
    const result = jsonResponse(429, error.toJSON());
    expect(factsOf("cancel_order", true, result, error)).toEqual({ outcome: "RATE_LIMITED", replayed: false, limit: "support_hourly_cap" });
    expect(result.body).not.toContain("support_hourly_cap");
  });

  it("a replayed change keeps its original outcome and is flagged", () => {
    const result = jsonResponse(
      200,
      { operationId: "op-12345678", status: "completed", orderId: "SU-10001", orderVersion: 2 },
      { "idempotent-replayed": "true" },
    );
    expect(factsOf("cancel_order", true, result)).toEqual({ outcome: "completed", replayed: true });
  });

  it("a read's success is ok, whatever its result says: an order's status is not an outcome", () => {
    const result = jsonResponse(200, { orderId: "SU-10001", status: "placed", version: 1 });
    expect(factsOf("get_order", false, result)).toEqual({ outcome: "ok", replayed: false });
    expect(factsOf("get_order", false, jsonResponse(404, { error: { code: "ORDER_NOT_FOUND", orderId: "SU-10001" } }))).toEqual({
      outcome: "ORDER_NOT_FOUND",
      replayed: false,
    });
  });

  it("the principal's log name is stable and is not the sub", () => {
    expect(principalHash("user-C-1001")).toBe(principalHash("user-C-1001"));
    expect(principalHash("user-C-1001")).not.toBe(principalHash("user-C-1002"));
    expect(principalHash("user-C-1001")).not.toContain("C-1001");
  });
});
