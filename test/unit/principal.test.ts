import { describe, expect, it } from "vitest";
import { ForbiddenError, UnauthenticatedError } from "#core/errors";
import { actorOf, admitToTool, mayAccessOrder, ownershipOf, principalFromClaims } from "#core/principal";

describe("principal from verified claims", () => {
  it("a customer_id claim makes a customer, whatever else the token says", () => {
    expect(
      principalFromClaims({ sub: "u1", customer_id: "C-1001", scope: "orders:read orders:support" }, undefined, "orders:read"),
    ).toMatchObject({ kind: "customer", customerId: "C-1001", sub: "u1" });
  });

  it("the orders:support scope makes support; scopes may come from the authorizer's list", () => {
    expect(principalFromClaims({ sub: "s7" }, ["orders:read", "orders:support"], "orders:read")).toMatchObject({
      kind: "support",
      sub: "s7",
    });
  });

  it("a missing scope is FORBIDDEN naming it; no principal is FORBIDDEN; no sub is UNAUTHENTICATED", () => {
    expect(() => principalFromClaims({ sub: "u1", customer_id: "C-1", scope: "orders:read" }, undefined, "orders:write")).toThrow(
      ForbiddenError,
    );
    expect(() => principalFromClaims({ sub: "u1", scope: "orders:read" }, undefined, "orders:read")).toThrow(/names no principal/);
    expect(() => principalFromClaims({ scope: "orders:read" }, undefined, "orders:read")).toThrow(UnauthenticatedError);
    expect(() => principalFromClaims(undefined, undefined, "orders:read")).toThrow(UnauthenticatedError);
  });

  it("a malformed customer_id is not trusted as one", () => {
    expect(() => principalFromClaims({ sub: "u1", customer_id: "C-1001 OR 1=1", scope: "orders:read" }, undefined, "orders:read")).toThrow(
      ForbiddenError,
    );
  });

  it("a customer_id claim that is present but malformed never falls through to support: 403 saying what a valid claim is", () => {
    const malformed: unknown[] = ["c-1001", "C-1001 ", "C-", "", "1001", "C-1234567890123", 1001, true, null, ["C-1001"], { id: "C-1001" }];
    for (const value of malformed) {
      const claims = { sub: "s7", customer_id: value, scope: "orders:read orders:write orders:support" };
      let thrown: unknown;
      try {
        principalFromClaims(claims, ["orders:read", "orders:support"], "orders:read");
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(value)).toBeInstanceOf(ForbiddenError);
      const body = (thrown as ForbiddenError).toJSON();
      expect(body.error, JSON.stringify(value)).toMatchObject({ code: "FORBIDDEN", retryable: false, requiredScope: "orders:read" });
      expect(body.error.message, JSON.stringify(value)).toMatch(
        /^The token's customer_id claim is .+, which is not a customer id\. A valid claim is C- followed by 1 to 12 digits, like C-1001/,
      );
    }
    expect(() =>
      principalFromClaims({ sub: "s7", customer_id: "c-1001", scope: "orders:read orders:support" }, undefined, "orders:read"),
    ).toThrow(/claim is "c-1001"/);
    expect(() =>
      principalFromClaims({ sub: "s7", customer_id: 1001, scope: "orders:read orders:support" }, undefined, "orders:read"),
    ).toThrow(/claim is the number 1001/);
  });

  it("without a customer_id claim the support scope still makes support, and a valid claim a customer", () => {
    expect(principalFromClaims({ sub: "s7", scope: "orders:read orders:support" }, undefined, "orders:read")).toMatchObject({
      kind: "support",
    });
    expect(
      principalFromClaims({ sub: "u1", customer_id: "C-123456789012", scope: "orders:read orders:support" }, undefined, "orders:read"),
    ).toMatchObject({ kind: "customer", customerId: "C-123456789012" });
  });

  it("a seller_id claim makes a seller, whatever else the token says; the support scope does not widen it", () => {
    const principal = principalFromClaims(
      { sub: "agent-1", seller_id: "SLR-2210", scope: "orders:read orders:support" },
      undefined,
      "orders:read",
    );
    expect(principal).toMatchObject({ kind: "seller", sellerId: "SLR-2210", sub: "agent-1" });
    expect(ownershipOf(principal)).toEqual({ attribute: "sellerId", value: "SLR-2210" });
    expect(actorOf(principal)).toEqual({ kind: "seller", sub: "agent-1", sellerId: "SLR-2210" });
    expect(mayAccessOrder(principal, { customerId: "C-1001", sellerId: "SLR-2210" })).toBe(true);
    expect(mayAccessOrder(principal, { customerId: "C-1001", sellerId: "SLR-22100" })).toBe(false);
  });

  it("a seller_id claim that is present but malformed never falls through to support: 403 saying what a valid claim is", () => {
    const malformed: unknown[] = [
      "slr-2210",
      "SLR-2210 ",
      "SLR-",
      "",
      "2210",
      "SLR-1234567890123",
      "C-1001",
      2210,
      false,
      null,
      ["SLR-2210"],
      { id: "SLR-2210" },
    ];
    for (const value of malformed) {
      let thrown: unknown;
      try {
        principalFromClaims(
          { sub: "s7", seller_id: value, scope: "orders:read orders:write orders:support" },
          ["orders:read", "orders:support"],
          "orders:read",
        );
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(value)).toBeInstanceOf(ForbiddenError);
      expect((thrown as ForbiddenError).toJSON().error.message, JSON.stringify(value)).toMatch(
        /^The token's seller_id claim is .+, which is not a seller id\. A valid claim is SLR- followed by 1 to 12 digits, like SLR-2210/,
      );
    }
  });

  it("a token carrying both customer_id and seller_id is refused, even when each is well formed", () => {
    for (const scope of ["orders:read", "orders:read orders:support"]) {
      expect(() =>
        principalFromClaims({ sub: "x", customer_id: "C-1001", seller_id: "SLR-2210", scope }, undefined, "orders:read"),
      ).toThrow(/both a customer_id and a seller_id claim/);
    }
    // Present counts, whatever the value: an empty seller_id beside a customer_id is still two claims.
    expect(() =>
      principalFromClaims({ sub: "x", customer_id: "C-1001", seller_id: "", scope: "orders:read" }, undefined, "orders:read"),
    ).toThrow(ForbiddenError);
  });

  it("a seller may use the reading tools, returns and replacements; cancel and delivery notes are FORBIDDEN naming who may", () => {
    const principal = principalFromClaims(
      { sub: "agent-1", seller_id: "SLR-2210", scope: "orders:read orders:write" },
      undefined,
      "orders:write",
    );
    for (const tool of ["search_orders", "get_order", "start_return", "offer_replacement", "get_operation_status"])
      expect(() => admitToTool(principal, tool)).not.toThrow();
    for (const tool of ["cancel_order", "add_delivery_note"]) {
      let thrown: unknown;
      try {
        admitToTool(principal, tool);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as ForbiddenError).toJSON().error).toMatchObject({ code: "FORBIDDEN", allowedPrincipals: ["customer", "support"] });
      expect((thrown as ForbiddenError).toJSON().error).not.toHaveProperty("requiredScope");
    }
    const customerPrincipal = principalFromClaims({ sub: "u1", customer_id: "C-1001", scope: "orders:write" }, undefined, "orders:write");
    expect(() => admitToTool(customerPrincipal, "cancel_order")).not.toThrow();
  });
});
