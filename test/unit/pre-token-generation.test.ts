import type { PreTokenGenerationV2TriggerEvent, PreTokenGenerationV3TriggerEvent } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { handler, tokenOverrides, userPoolEnv } from "../../functions/service/pre-token-generation";

type Source = PreTokenGenerationV2TriggerEvent["triggerSource"] | PreTokenGenerationV3TriggerEvent["triggerSource"];

function tokenEvent(options: {
  source?: Source;
  customerId?: string;
  sellerId?: string;
  groups?: string[];
  scopes?: string[];
}): PreTokenGenerationV2TriggerEvent {
  return {
    version: "3",
    region: "eu-west-1",
    userPoolId: "eu-west-1_example",
    triggerSource: (options.source ?? "TokenGeneration_Authentication") as PreTokenGenerationV2TriggerEvent["triggerSource"],
    userName: "user",
    callerContext: { awsSdkVersion: "aws-sdk-unknown-unknown", clientId: "client" },
    request: {
      userAttributes: {
        sub: "0f1e",
        email: "ana@example.com",
        ...(options.customerId ? { "custom:customer_id": options.customerId } : {}),
        ...(options.sellerId !== undefined ? { "custom:seller_id": options.sellerId } : {}),
      },
      groupConfiguration: { groupsToOverride: options.groups ?? [], iamRolesToOverride: [] },
      scopes: options.scopes ?? ["aws.cognito.signin.user.admin"],
    },
    response: { claimsAndScopeOverrideDetails: {} },
  };
}

describe("the pre-token-generation trigger of the customers' pool", () => {
  it("gives a customer signing in through the SDK the customer_id claim and the read and write scopes, never support", () => {
    const overrides = tokenOverrides(tokenEvent({ customerId: "C-1001" }), "customers");
    expect(overrides.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { customer_id: "C-1001" },
      scopesToAdd: ["orders:read", "orders:write"],
    });
    expect(overrides.idTokenGeneration).toEqual({ claimsToAddOrOverride: { customer_id: "C-1001" } });
  });

  it("takes away orders:support from a customer who asked for it through the hosted sign-in, and respells the rest", () => {
    const overrides = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_HostedAuth", customerId: "C-1001", scopes: ["openid", "orders/read", "orders/support"] }),
      "customers",
    );
    expect(overrides.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { customer_id: "C-1001" },
      scopesToAdd: ["orders:read"],
      scopesToSuppress: ["orders/read", "orders/support"],
    });
  });

  it("grants a hosted sign-in only the orders scopes it asked for, so a token can be narrowed to reading", () => {
    const overrides = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_HostedAuth", customerId: "C-1001", scopes: ["openid"] }),
      "customers",
    );
    expect(overrides.accessTokenGeneration).toEqual({ claimsToAddOrOverride: { customer_id: "C-1001" } });
  });

  it("never issues orders:support: not to a member of a group named support, not on a refresh, not to a client", () => {
    // Someone may create a group named support here by hand; MFA is optional in this pool, so it grants nothing.
    const member = tokenOverrides(tokenEvent({ groups: ["support"] }), "customers");
    expect(member.accessTokenGeneration).toEqual({});
    const customerInGroup = tokenOverrides(tokenEvent({ customerId: "C-1001", groups: ["support"] }), "customers");
    expect(customerInGroup.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { customer_id: "C-1001" },
      scopesToAdd: ["orders:read", "orders:write"],
    });
    const refresh = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_RefreshTokens", groups: ["support"], scopes: ["orders:support"] }),
      "customers",
    );
    expect(refresh.accessTokenGeneration).toEqual({ scopesToSuppress: ["orders:support"] });
    const client = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_ClientCredentials", scopes: ["orders/read", "orders/support"] }),
      "customers",
    );
    expect(client.accessTokenGeneration).toEqual({ scopesToSuppress: ["orders/read", "orders/support"] });
  });

  it("gives a user who is not a customer no orders scope at all, so the gateway refuses every tool", () => {
    expect(tokenOverrides(tokenEvent({}), "customers").accessTokenGeneration).toEqual({});
    expect(
      tokenOverrides(tokenEvent({ source: "TokenGeneration_HostedAuth", scopes: ["openid", "orders/read", "orders/write"] }), "customers")
        .accessTokenGeneration,
    ).toEqual({ scopesToSuppress: ["orders/read", "orders/write"] });
  });

  it("keeps scopes already in the API's spelling on a refresh, without adding them twice", () => {
    const overrides = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_RefreshTokens", customerId: "C-1001", scopes: ["orders:read"] }),
      "customers",
    );
    expect(overrides.accessTokenGeneration).toEqual({ claimsToAddOrOverride: { customer_id: "C-1001" } });
  });
});

