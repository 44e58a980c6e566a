import * as z from "zod/mini";
import { schema } from "#contract/fields";
import { type ToolDefinition, tools as registry } from "#contract/tools";

/**
 * The registry's zod schemas as JSON Schema (draft 2020-12): what the catalogue (GET /v1/tools), the OpenAPI
 * document and MCP's tools/list publish. Nothing here restates a field: every type, constraint and description
 * comes from the tool's zod schema through `z.toJSONSchema`.
 */

export type JsonSchema = { [key: string]: unknown };

/** What the OpenAPI document and MCP's initialize call this service. */
export const serviceInfo = { name: "order-tools", version: "1.0.0" } as const;

export const jsonSchemaDialect = "https://json-schema.org/draft/2020-12/schema";

/**
 * A tool's input as callers must send it (`io: "input"`: fields with a transform are described by what they
 * accept, and defaulted fields are optional) or its output as the tool returns it.
 */
export function toolJsonSchema(schema: z.core.$ZodType, io: "input" | "output"): JsonSchema {
  const converted = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "throw" }) as JsonSchema;
  return objectAtTop(withoutSafeIntegerBounds(converted) as JsonSchema);
}

/**
 * zod writes `z.number().int()` as an integer between ±(2^53 − 1). That is what JSON can carry exactly anyway,
 * and repeating it on every count and amount only lengthens what a model has to read; other bounds stay.
 */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}

/**
 * A discriminated union (get_operation_status's result) converts to a bare `oneOf` of objects. MCP requires a
 * tool's input and output schemas to say `"type": "object"` at the top, and saying it changes nothing here.
 */
function objectAtTop(schema: JsonSchema): JsonSchema {
  if (schema.type !== undefined) return schema;
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!branches?.length || !branches.every((b) => b.type === "object")) return schema;
  const { $schema, ...rest } = schema;
  return $schema === undefined ? { type: "object", ...rest } : { $schema, type: "object", ...rest };
}

/** What a tool's annotations say, for callers that plan with them (MCP's ToolAnnotations use the same names). */
export type ToolAnnotations = ToolDefinition["annotations"];

/** One entry of the tool catalogue, contract §2. */
export interface CatalogEntry {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

export function catalogEntry(tool: ToolDefinition): CatalogEntry {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: toolJsonSchema(tool.input, "input"),
    outputSchema: toolJsonSchema(tool.output, "output"),
    annotations: { ...tool.annotations },
  };
}

/** GET /v1/tools: `{"tools": [{name, description, inputSchema, outputSchema, annotations}]}`, in registry order. */
export function toolCatalog(tools: readonly ToolDefinition[] = registry): { tools: CatalogEntry[] } {
  return { tools: tools.map(catalogEntry) };
}

/** The catalogue's own shape, for the OpenAPI document and for tests that read the route's body. */
export const toolCatalogSchema = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      tools: z
        .array(
          z
            .strictObject({
              name: z
                .string()
                .check(z.meta({ description: "The tool's name: its route is POST /v1/tools/<name> and its MCP name is the same." })),
              description: z.string().check(z.meta({ description: "What the tool does, in the order domain's words." })),
              inputSchema: z
                .record(z.string(), z.unknown())
                .check(z.meta({ description: "JSON Schema (draft 2020-12) of the arguments, the request body of its route." })),
              outputSchema: z
                .record(z.string(), z.unknown())
                .check(z.meta({ description: "JSON Schema (draft 2020-12) of a successful result, the 200 body of its route." })),
              annotations: z
                .strictObject({
                  readOnlyHint: z.boolean().check(z.meta({ description: "True: the tool changes nothing." })),
                  destructiveHint: z.boolean().check(
                    z.meta({
                      description:
                        "True: a change may overwrite or end something that no tool restores, such as a cancelled order or a replaced note; false: it only adds, or (a reading tool) changes nothing.",
                    }),
                  ),
                  idempotentHint: z.boolean().check(
                    z.meta({
                      description:
                        "True: repeating a call with the same arguments (for a change, the same operationId) changes nothing more; a change returns the first outcome.",
                    }),
                  ),
                  openWorldHint: z
                    .literal(false)
                    .check(z.meta({ description: "False: the tool acts only on this service's own orders, never on an open world." })),
                })
                .check(z.meta({ description: "Hints for planning; the same names as MCP's tool annotations." })),
            })
            .check(z.meta({ description: "One tool." })),
        )
        .check(z.meta({ description: "Every tool this service publishes, in a stable order." })),
    })
    .check(z.meta({ description: "The tool catalogue: every tool with JSON Schemas of its arguments and result." })),
);

/** A schema inside a document whose `jsonSchemaDialect` says which dialect applies, so it need not repeat it. */
export function embedded(schema: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = schema;
  return rest;
}

/** A description's first sentence (a trailing colon made a full stop), for an operation's summary. */
export function summaryOf(description: string): string {
  return /^.*?[.:](?=\s|$)/.exec(description)?.[0].replace(/:$/, ".") ?? description;
}
