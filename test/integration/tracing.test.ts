import { execFile } from "node:child_process";
import { createSocket } from "node:dgram";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { formatTraceparent, newSpanId, newTraceId, xrayTraceId } from "#contract/trace-context";
import { principalHash } from "#runtime/observability";
import { customer, newOperationId, newWorld } from "#test/support/world";

const run = promisify(execFile);
const ana = customer("C-1001");

/**
 * A stand-in for the X-Ray daemon Lambda runs beside a function: the X-Ray SDK sends every closed subsegment to
 * AWS_XRAY_DAEMON_ADDRESS over UDP, one JSON document per datagram after a header line.
 */
const documents: Record<string, any>[] = [];
const daemon = createSocket("udp4");
daemon.on("message", (message) => {
  const [, body] = message.toString("utf8").split("\n");
  if (body) documents.push(JSON.parse(body) as Record<string, any>);
});
beforeAll(() => new Promise<void>((resolve) => daemon.bind(0, "127.0.0.1", resolve)));
afterAll(() => new Promise<void>((resolve) => daemon.close(() => resolve())));

/** Every subsegment the daemon received for a trace, nested ones included. */
function subsegmentsOf(traceId: string): Record<string, any>[] {
  const flat: Record<string, any>[] = [];
  const walk = (doc: Record<string, any>, parentId: string | undefined) => {
    flat.push({ ...doc, parent_id: doc.parent_id ?? parentId });
    for (const child of doc.subsegments ?? []) walk(child, doc.id);
  };
  for (const doc of documents.filter((d) => d.trace_id === traceId)) walk(doc, undefined);
  return flat;
}

/**
 * Invokes a tool's handler in its own process as Lambda would with active tracing: `_X_AMZN_TRACE_ID` names the
 * invocation's trace, LAMBDA_TASK_ROOT and AWS_EXECUTION_ENV say it runs in Lambda. Returns the log lines, the reply
 * and the trace id Lambda gave the invocation.
 */
async function invokeTraced(
  tool: string,
  body: unknown,
  options: { tracer?: "powertools"; headers?: Record<string, string>; env?: Record<string, string> } = {},
) {
  const world = await newWorld();
  const traceId = xrayTraceId(newTraceId());
  const event = {
    method: "POST",
    path: `/v1/tools/${tool}`,
    body: JSON.stringify(body),
    claims: ana.claims,
    scopes: ana.scopes,
    headers: options.headers ?? {},
  };
  const { stdout, stderr } = await run("npx", ["tsx", "test/support/invoke-logged.ts", tool, JSON.stringify(event)], {
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: inject("dynamodbEndpoint"),
      ORDERS_TABLE: world.names.orders,
      IDEMPOTENCY_TABLE: world.names.idempotency,
      POWERTOOLS_LOG_LEVEL: "INFO",
      POWERTOOLS_SERVICE_NAME: "order-tools",
      AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
      AWS_LAMBDA_FUNCTION_NAME: `order-tools-${tool}`,
      AWS_LAMBDA_INITIALIZATION_TYPE: "on-demand",
      LAMBDA_TASK_ROOT: process.cwd(),
      _X_AMZN_TRACE_ID: `Root=${traceId};Parent=${newSpanId()};Sampled=1`,
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
      ...(options.tracer ? { ORDER_TOOLS_TRACER: options.tracer } : {}),
      ...options.env,
    },
  });
  const errLines = stderr.trim().split("\n");
  const reply = JSON.parse(errLines.pop() ?? "{}") as { statusCode: number; body: string };
  const lines = [...stdout.split("\n"), ...errLines]
    .filter((l) => l.trim().startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { world, traceId, lines, reply };
}

