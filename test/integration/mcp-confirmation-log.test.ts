import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { principalHash } from "#runtime/observability";
import { newOperationId, newWorld } from "#test/support/world";

const run = promisify(execFile);

/**
 * What an MCP confirmation leaves in the MCP function's structured output (contract §2.1): a line per step, naming
 * the tool, operationId, order and hashed principal, where the answer came from (the client) and which requestState
 * it came with, beside the tool's own line for the change it then made. The endpoint runs in its own process, as in
 * the observability tests of the tools, so stdout is exactly its log.
 */
async function confirmLogged(
  world: Awaited<ReturnType<typeof newWorld>>,
  tool: string,
  args: unknown,
  answer: unknown,
  elicitation?: false,
) {
  const { stdout, stderr } = await run(
    "npx",
    ["tsx", "test/support/mcp-confirm-logged.ts", JSON.stringify({ tool, arguments: args, answer, elicitation })],
    {
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: inject("dynamodbEndpoint"),
        ORDERS_TABLE: world.names.orders,
        IDEMPOTENCY_TABLE: world.names.idempotency,
        POWERTOOLS_LOG_LEVEL: "INFO",
        POWERTOOLS_METRICS_DISABLED: "false",
        POWERTOOLS_SERVICE_NAME: "order-tools",
      },
    },
  );
  const errLines = stderr.trim().split("\n");
  const replies = JSON.parse(errLines.pop() ?? "{}") as { asked: Record<string, any>; answered: Record<string, any> };
  const lines = [...stdout.split("\n"), ...errLines]
    .filter((l) => l.trim().startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { lines, replies };
}

describe("what a confirmation over MCP leaves in the log", () => {
  it("an accepted change: the question asked and the confirmation by the client, each with the requestState's id, then the tool's own line", async () => {
    const world = await newWorld();
    const operationId = newOperationId();
    const { lines, replies } = await confirmLogged(
      world,
      "cancel_order",
      { operationId, orderId: "SU-10001", reason: "Ordered twice" },
      { action: "accept", content: { confirm: true } },
    );

    expect(replies.answered.result).toMatchObject({ resultType: "complete", structuredContent: { status: "completed", orderVersion: 2 } });
    const steps = lines.filter((l) => l.message === "mcp confirmation");
    const principal = principalHash("user-C-1001");
    expect(steps).toEqual([
      expect.objectContaining({
        level: "INFO",
        service: "order-tools",
        tool: "cancel_order",
        operationId,
        orderId: "SU-10001",
        principal,
        requestId: expect.any(String),
        confirmation: { step: "asked", requestState: expect.any(String), expiresAt: expect.any(String), locale: "en" },
      }),
      expect.objectContaining({
        tool: "cancel_order",
        operationId,
        orderId: "SU-10001",
        principal,
        confirmation: { step: "confirmed", by: "mcp-client", requestState: steps[0]?.confirmation.requestState },
      }),
    ]);
    // The state's id is in the state the client held (its payload is signed, not secret), so the line names that state.
    const payload = JSON.parse(Buffer.from(String(replies.asked.result.requestState).split(".")[1]!, "base64url").toString()) as {
      id: string;
    };
    expect(steps[1]?.confirmation.requestState).toBe(payload.id);
    const change = lines.find((l) => l.message === "tool call" && l.tool === "cancel_order");
    expect(change).toMatchObject({ operationId, orderId: "SU-10001", principal, outcome: "completed", status: 200 });
    // The reason and the token never reach the log.
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain("Ordered twice");
    expect(everything).not.toContain("user-C-1001");
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
  }, 60_000);

  it("a declined change: the decline by the client, with its requestState, then the tool's line recording the no, and no change", async () => {
    const world = await newWorld();
    const operationId = newOperationId();
    const { lines, replies } = await confirmLogged(world, "cancel_order", { operationId, orderId: "SU-10001" }, { action: "decline" });

    expect(replies.answered.result).toMatchObject({ resultType: "complete", isError: true });
    const declined = lines.find((l) => l.message === "mcp confirmation" && l.confirmation.step === "declined");
    expect(declined).toMatchObject({
      tool: "cancel_order",
      operationId,
      confirmation: { by: "mcp-client", answer: "decline", requestState: expect.any(String) },
    });
    const toolLines = lines.filter((l) => l.message === "tool call" && l.tool === "cancel_order");
    expect(toolLines).toHaveLength(1);
    expect(toolLines[0]).toMatchObject({ operationId, outcome: "CONFIRMATION_DECLINED" });
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  }, 60_000);

  it("a change made with no person's confirmation (a client that cannot be asked, under allow): its line says unconfirmed, and a metric counts it", async () => {
    const world = await newWorld();
    const operationId = newOperationId();
    const { lines, replies } = await confirmLogged(world, "cancel_order", { operationId, orderId: "SU-10001" }, undefined, false);

    expect(replies.answered.result).toMatchObject({ structuredContent: { status: "completed" } });
    const step = lines.find((l) => l.message === "mcp confirmation");
    expect(step).toMatchObject({
      tool: "cancel_order",
      operationId,
      orderId: "SU-10001",
      confirmation: { step: "unconfirmed", by: "deployment", client: "no form elicitation", setting: "unconfirmedChanges=allow" },
    });
    const metric = lines.find((l) =>
      l._aws?.CloudWatchMetrics?.[0]?.Metrics?.some((m: { Name: string }) => m.Name === "UnconfirmedChange"),
    );
    expect(metric).toMatchObject({ tool: "cancel_order", UnconfirmedChange: 1 });
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "cancelled", version: 2 });
  }, 60_000);
});
