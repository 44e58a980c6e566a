import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "#contract/json-schema";
import {
  agentCoreSchemaKeywords,
  type BedrockActionGroup,
  bedrockActionGroupRules,
  bedrockActionGroups,
  type PlatformTool,
} from "#controller/platforms/documents";
import { toolNamed, type ToolName } from "#contract/tools";
import { parseArguments } from "#contract/validate";
import { exportTools, toolFormat, toolFormatNames } from "#controller/platforms/formats";
import { modelTools } from "#contract/model-tools";
import { actionGroupPath, actionGroupTools, typedValue } from "#service/bedrock-agent";

/**
 * `npm run export-tools -- --format bedrock-action-group | agentcore`: generated from the registry's model tools,
 * and held here to each platform's documented rules (the sources are named beside `bedrockActionGroupRules` and
 * `agentCoreSchemaKeywords` in controller/platforms/documents.ts).
 */

const tools = modelTools();

/** Every [path, key, value] of a JSON value, at every depth. */
function* walk(value: unknown, path = "$"): Generator<[string, string, unknown]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* walk(item, `${path}[${i}]`);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      yield [path, key, child];
      yield* walk(child, `${path}.${key}`);
    }
  }
}

describe("the export formats", () => {
  it("offers bedrock-action-group and agentcore beside anthropic and openai, from the same model tools", () => {
    expect(toolFormatNames()).toEqual(expect.arrayContaining(["anthropic", "openai", "bedrock-action-group", "agentcore"]));
    const groups = (exportTools("bedrock-action-group") as { actionGroups: BedrockActionGroup[] }).actionGroups;
    const operations = groups.flatMap((g) =>
      Object.values(g.apiSchema.paths as Record<string, { post: { operationId: string; description: string } }>).map((p) => p.post),
    );
    expect(operations.map((o) => [o.operationId, o.description])).toEqual(tools.map((t) => [t.name, t.description]));
    const agentcore = exportTools("agentcore") as Array<{ name: string; description: string }>;
    expect(agentcore.map((t) => [t.name, t.description])).toEqual(tools.map((t) => [t.name, t.description]));
    expect(toolFormat("bedrock-action-group").fileName).toMatch(/\.json$/);
  });
});

