import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { catalogEntry, type JsonSchema } from "#contract/json-schema";
import { type ToolName, toolNamed, tools as registry } from "#contract/tools";
import { parseArguments } from "#contract/validate";
import { withoutNullOptionals } from "#controller/platforms/arguments";
import { exportTools, openaiStrictFormats, openaiStrictKeywords, registerToolFormat, toolFormatNames } from "#controller/platforms/formats";
import { controllerOnlyTools, modelTools } from "#contract/model-tools";
import { repoRoot } from "#local/stack";

/** The model-facing tools, checked against the registry and against each provider's documented rules. */

// With ajv-formats, a `format` in a tool's schema (search_orders' email) is checked, not ignored with a warning.
const ajv = () => addFormats(new Ajv2020({ strict: false, allErrors: true }));
const anthropic = exportTools("anthropic") as { name: string; description: string; input_schema: JsonSchema }[];
const openai = exportTools("openai") as {
  type: string;
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean };
}[];
const offered = registry.filter((t) => !controllerOnlyTools.includes(t.name));

/** Every schema node, with its depth in objects, for rules that hold everywhere. */
function* nodes(schema: JsonSchema, depth = 1): Generator<{ node: JsonSchema; depth: number }> {
  yield { node: schema, depth };
  const next = schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object")) ? depth + 1 : depth;
  for (const child of Object.values((schema.properties ?? {}) as Record<string, JsonSchema>)) yield* nodes(child, next);
  if (schema.items && typeof schema.items === "object") yield* nodes(schema.items as JsonSchema, depth);
  for (const branch of (schema.anyOf ?? []) as JsonSchema[]) yield* nodes(branch, depth);
}

const propertyNames = (schema: JsonSchema) => [...nodes(schema)].flatMap(({ node }) => Object.keys((node.properties ?? {}) as object));

describe("model-facing tools come from the registry", () => {
  it("the same names, in registry order, minus the status lookup (its only argument is an operationId)", () => {
    expect(modelTools().map((t) => t.name)).toEqual(offered.map((t) => t.name));
    expect(controllerOnlyTools).toEqual(["get_operation_status"]);
  });

  it("the registry's input schemas without operationId: every other field, type, constraint and description as published", () => {
    for (const tool of modelTools()) {
      const { $schema: _, ...published } = catalogEntry(toolNamed(tool.name)).inputSchema;
      const { operationId: __, ...properties } = (published.properties ?? {}) as Record<string, unknown>;
      const required = ((published.required ?? []) as string[]).filter((r) => r !== "operationId");
      expect(tool.inputSchema).toEqual({ ...published, properties, ...(required.length ? { required } : {}) });
    }
  });

  it("the registry's descriptions, minus only what they say about operationId", () => {
    for (const tool of modelTools()) {
      const original = toolNamed(tool.name).description;
      if (!original.includes("operationId")) expect(tool.description).toBe(original);
    }
    const cancel = modelTools().find((t) => t.name === "cancel_order")?.description ?? "";
    expect(cancel).toBe(
      "Cancel an order that has not shipped (status placed, processing or dispatching). expectedVersion is optional, since eligibility is checked when the cancellation is written. A shipped order cannot be cancelled: start_return applies once it is delivered. Use it when an order is no longer wanted before it ships. Returns the order's new version and status.",
    );
  });

  it("no operationId and no customer id anywhere, in any format", () => {
    for (const format of ["anthropic", "openai", "bedrock-converse"]) {
      const json = JSON.stringify(exportTools(format));
      expect(json).not.toContain("operationId");
      expect(json).not.toMatch(/customer_?id/i);
    }
    for (const tool of modelTools()) expect(propertyNames(tool.inputSchema).filter((n) => /customer|operation/i.test(n))).toEqual([]);
  });
});

