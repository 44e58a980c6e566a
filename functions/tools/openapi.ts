import { openApiDocument } from "#catalog/openapi";
import type { ToolHandler } from "#tools/handler";
import { type HttpEvent, type HttpResult, jsonResponse } from "#tools/http";

/**
 * GET /v1/openapi.json — the OpenAPI 3.1 document of the whole HTTP surface, public, generated from the registry.
 * Its server is the address the request came to, so the document works as-is wherever the API is deployed.
 */
let cached: { serverUrl: string | undefined; response: HttpResult } | undefined;
export const handler: ToolHandler = async (event) => {
  const serverUrl = serverUrlOf(event);
  if (cached?.serverUrl !== serverUrl || !cached) {
    const document = openApiDocument(serverUrl ? { serverUrl } : {});
    cached = { serverUrl, response: jsonResponse(200, document, { "cache-control": "public, max-age=300" }) };
  }
  return { ...cached.response };
};

/** https://<domain> as API Gateway saw it; locally, the gateway's http://127.0.0.1:<port>. */
function serverUrlOf(event: HttpEvent): string | undefined {
  const host = event.headers?.host ?? event.requestContext?.domainName;
  if (!host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host)) return undefined;
  const proto = event.headers?.["x-forwarded-proto"] === "http" ? "http" : "https";
  return `${proto}://${host}`;
}
