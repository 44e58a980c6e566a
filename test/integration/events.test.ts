import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools } from "#catalog/tools";
import { lambdaContext } from "#local/lambda-context";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { eventCases, eventsDir, renderEvents, toolsMissingEvents } from "#local/event-cases";
import { importHandler } from "#local/gateway";
import { routeKey } from "#local/routes";
import type { localDeps } from "#local/stack";
import type { HttpEvent } from "#runtime/http";
import { seededLocalTables } from "#test/support/local-tables";

/** The sample events in events/: true to the generator, one valid and one invalid per tool, and each answered as listed. */

const cases = eventCases();

describe("events/", () => {
  it("holds exactly what local/generate-events.ts makes (run `npm run events` after changing a case)", async () => {
    const wanted = renderEvents(cases);
    const present = (await readdir(eventsDir)).sort();
    expect(present).toEqual([...wanted.keys()].sort());
    for (const [file, text] of wanted) expect(await readFile(join(eventsDir, file), "utf8"), file).toBe(text);
  });

  it("has a valid and an invalid event for every tool in the registry", () => {
    expect(toolsMissingEvents(cases)).toEqual([]);
    for (const tool of tools) {
      expect(cases.filter((c) => c.tool === tool.name && c.kind === "valid").length, tool.name).toBeGreaterThanOrEqual(1);
      expect(cases.filter((c) => c.tool === tool.name && c.kind === "invalid").length, tool.name).toBeGreaterThanOrEqual(1);
    }
  });

  it("each event is a payload v2.0 event on one of its tool's routes, with the authorizer's string claims and scopes", async () => {
    for (const c of cases) {
      const event = JSON.parse(await readFile(join(eventsDir, c.file), "utf8")) as HttpEvent;
      const tool = tools.find((t) => t.name === c.tool);
      expect(tool?.routes.map(routeKey), c.file).toContain(event.routeKey);
      expect(event).toMatchObject({
        version: "2.0",
        isBase64Encoded: false,
        requestContext: { routeKey: event.routeKey, stage: "$default" },
      });
      expect(event.rawPath, c.file).toBe(event.requestContext.http.path);
      const { claims, scopes } = event.requestContext.authorizer.jwt;
      expect(
        Object.values(claims).every((v) => typeof v === "string"),
        c.file,
      ).toBe(true);
      expect(claims.sub, c.file).toMatch(/^(user|staff|seller)-/);
      expect(scopes, c.file).toContain(tool?.scope);
      if (event.requestContext.http.method === "POST") expect(() => JSON.parse(event.body ?? ""), c.file).not.toThrow();
      else expect(event.pathParameters, c.file).toBeDefined();
    }
  });
});

describe("every sample event, run through its handler on fresh demo data", () => {
  let deps: ReturnType<typeof localDeps>;
  beforeAll(async () => {
    // The events use only the named demo orders, not the bulk of generated sellers.
    deps = await seededLocalTables(splitDemoFixture(demoFixture()).first);
  });
  afterAll(() => deps?.client.destroy());

  it.each(cases.map((c) => [c.file, c] as const))("%s", async (file, c) => {
    const event = JSON.parse(await readFile(join(eventsDir, file), "utf8")) as HttpEvent;
    const handler = await importHandler((tools.find((t) => t.name === c.tool) as (typeof tools)[number]).entry);
    const result = await handler(event, lambdaContext(c.tool));
    const body = JSON.parse(result.body ?? "null");
    expect({ status: result.statusCode, code: body?.error?.code }, JSON.stringify(body)).toEqual({
      status: c.expect.status,
      code: c.expect.code,
    });
    if (c.kind === "invalid" && c.expect.status === 400) expect(body.error.issues.length).toBeGreaterThan(0);
    if (c.expect.status === 200 && body.operationId !== undefined && c.tool !== "get_operation_status")
      expect(body.status).toBe("completed");
  });
});