describe("anthropic format: Messages API client tools", () => {
  it("each is {name, description, input_schema} with a name matching ^[a-zA-Z0-9_-]{1,64}$ and an object schema", () => {
    expect(anthropic).toHaveLength(offered.length);
    for (const tool of anthropic) {
      expect(Object.keys(tool).sort()).toEqual(["description", "input_schema", "name"]);
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.description.length).toBeGreaterThan(0);
      expect(tool.input_schema.type).toBe("object");
      expect(tool.input_schema.$schema).toBeUndefined();
      // A valid JSON Schema 2020-12 that accepts what the registry accepts.
      expect(() => ajv().compile(tool.input_schema)).not.toThrow();
    }
    const cancel = ajv().compile(anthropic.find((t) => t.name === "cancel_order")?.input_schema ?? {});
    expect(cancel({ orderId: "SU-10234", reason: "Ordered twice" })).toBe(true);
    expect(cancel({ orderId: "SU-10234", customerId: "C-2002" })).toBe(false);
  });
});

describe("bedrock-converse format: Converse API toolConfig.tools", () => {
  it("each is {toolSpec: {name, description, inputSchema: {json}}}: the anthropic tool's name, description and schema, in Converse's shape", () => {
    const converse = exportTools("bedrock-converse") as Array<{
      toolSpec: { name: string; description: string; inputSchema: { json: JsonSchema } };
    }>;
    expect(converse.map((tool) => Object.keys(tool))).toEqual(offered.map(() => ["toolSpec"]));
    // Converse's ToolSpecification: a name of ^[a-zA-Z0-9_-]{1,64}$, a non-empty description, a JSON Schema object.
    for (const { toolSpec } of converse) {
      expect(Object.keys(toolSpec).sort()).toEqual(["description", "inputSchema", "name"]);
      expect(toolSpec.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(Object.keys(toolSpec.inputSchema)).toEqual(["json"]);
      expect(toolSpec.inputSchema.json.type).toBe("object");
    }
    expect(
      converse.map(({ toolSpec }) => ({ name: toolSpec.name, description: toolSpec.description, input_schema: toolSpec.inputSchema.json })),
    ).toEqual(anthropic);
  });
});

describe("openai format: strict function tools (Structured Outputs' supported schema subset)", () => {
  it("each is {type: function, function: {name, description, parameters, strict: true}}, the name within a-zA-Z0-9_- and 64 characters", () => {
    expect(openai).toHaveLength(offered.length);
    for (const tool of openai) {
      expect(tool.type).toBe("function");
      expect(Object.keys(tool.function).sort()).toEqual(["description", "name", "parameters", "strict"]);
      expect(tool.function.strict).toBe(true);
      expect(tool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });

  it("the root is an object, not anyOf; every object closed with additionalProperties false and every property required", () => {
    for (const { function: fn } of openai) {
      expect(fn.parameters.type).toBe("object");
      expect(fn.parameters.anyOf).toBeUndefined();
      for (const { node } of nodes(fn.parameters)) {
        if (node.properties === undefined && node.type !== "object") continue;
        expect(node.additionalProperties).toBe(false);
        expect(node.required).toEqual(Object.keys((node.properties ?? {}) as object));
      }
    }
  });

  it("optional properties are nullable, required ones are not", () => {
    for (const { function: fn } of openai) {
      const original = modelTools().find((t) => t.name === fn.name)?.inputSchema as JsonSchema;
      const required = new Set((original.required ?? []) as string[]);
      for (const [name, property] of Object.entries(fn.parameters.properties as Record<string, JsonSchema>)) {
        const acceptsNull = ajv().compile(property)(null);
        expect({ tool: fn.name, name, acceptsNull }).toEqual({ tool: fn.name, name, acceptsNull: !required.has(name) });
      }
    }
  });

  it("only supported keywords and string formats, within the documented limits (10 levels of nesting, 5,000 properties, 1,000 enum values)", () => {
    for (const { function: fn } of openai) {
      let properties = 0;
      let enumValues = 0;
      for (const { node, depth } of nodes(fn.parameters)) {
        for (const key of Object.keys(node))
          expect({ tool: fn.name, key, supported: openaiStrictKeywords.has(key) }).toMatchObject({ supported: true });
        if (node.format !== undefined) expect(openaiStrictFormats.has(node.format as string)).toBe(true);
        expect(depth).toBeLessThanOrEqual(10);
        properties += Object.keys((node.properties ?? {}) as object).length;
        enumValues += ((node.enum ?? []) as unknown[]).length;
      }
      expect(properties).toBeLessThanOrEqual(5000);
      expect(enumValues).toBeLessThanOrEqual(1000);
    }
  });

  it("a strict call (every field present, null for those left out) is valid there, and after its nulls are dropped the registry accepts it", () => {
    const calls: Record<string, Record<string, unknown>> = {
      search_orders: { email: null, orderId: "884", dateRange: null, limit: null },
      get_order: { orderId: "SU-88421" },
      cancel_order: { orderId: "SU-10234", expectedVersion: null, reason: null },
      add_delivery_note: { orderId: "SU-30390", expectedVersion: 2, deliveryNote: "Leave it with the neighbour" },
      start_return: { orderId: "SU-30121", expectedVersion: null, itemIds: ["ITM-1"], reason: "damaged", pickupDate: null },
      offer_replacement: { orderId: "SU-20688", expectedVersion: 3, itemId: "ITM-2", reason: "damaged" },
    };
    for (const { function: fn } of openai) {
      const call = calls[fn.name] as Record<string, unknown>;
      expect({ tool: fn.name, valid: ajv().compile(fn.parameters)(call) }).toEqual({ tool: fn.name, valid: true });
      const tool = modelTools().find((t) => t.name === fn.name);
      const input = withoutNullOptionals(call, tool?.inputSchema ?? {}) as Record<string, unknown>;
      expect(Object.values(input)).not.toContain(null);
      const args = tool?.kind === "change" ? { operationId: "op-test-0001", ...input } : input;
      expect(() => parseArguments(toolNamed(fn.name as ToolName).input, fn.name, args)).not.toThrow();
    }
  });

  it("a null for a required field is kept, so validation refuses it as the service would", () => {
    const cancel = modelTools().find((t) => t.name === "cancel_order");
    expect(withoutNullOptionals({ orderId: null, reason: null }, cancel?.inputSchema ?? {})).toEqual({ orderId: null });
  });
});

describe("formats are pluggable, and npm run export-tools writes any of them", () => {
  it("a registered format is exported like the built-in ones; names are unique", () => {
    registerToolFormat({
      name: "names-only",
      summary: "just the names",
      fileName: "names.json",
      document: (tools) => tools.map((t) => t.name),
    });
    expect(toolFormatNames()).toEqual(["anthropic", "openai", "bedrock-converse", "bedrock-action-group", "agentcore", "names-only"]);
    expect(exportTools("names-only")).toEqual(offered.map((t) => t.name));
    expect(() => registerToolFormat({ name: "openai", summary: "", fileName: "x", document: () => [] })).toThrow(/already registered/);
    expect(() => exportTools("bedrock")).toThrow(
      /no tool format "bedrock"; the formats are anthropic, openai, bedrock-converse, bedrock-action-group, agentcore, names-only/,
    );
  });

  it("--format openai --out <dir> writes openai-tools.json; an unknown format exits 2 naming the formats", async () => {
    const run = promisify(execFile);
    const out = await mkdtemp(join(tmpdir(), "export-tools-"));
    try {
      const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
      const { stdout } = await run(tsx, ["scripts/export-tools.ts", "--format", "openai", "--out", out], { cwd: repoRoot });
      expect(stdout).toContain(`Wrote ${offered.length} tools in the openai format`);
      expect(stdout).toContain("(get_operation_status is the application's own)");
      expect(JSON.parse(await readFile(join(out, "openai-tools.json"), "utf8"))).toEqual(openai);
      const failed = await run(tsx, ["scripts/export-tools.ts", "--format", "bedrock"], { cwd: repoRoot }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed).toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          'There is no format "bedrock"; the formats are anthropic, openai, bedrock-converse, bedrock-action-group, agentcore.',
        ),
      });
      // The usage says how to keep npm's banner out of the JSON, and which tool is left out and why.
      expect((failed as { stderr: string }).stderr).toMatch(
        /Usage: npm run --silent export-tools[\s\S]*every tool but get_operation_status, whose only\sargument is an operationId/,
      );
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 30_000);
});
