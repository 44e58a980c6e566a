/**
 * Peer 1: order-tools' changing tools against the read-then-write design (bench/peers/read-then-write.ts),
 * side by side on the same DynamoDB Local, in three parts:
 *
 * 1. Requests and latency: cancel_order (no expectedVersion) and add_delivery_note through the local gateway,
 *    each design's call interleaved with the other's, on fresh orders.
 * 2. The lookup-against-ship race: the order system ships the order while a cancellation runs. The same N
 *    interleavings for both designs: trial i ships just before the call's request number i mod 5 (before the
 *    idempotency claim, before the read, between the read and the write, before Powertools saves the result)
 *    or after the call. The shipper is conditional itself (it ships only an order that is placed, processing or
 *    dispatching) and comes in two kinds: one that moves the order's version on, as contract §8.3 models the order
 *    system, and one that writes the status alone (a warehouse integration that does not know the version).
 *    A rule violation is an order both cancelled and shipped.
 * 3. The crash window: a change commits, then the function dies before Powertools saves the result (its
 *    in-progress record expires with the Lambda's remaining time), the order system changes the order, and the
 *    client retries the identical request. The truthful answer is the change's own outcome.
 */
import "#bench/support/setup";
import { pathToFileURL } from "node:url";
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { deployedToolNamed } from "#deploy/tool-functions";
import { benchFixture, benchToday, chooser, ordersIn } from "#bench/support/bench-orders";
import { type BenchGateway, benchGateway, type HttpReply } from "#bench/support/bench-gateway";
import { type PeerTool, readThenWriteHandler } from "#bench/peers/read-then-write";
import { describeRequests, RequestHook, type SentRequest } from "#bench/support/requests";
import { mean, ms, p50, p95, table, times } from "#bench/support/stats";
import { benchTables, callHandler, customer, type Endpoint, outcomeOf, type Reply, withDynamoDb } from "#bench/support/bench-world";
import type { StoreDeps } from "#store/client";
import { loadFixture } from "#store/fixture";
import { orderKey } from "#store/keys";
import { readActivity } from "#store/operations";
import { createHandler as createAddNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import type { ToolHandler } from "#runtime/handler";

export interface ReadThenWriteBenchOptions {
  /** Calls per latency series. */
  calls?: number;
  /** Interleavings of the race, and trials of the crash window, per design. */
  trials?: number;
  endpoint?: Endpoint;
  log?: (line: string) => void;
}

const designs = ["order-tools", "read-then-write"] as const;
type Design = (typeof designs)[number];

/** Where in a cancellation the shipment lands, by the request it lands before (4: after the call). */
const racePoints = [
  "before the idempotency claim",
  "before the read",
  "between the read and the write",
  "before the result is saved",
  "after the call",
] as const;

export async function benchReadThenWrite(options: ReadThenWriteBenchOptions = {}): Promise<void> {
  const calls = options.calls ?? 300;
  const trials = options.trials ?? 100;
  const log = options.log ?? console.log;
  const warmup = Math.min(50, Math.ceil(calls / 5));
  await withDynamoDb(options.endpoint, async (endpoint) => {
    const world = await benchTables(endpoint, "peer1", () => benchToday);
    const hook = new RequestHook();
    hook.observe(world.client);
    const deps: StoreDeps = {
      ...world.deps,
      observeClient: (client) => {
        world.requests.observe(client);
        hook.observe(client);
      },
    };
    const handlers: Record<Design, Record<PeerTool, ToolHandler>> = {
      "order-tools": { cancel_order: createCancel(deps), add_delivery_note: createAddNote(deps) },
      "read-then-write": {
        cancel_order: readThenWriteHandler(deps, "cancel_order"),
        add_delivery_note: readThenWriteHandler(deps, "add_delivery_note"),
      },
    };
    let gateway: BenchGateway | undefined;
    try {
      const base = benchFixture(600);
      const c = chooser(21);
      const taken = new Set<string>();
      const latencyOrders = {
        cancel_order: {
          "order-tools": ordersIn(base, c, taken, "processing", calls + warmup),
          "read-then-write": ordersIn(base, c, taken, "processing", calls + warmup),
        },
        add_delivery_note: {
          "order-tools": ordersIn(base, c, taken, "placed", calls + warmup),
          "read-then-write": ordersIn(base, c, taken, "placed", calls + warmup),
        },
      };
      const shippers = ["moves the version on", "writes the status alone"] as const;
      const raceOrders = Object.fromEntries(
        shippers.map((s) => [
          s,
          {
            "order-tools": ordersIn(base, c, taken, "processing", trials),
            "read-then-write": ordersIn(base, c, taken, "processing", trials),
          },
        ]),
      );
      const crashOrders = {
        add_delivery_note: {
          "order-tools": ordersIn(base, c, taken, "placed", trials),
          "read-then-write": ordersIn(base, c, taken, "placed", trials),
        },
        cancel_order: {
          "order-tools": ordersIn(base, c, taken, "processing", trials),
          "read-then-write": ordersIn(base, c, taken, "processing", trials),
        },
      };
      const dedicated = [latencyOrders, raceOrders, crashOrders].flatMap((group) =>
        Object.values(group).flatMap((byDesign) => Object.values(byDesign).flat()),
      );
      await loadFixture(world.deps, { ...base, orders: [...base.orders, ...dedicated] });
      log(
        `DynamoDB Local ${endpoint}: ${base.orders.length + dedicated.length} orders, ${dedicated.length} of them changed once each by one design or the other`,
      );

      // ——— 1. requests and latency through the gateway ———
      const peerPath = (tool: PeerTool) => `/bench/read-then-write/${tool}`;
      gateway = await benchGateway([
        ...(["cancel_order", "add_delivery_note"] as const).map((tool) => ({
          path: deployedToolNamed(tool).routes[0]!.path,
          scope: "orders:write" as const,
          handler: handlers["order-tools"][tool],
        })),
        ...(["cancel_order", "add_delivery_note"] as const).map((tool) => ({
          path: peerPath(tool),
          scope: "orders:write" as const,
          handler: handlers["read-then-write"][tool],
        })),
      ]);
      const rows: string[][] = [];
      for (const tool of ["cancel_order", "add_delivery_note"] as const) {
        const samples: Record<Design, { reply: HttpReply; requests: SentRequest[] }[]> = { "order-tools": [], "read-then-write": [] };
        for (let i = 0; i < calls + warmup; i++) {
          // Which design goes first alternates, so neither always meets the other's after-effects.
          for (const design of i % 2 === 0 ? designs : [...designs].reverse()) {
            const order = latencyOrders[tool][design][i]!;
            const body =
              tool === "cancel_order"
                ? { operationId: `peer1-${design}-${tool}-${i}-${process.pid}`, orderId: order.id, reason: "Ordered twice by mistake" }
                : {
                    operationId: `peer1-${design}-${tool}-${i}-${process.pid}`,
                    orderId: order.id,
                    expectedVersion: order.version,
                    deliveryNote: "Side gate is open; please leave it behind the bins.",
                  };
            const path = design === "order-tools" ? deployedToolNamed(tool).routes[0]!.path : peerPath(tool);
            const sample = await world.requests.record(() => gateway!.post(path, order.customerId, body));
            if (sample.result.statusCode !== 200)
              throw new Error(`${design} ${tool} on ${order.id}: ${sample.result.statusCode} ${sample.result.body}`);
            if (i >= warmup) samples[design].push({ reply: sample.result, requests: sample.requests });
          }
        }
        const ours = p50(samples["order-tools"].map((s) => s.reply.ms));
        for (const design of designs) {
          const s = samples[design];
          const latency = s.map((x) => x.reply.ms);
          rows.push([
            `${tool}, ${design}`,
            mean(s.map((x) => x.requests.length)).toFixed(2),
            describeRequests(s[0]?.requests ?? []),
            ms(p50(latency)),
            ms(p95(latency)),
            ms(p50(s.map((x) => x.reply.handlerMs))),
            times(p50(latency), ours),
          ]);
        }
      }
      table(
        log,
        ["through the gateway", "req/call", "requests per call", "p50 ms", "p95 ms", "handler p50", "p50 vs order-tools"],
        rows,
        [0, 2],
      );
      log(
        `${calls} calls per row after ${warmup} warm-up calls, the two designs' calls interleaved; cancel_order without expectedVersion, add_delivery_note with it.\n`,
      );

      // ——— 2. the lookup-against-ship race ———
      const doc = DynamoDBDocumentClient.from(world.plain);
      const ship = async (orderId: string, movesVersion: boolean): Promise<boolean> => {
        try {
          await doc.send(
            new UpdateCommand({
              TableName: world.names.orders,
              Key: orderKey(orderId),
              UpdateExpression: `SET #status = :shipped, #shippedAt = :at${movesVersion ? ", #version = #version + :one" : ""}`,
              ConditionExpression: "#status IN (:placed, :processing, :dispatching)",
              ExpressionAttributeNames: {
                "#status": "status",
                "#shippedAt": "shippedAt",
                ...(movesVersion ? { "#version": "version" } : {}),
              },
              ExpressionAttributeValues: {
                ":shipped": "shipped",
                ":at": benchToday.toISOString(),
                ":placed": "placed",
                ":processing": "processing",
                ":dispatching": "dispatching",
                ...(movesVersion ? { ":one": 1 } : {}),
              },
            }),
          );
          return true;
        } catch (error) {
          if ((error as Error).name === "ConditionalCheckFailedException") return false;
          throw error;
        }
      };
      const raceRows: string[][] = [];
      const byPoint: string[][] = [];
      for (const shipper of shippers) {
        for (const design of designs) {
          let violations = 0;
          const outcomes = new Map<string, number>();
          const violationsAt = racePoints.map(() => 0);
          for (let i = 0; i < trials; i++) {
            const order = raceOrders[shipper]![design][i]!;
            const point = i % racePoints.length;
            let shipped: boolean | undefined;
            let seen = 0;
            hook.before = async () => {
              if (seen++ === point && shipped === undefined) shipped = await ship(order.id, shipper === "moves the version on");
            };
            let reply: Reply;
            try {
              reply = await callHandler(handlers[design].cancel_order, customer(order.customerId), {
                operationId: `race-${design}-${i}-${process.pid}-${shipper.length}`,
                orderId: order.id,
              });
            } finally {
              hook.before = undefined;
            }
            shipped ??= await ship(order.id, shipper === "moves the version on");
            const stored = (
              await doc.send(new GetCommand({ TableName: world.names.orders, Key: orderKey(order.id), ConsistentRead: true }))
            ).Item;
            // Cancelled and shipped: the cancellation was confirmed and the parcel left anyway.
            const violated = reply.statusCode === 200 && shipped && stored?.shippedAt !== undefined;
            if (violated) {
              violations++;
              violationsAt[point]!++;
            }
            const outcome = reply.statusCode === 200 ? "cancelled" : outcomeOf(reply);
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          }
          raceRows.push([
            shipper,
            design,
            String(trials),
            String(violations),
            [...outcomes.entries()].map(([o, n]) => `${o} ${n}`).join(", "),
          ]);
          byPoint.push([shipper, design, ...violationsAt.map(String)]);
        }
      }
      log(
        `The lookup-against-ship race: ${trials} interleavings per design and shipper, the same for both designs (trial i ships at point i mod ${racePoints.length}).\n`,
      );
      table(log, ["the shipper", "design", "trials", "violations", "what the caller was told"], raceRows, [0, 1, 4]);
      log("");
      table(log, ["violations by where the shipment landed", "design", ...racePoints], byPoint, [0, 1]);
      log(`A violation: the cancellation answered "cancelled" (200) and the order was shipped too (status cancelled, shippedAt set).\n`);

      // ——— 3. the crash window ———
      const crashRows: string[][] = [];
      for (const tool of ["add_delivery_note", "cancel_order"] as const) {
        for (const design of designs) {
          const outcomes = new Map<string, number>();
          let wrong = 0;
          let appliedTwice = 0;
          for (let i = 0; i < trials; i++) {
            const order = crashOrders[tool][design][i]!;
            const body =
              tool === "cancel_order"
                ? { operationId: `crash-${design}-${tool}-${i}-${process.pid}`, orderId: order.id, expectedVersion: order.version }
                : {
                    operationId: `crash-${design}-${tool}-${i}-${process.pid}`,
                    orderId: order.id,
                    expectedVersion: order.version,
                    deliveryNote: "Ring twice.",
                  };
            // The function dies after the change, before Powertools saves the result: its record stays in progress
            // until the Lambda's remaining time (50 ms here) is up.
            hook.before = (command, input) => {
              if (command === "UpdateItem" && input.TableName === world.names.idempotency) {
                throw Object.assign(new Error("Task timed out after the order was written"), { name: "TimeoutError" });
              }
            };
            let crashed: Reply;
            try {
              crashed = await callHandler(handlers[design][tool], customer(order.customerId), body, 50);
            } finally {
              hook.before = undefined;
            }
            if (crashed.statusCode !== 500)
              throw new Error(`${design} ${tool}: the crashed call answered ${crashed.statusCode} ${crashed.body}`);
            // Later the order system changes the order, and the in-progress record has expired.
            await doc.send(
              new UpdateCommand({
                TableName: world.names.orders,
                Key: orderKey(order.id),
                UpdateExpression: "SET #version = #version + :one, #promise = :date",
                ExpressionAttributeNames: { "#version": "version", "#promise": "promiseDate" },
                ExpressionAttributeValues: { ":one": 1, ":date": "2026-12-09" },
              }),
            );
            await new Promise((resolve) => setTimeout(resolve, 60));
            const retry = await callHandler(handlers[design][tool], customer(order.customerId), body);
            const truthful = retry.statusCode === 200;
            if (!truthful) wrong++;
            const outcome = truthful ? (retry.headers["idempotent-replayed"] === "true" ? "200 (replayed)" : "200") : outcomeOf(retry);
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
            const changes =
              design === "order-tools"
                ? (await readActivity(world.deps, order.id)).length
                : ((await doc.send(new GetCommand({ TableName: world.names.orders, Key: orderKey(order.id), ConsistentRead: true }))).Item
                    ?.activity?.length ?? 0);
            if (changes !== 1) appliedTwice++;
          }
          crashRows.push([
            tool,
            design,
            String(trials),
            String(wrong),
            String(appliedTwice),
            [...outcomes.entries()].map(([o, n]) => `${o} ${n}`).join(", "),
          ]);
        }
      }
      log(
        `The crash window: ${trials} trials per tool and design; the change committed, the result was never saved, the order moved on (version + 1), the client retried.\n`,
      );
      table(
        log,
        ["retry after the crash", "design", "trials", "false answers", "applied ≠ once", "what the retry was told"],
        crashRows,
        [0, 1, 5],
      );
      log(
        `The retry of an operation that took effect should be told so: anything but 200 is a false answer (a VERSION_CONFLICT or NOT_ELIGIBLE about the caller's own change).`,
      );
    } finally {
      await gateway?.close();
      await world.drop();
    }
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : undefined);
  const calls = arg("--calls");
  const trials = arg("--trials");
  await benchReadThenWrite({ ...(calls ? { calls } : {}), ...(trials ? { trials } : {}) });
}
