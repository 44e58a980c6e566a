/**
 * The controller's cost, measured (run with `npx tsx bench/sections/controller-cost.ts [--calls N]`, or from
 * `npm run bench` once wired there): against a DynamoDB Local and the real handlers behind the local gateway,
 * all started here,
 * - a raw cancel_order over HTTP (the service alone), interleaved with
 * - the same change through the controller (a scripted model proposing it, so no model latency), with each
 *   intent store: memory, file (an fsync per transition) and DynamoDB (DynamoDB Local);
 * printing p50/p95 and the added latency per change against the raw call's p50 in the same run — for the
 * whole turn, and for the dispatch alone (from the trace: proposal validated → outcome recorded, minus the
 * HTTP round trip). Then the HTTP requests per turn of each controller-demo case (examples/controller-demo).
 *
 * Everything runs on this machine: the absolute times are local round trips; the differences are the
 * controller's own work (validation, guard, intent writes, classification, gate).
 */
import "#examples/controller-demo/quiet";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { createController } from "#controller/controller";
import { readMessage } from "#controller/guard/message";
import { type ProvenanceInput, provenance } from "#controller/guard/provenance";
import { DynamoDbIntentStore } from "#controller/intents/dynamodb";
import { FileIntentStore } from "#controller/intents/file";
import { MemoryIntentStore } from "#controller/intents/memory";
import type { IntentStore } from "#controller/intents/store";
import { intentTable } from "#controller/intents/intent-table";
import { scriptedModel } from "#controller/model/scripted";
import { withTestSeams } from "#controller/testing";
import type { TurnTrace } from "#controller/trace/record";
import { createTable, createTables, localClientConfig } from "#local/create-tables";
import { demoCases, demoWorld } from "#examples/controller-demo/cases";
import { type DemoStack, runDemoCase, seedDemoWorld } from "#examples/controller-demo/run";
import { startDynamoDbLocal } from "#local/dynamodb-local";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { startGateway } from "#local/gateway";
import { localDeps, useTables } from "#local/stack";
import { parseFixture, writeFixture } from "#store/fixture";

export interface ControllerBenchOptions {
  /** Changes per measured series; at least 100. */
  calls?: number;
  log?: (line: string) => void;
}

const customerId = "C-7001";

