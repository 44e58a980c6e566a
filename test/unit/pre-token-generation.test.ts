import type { PreTokenGenerationV2TriggerEvent, PreTokenGenerationV3TriggerEvent } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { handler, tokenOverrides } from "../../functions/auth/pre-token-generation";

type Source = PreTokenGenerationV2TriggerEvent["triggerSource"] | PreTokenGenerationV3TriggerEvent["triggerSource"];

function tokenEvent(options: {
  source?: Source;
  customerId?: string;
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
      userAttributes: { sub: "0f1e", email: "ana@example.com", ...(options.customerId ? { "custom:customer_id": options.customerId } : {}) },
      groupConfiguration: { groupsToOverride: options.groups ?? [], iamRolesToOverride: [] },
      scopes: options.scopes ?? ["aws.cognito.signin.user.admin"],
    },
    response: { claimsAndScopeOverrideDetails: {} },
  };
}

describe("the pre-token-generation trigger", () => {
  it("gives a customer signing in through the SDK the customer_id claim and the read and write scopes, never support", () => {
    const overrides = tokenOverrides(tokenEvent({ customerId: "C-1001" }));
    expect(overrides.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { customer_id: "C-1001" },
      scopesToAdd: ["orders:read", "orders:write"],
    });
    expect(overrides.idTokenGeneration).toEqual({ claimsToAddOrOverride: { customer_id: "C-1001" } });
  });

  it("takes away orders:support from a customer who asked for it through the hosted sign-in, and respells the rest", () => {
    const overrides = tokenOverrides(
      tokenEvent({ source: "TokenGeneration_HostedAuth", customerId: "C-1001", scopes: ["openid", "orders/read", "orders/support"] }),
    );
    expect(overrides.accessTokenGeneration).toEqual({
      claimsToAddOrOverride: { customer_id: "C-1001" },
      scopesToAdd: ["orders:read"],
      scopesToSuppress: ["orders/read", "orders/support"],
    });
  });

  it("grants a hosted sign-in only the orders scopes it asked for, so a token can be narrowed to reading", () => {
    const overrides = tokenOverrides(tokenEvent({ source: "TokenGeneration_HostedAuth", customerId: "C-1001", scopes: ["openid"] }));
    expect(overrides.accessTokenGeneration).toEqual({ claimsToAddOrOverride: { customer_id: "C-1001" } });
  });

  it("gives a member of the support group orders:support and no customer_id, even with the customer attribute set", () => {
    const overrides = tokenOverrides(tokenEvent({ customerId: "C-1001", groups: ["support"] }));
    expect(overrides.accessTokenGeneration).toEqual({ scopesToAdd: ["orders:read", "orders:write", "orders:support"] });
    expect(overrides.idTokenGeneration).toBeUndefined();
  });

  it("gives a user who is neither customer nor staff no orders scope at all, so the gateway refuses every tool", () => {
    expect(tokenOverrides(tokenEvent({})).accessTokenGeneration).toEqual({});
    expect(
      tokenOverrides(tokenEvent({ source: "TokenGeneration_HostedAuth", scopes: ["openid", "orders/read", "orders/write"] })).accessTokenGeneration,
    ).toEqual({ scopesToSuppress: ["orders/read", "orders/write"] });
  });

  it("respells a client-credentials client's scopes and adds nothing it did not ask for", () => {
    const overrides = tokenOverrides(tokenEvent({ source: "TokenGeneration_ClientCredentials", scopes: ["orders/read", "orders/support"] }));
    expect(overrides.accessTokenGeneration).toEqual({
      scopesToAdd: ["orders:read", "orders:support"],
      scopesToSuppress: ["orders/read", "orders/support"],
    });
  });

  it("keeps scopes already in the API's spelling on a refresh, without adding them twice", () => {
    const overrides = tokenOverrides(tokenEvent({ source: "TokenGeneration_RefreshTokens", customerId: "C-1001", scopes: ["orders:read"] }));
    expect(overrides.accessTokenGeneration).toEqual({ claimsToAddOrOverride: { customer_id: "C-1001" } });
  });

  it("answers Cognito with the event and the overrides in its response", async () => {
    const event = tokenEvent({ customerId: "C-1001" });
    const answered = await handler(event);
    expect(answered.request).toEqual(event.request);
    expect(answered.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.claimsToAddOrOverride).toEqual({ customer_id: "C-1001" });
  });
});
