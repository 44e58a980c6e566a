import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { type JsonSchema, jsonSchemaDialect, toolCatalog, toolCatalogSchema } from "#contract/json-schema";
import { errorCodeList, httpStatusOf, toolErrors } from "#contract/error-codes";
import { openApiDocument, securitySchemeName } from "#service/openapi-document";
import { isDocumented, serviceFunctions } from "#deploy/service-functions";
import type { ToolName } from "#contract/tools";
import { deployedTools as tools } from "#deploy/tool-functions";
import type { ErrorCode } from "#core/errors";

/** The published schemas and the OpenAPI document, as generated from the registry: valid, described, complete. */

const catalog = toolCatalog();
const schemasOf = (entry: (typeof catalog.tools)[number]) =>
  [
    ["inputSchema", entry.inputSchema],
    ["outputSchema", entry.outputSchema],
  ] as const;

/** A strict draft 2020-12 validator: an unknown keyword or a malformed schema fails to compile. */
const strictAjv = () => new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false, allErrors: true });

/** Every property of every object schema, at every depth (through items, anyOf/oneOf/allOf branches). */
function propertiesOf(schema: unknown, path = "$"): Array<{ path: string; schema: JsonSchema }> {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as JsonSchema;
  const found: Array<{ path: string; schema: JsonSchema }> = [];
  for (const [name, property] of Object.entries((node.properties as Record<string, JsonSchema> | undefined) ?? {})) {
    found.push({ path: `${path}.${name}`, schema: property }, ...propertiesOf(property, `${path}.${name}`));
  }
  if (node.items) found.push(...propertiesOf(node.items, `${path}[]`));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const [i, branch] of ((node[key] as unknown[] | undefined) ?? []).entries())
      found.push(...propertiesOf(branch, `${path}<${key}${i}>`));
  }
  return found;
}

