import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type AttributeValue, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTraceparent, newSpanId, newTraceId, xrayTraceId } from "#contract/trace-context";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import { divertStructuredLogs } from "#local/log-sink";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { logger } from "#runtime/logger";
import { principalHash } from "#runtime/observability";
import { runQuery } from "#test/support/logs-insights";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * docs/operations.md, "What happened to operation X?", run as written against the local stack: its Logs Insights
 * query over the JSON log `npm start` writes (local/log-sink.ts), the key of the stored record and the command that
 * computes the Powertools record's key. If the log lines, the keys or the runbook drift apart, this fails.
 */

const runbook = await readFile(join(import.meta.dirname, "../../docs/operations.md"), "utf8");
const run = promisify(execFile);

/** The text of a section of the runbook, from its heading to the next of the same level. */
function section(heading: string): string {
  const start = runbook.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/operations.md has no section "${heading}"`);
  const end = runbook.indexOf("\n## ", start + 1);
  return runbook.slice(start, end < 0 ? undefined : end);
}

/** The fenced code block of a section that contains `marker`. */
function codeBlock(text: string, marker: string): string {
  const block = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes(marker));
  if (!block) throw new Error(`No code block with ${JSON.stringify(marker)} in the runbook section`);
  return block;
}

/** One query of a block of queries: the one whose comment line starts with `title`. */
function query(block: string, title: string): string {
  const queries = block.split(/\n(?=#)/);
  const found = queries.find((q) => q.trim().startsWith(`# ${title}`));
  if (!found) throw new Error(`No query titled ${JSON.stringify(title)}`);
  return found;
}

const operationSection = section("What happened to operation X?");
const tracesSection = section("Traces");

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
let dir: string;
let logFile: string;
const requestLines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "order-tools-runbook-"));
  // What `npm start` does with the handlers' JSON lines: into a file, one JSON object per line. At INFO, as deployed.
  logFile = divertStructuredLogs(join(dir, "gateway.jsonl"));
  logger.setLogLevel("INFO");
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await startGateway({ port: 0, log: (line) => requestLines.push(line) });
});
afterAll(async () => {
  logger.setLogLevel("SILENT");
  await gateway?.close();
  deps?.client.destroy();
  await rm(dir, { recursive: true, force: true });
});

