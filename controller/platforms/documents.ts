import { errorCodeList } from "#contract/error-codes";
import { embedded, type JsonSchema, serviceInfo, summaryOf, toolJsonSchema } from "#contract/json-schema";
import { tools as registry, toolPath } from "#contract/tools";

// Agent platforms' documents, built from the same registry as the OpenAPI document: Bedrock Agents action groups
// and AgentCore Gateway targets.

/**
 * What the platform documents are built from: a tool as a model is given it (the controller's `ModelTool`: the
 * registry's name and description, and its input schema without operationId, which the platform's function
 * derives). Only the name, description and input schema are read; the output schema comes from the registry.
 */
export interface PlatformTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * Bedrock Agents' documented limits on an action group defined with an OpenAPI schema, as the export keeps them:
 * - `openapi: "3.0.0"`, no `enum` (describe the allowed values instead), every operation with an `operationId`
 *   of letters and digits separated by `-` or `_`, a description and responses; no request body on GET
 *   ("Define OpenAPI schemas for your agent's action groups", docs.aws.amazon.com/bedrock/latest/userguide/agents-api-schema.html);
 * - at most 11 API operations per action group (agents-lambda.html);
 * - at most 5 parameters per function, the account's default `parameters-per-function` quota, which
 *   CreateAgentActionGroup enforces; parameter types string, number, integer, boolean or array; a parameter's
 *   description at most 500 characters, a function's 1,200; names `([0-9a-zA-Z][_-]?){1,100}` (the API
 *   reference's ParameterDetail and Function). An action group's request body is its function's parameters, so
 *   the body is held to them.
 */
export const bedrockActionGroupRules = {
  openapi: "3.0.0",
  operationsPerGroup: 11,
  propertiesPerBody: 5,
  propertyTypes: ["string", "number", "integer", "boolean", "array"],
  operationDescriptionCharacters: 1200,
  propertyDescriptionCharacters: 500,
  namePattern: /^([0-9a-zA-Z][_-]?){1,100}$/,
} as const;

export interface BedrockActionGroup {
  actionGroupName: string;
  description: string;
  /** The OpenAPI 3.0.0 document to give as the action group's API schema (inline payload, or in S3). */
  apiSchema: JsonSchema;
}

/** "One of: a, b." for the values an `enum` or `const` allowed, which neither platform's schema may carry. */
function allowedValues(node: JsonSchema): string | undefined {
  const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : undefined;
  if (!values) return undefined;
  const shown = values.filter((v) => v !== null).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return shown.length === 1 ? `Always ${shown[0]}.` : `One of: ${shown.join(", ")}.`;
}

const withSentence = (description: unknown, sentence: string | undefined) =>
  sentence === undefined
    ? description
    : [typeof description === "string" ? description.replace(/\s*$/, "") : "", sentence].filter(Boolean).join(" ");

/**
 * A JSON Schema (draft 2020-12, as the registry writes it) in the OpenAPI 3.0 dialect and without `enum`:
 * `const`/`enum` become a sentence of the description, `type: [T, "null"]` and `anyOf: [S, null]` become
 * `nullable`, `examples` the first `example`, and a union of objects says `type: object`.
 */
export function openApi30Schema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApi30Schema);
  if (node === null || typeof node !== "object") return node;
  const source = node as JsonSchema;
  const branches = (source.anyOf ?? source.oneOf) as JsonSchema[] | undefined;
  if (branches?.length === 2 && branches.some((b) => b.type === "null")) {
    const [kept] = branches.filter((b) => b.type !== "null") as [JsonSchema];
    const { anyOf: _a, oneOf: _o, ...rest } = source;
    return { ...(openApi30Schema({ ...kept, ...rest }) as JsonSchema), nullable: true };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "$schema" || key === "enum" || key === "const" || key === "propertyNames") continue;
    if (key === "examples") {
      if (Array.isArray(value) && value.length > 0) out.example = value[0];
      continue;
    }
    if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      out.type = types[0];
      if (types.length < value.length) out.nullable = true;
      continue;
    }
    if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, schema]) => [name, openApi30Schema(schema)]),
      );
      continue;
    }
    out[key] = openApi30Schema(value);
  }
  const values = allowedValues(source);
  if (values) {
    out.description = withSentence(out.description, values);
    if (out.type === undefined)
      out.type = typeof (Array.isArray(source.enum) ? source.enum[0] : source.const) === "boolean" ? "boolean" : "string";
  }
  if (out.type === undefined && branches?.every((b) => b.type === "object")) out.type = "object";
  return out;
}

/**
 * A request-body property as Bedrock takes a function's parameter: one of its five types, the allowed values in
 * the description. An object (search_orders' dateRange) is a string holding its JSON, its fields described in
 * words; the action-group function reads it back as the object the tool's schema asks for.
 */
function bedrockProperty(schema: JsonSchema): JsonSchema {
  const converted = openApi30Schema(schema) as JsonSchema;
  if (converted.type !== "object") return converted;
  const fields = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, field]) => {
    const values = allowedValues(field);
    const said = String(field.description ?? "")
      .replace(/\.$/, "")
      .replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
    return `${name}${values ? ` (${values.replace(/^One of: /, "").replace(/\.$/, "")})` : ""}: ${said}`;
  });
  const example = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, field]) => [
      name,
      (field.examples as unknown[] | undefined)?.[0] ?? (field.enum as unknown[] | undefined)?.[0] ?? "…",
    ]),
  );
  return {
    type: "string",
    description: `${String(schema.description ?? "").replace(/\s*$/, "")} Give it as a JSON object with ${fields.join("; ")}. For example ${JSON.stringify(example)}.`,
  };
}

