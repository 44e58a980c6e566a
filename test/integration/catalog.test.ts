import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { toolCatalog, toolCatalogSchema } from "#contract/json-schema";
import { openApiDocument } from "#service/openapi-document";
import { tools } from "#contract/tools";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * GET /v1/tools and GET /v1/openapi.json over real HTTP on the local gateway: public, generated from the registry,
 * and true to what the tools really answer — every body below is checked against the schema the service
 * itself published.
 */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await startGateway({ port: 0 });
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

async function callTool(name: string, args: unknown, token: string) {
  const response = await fetch(`${gateway.url}/v1/tools/${name}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("GET /v1/tools", () => {
  it("serves the catalogue without a token: every registry tool with its schemas and annotations", async () => {
    const reply = await get("/v1/tools");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("application/json");
    expect(reply.headers.get("cache-control")).toBe("public, max-age=300");
    expect(reply.body).toEqual(toolCatalog());
    expect(reply.body.tools.map((t: { name: string }) => t.name)).toEqual(tools.map((t) => t.name));
    for (const entry of reply.body.tools)
      expect(Object.keys(entry)).toEqual(["name", "description", "inputSchema", "outputSchema", "annotations"]);
  });

  it("writes all four MCP hints explicitly for every tool, as MCP defines them (contract §5)", async () => {
    const { body } = await get("/v1/tools");
    const annotations = Object.fromEntries(body.tools.map((t: { name: string; annotations: unknown }) => [t.name, t.annotations]));
    // MCP: readOnly — does not modify its environment; destructive — may make updates that are not only additive;
    // idempotent — the same arguments again have no additional effect; openWorld — reaches beyond a closed domain.
    const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    expect(annotations).toEqual({
      search_orders: read,
      get_order: read,
      // Ends the order: no tool restores it.
      cancel_order: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      // Replaces any earlier note: the earlier one is gone.
      add_delivery_note: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      // Add a return, a replacement line, a pickup or a reservation; overwrite nothing.
      start_return: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      offer_replacement: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      get_operation_status: read,
    });
    for (const tool of tools) {
      // Written in the registry itself, not left to a default: clients differ on defaults, and MCP's are the unsafe side.
      expect(Object.keys(tool.annotations).sort(), tool.name).toEqual([
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
        "readOnlyHint",
      ]);
      expect(tool.annotations.readOnlyHint, tool.name).toBe(tool.kind === "read");
    }
    // The published catalogue's own schema requires all four, so a tool that left one out could not be published.
    const required = z.toJSONSchema(toolCatalogSchema, { io: "output" }) as any;
    expect(required.properties.tools.items.properties.annotations.required.sort()).toEqual([
      "destructiveHint",
      "idempotentHint",
      "openWorldHint",
      "readOnlyHint",
    ]);
  });

  it("publishes output schemas that the tools' real answers satisfy, and input schemas that their real arguments satisfy", async () => {
    const { body } = await get("/v1/tools");
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false, allErrors: true });
    const schemaOf = (name: string) => body.tools.find((t: { name: string }) => t.name === name);
    const check = (name: string, which: "inputSchema" | "outputSchema", value: unknown) => {
      const validator = ajv.compile(schemaOf(name)[which]);
      expect(validator(value), `${name} ${which}: ${ajv.errorsText(validator.errors)}\n${JSON.stringify(value)}`).toBe(true);
    };
    const ana = await signDevToken(principalClaims({ customer: "C-1001" }));
    const calls: Array<[string, Record<string, unknown>]> = [
      ["search_orders", { email: "ana@example.com", limit: 20 }],
      ["search_orders", { orderId: "1000" }],
      ["get_order", { orderId: "SU-10005" }],
      ["get_order", { orderId: "SU-10001" }],
      [
        "add_delivery_note",
        {
          operationId: "op-catalog-note-0001",
          orderId: "SU-10002",
          expectedVersion: 4,
          deliveryNote: "Leave it with the neighbour at no. 12,\nplease.",
        },
      ],
      [
        "offer_replacement",
        { operationId: "op-catalog-repl-0001", orderId: "SU-10005", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" },
      ],
      ["cancel_order", { operationId: "op-catalog-cancel-0001", orderId: "SU-10001" }],
      ["get_operation_status", { operationId: "op-catalog-cancel-0001" }],
      ["get_order", { orderId: "SU-10005" }],
    ];
    for (const [name, args] of calls) {
      check(name, "inputSchema", args);
      const reply = await callTool(name, args, ana);
      expect(reply.status, `${name} ${JSON.stringify(reply.body)}`).toBe(200);
      check(name, "outputSchema", reply.body);
    }
  });
});

describe("GET /v1/openapi.json", () => {
  it("serves a valid OpenAPI 3.1 document without a token, naming the server it was fetched from", async () => {
    const reply = await get("/v1/openapi.json");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("application/json");
    expect(reply.body).toEqual(openApiDocument({ serverUrl: gateway.url }));
    const result = await validate(structuredClone(reply.body) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("describes the error bodies the tools really send, with its shared Error schema", async () => {
    const { body: document } = await get("/v1/openapi.json");
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false, allErrors: true });
    const isError = ajv.compile(document.components.schemas.Error);
    const isNotFound = ajv.compile(document.components.schemas.OperationNotFound);

    const ana = await signDevToken(principalClaims({ customer: "C-1001" }));
    const readOnly = await signDevToken(principalClaims({ customer: "C-1001" }, "orders:read"));
    const failures = [
      await callTool("get_order", { orderId: "SU-123" }, ana),
      await callTool("get_order", { orderId: "SU-20001" }, ana),
      await callTool("cancel_order", { operationId: "op-catalog-shipped-0001", orderId: "SU-10004" }, ana),
      await callTool(
        "add_delivery_note",
        { operationId: "op-catalog-stale-0001", orderId: "SU-10003", expectedVersion: 1, deliveryNote: "Back door" },
        ana,
      ),
      await callTool("cancel_order", { operationId: "op-catalog-forbidden-0001", orderId: "SU-10003" }, readOnly),
      await callTool("get_order", "not json" as never, ana),
    ];
    expect(failures.map((f) => f.status)).toEqual([400, 404, 409, 409, 403, 400]);
    for (const failure of failures)
      expect(isError(failure.body), `${JSON.stringify(failure.body)}: ${ajv.errorsText(isError.errors)}`).toBe(true);

    const notFound = await get("/v1/operations/op-catalog-nothing-0001", { authorization: `Bearer ${ana}` });
    expect(notFound.status).toBe(404);
    expect(isNotFound(notFound.body), ajv.errorsText(isNotFound.errors)).toBe(true);

    // Every status a route answered with is one its operation lists.
    const listed = (path: string) => Object.keys(document.paths[path].post.responses);
    expect(listed("/v1/tools/get_order")).toEqual(expect.arrayContaining(["200", "400", "404"]));
    expect(listed("/v1/tools/cancel_order")).toEqual(expect.arrayContaining(["200", "403", "409"]));
    expect(listed("/v1/tools/add_delivery_note")).toContain("409");
  });
});
