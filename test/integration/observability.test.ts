import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { principalHash } from "#runtime/observability";
import { customer, newOperationId, newWorld } from "#test/support/world";

const run = promisify(execFile);
const ana = customer("C-1001");

/** Invokes a tool's deployed handler in its own process and returns its stdout as parsed JSON lines, and its reply. */
async function invokeLogged(world: Awaited<ReturnType<typeof newWorld>>, tool: string, body: unknown, env: Record<string, string> = {}) {
  const event = { method: "POST", path: `/v1/tools/${tool}`, body: JSON.stringify(body), claims: ana.claims, scopes: ana.scopes };
  const { stdout, stderr } = await run("npx", ["tsx", "test/support/invoke-logged.ts", tool, JSON.stringify(event)], {
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: inject("dynamodbEndpoint"),
      ORDERS_TABLE: world.names.orders,
      IDEMPOTENCY_TABLE: world.names.idempotency,
      POWERTOOLS_LOG_LEVEL: "INFO",
      POWERTOOLS_METRICS_DISABLED: "false",
      POWERTOOLS_SERVICE_NAME: "order-tools",
      ...env,
    },
  });
  // Powertools writes ERROR lines to stderr (both reach CloudWatch); the script's last stderr line is the reply.
  const errLines = stderr.trim().split("\n");
  const reply = JSON.parse(errLines.pop() ?? "{}") as { statusCode: number; body: string };
  const lines = [...stdout.split("\n"), ...errLines]
    .filter((l) => l.trim().startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { lines, reply };
}

describe("what a call leaves in the structured output", () => {
  it("a change: one log line with the correlation keys, EMF metrics by tool and outcome; no token, no note", async () => {
    const world = await newWorld();
    const operationId = newOperationId();
    const note = "Ring twice; the code is 4411";
    const { lines, reply } = await invokeLogged(world, "add_delivery_note", {
      operationId,
      orderId: "SU-10001",
      expectedVersion: 1,
      deliveryNote: note,
    });

    expect(reply.statusCode).toBe(200);
    const log = lines.find((l) => l.message === "tool call");
    expect(log).toMatchObject({
      level: "INFO",
      service: "order-tools",
      tool: "add_delivery_note",
      operationId,
      orderId: "SU-10001",
      principal: principalHash("user-C-1001"),
      status: 200,
      outcome: "completed",
      replayed: false,
    });
    expect(typeof log?.requestId).toBe("string");
    expect(log?.requestId.length).toBeGreaterThan(8);
    const emf = lines.filter((l) => l._aws?.CloudWatchMetrics);
    const outcome = emf.find((l) => l.Outcome === 1);
    expect(outcome).toMatchObject({ tool: "add_delivery_note", outcome: "completed", service: "order-tools" });
    expect(outcome?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: "OrderTools",
      Dimensions: [expect.arrayContaining(["tool", "outcome"])],
    });
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain(note);
    expect(everything).not.toContain("user-C-1001");
    expect(everything).not.toContain("C-1001");
    expect((await world.orderItem("SU-10001"))?.deliveryNote).toBe(note);
  });

  it("a rejection and a replay are counted by code and reason; the replay by itself", async () => {
    const world = await newWorld();
    const operationId = newOperationId();
    const first = await invokeLogged(world, "cancel_order", { operationId, orderId: "SU-10004" });
    expect(first.reply.statusCode).toBe(409);
    expect(first.lines.find((l) => l.Outcome === 1)).toMatchObject({ tool: "cancel_order", outcome: "NOT_ELIGIBLE.ALREADY_SHIPPED" });

    const again = await invokeLogged(world, "cancel_order", { operationId, orderId: "SU-10004" });
    expect(again.lines.find((l) => l.Replayed === 1)).toMatchObject({ tool: "cancel_order" });
    expect(again.lines.find((l) => l.message === "tool call")).toMatchObject({
      replayed: true,
      outcome: "NOT_ELIGIBLE.ALREADY_SHIPPED",
      operationId,
    });
    expect(await world.orderItem("SU-10004")).toMatchObject({ status: "shipped", version: 5 });
  });

  it("an unexpected failure is logged once as an error with the call's keys and the cause; the caller gets INTERNAL", async () => {
    const world = await newWorld();
    const operationId = newOperationId();
    // The idempotency table does not exist: Powertools' first request fails after the arguments are known.
    const { lines, reply } = await invokeLogged(
      world,
      "cancel_order",
      { operationId, orderId: "SU-10001" },
      { IDEMPOTENCY_TABLE: "no-such-table" },
    );

    expect(reply.statusCode).toBe(500);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: "INTERNAL" } });
    const errors = lines.filter((l) => l.level === "ERROR");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      message: "unexpected error",
      service: "order-tools",
      tool: "cancel_order",
      operationId,
      orderId: "SU-10001",
      principal: principalHash("user-C-1001"),
      error: { name: expect.any(String), message: expect.any(String), stack: expect.any(String) },
    });
    expect(errors[0]?.requestId).toBe(lines.find((l) => l.message === "tool call")?.requestId);
    expect(lines.find((l) => l.message === "tool call")).toMatchObject({ status: 500, outcome: "INTERNAL", operationId });
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });
});
