/**
 * Access tokens shaped as a Cognito user pool issues them (after the pool's token trigger), signed with a key of
 * the test's own, and the MCP function's ORDER_TOOLS_MCP_AUTH for one API that trusts that pool. The deployed
 * verifier is given the key set as a warm function would already hold it (no network), so a test drives the
 * deployed handler exactly as API Gateway would, bearer token and all.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import type { ApiAuth } from "#runtime/oauth-resource";
import { jwtVerifierFor } from "#runtime/token-verifier";
import type { Caller } from "#test/support/callers";

export const testUserPoolId = "eu-west-1_TestPool1";
export const testIssuer = `https://cognito-idp.eu-west-1.amazonaws.com/${testUserPoolId}`;
export const testAppClient = "testappclient0000000000001";
export const testMcpClient = "testmcpclient0000000000002";

/** The entry the CDK stack writes for an API backed by the customers' pool (the events' API id is `local`). */
export const testApiAuth: ApiAuth = {
  scopes: ["orders:read", "orders:write"],
  tokens: { userPoolId: testUserPoolId, clientIds: [testAppClient, testMcpClient] },
  authorizationServer: {
    cognitoDomain: "https://order-tools-test.auth.eu-west-1.amazoncognito.com",
    userPoolId: testUserPoolId,
    region: "eu-west-1",
  },
};

export interface CognitoTokens {
  /** A token for this caller's claims from the given app client; `overrides` may change anything, for refusals. */
  sign(caller: Caller, options?: { clientId?: string; overrides?: JWTPayload; keyOf?: "trusted" | "stranger" }): Promise<string>;
}

export async function cognitoTokens(): Promise<CognitoTokens> {
  const trusted = await generateKeyPair("RS256", { extractable: true });
  const stranger = await generateKeyPair("RS256");
  const kid = `test-${randomUUID()}`;
  const jwk = { ...(await exportJWK(trusted.publicKey)), kid, alg: "RS256", use: "sig" };
  jwtVerifierFor(testApiAuth.tokens).cacheJwks({ keys: [jwk as never] });
  return {
    async sign(caller, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        ...caller.claims,
        iss: testIssuer,
        token_use: "access",
        client_id: options.clientId ?? testAppClient,
        iat: now,
        exp: now + 3600,
        jti: randomUUID(),
        ...options.overrides,
      })
        .setProtectedHeader({ alg: "RS256", kid })
        .sign(options.keyOf === "stranger" ? stranger.privateKey : trusted.privateKey);
    },
  };
}

/** An existing OpenID provider (context jwtIssuer), as the MCP function's ORDER_TOOLS_MCP_AUTH names it for the one API. */
export const testProviderAuth: ApiAuth = {
  scopes: ["orders:read", "orders:write"],
  tokens: { issuer: "https://idp.example.com/", audience: ["order-tools-api"], jwksUri: "https://idp.example.com/.well-known/jwks.json" },
  authorizationServer: { issuer: "https://idp.example.com/" },
};

/** Tokens of that provider for a caller's claims, signed with a key its verifier already holds; `claims` overrides any of them. */
export async function providerTokens(): Promise<{ sign(caller: Caller, claims?: JWTPayload): Promise<string> }> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = `idp-${randomUUID()}`;
  jwtVerifierFor(testProviderAuth.tokens).cacheJwks({
    keys: [{ ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } as never],
  });
  return {
    async sign(caller, claims = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        ...caller.claims,
        iss: "https://idp.example.com/",
        aud: "order-tools-api",
        iat: now,
        exp: now + 3600,
        ...claims,
      })
        .setProtectedHeader({ alg: "RS256", kid })
        .sign(privateKey);
    },
  };
}
