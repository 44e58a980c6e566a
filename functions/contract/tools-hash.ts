import { createHash } from "node:crypto";
import { toolCatalog } from "#contract/json-schema";
import { modelContext } from "#contract/model-context";
import { modelTools } from "#contract/model-tools";
import { canonicalJson } from "#core/canonical-json";

/**
 * The published-tools hash: one sha256 over everything that changes what a model is told — each tool's name,
 * description, input and output JSON Schemas and annotations as the catalogue publishes them; the tools as the
 * controller rewrites them for a model (no operationId); the controller's system prompt, datamark and frames;
 * and the MCP endpoint's instructions. A change to any of it is a behaviour change: the deploy gate refuses it
 * until a live model run over the evaluation cases has measured it (eval/baseline.json keeps the hash it saw). Keys
 * are sorted at every level (`canonicalJson`), so the hash depends on content only.
 */

/** What the hash covers, as one JSON value. */
export function publishedModelSurface() {
  const byName = <T extends { name: string }>(list: T[]) => list.sort((a, b) => a.name.localeCompare(b.name));
  return {
    catalogue: byName(
      toolCatalog().tools.map(({ name, description, inputSchema, outputSchema, annotations }) => ({
        name,
        description,
        inputSchema,
        outputSchema,
        annotations,
      })),
    ),
    modelTools: byName(modelTools().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))),
    context: modelContext,
  };
}

/** sha256 of the published model surface, as `sha256:<hex>`. */
export function publishedToolsHash(): string {
  return `sha256:${createHash("sha256").update(canonicalJson(publishedModelSurface())).digest("hex")}`;
}