describe("the tool catalogue's JSON Schemas", () => {
  it("lists every registry tool, in registry order, with its description and annotations", () => {
    expect(catalog.tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const [i, tool] of tools.entries()) {
      expect(catalog.tools[i]).toMatchObject({ description: tool.description, annotations: tool.annotations });
    }
    expect(toolCatalogSchema.safeParse(catalog).success).toBe(true);
  });

  it("are valid JSON Schema draft 2020-12 that a strict validator compiles, each an object schema at the top", () => {
    const ajv = strictAjv();
    for (const entry of catalog.tools) {
      for (const [which, schema] of schemasOf(entry)) {
        expect(schema.$schema, `${entry.name} ${which}`).toBe(jsonSchemaDialect);
        expect(ajv.validateSchema(schema), `${entry.name} ${which}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
        expect(() => ajv.compile(schema), `${entry.name} ${which}`).not.toThrow();
        // MCP requires "type": "object" at the top of both schemas, unions included.
        expect(schema.type, `${entry.name} ${which}`).toBe("object");
      }
    }
  });

  it("describes every property at every level, and each schema as a whole", () => {
    const undescribed: string[] = [];
    for (const entry of catalog.tools) {
      for (const [which, schema] of schemasOf(entry)) {
        if (typeof schema.description !== "string" || schema.description === "") undescribed.push(`${entry.name} ${which}`);
        for (const { path, schema: property } of propertiesOf(schema)) {
          if (typeof property.description !== "string" || property.description.trim() === "")
            undescribed.push(`${entry.name} ${which} ${path}`);
        }
      }
    }
    expect(undescribed).toEqual([]);
    // The walk does reach deep fields: get_order's item descriptions sit inside an array of union branches.
    expect(propertiesOf(catalog.tools.find((t) => t.name === "get_order")!.outputSchema).map((p) => p.path)).toContain(
      "$.items[].description<oneOf0>.sellerId",
    );
  });

  it("publishes inputs as callers send them: a defaulted field is optional, a transformed one is described by what it accepts", () => {
    const search = catalog.tools.find((t) => t.name === "search_orders")!.inputSchema as any;
    expect(search.required ?? []).not.toContain("limit");
    expect(search.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 20, default: 10 });
    const note = catalog.tools.find((t) => t.name === "add_delivery_note")!.inputSchema as any;
    expect(note.properties.deliveryNote).toMatchObject({ type: "string" });
    expect(note.required).toEqual(["operationId", "orderId", "expectedVersion", "deliveryNote"]);
    expect(note.additionalProperties).toBe(false);
  });

  it("leaves out zod's ±(2^53−1) bounds on whole numbers, and keeps real ones", () => {
    const text = JSON.stringify(catalog);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const order = catalog.tools.find((t) => t.name === "get_order")!.outputSchema as any;
    expect(order.properties.version).toMatchObject({ type: "integer", minimum: 1 });
    expect(order.properties.totalCents).toEqual({ type: "integer", description: expect.any(String) });
  });

  it("accepts what a tool really takes and refuses what it refuses, as far as JSON Schema can say", () => {
    const ajv = strictAjv();
    const cancel = ajv.compile(catalog.tools.find((t) => t.name === "cancel_order")!.inputSchema);
    expect(cancel({ operationId: "op-2f6c1d9e", orderId: "SU-88421" })).toBe(true);
    expect(cancel({ operationId: "op-2f6c1d9e", orderId: "SU-88421", customerId: "C-1001" })).toBe(false);
    expect(cancel({ operationId: "op", orderId: "SU-88421" })).toBe(false);
    const status = ajv.compile(catalog.tools.find((t) => t.name === "get_operation_status")!.outputSchema);
    expect(status({ operationId: "op-2f6c1d9e", status: "pending", tool: "cancel_order", retryAfterSeconds: 2 })).toBe(true);
    expect(status({ operationId: "op-2f6c1d9e", status: "done", tool: "cancel_order" })).toBe(false);
  });
});

describe("the OpenAPI document", () => {
  const document = openApiDocument({ serverUrl: "https://api.example.com" }) as any;

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(document).toMatchObject({
      openapi: expect.stringMatching(/^3\.1\./),
      jsonSchemaDialect,
      servers: [{ url: "https://api.example.com" }],
    });
    expect(openApiDocument().servers).toBeUndefined();
  });

  it("is a new document on every call, so a caller that changes its copy (a validator dereferencing it) changes no other", async () => {
    const first = openApiDocument({ serverUrl: "https://api.example.com" }) as any;
    await validate(first);
    first.paths["/v1/tools"].get.responses = {};
    expect(openApiDocument({ serverUrl: "https://api.example.com" })).toEqual(document);
    expect(Object.keys(document.paths["/v1/tools"].get.responses)).toEqual(["200", "429"]);
  });

  it("has exactly the routes of contract §2", () => {
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        ...tools.flatMap((t) => t.routes.map((r) => `${r.method} ${r.path}`)),
        "GET /v1/tools",
        "GET /v1/openapi.json",
        "POST /v1/mcp",
        "GET /.well-known/oauth-protected-resource/v1/mcp",
      ].sort(),
    );
    // Every route the stack deploys, but GET and DELETE /v1/mcp (they only ever answer 405, which POST /v1/mcp
    // describes) and the root form of the metadata (the same document as the path-aware one).
    expect(operations.sort()).toEqual(
      [...tools, ...serviceFunctions.map((f) => ({ routes: f.routes.filter(isDocumented) }))]
        .flatMap((f) => f.routes.map((r) => `${r.method} ${r.path}`))
        .sort(),
    );
  });

  it("gives every tool route its input as the request body, its output as the 200 body, and its scope on the OAuth 2.0 scheme", () => {
    expect(document.components.securitySchemes[securitySchemeName]).toMatchObject({
      type: "oauth2",
      flows: {
        authorizationCode: { scopes: expect.objectContaining({ "orders:read": expect.any(String), "orders:write": expect.any(String) }) },
      },
    });
    for (const tool of tools) {
      const name = tool.name.replace(/(^|_)([a-z])/g, (_: string, __: string, c: string) => c.toUpperCase());
      expect(document.components.schemas[`${name}Input`]).toEqual(
        (({ $schema, ...rest }) => rest)(catalog.tools.find((t) => t.name === tool.name)!.inputSchema),
      );
      expect(document.components.schemas[`${name}Output`]).toEqual(
        (({ $schema, ...rest }) => rest)(catalog.tools.find((t) => t.name === tool.name)!.outputSchema),
      );
      for (const route of tool.routes) {
        const operation = document.paths[route.path][route.method.toLowerCase()];
        expect(operation.security, route.path).toEqual([{ [securitySchemeName]: [tool.scope] }]);
        expect(operation.description).toBe(tool.description);
        expect(operation.responses["200"].content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${name}Output` });
        if (route.method === "POST")
          expect(operation.requestBody.content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${name}Input` });
        else expect(operation.requestBody).toBeUndefined();
      }
    }
    const byPath = document.paths["/v1/operations/{operationId}"].get;
    expect(byPath.parameters).toEqual([
      expect.objectContaining({
        name: "operationId",
        in: "path",
        required: true,
        schema: expect.objectContaining({ pattern: "^[A-Za-z0-9._:-]{8,128}$" }),
      }),
    ]);
    expect(new Set(Object.values(document.paths).flatMap((m: any) => Object.values(m).map((o: any) => o.operationId))).size).toBe(
      Object.values(document.paths).flatMap((m: any) => Object.keys(m)).length,
    );
  });

  it("gives every error code the HTTP status of contract §3's table", () => {
    const spec: Record<ErrorCode, number> = {
      INVALID_INPUT: 400,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      ORDER_NOT_FOUND: 404,
      OPERATION_NOT_FOUND: 404,
      VERSION_CONFLICT: 409,
      NOT_ELIGIBLE: 409,
      SELLER_SUSPENDED: 409,
      OUT_OF_STOCK: 409,
      NO_PICKUP_SLOT: 409,
      OPERATION_IN_PROGRESS: 409,
      IDEMPOTENCY_KEY_REUSED: 422,
      RATE_LIMITED: 429,
      INTERNAL: 500,
      // Not in contract §3's table: the definite answer when an order has reached DynamoDB's item size.
      ORDER_TOO_LARGE: 409,
    };
    expect(Object.fromEntries(errorCodeList.map((code) => [code, httpStatusOf(code)]))).toEqual(spec);
  });

  it("lists for each tool route the contract §3 errors it can answer with, under their HTTP status, with the shared Error schema", () => {
    expect(errorCodeList).toHaveLength(15);
    for (const tool of tools) {
      const responses = document.paths[tool.routes[0]!.path][tool.routes[0]!.method.toLowerCase()].responses;
      const codes = toolErrors[tool.name as ToolName];
      const statuses = [...new Set(codes.map(httpStatusOf))].map(String).sort();
      expect(
        Object.keys(responses)
          .filter((s) => s !== "200")
          .sort(),
        tool.name,
      ).toEqual(statuses);
      for (const code of codes) {
        const response = responses[String(httpStatusOf(code))];
        expect(response.description, `${tool.name} ${code}`).toContain(code);
        const schema = JSON.stringify(response.content["application/json"].schema);
        expect(schema).toContain(code === "OPERATION_NOT_FOUND" ? "#/components/schemas/OperationNotFound" : "#/components/schemas/Error");
      }
    }
    expect(toolErrors.cancel_order).toEqual(
      expect.arrayContaining(["VERSION_CONFLICT", "NOT_ELIGIBLE", "IDEMPOTENCY_KEY_REUSED", "RATE_LIMITED"]),
    );
    expect(httpStatusOf("IDEMPOTENCY_KEY_REUSED")).toBe(422);
    expect(document.components.schemas.Error.properties.error.properties.code.enum).toEqual(errorCodeList);
    // A recorded rejection is replayed with the header, like a success.
    expect(document.paths["/v1/tools/cancel_order"].post.responses["409"].headers).toHaveProperty("Idempotent-Replayed");
    expect(document.paths["/v1/tools/get_order"].post.responses["200"].headers).toBeUndefined();
  });

  it("declares Retry-After on every response that can carry retryAfterSeconds: each 429, and each 409 that can be OPERATION_IN_PROGRESS", () => {
    const declaring: string[] = [];
    for (const tool of tools) {
      for (const route of tool.routes) {
        const responses = document.paths[route.path][route.method.toLowerCase()].responses;
        const codes = toolErrors[tool.name as ToolName];
        for (const [status, response] of Object.entries(responses as Record<string, JsonSchema>)) {
          const says = codes.some(
            (code) => String(httpStatusOf(code)) === status && ["RATE_LIMITED", "OPERATION_IN_PROGRESS"].includes(code),
          );
          const header = (response.headers as Record<string, unknown> | undefined)?.["Retry-After"];
          expect(header, `${tool.name} ${route.method} ${status}`).toEqual(says ? { $ref: "#/components/headers/RetryAfter" } : undefined);
          if (says) declaring.push(`${tool.name} ${status}`);
        }
      }
    }
    expect(declaring).toEqual(expect.arrayContaining(["search_orders 429", "cancel_order 409", "cancel_order 429"]));
    expect(document.components.headers.RetryAfter).toEqual({
      description: expect.stringMatching(/retryAfterSeconds/),
      schema: { type: "integer", minimum: 0 },
    });
  });

  it("publishes the catalogue and itself without a token, and MCP with a token but no route scope", () => {
    expect(document.paths["/v1/tools"].get.security).toEqual([]);
    expect(document.paths["/v1/openapi.json"].get.security).toEqual([]);
    expect(document.paths["/v1/mcp"].post.security).toEqual([{ [securitySchemeName]: [] }]);
    expect(document.paths["/v1/mcp"].post.responses).toHaveProperty("202");
    expect(document.components.schemas.ToolCatalog.properties.tools.items.required).toEqual([
      "name",
      "description",
      "inputSchema",
      "outputSchema",
      "annotations",
    ]);
  });

  it("holds every schema to the same strict draft 2020-12 compiler", () => {
    const ajv = strictAjv();
    for (const [name, schema] of Object.entries(document.components.schemas as Record<string, JsonSchema>)) {
      ajv.addSchema({ ...schema, $id: `https://order-tools.example/schemas/${name}` });
    }
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.getSchema(`https://order-tools.example/schemas/${name}`), name).not.toThrow();
    }
  });
});
