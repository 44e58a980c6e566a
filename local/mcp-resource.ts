/**
 * The MCP endpoint as a protected resource on the local gateway: its metadata names the gateway's own
 * authorization server (local/authorization-server.ts), whose issuer is the gateway's URL, and it accepts
 * the local stack's tokens — those `npm run token` prints (issuer and audience as the gateway checks them on every
 * route) and those the authorization server issues for the MCP URL — signed with the same dev key.
 */
import { apiGatewayClaims, devAudience, devIssuer, tokenScopes, verifyDevToken } from "#local/dev-auth";
import type { McpAuthentication } from "#service/mcp";
import { createOAuthMetadataHandler } from "#service/oauth-metadata";
import { endpointScopes, protectedResource, publicBaseUrl } from "#runtime/oauth-resource";

const resourceOf = (event: Parameters<typeof publicBaseUrl>[0]) => {
  const base = publicBaseUrl(event);
  return protectedResource(base, [base], endpointScopes);
};

export const localMcpAuthentication: McpAuthentication = {
  forRequest(event) {
    const resource = resourceOf(event);
    const issuer = resource.authorizationServers[0] as string;
    return {
      resource,
      async verify(token) {
        const check = await verifyDevToken(token, { issuers: [devIssuer, issuer], audiences: [devAudience, resource.resource] });
        return check.ok ? { ok: true, claims: apiGatewayClaims(check.payload), scopes: tokenScopes(check.payload) } : check;
      },
    };
  },
};

export const handler = createOAuthMetadataHandler({ resourceOf });
