import { toolCatalog } from "#contract/json-schema";
import type { ToolHandler } from "#runtime/handler";
import { type HttpResult, jsonResponse } from "#runtime/http";

/**
 * GET /v1/tools — the tool catalogue, public: every tool's name, description, JSON Schemas and annotations, all
 * generated from the registry. It changes only with a deployment, so it is built once and may be cached briefly.
 */
let response: HttpResult | undefined;
export const handler: ToolHandler = async () => {
  response ??= jsonResponse(200, toolCatalog(), { "cache-control": "public, max-age=300" });
  return { ...response };
};
