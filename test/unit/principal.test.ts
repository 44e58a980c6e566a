import { describe, expect, it } from "vitest";
import { ForbiddenError, UnauthenticatedError } from "#core/errors";
import { principalFromClaims } from "#core/principal";

describe("principal from verified claims", () => {
  it("a customer_id claim makes a customer, whatever else the token says", () => {
    expect(principalFromClaims({ sub: "u1", customer_id: "C-1001", scope: "orders:read orders:support" }, undefined, "orders:read")).toMatchObject({ kind: "customer", customerId: "C-1001", sub: "u1" });
  });

  it("the orders:support scope makes support; scopes may come from the authorizer's list", () => {
    expect(principalFromClaims({ sub: "s7" }, ["orders:read", "orders:support"], "orders:read")).toMatchObject({ kind: "support", sub: "s7" });
  });

  it("a missing scope is FORBIDDEN naming it; no principal is FORBIDDEN; no sub is UNAUTHENTICATED", () => {
    expect(() => principalFromClaims({ sub: "u1", customer_id: "C-1", scope: "orders:read" }, undefined, "orders:write")).toThrow(ForbiddenError);
    expect(() => principalFromClaims({ sub: "u1", scope: "orders:read" }, undefined, "orders:read")).toThrow(/names no principal/);
    expect(() => principalFromClaims({ scope: "orders:read" }, undefined, "orders:read")).toThrow(UnauthenticatedError);
    expect(() => principalFromClaims(undefined, undefined, "orders:read")).toThrow(UnauthenticatedError);
  });

  it("a malformed customer_id is not trusted as one", () => {
    expect(() => principalFromClaims({ sub: "u1", customer_id: "C-1001 OR 1=1", scope: "orders:read" }, undefined, "orders:read")).toThrow(ForbiddenError);
  });
});