/** Waits until the daemon holds the tool call's subsegment for the trace (UDP from a process that has exited). */
async function callSubsegment(traceId: string, tool: string): Promise<Record<string, any> | undefined> {
  for (let waited = 0; waited < 3_000; waited += 50) {
    const found = subsegmentsOf(traceId).find((s) => s.name === `## ${tool}`);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

// Each test starts a Node process, as Lambda starts an execution environment: seconds on a loaded machine.
describe("traces (contract §8.1; docs/operations.md, Traces)", { timeout: 60_000 }, () => {
  it("with the Powertools Tracer, a change is one subsegment annotated with its ids and outcome, its DynamoDB requests nested under it, and no personal data", async () => {
    const operationId = newOperationId();
    const note = "Ring twice; the code is 4411";
    const caller = formatTraceparent({ traceId: newTraceId(), parentId: newSpanId(), sampled: true });
    const { world, traceId, lines, reply } = await invokeTraced(
      "add_delivery_note",
      { operationId, orderId: "SU-10001", expectedVersion: 1, deliveryNote: note },
      { tracer: "powertools", headers: { traceparent: caller } },
    );

    expect(reply.statusCode).toBe(200);
    expect((await world.orderItem("SU-10001"))?.deliveryNote).toBe(note);
    const call = await callSubsegment(traceId, "add_delivery_note");
    const callerTrace = xrayTraceId(caller.split("-")[1]!);
    expect(call?.annotations).toEqual({
      tool: "add_delivery_note",
      operationId,
      orderId: "SU-10001",
      outcome: "completed",
      principalKind: "customer",
      callerTraceId: callerTrace,
      ColdStart: true,
      Service: "order-tools",
    });
    expect(call?.fault).toBeUndefined();
    const dynamodb = subsegmentsOf(traceId).filter((s) => s.namespace === "aws" && s.name === "DynamoDB");
    // The request budget's counter, Powertools' in-progress record, the order's state, the transaction, Powertools'
    // completed record.
    expect(dynamodb.map((s) => s.aws.operation)).toEqual(["UpdateItem", "PutItem", "GetItem", "TransactWriteItems", "UpdateItem"]);
    expect(dynamodb.every((s) => s.parent_id === call?.id)).toBe(true);
    expect(dynamodb.map((s) => s.aws.table_name)).toEqual([
      world.names.orders,
      world.names.idempotency,
      world.names.orders,
      undefined,
      world.names.idempotency,
    ]);

    // Without the random ids X-Ray and DynamoDB make, where four hex digits may spell "4411" by chance.
    const sent = JSON.stringify(subsegmentsOf(traceId)).replace(/"(?:id|parent_id|trace_id|request_id|callerTraceId)":"[^"]*"/g, "");
    for (const personal of [note, "4411", "user-C-1001", "C-1001", principalHash("user-C-1001")]) expect(sent).not.toContain(personal);

    // The log line names both traces: the invocation's own (Lambda's) and the one the caller sent.
    expect(lines.find((l) => l.message === "tool call")).toMatchObject({ xray_trace_id: traceId, callerTraceId: callerTrace, operationId });
  });

  it("by default (Lambda's tracing alone) the function sends no subsegment of its own, and its log lines still carry the invocation's trace id", async () => {
    const operationId = newOperationId();
    const { traceId, lines, reply } = await invokeTraced("cancel_order", { operationId, orderId: "SU-10004" });

    expect(reply.statusCode).toBe(409);
    expect(await callSubsegment(traceId, "cancel_order")).toBeUndefined();
    expect(subsegmentsOf(traceId)).toEqual([]);
    const log = lines.find((l) => l.message === "tool call");
    expect(log).toMatchObject({ xray_trace_id: traceId, operationId, outcome: "NOT_ELIGIBLE.ALREADY_SHIPPED" });
    expect(log).not.toHaveProperty("callerTraceId");
  });

  it("a failure on the service's side marks the call's subsegment as a fault, and the error stays in the log line", async () => {
    const operationId = newOperationId();
    // The idempotency table does not exist: Powertools' first request fails after the arguments are known.
    const { traceId, lines, reply } = await invokeTraced(
      "cancel_order",
      { operationId, orderId: "SU-10001" },
      { tracer: "powertools", env: { IDEMPOTENCY_TABLE: "no-such-table" } },
    );

    expect(reply.statusCode).toBe(500);
    const call = await callSubsegment(traceId, "cancel_order");
    expect(call).toMatchObject({ fault: true, annotations: expect.objectContaining({ outcome: "INTERNAL", operationId }) });
    expect(call?.cause).toBeUndefined();
    expect(lines.find((l) => l.level === "ERROR")).toMatchObject({ xray_trace_id: traceId, operationId, error: expect.any(Object) });
  });
});
