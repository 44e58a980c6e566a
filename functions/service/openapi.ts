import { type AuthorizationServer, openApiDocument } from "#service/openapi-document";
import { authorizationServersEnv } from "#deploy/service-functions";
import type { ToolHandler } from "#runtime/handler";
import { errorResponse, type HttpEvent, type HttpResult, jsonResponse } from "#runtime/http";

/**
 * GET /v1/openapi.json — the OpenAPI 3.1 document of the whole HTTP surface, public, generated from the registry.
 *
 * Its server is ORDER_TOOLS_PUBLIC_URL when the stack sets it (an API behind a CDN or a custom domain), else the
 * domain API Gateway says the request came to (`requestContext.domainName`). Never the client's Host or
 * X-Forwarded-Proto: the document is cached publicly, and agents send their tokens to the server it names, so a
 * client must not be able to choose that server for everyone after it.
 */
export const publicUrlEnv = "ORDER_TOOLS_PUBLIC_URL";

/** The local gateway's domain names its loopback address and port, served over plain HTTP. */
const loopbackDomain = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

let cached: { key: string; response: HttpResult } | undefined;
export const handler: ToolHandler = async (event) => {
  let serverUrl: string | undefined;
  let authorization: AuthorizationServer | undefined;
  try {
    serverUrl = serverUrlOf(event);
    authorization = authorizationServerOf(event);
  } catch (error) {
    return errorResponse(error, "openapi", false);
  }
  const key = JSON.stringify([serverUrl, authorization]);
  if (cached?.key !== key) {
    const document = openApiDocument({ ...(serverUrl ? { serverUrl } : {}), ...(authorization ? { authorization } : {}) });
    cached = { key, response: jsonResponse(200, document, { "cache-control": "public, max-age=300" }) };
  }
  return { ...cached.response };
};

/** The token issuer of the API this request came through, as the stack configured it; none locally. */
function authorizationServerOf(event: HttpEvent): AuthorizationServer | undefined {
  const configured = process.env[authorizationServersEnv]?.trim();
  if (!configured) return undefined;
  let servers: unknown;
  try {
    servers = JSON.parse(configured);
  } catch {
    servers = undefined;
  }
  const server =
    servers !== null && typeof servers === "object" ? (servers as Record<string, unknown>)[event.requestContext?.apiId ?? ""] : undefined;
  if (server === undefined && servers !== null && typeof servers === "object") return undefined;
  const isUrl = (value: unknown) => typeof value === "string" && /^https:\/\/[^\s]+$/.test(value);
  const s = server as Record<string, unknown> | undefined;
  if (s && isUrl(s.openIdConnectUrl)) return { openIdConnectUrl: s.openIdConnectUrl as string };
  if (s && isUrl(s.authorizationUrl) && isUrl(s.tokenUrl)) {
    return {
      authorizationUrl: s.authorizationUrl as string,
      tokenUrl: s.tokenUrl as string,
      ...(s.clientCredentials === true ? { clientCredentials: true } : {}),
    };
  }
  throw new Error(
    `${authorizationServersEnv} must be a JSON object from API id to {"authorizationUrl", "tokenUrl", "clientCredentials"?} or {"openIdConnectUrl"} with https URLs, not ${JSON.stringify(configured.slice(0, 200))}.`,
  );
}

function serverUrlOf(event: HttpEvent): string | undefined {
  const configured = process.env[publicUrlEnv]?.trim();
  if (configured) return configuredUrl(configured);
  const domain = event.requestContext?.domainName;
  if (!domain || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[::1\](:\d{1,5})?$/.test(domain)) return undefined;
  return `${loopbackDomain.test(domain) ? "http" : "https"}://${domain}`;
}

/** The configured public URL without a trailing slash; a malformed one is an operator's error, reported as such. */
function configuredUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    throw new Error(
      `${publicUrlEnv} must be the API's absolute public URL, like https://api.example.com or https://example.com/orders, not ${JSON.stringify(value)}.`,
    );
  }
  return url.href.replace(/\/+$/, "");
}