export async function benchController(options: ControllerBenchOptions = {}): Promise<void> {
  const calls = Math.max(100, options.calls ?? 200);
  const warmup = 20;
  const log = options.log ?? console.log;
  // Hundreds of cancellations by one customer: the hourly cap and the per-minute request budget would stop
  // them, and they are not what is measured (0 turns each off).
  process.env.ORDER_TOOLS_HOURLY_CAP = "0";
  process.env.ORDER_TOOLS_REQUEST_BUDGET = "0";
  const dynamo = await startDynamoDbLocal();
  const dir = await mkdtemp(join(tmpdir(), "bench-controller-"));
  const client = new DynamoDBClient({ ...localClientConfig(dynamo.endpoint), maxAttempts: 1 });
  const tables = { orders: "bench-orders", idempotency: "bench-idempotency" };
  const gatewayStarted = (async () => {
    await createTables(client, tables);
    await createTable(client, intentTable, "bench-intents");
    useTables(dynamo.endpoint, tables);
    return startGateway({ port: 0 });
  })();
  const gateway = await gatewayStarted.catch(async (error: unknown) => {
    await dynamo.stop();
    throw error;
  });
  const deps = localDeps(dynamo.endpoint, tables);
  try {
    const series = [
      "raw service call",
      "controller, memory store",
      "controller, file store (fsync)",
      "controller, DynamoDB store",
      "controller, memory store, provenance control off",
      "controller, memory store, held and confirmed (turn + confirm())",
    ] as const;
    const perSeries = calls + warmup;
    const orderIds = series.map((_, s) =>
      Array.from({ length: perSeries }, (_, i) => `SU-${String(10_000 + s * perSeries + i).padStart(5, "0")}`),
    );
    const today = new Date().toISOString().slice(0, 10);
    await writeFixture(
      deps,
      parseFixture({
        sellers: [{ id: "SLR-1", name: "Sundry", type: "sundry", status: "active" }],
        customers: [{ id: customerId, email: "bench@example.com", name: "Bench Customer" }],
        orders: orderIds.flat().map((id) => ({
          id,
          customerId,
          sellerId: "SLR-1",
          status: "placed",
          version: 1,
          placedAt: `${today}T08:00:00Z`,
          deliveredAt: null,
          currency: "GBP",
          items: [{ itemId: "ITM-1", sku: "SKU-1", title: "Kettle", quantity: 1, unitCents: 2999, description: "A kettle." }],
          charges: [{ kind: "item", cents: 2999 }],
          delivery: { carrier: "Parcelline", trackingId: null },
          deliveryNote: null,
          internal: {},
        })),
      }),
    );
    const token = await signDevToken(principalClaims({ customer: customerId }), { ttlSeconds: 3600 });
    const file = new FileIntentStore(join(dir, "intents.jsonl"));
    const stores: IntentStore[] = [new MemoryIntentStore(), file, new DynamoDbIntentStore({ client, tableName: "bench-intents" })];

    const raw = async (orderId: string, n: number) => {
      const started = performance.now();
      const response = await fetch(`${gateway.url}/v1/tools/cancel_order`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ operationId: `op-bench-raw-${n}`, orderId }),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`raw cancel_order answered ${response.status}`);
      return { total: performance.now() - started };
    };
    const through =
      (store: IntentStore, provenance = true) =>
      async (orderId: string, n: number) => {
        const controller = createController(
          withTestSeams(
            {
              service: { baseUrl: gateway.url, token },
              model: scriptedModel([{ call: "cancel_order", input: { orderId } }, { say: `Order ${orderId} is cancelled.` }]),
              intents: store,
            },
            provenance ? {} : { provenance: false },
          ),
        );
        const started = performance.now();
        const turn = await controller.conversation(`bench-${n}-${orderId}`).turn(`Cancel ${orderId}`);
        const total = performance.now() - started;
        if (turn.replyKind !== "confirmation") throw new Error(`the controller's turn ended ${turn.replyKind}: ${turn.reply}`);
        return { total, dispatch: dispatchOverhead(turn.trace) };
      };
    // A change the control holds (a German conversation: no fast path) and the principal's button then sends.
    const confirmed = async (orderId: string, n: number) => {
      const controller = createController({
        service: { baseUrl: gateway.url, token },
        model: scriptedModel([{ call: "cancel_order", input: { orderId } }, { say: "Soll ich?" }]),
        intents: new MemoryIntentStore(),
      });
      const started = performance.now();
      const conversation = controller.conversation(`bench-held-${n}-${orderId}`, undefined, { locale: "de" });
      const held = await conversation.turn(`Bitte stornieren Sie ${orderId}.`);
      if (!held.confirmation) throw new Error(`the change was not held: ${held.reply}`);
      const turn = await conversation.confirm(held.confirmation.confirmationId);
      const total = performance.now() - started;
      if (turn.replyKind !== "confirmation") throw new Error(`the confirmation ended ${turn.replyKind}: ${turn.reply}`);
      // Two turns, the second without a proposal: the whole of both is the figure.
      return { total };
    };
    const runners = [raw, ...stores.map((store) => through(store)), through(new MemoryIntentStore(), false), confirmed];
    const results = series.map(() => ({ total: [] as number[], dispatch: [] as number[] }));
    // Interleaved, rotating which goes first, so every series meets the same JIT, cache and machine state.
    for (let i = 0; i < perSeries; i++) {
      for (let k = 0; k < runners.length; k++) {
        const s = (i + k) % runners.length;
        const result = await (runners[s] as (orderId: string, n: number) => Promise<{ total: number; dispatch?: number }>)(
          orderIds[s]?.[i] as string,
          i,
        );
        if (i < warmup) continue;
        results[s]?.total.push(result.total);
        if (result.dispatch !== undefined) results[s]?.dispatch.push(result.dispatch);
      }
    }
    await file.close();

    const rawP50 = p50(results[0]?.total ?? []);
    log(`cancel_order, ${calls} changes per series (after ${warmup} warm-up), interleaved; each on an order of its own.\n`);
    table(
      log,
      ["series", "turn p50 ms", "turn p95 ms", "added p50 vs raw", "dispatch overhead p50 ms", "p95 ms"],
      series.map((name, s) => {
        const r = results[s] ?? { total: [], dispatch: [] };
        return [
          name,
          p50(r.total).toFixed(2),
          p95(r.total).toFixed(2),
          s === 0 ? "—" : `+${(p50(r.total) - rawP50).toFixed(2)} ms`,
          r.dispatch.length ? p50(r.dispatch).toFixed(1) : "—",
          r.dispatch.length ? p95(r.dispatch).toFixed(1) : "—",
        ];
      }),
    );
    const on = p50(results[1]?.total ?? []);
    const off = p50(results[4]?.total ?? []);
    const held = p50(results[5]?.total ?? []);
    log(
      `\nWhat the provenance control adds per change (memory store, p50 of the turn): ${(on - off).toFixed(2)} ms (${on.toFixed(2)} with it, ${off.toFixed(2)} without). A change it holds and the principal confirms with confirm(): ${held.toFixed(2)} ms for both calls (+${(held - off).toFixed(2)} ms against no control), the principal's reading time not counted.`,
    );
    log(
      `The provenance decision alone (taint, the closed form, every argument traced), p50 per proposal: ${guardP50(calls).toFixed(3)} ms.`,
    );
    log(
      `\n"turn": the customer's message to the gated reply (two scripted model steps, validation, guard, intent writes, the HTTP call, the gate). "dispatch overhead": from the validated proposal to the recorded outcome, minus the HTTP round trip — the controller's own work per change, intent writes included (3 per change: persisted, sent, completed).\n`,
    );

    log("HTTP requests the controller sends per turn, controller-demo cases:");
    const stack: DemoStack = { gatewayUrl: gateway.url, deps };
    let block = 500;
    for (const demoCase of demoCases(demoWorld(block))) {
      const world = demoWorld(block++);
      await seedDemoWorld(stack, world);
      const own = demoCases(world).find((c) => c.id === demoCase.id);
      if (!own) continue;
      const run = await runDemoCase(stack, world, own);
      const detail = run.turns.map(
        (t) =>
          t.trace.events
            .filter((e) => e.type === "http_request")
            .map((e) => (e as { tool: string }).tool)
            .join(" + ") || "none",
      );
      log(`  ${own.id.padEnd(22)} ${run.httpRequests.join(", ").padEnd(6)} (${detail.join(" | ")})`);
    }
  } finally {
    deps.client.destroy();
    client.destroy();
    await gateway.close();
    await dynamo.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The provenance decision on its own, for a return whose every argument traces (the longest path), p50 in ms. Each
 * run reads the message afresh, as a turn does: its readings are made inside the decision, and timed with it.
 */
function guardP50(runs: number): number {
  const times: number[] = [];
  // In the closed form, so the decision is "dispatch": a request sentence naming the item, the reason and the day.
  const text = "Please return the floor lamp on SU-61201 because it arrived broken, collected tomorrow.";
  const input = (): ProvenanceInput => {
    const message = readMessage(text);
    return {
      tool: "start_return",
      request: { orderId: "SU-61201", itemIds: ["ITM-1"], reason: "damaged", pickupDate: "2026-03-11" },
      orderId: "SU-61201",
      message,
      principalMessages: [message],
      orders: [
        {
          orderId: "SU-61201",
          read: true,
          items: [
            { itemId: "ITM-1", title: "Floor lamp" },
            { itemId: "ITM-2", title: "Spare bulb" },
          ],
        },
      ],
      today: "2026-03-10",
    };
  };
  for (let i = 0; i < runs + 50; i++) {
    const fresh = input();
    const started = performance.now();
    const decision = provenance(fresh);
    const ms = performance.now() - started;
    if (decision.decision !== "dispatch") throw new Error(`the bench's return did not trace: ${JSON.stringify(decision)}`);
    if (i >= 50) times.push(ms);
  }
  return p50(times);
}

/** From the trace: proposal validated → outcome recorded, minus the time the HTTP exchanges took. */
function dispatchOverhead(trace: TurnTrace): number {
  const events = trace.events;
  const start = events.find((e) => e.type === "validation" && e.decision === "accepted")?.at;
  const end = events.find((e) => e.type === "intent" && (e.to === "completed" || e.to === "rejected"))?.at;
  const http = events.reduce((sum, e) => sum + (e.type === "http_response" || e.type === "http_failure" ? e.ms : 0), 0);
  if (start === undefined || end === undefined) throw new Error("a trace without a validated proposal and a recorded outcome");
  return end - start - http;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
const p50 = (values: number[]) => percentile(values, 50);
const p95 = (values: number[]) => percentile(values, 95);

function table(log: (line: string) => void, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  log(line(head));
  for (const row of rows) log(line(row));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const i = process.argv.indexOf("--calls");
  const calls = i >= 0 ? Number(process.argv[i + 1]) : undefined;
  if (calls !== undefined && (!Number.isInteger(calls) || calls < 100)) {
    console.error("--calls takes a whole number of at least 100");
    process.exit(2);
  }
  benchController(calls !== undefined ? { calls } : {}).catch((error: unknown) => {
    console.error(`bench-controller failed: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  });
}