async function post(path: string, body: unknown, token: string, traceparent: string) {
  const before = requestLines.length;
  const response = await fetch(`${gateway.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, traceparent },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // The request line is written once the response is sent.
  while (requestLines.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
  const trace = / trace (1-[0-9a-f]{8}-[0-9a-f]{24})/.exec(requestLines.at(-1) ?? "")?.[1];
  return { status: response.status, body: JSON.parse(text) as Record<string, any>, trace };
}

/** The JSON log lines written so far (the sink writes asynchronously; wait until the lines for `count` calls are in). */
async function logLines(count: number): Promise<string[]> {
  for (let waited = 0; ; waited += 20) {
    const lines = (await readFile(logFile, "utf8")).split("\n").filter((l) => l.startsWith("{"));
    if (lines.filter((l) => l.includes('"message":"tool call"')).length >= count || waited > 5_000) return lines;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the runbook: what happened to operation X?", () => {
  it("step 1's query finds every call that named the operation, in order, with its outcome and both traces; steps 5 and 7 find its records", async () => {
    const token = await signDevToken(principalClaims({ customer: "C-1001" }));
    const operationId = "op-runbook-cancel-0001";
    // One conversation turn's trace: what the controller sends on every call of the turn.
    const turnTrace = newTraceId();
    const traceparent = () => formatTraceparent({ traceId: turnTrace, parentId: newSpanId(), sampled: true });
    const change = { operationId, orderId: "SU-10002", expectedVersion: 4, reason: "Ordered twice" };

    const first = await post("/v1/tools/cancel_order", change, token, traceparent());
    const replay = await post("/v1/tools/cancel_order", change, token, traceparent());
    const lookup = await post("/v1/tools/get_operation_status", { operationId }, token, traceparent());
    // Another operation of the same caller, which the query must leave out.
    const other = await post(
      "/v1/tools/add_delivery_note",
      { operationId: "op-runbook-note-0001", orderId: "SU-10001", expectedVersion: 1, deliveryNote: "Porch" },
      token,
      traceparent(),
    );
    expect([first.status, replay.status, lookup.status, other.status]).toEqual([200, 200, 200, 200]);
    expect(lookup.body).toMatchObject({ status: "completed", tool: "cancel_order" });
    const lines = await logLines(4);

    const asWritten = query(codeBlock(operationSection, 'filter operationId = "<operationId>"'), "What happened to operation X");
    const rows = runQuery(asWritten.replace("<operationId>", operationId), lines);

    expect(rows.map((r) => [r.tool, r.status, r.outcome, r.replayed])).toEqual([
      ["cancel_order", 200, "completed", false],
      ["cancel_order", 200, "completed", true],
      ["get_operation_status", 200, "ok", false],
    ]);
    // Each call's own trace, as the gateway printed it; the turn's trace on all three; the caller, hashed.
    expect(rows.map((r) => r.xray_trace_id)).toEqual([first.trace, replay.trace, lookup.trace]);
    expect(new Set(rows.map((r) => r.xray_trace_id)).size).toBe(3);
    expect(rows.map((r) => r.callerTraceId)).toEqual(Array(3).fill(xrayTraceId(turnTrace)));
    expect(rows.map((r) => r.principal)).toEqual(Array(3).fill(principalHash("user-C-1001")));
    expect(rows.every((r) => typeof r.requestId === "string" && typeof r["@timestamp"] === "string")).toBe(true);

    // The Traces section's query from the turn's trace id: every call of the turn, the other operation's too.
    const byTurn = runQuery(
      query(codeBlock(tracesSection, "callerTraceId"), "The lines of the calls one conversation turn made").replace(
        "<traceId>",
        xrayTraceId(turnTrace),
      ),
      lines,
    );
    expect(byTurn.map((r) => [r.tool, r.operationId])).toEqual([
      ["cancel_order", operationId],
      ["cancel_order", operationId],
      ["get_operation_status", operationId],
      ["add_delivery_note", "op-runbook-note-0001"],
    ]);

    // Step 5: the stored record, by the key as the runbook writes it.
    const sub = "user-C-1001";
    const keyTemplate = /--key "(\{\\"PK\\".*?\})"/.exec(codeBlock(operationSection, "OPERATION#"))?.[1];
    expect(keyTemplate).toBeDefined();
    const key = JSON.parse(keyTemplate!.replaceAll('\\"', '"').replace("$SUB", sub).replace("$OPERATION_ID", operationId)) as Record<
      string,
      AttributeValue
    >;
    const { Item: record } = await deps.client.send(new GetItemCommand({ TableName: deps.tables.orders, Key: key, ConsistentRead: true }));
    expect(record && unmarshall(record)).toMatchObject({ status: "completed", tool: "cancel_order", orderId: "SU-10002", orderVersion: 5 });

    // Step 7: the Powertools record, by the key the runbook's command computes.
    const script = /node -e '(.*?)' "\$SUB" "\$OPERATION_ID"/.exec(codeBlock(operationSection, "order-tools#"))?.[1];
    expect(script).toBeDefined();
    const { stdout } = await run(process.execPath, ["-e", script!, sub, operationId]);
    const { Item: powertools } = await deps.client.send(
      new GetItemCommand({ TableName: deps.tables.idempotency, Key: { id: { S: stdout.trim() } }, ConsistentRead: true }),
    );
    expect(powertools && unmarshall(powertools)).toMatchObject({ status: "COMPLETED", tool: "cancel_order" });
  });

  it("step 6's walk reads the order's history newest first, from its state item back through each change's record", async () => {
    const token = await signDevToken(principalClaims({ customer: "C-1001" }));
    const walk = codeBlock(operationSection, "Item.lastChange.M");
    // The walk as written: the state item's key, where its link is, each entry's fields, and where the next link is.
    const stateKey = /--key "(\{\\"PK\\".*?\})"/.exec(walk)?.[1];
    const [first, next] = [...walk.matchAll(/--query '(Item\.\w+\.M)'/g)].map((m) => m[1] as string);
    const fields = /--query 'Item\.\[(.*?)\]'/.exec(walk)?.[1]?.split(", ");
    expect([stateKey, first, next, fields]).not.toContain(undefined);
    /** The runbook's `--query` paths, read on an item as the AWS CLI gets it: `a.N || b.N` is the first that is there. */
    const at = (item: Record<string, AttributeValue>, path: string): unknown =>
      path
        .split(" || ")
        .map((one) => one.split(".").reduce<unknown>((v, part) => (v as Record<string, unknown> | undefined)?.[part], { Item: item }))
        .find((v) => v !== undefined);
    const get = async (key: unknown) =>
      (
        await deps.client.send(
          new GetItemCommand({ TableName: deps.tables.orders, Key: key as Record<string, AttributeValue>, ConsistentRead: true }),
        )
      ).Item!;

    const orderId = "SU-10001";
    const operationIds = ["op-runbook-walk-0001", "op-runbook-walk-0002"];
    for (const operationId of operationIds) {
      const version = Number((await get({ PK: { S: `ORDER#${orderId}` }, SK: { S: "ORDER" } })).version?.N);
      const reply = await post(
        "/v1/tools/add_delivery_note",
        { operationId, orderId, expectedVersion: version, deliveryNote: `Porch ${version}` },
        token,
        formatTraceparent({ traceId: newTraceId(), parentId: newSpanId(), sampled: true }),
      );
      expect(reply.status).toBe(200);
    }
    const key = JSON.parse(stateKey!.replaceAll('\\"', '"').replace("$ORDER_ID", orderId));
    const lines: unknown[][] = [];
    for (let link = at(await get(key), first!); link !== undefined; ) {
      const entry = await get(link);
      lines.push(fields!.map((field) => at(entry, `Item.${field}`)));
      link = at(entry, next!);
    }
    const current = Number((await get(key)).version?.N);
    // Newest first: the two notes just made, then the note the first test made (version 2), and nothing before it.
    expect(lines.map(([version, when, tool, operationId]) => [version, typeof when, tool, operationId])).toEqual([
      [String(current), "string", "add_delivery_note", operationIds[1]],
      [String(current - 1), "string", "add_delivery_note", operationIds[0]],
      ["2", "string", "add_delivery_note", "op-runbook-note-0001"],
    ]);
  });

  it("the query reads the log as CloudWatch would: nothing for an operation nobody sent, and the error line of a failed call beside its call line", async () => {
    const lines = await logLines(4);
    const asWritten = query(codeBlock(operationSection, 'filter operationId = "<operationId>"'), "What happened to operation X");
    expect(runQuery(asWritten.replace("<operationId>", "op-nobody-sent-this"), lines)).toEqual([]);
    // A line of each kind the query could meet, with the keys the functions write: the ERROR line has no `status`.
    const failed = [
      JSON.stringify({
        level: "ERROR",
        message: "unexpected error",
        timestamp: "2026-12-02T10:00:00.001Z",
        operationId: "op-x",
        requestId: "r1",
        tool: "cancel_order",
      }),
      JSON.stringify({
        level: "INFO",
        message: "tool call",
        timestamp: "2026-12-02T10:00:00.002Z",
        operationId: "op-x",
        requestId: "r1",
        tool: "cancel_order",
        status: 500,
        outcome: "INTERNAL",
      }),
    ];
    expect(runQuery(asWritten.replace("<operationId>", "op-x"), failed).map((r) => [r.requestId, r.outcome ?? "(error line)"])).toEqual([
      ["r1", "(error line)"],
      ["r1", "INTERNAL"],
    ]);
  });
});

