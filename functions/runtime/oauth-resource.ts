import { scopes as orderScopes } from "#core/principal";
import type { HttpEvent } from "#runtime/http";

/**
 * POST /v1/mcp as an OAuth protected resource (RFC 9728, and MCP's authorization rules): its URL, where its
 * metadata is, which scopes a client should ask for, and who issues the tokens it accepts. Shared by the MCP
 * function (which verifies tokens and writes the challenges) and the OAuth metadata function (which serves the
 * documents the challenges point at), deployed and locally.
 */

export const mcpPath = "/v1/mcp";

/** RFC 9728 §3.1: the metadata of the resource at `mcpPath`, and the root form some clients try first. */
export const protectedResourceMetadataPaths = [
  `/.well-known/oauth-protected-resource${mcpPath}`,
  "/.well-known/oauth-protected-resource",
] as const;

/** RFC 8414 §3: the authorization-server metadata of an issuer without a path, which the stack serves for Cognito. */
export const authorizationServerMetadataPath = "/.well-known/oauth-authorization-server";

/** Where the stack's authorization endpoint for Cognito sends a browser on (functions/service/oauth-metadata.ts). */
export const authorizePath = "/oauth2/authorize";

/**
 * The scopes a client should ask for to use every tool: what the 401 challenge and the metadata name. Never
 * `offline_access`: whether a refresh token comes with the sign-in is the authorization server's to decide.
 */
export const endpointScopes: readonly string[] = [orderScopes.read, orderScopes.write];

/** The scope without which nothing on the endpoint works (every session starts by reading): its absence is 403. */
export const endpointScope = orderScopes.read;

/**
 * ORDER_TOOLS_MCP_AUTH: how each API of the stack authenticates MCP callers, as a JSON object from API Gateway API
 * id to `ApiAuth`. One MCP function serves every API of a stack, and each API trusts its own user pool.
 */
export const mcpAuthEnv = "ORDER_TOOLS_MCP_AUTH";

/** Who issues an API's tokens and which of them are this deployment's (RFC 8707: issued for this resource). */
export type TokenIssuer =
  /** A Cognito user pool: access tokens whose client_id is one of the deployment's app clients. */
  | { userPoolId: string; clientIds: string[] }
  /** Another OpenID provider: tokens whose `aud` is one of these (or the MCP URL itself). */
  | { issuer: string; audience: string[]; jwksUri?: string };

/** What the protected-resource metadata names as the authorization server. */
export type AuthorizationServerRef =
  /** A user pool: the stack serves its RFC 8414 metadata itself, at the API's own origin. */
  | { cognitoDomain: string; userPoolId: string; region: string }
  /** An authorization server that publishes its own metadata. */
  | { issuer: string };

export interface ApiAuth {
  /** The API's public URL when a custom domain is in front of it; else the domain API Gateway reports is used. */
  publicUrl?: string;
  /** The scopes a client should request; `endpointScopes`, plus `orders:support` on the staff API. */
  scopes: string[];
  tokens: TokenIssuer;
  authorizationServer: AuthorizationServerRef;
}

/** The resource this request addresses: the MCP URL and everything a challenge or the metadata names. */
export interface ProtectedResource {
  /** The MCP endpoint's URL, exactly: the metadata's `resource` and the audience a token may name. */
  resource: string;
  /** Where the metadata of `resource` is served: the challenge's `resource_metadata`. */
  metadataUrl: string;
  /** The issuer identifiers of the authorization servers (RFC 9728 `authorization_servers`). */
  authorizationServers: string[];
  scopes: readonly string[];
}

/** The local gateway's domain names its loopback address and port, served over plain HTTP. */
const loopbackDomain = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

/**
 * The public base URL of the API this request came through, without a trailing slash: the configured public URL,
 * else the domain API Gateway says the request came to (`requestContext.domainName`), never the client's Host:
 * a client must not be able to choose the URL that challenges send other clients' tokens to.
 */
export function publicBaseUrl(event: HttpEvent, configured?: string): string {
  if (configured) return configured.replace(/\/+$/, "");
  const domain = event.requestContext?.domainName;
  if (!domain || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[::1\](:\d{1,5})?$/.test(domain)) {
    throw new Error(
      `The request names no usable domain (requestContext.domainName is ${JSON.stringify(domain)}), so the MCP endpoint's URL is unknown.`,
    );
  }
  return `${loopbackDomain.test(domain) ? "http" : "https"}://${domain}`;
}

export function protectedResource(base: string, authorizationServers: string[], scopes: readonly string[]): ProtectedResource {
  return { resource: `${base}${mcpPath}`, metadataUrl: `${base}${protectedResourceMetadataPaths[0]}`, authorizationServers, scopes };
}