describe("the pre-token-generation trigger of the staff pool (MFA required)", () => {
  it("gives a member of the support group orders:support and no customer_id, even with the customer attribute set", () => {
    const overrides = tokenOverrides(tokenEvent({ customerId: "C-1001", groups: ["support"] }), "staff");
    expect(overrides.accessTokenGeneration).toEqual({ scopesToAdd: ["orders:read", "orders:write", "orders:support"] });
    expect(overrides.idTokenGeneration).toBeUndefined();
  });

  it("gives staff outside the support group nothing, and a customer attribute there makes no customer", () => {
    expect(tokenOverrides(tokenEvent({}), "staff").accessTokenGeneration).toEqual({});
    const withAttribute = tokenOverrides(tokenEvent({ customerId: "C-1001" }), "staff");
    expect(withAttribute).toEqual({ accessTokenGeneration: {} });
  });

  it("respells a client-credentials client's scopes and adds nothing it did not ask for", () => {
    const overrides = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_ClientCredentials", scopes: ["orders/read", "orders/support"] }),
      "staff",
    );
    expect(overrides.accessTokenGeneration).toEqual({
      scopesToAdd: ["orders:read", "orders:support"],
      scopesToSuppress: ["orders/read", "orders/support"],
    });
  });

  it("grants a hosted sign-in only the orders scopes it asked for", () => {
    const overrides = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_HostedAuth", groups: ["support"], scopes: ["openid", "orders/read", "orders/support"] }),
      "staff",
    );
    expect(overrides.accessTokenGeneration).toEqual({
      scopesToAdd: ["orders:read", "orders:support"],
      scopesToSuppress: ["orders/read", "orders/support"],
    });
  });
});

describe("the pre-token-generation trigger of the sellers' pool (MFA required)", () => {
  it("gives a seller's user the seller_id claim from its attribute and read and write, never support or customer_id", () => {
    const overrides = tokenOverrides(tokenEvent({ sellerId: "SLR-2210", customerId: "C-1001", groups: ["support"] }), "sellers");
    expect(overrides.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { seller_id: "SLR-2210" },
      scopesToAdd: ["orders:read", "orders:write"],
    });
    expect(overrides.idTokenGeneration).toEqual({ claimsToAddOrOverride: { seller_id: "SLR-2210" } });
  });

  it("takes away orders:support asked for through the hosted sign-in, and grants only the orders scopes asked for", () => {
    const overrides = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_HostedAuth", sellerId: "SLR-2210", scopes: ["openid", "orders/read", "orders/support"] }),
      "sellers",
    );
    expect(overrides.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { seller_id: "SLR-2210" },
      scopesToAdd: ["orders:read"],
      scopesToSuppress: ["orders/read", "orders/support"],
    });
  });

  it("gives a user without a well-formed seller id, and any client-credentials client, no orders scope and no claim", () => {
    expect(tokenOverrides(tokenEvent({}), "sellers")).toEqual({ accessTokenGeneration: {} });
    for (const sellerId of ["", "SLR-", "slr-2210", "2210", "SLR-2210; DROP", "SLR-1234567890123"]) {
      expect(tokenOverrides(tokenEvent({ sellerId }), "sellers"), sellerId).toEqual({ accessTokenGeneration: {} });
    }
    // A customer's attribute in this pool makes no customer.
    expect(tokenOverrides(tokenEvent({ customerId: "C-1001" }), "sellers")).toEqual({ accessTokenGeneration: {} });
    const client = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_ClientCredentials", sellerId: "SLR-2210", scopes: ["orders/read"] }),
      "sellers",
    );
    expect(client.accessTokenGeneration).toEqual({ scopesToSuppress: ["orders/read"] });
  });

  it("never issues seller_id from the customers' or the staff pool, whatever the user's attributes", () => {
    for (const pool of ["customers", "staff"] as const) {
      const overrides = tokenOverrides(tokenEvent({ sellerId: "SLR-2210", groups: ["support"] }), pool);
      expect(JSON.stringify(overrides), pool).not.toContain("seller_id");
    }
  });
});

describe("the trigger's handler", () => {
  const withPool = async <T>(value: string | undefined, run: () => Promise<T>): Promise<T> => {
    const before = process.env[userPoolEnv];
    if (value === undefined) delete process.env[userPoolEnv];
    else process.env[userPoolEnv] = value;
    try {
      return await run();
    } finally {
      if (before === undefined) delete process.env[userPoolEnv];
      else process.env[userPoolEnv] = before;
    }
  };

  it("answers Cognito with the event and the overrides for the pool its environment names", async () => {
    const event = tokenEvent({ customerId: "C-1001", groups: ["support"] });
    const asCustomers = await withPool("customers", () => handler(structuredClone(event)));
    expect(asCustomers.request).toEqual(event.request);
    expect(asCustomers.response.claimsAndScopeOverrideDetails.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { customer_id: "C-1001" },
      scopesToAdd: ["orders:read", "orders:write"],
    });
    const asStaff = await withPool("staff", () => handler(structuredClone(event)));
    expect(asStaff.response.claimsAndScopeOverrideDetails.accessTokenGeneration).toEqual({
      scopesToAdd: ["orders:read", "orders:write", "orders:support"],
    });
  });

  it("issues nothing, failing the sign-in, when its environment does not say which pool it serves", async () => {
    const event = tokenEvent({ groups: ["support"] });
    await expect(withPool(undefined, () => handler(structuredClone(event)))).rejects.toThrow(
      /ORDER_TOOLS_USER_POOL must be customers, staff or sellers, not undefined/,
    );
    await expect(withPool("support", () => handler(structuredClone(event)))).rejects.toThrow(/not "support"/);
  });
});