describe("the runbook: whether the person confirmed it over MCP", () => {
  /** One 2026-07-28 tools/call from a client that declares form elicitation, with the params given. */
  async function mcpCall(token: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const response = await fetch(`${gateway.url}/v1/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "cancel_order",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "cancel_order",
          arguments: args,
          ...extra,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
          },
        },
      }),
    });
    return ((await response.json()) as { result: Record<string, any> }).result;
  }

  it("step 1's MCP query shows the question asked and the person's answer, from the client, with the question's id", async () => {
    const token = await signDevToken(principalClaims({ customer: "C-1001" }));
    const confirmed = { operationId: "op-runbook-mcp-yes-1", orderId: "SU-10003" };
    const declined = { operationId: "op-runbook-mcp-no-1", orderId: "SU-10001" };
    for (const [args, answer] of [
      [confirmed, { action: "accept", content: { confirm: true } }],
      [declined, { action: "decline" }],
    ] as const) {
      const asked = await mcpCall(token, args);
      expect(asked.resultType).toBe("input_required");
      await mcpCall(token, args, { requestState: asked.requestState, inputResponses: { confirm_change: answer } });
    }
    const lines = await logLines(5);
    const asWritten = query(codeBlock(operationSection, 'message = "mcp confirmation"'), "Whether the person confirmed it over MCP");

    const yes = runQuery(asWritten.replace("<operationId>", confirmed.operationId), lines);
    expect(yes.map((r) => [r["confirmation.step"], r["confirmation.by"] ?? null])).toEqual([
      ["asked", null],
      ["confirmed", "mcp-client"],
    ]);
    expect(yes[1]?.["confirmation.requestState"]).toBe(yes[0]?.["confirmation.requestState"]);
    expect(yes.map((r) => r.principal)).toEqual([principalHash("user-C-1001"), principalHash("user-C-1001")]);
    const no = runQuery(asWritten.replace("<operationId>", declined.operationId), lines);
    expect(no.map((r) => [r["confirmation.step"], r["confirmation.answer"] ?? null])).toEqual([
      ["asked", null],
      ["declined", "decline"],
    ]);
    // And the tools' own query, over the tools' lines alone (their log groups): the lookup the question made first,
    // then the confirmed change; the declined one has the lookup, then its no recorded and nothing changed.
    const toolLines = lines.filter((line) => !line.includes('"message":"mcp confirmation"'));
    const calls = query(codeBlock(operationSection, 'filter operationId = "<operationId>"'), "What happened to operation X");
    const outcomes = (operationId: string) =>
      runQuery(calls.replace("<operationId>", operationId), toolLines).map((r) => [r.tool, r.outcome]);
    expect(outcomes(confirmed.operationId)).toEqual([
      ["get_operation_status", "OPERATION_NOT_FOUND"],
      ["cancel_order", "completed"],
    ]);
    expect(outcomes(declined.operationId)).toEqual([
      ["get_operation_status", "OPERATION_NOT_FOUND"],
      ["cancel_order", "CONFIRMATION_DECLINED"],
    ]);
  });
});
