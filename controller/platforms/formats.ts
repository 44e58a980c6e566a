import type { JsonSchema } from "#contract/json-schema";
import { agentCoreToolDefinitions, bedrockActionGroups } from "#controller/platforms/documents";
import { type ModelTool, modelTools } from "#contract/model-tools";

/**
 * Model-facing tool definitions in each provider's own format. Formats are pluggable: a format is a name and a
 * function from the model tools to the document a provider (or a deployment tool) takes; `registerToolFormat`
 * adds one, and `npm run export-tools -- --format <name>` writes any registered format.
 */
export interface ToolFormat {
  /** What `--format` takes. */
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** The file `--out <dir>` writes. */
  fileName: string;
  /** The whole document: for the model APIs, the `tools` array a request carries. */
  document(tools: readonly ModelTool[]): unknown;
}

const formats = new Map<string, ToolFormat>();

export function registerToolFormat(format: ToolFormat): void {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(format.name))
    throw new Error(`A tool format's name is lower-case letters, digits and '-', not ${JSON.stringify(format.name)}.`);
  if (formats.has(format.name)) throw new Error(`A tool format named ${format.name} is already registered.`);
  formats.set(format.name, format);
}

export function toolFormatNames(): string[] {
  return [...formats.keys()];
}

export function toolFormat(name: string): ToolFormat {
  const format = formats.get(name);
  if (!format) throw new Error(`There is no tool format ${JSON.stringify(name)}; the formats are ${toolFormatNames().join(", ")}.`);
  return format;
}

/** A registered format's document for the registry's model tools. */
export function exportTools(formatName: string, tools: readonly ModelTool[] = modelTools()): unknown {
  return toolFormat(formatName).document(tools);
}

// ——— Anthropic Messages API ———

export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema & { type: "object" };
}

/** Anthropic's client tools: `{name, description, input_schema}`, the JSON Schema as the registry writes it. */
export function anthropicTool(tool: ModelTool): AnthropicToolDefinition {
  return { name: tool.name, description: tool.description, input_schema: { ...tool.inputSchema, type: "object" } };
}

// ——— OpenAI chat completions, strict function tools ———

export interface OpenAIToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema; strict: true };
}

/**
 * Keywords strict mode accepts (OpenAI's "Supported schemas" for Structured Outputs). Others — `examples`,
 * `default`, `minLength`/`maxLength` — are left out: the controller validates every call with the registry's
 * own schema anyway, and its INVALID_INPUT message says what the dropped keyword said.
 */
export const openaiStrictKeywords: ReadonlySet<string> = new Set([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "$defs",
  "$ref",
]);

export const openaiStrictFormats: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

export function openaiTool(tool: ModelTool): OpenAIToolDefinition {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: strictSchema(tool.inputSchema), strict: true },
  };
}

/**
 * A schema as strict mode wants it: every object closed (`additionalProperties: false`) with every property
 * in `required`, and what was optional made nullable. A model then sends `null` for a field it leaves out;
 * the controller treats that `null` as absent before validating (see `withoutNullOptionals`).
 */
export function strictSchema(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) if (openaiStrictKeywords.has(key)) out[key] = value;
  if (typeof out.format === "string" && !openaiStrictFormats.has(out.format)) delete out.format;
  // zod writes an e-mail's format and its own regex; the format says it, and strict mode's regex subset may not.
  if (out.format !== undefined) delete out.pattern;
  if (Array.isArray(out.anyOf)) out.anyOf = (out.anyOf as JsonSchema[]).map(strictSchema);
  if (out.items !== undefined && typeof out.items === "object") out.items = strictSchema(out.items as JsonSchema);
  if (out.type === "object" || out.properties !== undefined) {
    const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((node.required as string[] | undefined) ?? []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [
        name,
        required.has(name) ? strictSchema(schema) : nullable(strictSchema(schema)),
      ]),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string" && schema.type !== "object" && schema.anyOf === undefined) {
    const widened: JsonSchema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    return widened;
  }
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: "null" }] };
}

registerToolFormat({
  name: "anthropic",
  summary: "Anthropic Messages API client tools: [{name, description, input_schema}]",
  fileName: "anthropic-tools.json",
  document: (tools) => tools.map(anthropicTool),
});

registerToolFormat({
  name: "openai",
  summary: 'OpenAI chat completions strict function tools: [{type: "function", function: {name, description, parameters, strict: true}}]',
  fileName: "openai-tools.json",
  document: (tools) => tools.map(openaiTool),
});

// ——— Amazon Bedrock Converse API ———

export interface BedrockToolDefinition {
  toolSpec: { name: string; description: string; inputSchema: { json: JsonSchema & { type: "object" } } };
}

/** A Converse `toolConfig.tools` entry: `{toolSpec: {name, description, inputSchema: {json}}}`, the JSON Schema as the registry writes it. */
export function bedrockTool(tool: ModelTool): BedrockToolDefinition {
  return { toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: { ...tool.inputSchema, type: "object" } } } };
}

registerToolFormat({
  name: "bedrock-converse",
  summary: "Amazon Bedrock Converse API toolConfig.tools: [{toolSpec: {name, description, inputSchema: {json}}}]",
  fileName: "bedrock-converse-tools.json",
  document: (tools) => tools.map(bedrockTool),
});

// ——— Agent platforms (built in controller/platforms/documents.ts, held to each platform's documented rules) ———

registerToolFormat({
  name: "bedrock-action-group",
  summary:
    "Bedrock Agents action groups: {actionGroups: [{actionGroupName, description, apiSchema}]}, each apiSchema OpenAPI 3.0.0 for functions/service/bedrock-agent.ts",
  fileName: "bedrock-action-groups.json",
  document: (tools) => ({ actionGroups: bedrockActionGroups(tools) }),
});

registerToolFormat({
  name: "agentcore",
  summary:
    "AgentCore Gateway Lambda target tool schemas: [{name, description, inputSchema}] in type/properties/required/items/description only",
  fileName: "agentcore-tools.json",
  document: (tools) => agentCoreToolDefinitions(tools),
});
