import { cognitoScopeName } from "./pre-token-generation";
import { InvalidInputError } from "#core/errors";
import type { Scope } from "#core/principal";
import type { ToolHandler } from "#runtime/handler";
import { errorResponse, type HttpEvent, type HttpResult, jsonResponse } from "#runtime/http";
import {
  type ApiAuth,
  apiAuthOf,
  authorizationServerMetadataPath,
  authorizationServersOf,
  authorizePath,
  mcpAuthEnv,
  type ProtectedResource,
  parseMcpAuth,
  protectedResource,
  protectedResourceMetadata,
  protectedResourceMetadataPaths,
  publicBaseUrl,
} from "#runtime/oauth-resource";

/**
 * The documents an MCP client reads to find out how to sign in, public, none of them secret:
 *
 * - GET /.well-known/oauth-protected-resource/v1/mcp (and the root form): the RFC 9728 metadata of POST /v1/mcp —
 *   its URL, the authorization server, the scopes to ask for. The 401 challenge points here.
 * - Deployed with Cognito user pools, also the pool's RFC 8414 metadata at /.well-known/oauth-authorization-server,
 *   issued under the API's own origin, and GET /oauth2/authorize. Cognito publishes only OpenID Connect discovery,
 *   which omits `code_challenge_methods_supported`, and strict clients refuse an authorization server without it.
 *   Cognito also spells its scopes `orders/read` where this API and its challenge say `orders:read`, and refuses
 *   a scope it does not know, so the authorization endpoint named here renames the scopes and sends the browser on
 *   to the pool's own hosted sign-in with every other parameter as it came. Tokens come from Cognito's token
 *   endpoint, and the pool's token trigger writes `orders:read` into them.
 */

export interface OAuthMetadataOptions {
  /** This request's resource: the MCP URL and the authorization servers its metadata names. */
  resourceOf(event: HttpEvent): ProtectedResource;
  /** Deployed with Cognito: the user pool behind the API this request came through. */
  cognitoOf?(
    event: HttpEvent,
  ): { base: string; cognitoDomain: string; userPoolId: string; region: string; scopes: readonly string[] } | undefined;
}

const cacheable = { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" };

export function createOAuthMetadataHandler(options: OAuthMetadataOptions): ToolHandler {
  return async (event) => {
    try {
      const path = event.rawPath ?? event.requestContext?.http?.path;
      if ((protectedResourceMetadataPaths as readonly string[]).includes(path)) {
        return jsonResponse(200, protectedResourceMetadata(options.resourceOf(event)), cacheable);
      }
      const cognito = options.cognitoOf?.(event);
      if (cognito && path === authorizationServerMetadataPath) return jsonResponse(200, cognitoMetadata(cognito), cacheable);
      if (cognito && path === authorizePath) return redirectToCognito(event, cognito.cognitoDomain);
      return jsonResponse(404, {
        error: {
          code: "NOT_FOUND",
          message: `There is no OAuth document at ${path}; the protected-resource metadata is at ${protectedResourceMetadataPaths[0]}.`,
          retryable: false,
        },
      });
    } catch (error) {
      return errorResponse(error, "oauth-metadata", false);
    }
  };
}

/** RFC 8414 metadata for a user pool, under the API's origin, with Cognito's token, revocation and key endpoints. */
function cognitoMetadata(pool: {
  base: string;
  cognitoDomain: string;
  userPoolId: string;
  region: string;
  scopes: readonly string[];
}): Record<string, unknown> {
  return {
    issuer: pool.base,
    authorization_endpoint: `${pool.base}${authorizePath}`,
    token_endpoint: `${pool.cognitoDomain}/oauth2/token`,
    revocation_endpoint: `${pool.cognitoDomain}/oauth2/revoke`,
    jwks_uri: `https://cognito-idp.${pool.region}.amazonaws.com/${pool.userPoolId}/.well-known/jwks.json`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    scopes_supported: [...pool.scopes],
    // Cognito registers no clients on request: the stack pre-registers them (context mcpClients).
    client_id_metadata_document_supported: false,
  };
}

const scopeNames: Record<string, string> = Object.fromEntries(
  (["orders:read", "orders:write", "orders:support"] as Scope[]).map((scope) => [scope, cognitoScopeName(scope)]),
);

/**
 * The authorization request, on to the user pool's hosted sign-in: `orders:read` becomes `orders/read` (Cognito's
 * spelling), and everything else goes as it came. PKCE is required, as the metadata says; Cognito checks the
 * client, its redirect URL and the rest.
 */
function redirectToCognito(event: HttpEvent, cognitoDomain: string): HttpResult {
  const params = new URLSearchParams(event.rawQueryString ?? "");
  const issues: { path: string; message: string }[] = [];
  if (params.get("response_type") !== "code")
    issues.push({
      path: "response_type",
      message: "response_type must be code: the authorization code flow with PKCE is the only one offered.",
    });
  if (!params.get("client_id"))
    issues.push({
      path: "client_id",
      message: "client_id is missing: use the app client id the stack created for your MCP client (stack output McpClient…ClientId).",
    });
  if (!params.get("code_challenge") || params.get("code_challenge_method") !== "S256") {
    issues.push({ path: "code_challenge", message: "PKCE is required: send code_challenge with code_challenge_method=S256." });
  }
  if (issues.length > 0) {
    const error = new InvalidInputError(issues as [{ path: string; message: string }, ...{ path: string; message: string }[]]);
    return jsonResponse(error.httpStatus, error.toJSON());
  }
  const scope = params.get("scope");
  if (scope !== null)
    params.set(
      "scope",
      scope
        .split(" ")
        .filter(Boolean)
        .map((s) => scopeNames[s] ?? s)
        .join(" "),
    );
  return {
    statusCode: 302,
    headers: { location: `${cognitoDomain}/oauth2/authorize?${params.toString()}`, "cache-control": "no-store" },
    body: "",
  };
}

/** The deployed handler: every API of the stack is described in ORDER_TOOLS_MCP_AUTH, read once. */
let config: Record<string, ApiAuth> | undefined;
const deployedConfig = () => (config ??= parseMcpAuth(process.env[mcpAuthEnv]));

const deployed = createOAuthMetadataHandler({
  resourceOf(event) {
    const api = apiAuthOf(deployedConfig(), event);
    const base = publicBaseUrl(event, api.publicUrl);
    return protectedResource(base, authorizationServersOf(api, base), api.scopes);
  },
  cognitoOf(event) {
    const api = apiAuthOf(deployedConfig(), event);
    const server = api.authorizationServer;
    if (!("cognitoDomain" in server)) return undefined;
    return {
      base: publicBaseUrl(event, api.publicUrl),
      cognitoDomain: server.cognitoDomain,
      userPoolId: server.userPoolId,
      region: server.region,
      scopes: api.scopes,
    };
  },
});

export const handler: ToolHandler = (event, context) => deployed(event, context);