/** The error body every operation may answer with (contract §3), without the details that vary by code. */
const platformErrorSchema: JsonSchema = {
  type: "object",
  description: "The tool refused or failed; nothing about the order changed unless a recorded outcome says so.",
  properties: {
    error: {
      type: "object",
      description: "What went wrong and what would be right: the message alone is enough to make the next call succeed.",
      properties: {
        code: { type: "string", description: `The stable error code. One of: ${errorCodeList.join(", ")}.` },
        message: { type: "string", description: "What was wrong and what would be right." },
        retryable: { type: "boolean", description: "True when repeating the identical request later can succeed." },
      },
    },
  },
};

/**
 * The action groups for Bedrock Agents (`npm run export-tools -- --format bedrock-action-group`): OpenAPI 3.0.0
 * documents of the tools' own POST routes, at most 11 operations each, which functions/service/bedrock-agent.ts
 * serves. Held to `bedrockActionGroupRules` (test/unit/platform-exports.test.ts checks every rule).
 */
export function bedrockActionGroups(tools: readonly PlatformTool[], name = serviceInfo.name): BedrockActionGroup[] {
  const groups: BedrockActionGroup[] = [];
  for (let start = 0; start < tools.length; start += bedrockActionGroupRules.operationsPerGroup) {
    const part = tools.slice(start, start + bedrockActionGroupRules.operationsPerGroup);
    const paths: Record<string, JsonSchema> = {};
    for (const tool of part) {
      const registered = registry.find((t) => t.name === tool.name);
      const path = toolPath(tool.name);
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
      const body: JsonSchema = {
        type: "object",
        description: String(tool.inputSchema.description ?? `The arguments of ${tool.name}.`),
        properties: Object.fromEntries(Object.entries(properties).map(([field, schema]) => [field, bedrockProperty(schema)])),
        ...(Array.isArray(tool.inputSchema.required) && tool.inputSchema.required.length > 0
          ? { required: tool.inputSchema.required }
          : {}),
      };
      paths[path] = {
        post: {
          operationId: tool.name,
          summary: summaryOf(tool.description),
          description: tool.description,
          requestBody: { required: true, description: "The tool's arguments.", content: { "application/json": { schema: body } } },
          responses: {
            "200": {
              description: "The tool's result.",
              content: {
                "application/json": {
                  schema: registered
                    ? openApi30Schema(embedded(toolJsonSchema(registered.output, "output")))
                    : { type: "object", description: "The tool's result." },
                },
              },
            },
            default: {
              description: "A refusal or failure, with what would be right.",
              content: { "application/json": { schema: platformErrorSchema } },
            },
          },
        },
      };
    }
    const suffix = groups.length === 0 ? "" : `-${groups.length + 1}`;
    groups.push({
      actionGroupName: `${name}${suffix}`,
      description: "Orders: find one, read everything on it, and change it (cancel, delivery note, return, replacement).",
      apiSchema: {
        openapi: bedrockActionGroupRules.openapi,
        info: {
          title: `${serviceInfo.name}${suffix}`,
          version: serviceInfo.version,
          description:
            "Tools over orders, for one agent session's user, who comes from the session attributes the application sets; a change is made at most once however often Bedrock retries it.",
        },
        paths,
      },
    });
  }
  return groups;
}

/** The only keywords an AgentCore Gateway target's tool schema takes (SchemaDefinition). */
export const agentCoreSchemaKeywords = ["type", "properties", "required", "items", "description"] as const;

export interface AgentCoreToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * A schema in AgentCore's SchemaDefinition: only type, properties, required, items and description (a Gateway
 * Lambda target's tool schema, docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-add-target-lambda.html).
 * What cannot be said there — allowed values, a nullable type — is said in the description; the tool's own
 * validation still holds every rule.
 */
export function agentCoreSchema(node: JsonSchema): JsonSchema {
  const rawType = node.type;
  const nullable = Array.isArray(rawType) && rawType.includes("null");
  const type = Array.isArray(rawType) ? rawType.find((t) => t !== "null") : rawType;
  if (typeof type !== "string")
    throw new Error(`AgentCore's schema needs a type, and this one has none: ${JSON.stringify(node).slice(0, 200)}`);
  const description = withSentence(withSentence(node.description, allowedValues(node)), nullable ? "May be null." : undefined);
  return {
    type,
    ...(typeof description === "string" && description !== "" ? { description } : {}),
    ...(node.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(node.properties as Record<string, JsonSchema>).map(([name, schema]) => [name, agentCoreSchema(schema)]),
          ),
        }
      : {}),
    ...(Array.isArray(node.required) && node.required.length > 0 ? { required: [...node.required] } : {}),
    ...(node.items && typeof node.items === "object" ? { items: agentCoreSchema(node.items as JsonSchema) } : {}),
  };
}

/** The tool definitions of an AgentCore Gateway Lambda target (`--format agentcore`): name, description, inputSchema. */
export function agentCoreToolDefinitions(tools: readonly PlatformTool[]): AgentCoreToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: agentCoreSchema({ ...tool.inputSchema, type: "object" }),
  }));
}
