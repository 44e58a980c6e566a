import { openApiDocument } from "#catalog/openapi";
import type { ToolHandler } from "#tools/handler";
import { errorResponse, type HttpEvent, type HttpResult, jsonResponse } from "#tools/http";

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

let cached: { serverUrl: string | undefined; response: HttpResult } | undefined;
export const handler: ToolHandler = async (event) => {
  let serverUrl: string | undefined;
  try {
    serverUrl = serverUrlOf(event);
  } catch (error) {
    return errorResponse(error, "openapi", false);
  }
  if (cached?.serverUrl !== serverUrl || !cached) {
    const document = openApiDocument(serverUrl ? { serverUrl } : {});
    cached = { serverUrl, response: jsonResponse(200, document, { "cache-control": "public, max-age=300" }) };
  }
  return { ...cached.response };
};

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
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new Error(`${publicUrlEnv} must be the API's absolute public URL, like https://api.example.com or https://example.com/orders, not ${JSON.stringify(value)}.`);
  }
  return url.href.replace(/\/+$/, "");
}