describe("bedrock-action-group: Bedrock Agents' rules for an action group's OpenAPI schema", () => {
  const groups = (toolFormat("bedrock-action-group").document(tools) as { actionGroups: BedrockActionGroup[] }).actionGroups;
  const operationsOf = (group: BedrockActionGroup) =>
    Object.entries(group.apiSchema.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );

  it("is OpenAPI 3.0.0 that a validator accepts, with no enum anywhere and no 3.1-only keyword", async () => {
    for (const group of groups) {
      expect(group.apiSchema.openapi).toBe("3.0.0");
      const result = await validate(structuredClone(group.apiSchema) as never);
      expect(result.valid, JSON.stringify(result)).toBe(true);
      const keys = [...walk(group.apiSchema)].filter(([path]) => !/\.properties$/.test(path)).map(([, key]) => key);
      expect(keys).not.toContain("enum");
      expect(keys).not.toContain("const");
      expect(keys).not.toContain("examples");
      // 3.0 has no type lists ([T, "null"] is `nullable`); a property named "type" is not the keyword.
      expect(
        [...walk(group.apiSchema)].filter(
          ([path, key, value]) => key === "type" && !/\.properties$/.test(path) && typeof value !== "string",
        ),
      ).toEqual([]);
    }
  });

  it("gives each operation a unique, simple operationId, a description within 1,200 characters, and responses", () => {
    for (const group of groups) {
      expect(group.actionGroupName).toMatch(bedrockActionGroupRules.namePattern);
      const ids = operationsOf(group).map((o) => o.operation.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const { path, operation } of operationsOf(group)) {
        expect(path.startsWith("/"), path).toBe(true);
        expect(operation.operationId, path).toMatch(bedrockActionGroupRules.namePattern);
        expect(operation.description.length, path).toBeGreaterThan(0);
        expect(operation.description.length, path).toBeLessThanOrEqual(bedrockActionGroupRules.operationDescriptionCharacters);
        expect(Object.keys(operation.responses), path).toContain("200");
        for (const response of Object.values(operation.responses) as Array<{ content: Record<string, { schema: JsonSchema }> }>) {
          expect(response.content["application/json"]!.schema.type, path).toBeDefined();
        }
      }
    }
  });

  it("keeps every group within 11 operations, splitting a longer list into more groups", () => {
    for (const group of groups) expect(operationsOf(group).length).toBeLessThanOrEqual(bedrockActionGroupRules.operationsPerGroup);
    const many: PlatformTool[] = Array.from({ length: 23 }, (_, i) => ({
      name: `tool_${i}`,
      description: "Use it when testing. Returns nothing.",
      inputSchema: { type: "object", properties: {} },
    }));
    const split = bedrockActionGroups(many);
    expect(split.map((g) => operationsOf(g).length)).toEqual([11, 11, 1]);
    expect(split.map((g) => g.actionGroupName)).toEqual(["order-tools", "order-tools-2", "order-tools-3"]);
  });

  it("keeps each request body within a function's limits: 5 properties of Bedrock's types, described in at most 500 characters, POST only", () => {
    for (const group of groups) {
      for (const { path, method, operation } of operationsOf(group)) {
        expect(method, path).toBe("post");
        const body = operation.requestBody.content["application/json"].schema as JsonSchema;
        const properties = Object.entries(body.properties as Record<string, JsonSchema>);
        expect(properties.length, path).toBeLessThanOrEqual(bedrockActionGroupRules.propertiesPerBody);
        for (const [name, property] of properties) {
          expect(name, `${path} ${name}`).toMatch(bedrockActionGroupRules.namePattern);
          expect(bedrockActionGroupRules.propertyTypes, `${path} ${name}`).toContain(property.type);
          expect(String(property.description).length, `${path} ${name}`).toBeGreaterThan(0);
          expect(String(property.description).length, `${path} ${name}`).toBeLessThanOrEqual(
            bedrockActionGroupRules.propertyDescriptionCharacters,
          );
          if (property.type === "array")
            expect(["string", "number", "integer", "boolean"], `${path} ${name}[]`).toContain((property.items as JsonSchema).type);
        }
        // operationId is never the model's: the action-group function derives it.
        expect(properties.map(([name]) => name)).not.toContain("operationId");
      }
    }
  });

  it("puts the allowed values into descriptions instead of enum", () => {
    const body = (tool: string) =>
      (groups[0]!.apiSchema.paths as any)[`/v1/tools/${tool}`].post.requestBody.content["application/json"].schema.properties;
    expect(body("start_return").reason.description).toMatch(/One of: damaged, wrong_item, not_as_described, no_longer_needed, other\./);
    expect(body("offer_replacement").reason.description).toMatch(/One of: damaged, missing, wrong_item\./);
    expect(body("search_orders").dateRange).toMatchObject({
      type: "string",
      description: expect.stringContaining("dateField (placed, delivered)"),
    });
  });

  it("offers exactly the operations the action-group function serves, on the same paths, and what it declares reads back as the tool's arguments", () => {
    const exported = groups.flatMap(operationsOf).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(exported).toEqual(actionGroupTools().map((tool) => `POST ${actionGroupPath(tool)}`));
    // The example a model is shown for an object given as JSON text is one the tool accepts, once read back.
    const dateRange = (groups[0]!.apiSchema.paths as any)["/v1/tools/search_orders"].post.requestBody.content["application/json"].schema
      .properties.dateRange;
    const example = /For example (\{.*\})\.$/.exec(dateRange.description)![1]!;
    const registry = toolNamed("search_orders" as ToolName);
    const read = typedValue(
      example,
      (tools.find((t) => t.name === "search_orders")!.inputSchema.properties as Record<string, JsonSchema>).dateRange,
    );
    expect(parseArguments(registry.input, "search_orders", { dateRange: read })).toMatchObject({
      dateRange: { dateField: "placed", from: "2026-03-01", to: "2026-03-31" },
    });
  });
});

describe("agentcore: AgentCore Gateway target tool schemas", () => {
  const definitions = toolFormat("agentcore").document(tools) as Array<{ name: string; description: string; inputSchema: JsonSchema }>;

  it("is a list of tool definitions, each {name, description, inputSchema} with an object schema at the top", () => {
    for (const definition of definitions) {
      expect(Object.keys(definition)).toEqual(["name", "description", "inputSchema"]);
      expect(definition.inputSchema.type).toBe("object");
    }
  });

  it("uses only type, properties, required, items and description, with a type at every level", () => {
    for (const definition of definitions) {
      const schemaKeys = [...walk(definition.inputSchema)].filter(([path]) => !/\.properties$/.test(path));
      expect(
        schemaKeys.filter(([, key]) => !(agentCoreSchemaKeywords as readonly string[]).includes(key)),
        definition.name,
      ).toEqual([]);
      const untyped = [...walk({ root: definition.inputSchema })].filter(
        ([path, key, value]) =>
          (key === "root" || /\.properties$/.test(path) || key === "items") && (value as JsonSchema).type === undefined,
      );
      expect(untyped, definition.name).toEqual([]);
    }
  });

  it("says the allowed values in words, leaves out operationId, and accepts what the tool accepts", () => {
    const byName = Object.fromEntries(definitions.map((d) => [d.name, d.inputSchema as any]));
    expect(byName.start_return.properties.reason.description).toMatch(
      /One of: damaged, wrong_item, not_as_described, no_longer_needed, other\./,
    );
    expect(byName.search_orders.properties.dateRange.properties.dateField.description).toMatch(/One of: placed, delivered\./);
    for (const definition of definitions) expect(JSON.stringify(definition.inputSchema)).not.toContain("operationId");
    const ajv = new Ajv2020({ strict: true });
    const accepts = ajv.compile(byName.start_return);
    const args = { orderId: "SU-88421", itemIds: ["ITM-1"], reason: "damaged" };
    expect(accepts(args)).toBe(true);
    expect(parseArguments(toolNamed("start_return").input, "start_return", { ...args, operationId: "op-12345678" })).toMatchObject(args);
  });
});