/** The RFC 9728 document. */
export function protectedResourceMetadata(resource: ProtectedResource): Record<string, unknown> {
  return {
    resource: resource.resource,
    authorization_servers: resource.authorizationServers,
    scopes_supported: [...resource.scopes],
    bearer_methods_supported: ["header"],
    resource_name: "order-tools",
  };
}

/**
 * The `WWW-Authenticate` value of a 401 or 403 (RFC 6750 §3, RFC 9728 §5.1): where the metadata is and every scope
 * the endpoint needs, plus the error when a token came and was refused.
 */
export function bearerChallenge(
  resource: ProtectedResource,
  error?: { code: "invalid_token" | "insufficient_scope"; description: string },
): string {
  // A quoted-string may escape quotes, but clients split challenges naively: keep to plain printable ASCII.
  const quoted = (value: string) =>
    `"${value
      .replace(/"/g, "'")
      .replace(/\\/g, "/")
      .replace(/[^\x20-\x7e]/g, "")}"`;
  const parts = [
    ...(error ? [`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`] : []),
    `resource_metadata=${quoted(resource.metadataUrl)}`,
    `scope=${quoted(resource.scopes.join(" "))}`,
  ];
  return `Bearer ${parts.join(", ")}`;
}

/** The issuer identifier the stack gives a user pool in the metadata: the API's own origin (and path, if any). */
export function authorizationServersOf(auth: ApiAuth, base: string): string[] {
  return "cognitoDomain" in auth.authorizationServer ? [base] : [auth.authorizationServer.issuer];
}

const httpsUrl = /^https:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/;
const userPoolId = /^[a-z]{2}(?:-[a-z]+)+-\d_[0-9A-Za-z]+$/;

/**
 * ORDER_TOOLS_MCP_AUTH, checked. The stack writes it; a malformed value is an operator's error, and the message
 * names the field.
 */
export function parseMcpAuth(raw: string | undefined): Record<string, ApiAuth> {
  const fail = (why: string): never => {
    throw new Error(
      `${mcpAuthEnv} ${why}. It is a JSON object from API id to {"scopes", "tokens", "authorizationServer", "publicUrl"?}, written by the CDK stack.`,
    );
  };
  if (!raw?.trim()) fail("is not set");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw as string);
  } catch {
    fail("is not JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) fail("is not a JSON object");
  const out: Record<string, ApiAuth> = {};
  for (const [apiId, value] of Object.entries(parsed as Record<string, unknown>)) {
    const entry = value as Record<string, unknown> | null;
    const at = (field: string) => `has a bad ${field} for API ${apiId}`;
    if (entry === null || typeof entry !== "object") fail(at("entry"));
    const strings = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === "string" && s !== "");
    if (!strings(entry!.scopes)) fail(at("scopes"));
    if (entry!.publicUrl !== undefined && !(typeof entry!.publicUrl === "string" && /^https?:\/\/[^\s?#]+$/.test(entry!.publicUrl)))
      fail(at("publicUrl"));
    const tokens = entry!.tokens as Record<string, unknown> | undefined;
    if (typeof tokens?.userPoolId === "string") {
      if (!userPoolId.test(tokens.userPoolId) || !strings(tokens.clientIds)) fail(at("tokens"));
    } else if (typeof tokens?.issuer === "string") {
      if (
        !httpsUrl.test(tokens.issuer) ||
        !strings(tokens.audience) ||
        (tokens.jwksUri !== undefined && !httpsUrl.test(String(tokens.jwksUri)))
      )
        fail(at("tokens"));
    } else {
      fail(at("tokens"));
    }
    const server = entry!.authorizationServer as Record<string, unknown> | undefined;
    const cognito =
      typeof server?.cognitoDomain === "string" &&
      httpsUrl.test(server.cognitoDomain) &&
      typeof server.userPoolId === "string" &&
      typeof server.region === "string";
    if (!cognito && !(typeof server?.issuer === "string" && httpsUrl.test(server.issuer))) fail(at("authorizationServer"));
    out[apiId] = entry as unknown as ApiAuth;
  }
  return out;
}

/** This request's API's entry; a request through an API the stack did not configure is an operator's error. */
export function apiAuthOf(config: Record<string, ApiAuth>, event: HttpEvent): ApiAuth {
  const apiId = event.requestContext?.apiId ?? "";
  const found = Object.hasOwn(config, apiId) ? config[apiId] : undefined;
  if (!found)
    throw new Error(
      `${mcpAuthEnv} has no entry for the API ${JSON.stringify(apiId)} this request came through; it lists ${Object.keys(config).join(", ") || "none"}.`,
    );
  return found;
}
