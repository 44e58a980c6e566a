/**
 * Races: seven scenarios, each run as many interleavings on fresh orders, half with real concurrency (requests
 * started together after random small delays) and half under fc.scheduler, which holds every DynamoDB request of
 * every participant (the store's and Powertools' clients) and releases them one at a time in an order fast-check
 * picks, so interleavings that real timing rarely produces are tried too.
 * - lookup-vs-ship: a cancellation races the order system shipping the order, while the customer keeps asking
 *   get_operation_status; exactly one wins, and no lookup ever contradicts the final outcome;
 * - duplicates: the same request three times at once: one change, every reply the same body or
 *   OPERATION_IN_PROGRESS;
 * - conflicting reuse: one operationId with three different argument sets at once: one change, the others
 *   IDEMPOTENCY_KEY_REUSED or OPERATION_IN_PROGRESS;
 * - last-stock / last-slot: three replacements for the last unit of a SKU, three returns for the last pickup
 *   place: exactly one gets it, the others OUT_OF_STOCK / NO_PICKUP_SLOT, never below zero;
 * - hourly-cap: three cancellations for a customer's last allowance: exactly one, the others RATE_LIMITED and
 *   unrecorded;
 * - seller-cap: three returns by one seller actor (a marketplace seller's user) for its last allowance, on three
 *   buyers' orders of that seller: exactly one, the others RATE_LIMITED and unrecorded.
 * A double-apply is an operation that changed an order more than once; a lost update is a change someone was
 * told completed that the tables do not hold (or a unit sold twice).
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { orderKey, pickupSlotKey } from "#store/keys";
import {
  addDays,
  baseSellers,
  basePolicies,
  type Caller,
  customer,
  customers,
  Failures,
  newOperationId,
  orderItem,
  type PartReport,
  type Reply,
  reliabilityWorld,
  seller,
  show,
  todayUtc,
  type World,
} from "#test/reliability/harness";

export interface RaceOptions {
  perScenario: number;
  seed?: number;
}

interface Verdict {
  problems: string[];
  doubleApply?: boolean;
  lostUpdate?: boolean;
}

type Scenario = {
  name: string;
  /** Builds one interleaving's participants on fresh entities; `check` runs once they have all settled. */
  prepare(world: World, i: number): Promise<{ tasks: (() => Promise<unknown>)[]; check(results: unknown[]): Promise<Verdict> }>;
};

const n = 3;
const ids = (start: number) => {
  let next = start;
  return () => `SU-${String(next++).padStart(5, "0")}`;
};

/** Holds each DynamoDB request until the scheduler releases it. */
function schedulerHook(world: World, s: fc.Scheduler) {
  world.log.hooks = [
    {
      before: (request) =>
        request.layer === "outer" ? s.schedule(Promise.resolve(), `${request.client}:${request.command}`).then(() => undefined) : undefined,
    },
  ];
}

/** Runs the tasks under the scheduler, releasing one held request at a time until every task has settled. */
async function drive<T>(s: fc.Scheduler, all: Promise<T>): Promise<T> {
  let done = false;
  const settled = all.finally(() => {
    done = true;
  });
  while (!done) {
    if (s.count() > 0) await s.waitNext(1);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  return settled;
}

export async function runRaces(endpoint: string, options: RaceOptions): Promise<PartReport> {
  const started = performance.now();
  const today = todayUtc();
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const per = options.perScenario;
  const owner = customer("C-1001");
  const nextOrder = ids(70_000);
  const failures = new Failures();
  const tally = { interleavings: 0, scheduled: 0, "double-applies": 0, "lost updates": 0 } as Record<string, number>;

  // Every order any interleaving uses, made up front: ids are handed out in the same order below.
  const plan = {
    lookup: [] as string[],
    duplicates: [] as string[],
    reuse: [] as string[],
    stock: [] as string[][],
    slot: [] as string[][],
    cap: [] as string[][],
    sellerCap: [] as string[][],
  };
  const orders: unknown[] = [];
  const stock: { sku: string; available: number }[] = [];
  for (let i = 0; i < per; i++) {
    const lookup = nextOrder();
    plan.lookup.push(lookup);
    orders.push(orderItem(lookup, today, { customerId: "C-1001", status: "dispatching", version: 3 }));
    const dup = nextOrder();
    plan.duplicates.push(dup);
    orders.push(orderItem(dup, today, { customerId: "C-1001", status: "placed", version: 3 }));
    const reuse = nextOrder();
    plan.reuse.push(reuse);
    orders.push(orderItem(reuse, today, { customerId: "C-1001", status: "placed", version: 3 }));
    const stockOrders = Array.from({ length: n }, nextOrder);
    plan.stock.push(stockOrders);
    stock.push({ sku: `LAST-${i}`, available: 1 });
    for (const id of stockOrders)
      orders.push(
        orderItem(id, today, { customerId: "C-1001", status: "delivered", version: 3, items: [{ itemId: "ITM-1", sku: `LAST-${i}` }] }),
      );
    const slotOrders = Array.from({ length: n }, nextOrder);
    plan.slot.push(slotOrders);
    for (const id of slotOrders) orders.push(orderItem(id, today, { customerId: "C-1001", status: "delivered", version: 3 }));
  }
  const capCustomers = Array.from({ length: per }, (_, i) => `C-${7000 + i}`);
  const capOrders: unknown[] = [];
  for (const [i, customerId] of capCustomers.entries()) {
    const mine = Array.from({ length: n + 1 }, nextOrder);
    plan.cap.push(mine);
    for (const id of mine) capOrders.push(orderItem(id, today, { customerId, status: "placed", version: 1 }));
    void i;
    // A seller's delivered orders, each of another buyer: the seller's cap counts per actor, across buyers.
    const sold = Array.from({ length: n + 1 }, nextOrder);
    plan.sellerCap.push(sold);
    for (const [j, id] of sold.entries())
      capOrders.push(
        orderItem(id, today, {
          customerId: capCustomers[(i + j) % capCustomers.length] as string,
          sellerId: "SLR-2210",
          status: "delivered",
          version: 2,
        }),
      );
  }

  const world = await reliabilityWorld(endpoint, {
    sellers: baseSellers,
    policies: basePolicies,
    customers: customers(["C-1001"]),
    stock,
    orders,
  });
  // The cap is a limit of its own: a world where it is on (2 per hour) and nothing else is.
  const capWorld = await reliabilityWorld(
    endpoint,
    {
      sellers: baseSellers,
      policies: basePolicies,
      customers: customers(capCustomers),
      orders: capOrders,
      pickupSlots: [{ date: addDays(today, 1), window: "08:00-12:00", capacity: 100_000 }],
    },
    { limits: { hourlyCap: 2, sellerHourlyCap: 2 } },
  );

  const changed = async (w: World, orderId: string, from: number) => ((await w.order(orderId))?.version as number) - from;
  const activityOf = async (w: World, orderId: string, operationId: string) =>
    (await w.activity(orderId)).filter((a) => a.operationId === operationId).length;

  const scenarios: (Scenario & { world: World })[] = [
    {
      name: "lookup-vs-ship",
      world,
      async prepare(w, i) {
        const orderId = plan.lookup[i] as string;
        const operationId = newOperationId("op-race");
        const lookups: Reply[] = [];
        let shipped = false;
        const lookup = async () => {
          for (let j = 0; j < 3; j++) lookups.push(await w.call("get_operation_status", owner, { operationId }));
        };
        return {
          tasks: [
            () => w.call("cancel_order", owner, { operationId, orderId }),
            async () => {
              // The order system ships only an order that is not cancelled: its own conditional write.
              try {
                await w.deps.doc.send(
                  new UpdateCommand({
                    TableName: w.names.orders,
                    Key: orderKey(orderId),
                    UpdateExpression: "SET #s = :shipped, version = version + :one",
                    ConditionExpression: "#s IN (:placed, :processing, :dispatching)",
                    ExpressionAttributeNames: { "#s": "status" },
                    ExpressionAttributeValues: {
                      ":shipped": "shipped",
                      ":one": 1,
                      ":placed": "placed",
                      ":processing": "processing",
                      ":dispatching": "dispatching",
                    },
                  }),
                );
                shipped = true;
              } catch (error) {
                if ((error as { name?: string }).name !== "ConditionalCheckFailedException") throw error;
              }
            },
            lookup,
          ],
          async check(results) {
            const reply = results[0] as Reply;
            const order = await w.order(orderId);
            const cancelled = reply.status === 200;
            const problems: string[] = [];
            const verdict: Verdict = { problems };
            if (cancelled === shipped) {
              problems.push(`cancel ${reply.status} and ship ${shipped ? "succeeded" : "failed"}: exactly one must win`);
              if (cancelled && shipped) verdict.lostUpdate = true;
            }
            if (cancelled && order?.status !== "cancelled") verdict.lostUpdate = true;
            if (!cancelled && (reply.status !== 409 || reply.body?.error?.reason !== "ALREADY_SHIPPED"))
              problems.push(`the losing cancel answered ${reply.status} ${show(reply.text)}`);
            if (order?.status !== (cancelled ? "cancelled" : "shipped") || order?.version !== 4)
              problems.push(`the order is ${order?.status} v${order?.version}`);
            if ((order?.version ?? 0) > 4 || (await activityOf(w, orderId, operationId)) > 1) verdict.doubleApply = true;
            // Every lookup is "not yet" (not_found, pending) or the final outcome, and never goes back.
            let final = false;
            for (const look of lookups) {
              const status = look.body?.status;
              if (status === "completed" || status === "rejected") {
                final = true;
                if ((status === "completed") !== cancelled) problems.push(`a lookup said ${status}, the cancel answered ${reply.status}`);
                const told = status === "completed" ? look.body.result : { ...look.body.error };
                const expected = cancelled ? reply.body : reply.body?.error;
                if (JSON.stringify(told) !== JSON.stringify(expected))
                  problems.push(`a lookup told ${show(told)}, the request ${show(expected)}`);
              } else if (status === "not_found" || status === "pending") {
                if (final) problems.push(`a lookup went back to ${status} after the final outcome`);
              } else problems.push(`a lookup answered ${look.status} ${show(look.text)}`);
            }
            const after = await w.call("get_operation_status", owner, { operationId });
            if (after.body?.status !== (cancelled ? "completed" : "rejected"))
              problems.push(`the lookup afterwards says ${show(after.text)}`);
            return verdict;
          },
        };
      },
    },
    {
      name: "duplicates",
      world,
      async prepare(w, i) {
        const orderId = plan.duplicates[i] as string;
        const request = { operationId: newOperationId("op-race"), orderId, expectedVersion: 3, reason: "Duplicate click" };
        return {
          tasks: Array.from({ length: n }, () => () => w.call("cancel_order", owner, request)),
          async check(results) {
            const replies = results as Reply[];
            const problems: string[] = [];
            const verdict: Verdict = { problems };
            const done = replies.filter((r) => r.status === 200);
            const busy = replies.filter((r) => r.status === 409 && r.body?.error?.code === "OPERATION_IN_PROGRESS");
            if (done.length < 1 || done.length + busy.length !== n)
              problems.push(`replies ${replies.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`).join(", ")}`);
            if (new Set(done.map((r) => r.text)).size > 1) problems.push("the successful replies differ");
            const delta = await changed(w, orderId, 3);
            const entries = await activityOf(w, orderId, request.operationId);
            if (delta > 1 || entries > 1) verdict.doubleApply = true;
            if (delta !== 1 || entries !== 1) problems.push(`version +${delta}, ${entries} activity entries`);
            if (done.length > 0 && (await w.order(orderId))?.status !== "cancelled") verdict.lostUpdate = true;
            const replay = await w.call("cancel_order", owner, request);
            if (replay.status !== 200 || replay.text !== done[0]?.text || replay.headers["idempotent-replayed"] !== "true")
              problems.push(`the replay afterwards: ${replay.status} ${show(replay.text)}`);
            return verdict;
          },
        };
      },
    },
    {
      name: "conflicting-reuse",
      world,
      async prepare(w, i) {
        const orderId = plan.reuse[i] as string;
        const operationId = newOperationId("op-race");
        const requests: [string, Record<string, unknown>][] = [
          ["cancel_order", { operationId, orderId, reason: "First reason" }],
          ["cancel_order", { operationId, orderId, reason: "Second reason" }],
          ["add_delivery_note", { operationId, orderId, expectedVersion: 3, deliveryNote: "Ring twice" }],
        ];
        return {
          tasks: requests.map(
            ([tool, body]) =>
              () =>
                w.call(tool as "cancel_order", owner, body),
          ),
          async check(results) {
            const replies = results as Reply[];
            const problems: string[] = [];
            const verdict: Verdict = { problems };
            const done = replies.map((r, j) => ({ r, j })).filter(({ r }) => r.status === 200);
            const ok = replies.every(
              (r) =>
                r.status === 200 ||
                (r.status === 422 && r.body?.error?.code === "IDEMPOTENCY_KEY_REUSED") ||
                (r.status === 409 && r.body?.error?.code === "OPERATION_IN_PROGRESS"),
            );
            if (!ok || done.length !== 1)
              problems.push(`replies ${replies.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`).join(", ")}`);
            const delta = await changed(w, orderId, 3);
            const entries = await activityOf(w, orderId, operationId);
            if (delta > 1 || entries > 1) verdict.doubleApply = true;
            if (delta !== 1 || entries !== 1) problems.push(`version +${delta}, ${entries} activity entries`);
            const winner = done[0];
            const order = await w.order(orderId);
            if (winner && (winner.j === 2 ? order?.deliveryNote !== "Ring twice" : order?.status !== "cancelled"))
              verdict.lostUpdate = true;
            return verdict;
          },
        };
      },
    },
    {
      name: "last-stock",
      world,
      async prepare(w, i) {
        const orderIds = plan.stock[i] as string[];
        const sku = `LAST-${i}`;
        const operationIds = orderIds.map(() => newOperationId("op-race"));
        return {
          tasks: orderIds.map(
            (orderId, j) => () =>
              w.call("offer_replacement", owner, {
                operationId: operationIds[j],
                orderId,
                expectedVersion: 3,
                itemId: "ITM-1",
                reason: "damaged",
              }),
          ),
          async check(results) {
            const replies = results as Reply[];
            const problems: string[] = [];
            const verdict: Verdict = { problems };
            const won = replies.filter((r) => r.status === 200).length;
            const outOfStock = replies.filter((r) => r.status === 409 && r.body?.error?.code === "OUT_OF_STOCK").length;
            if (won !== 1 || outOfStock !== n - 1)
              problems.push(`replies ${replies.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`).join(", ")}`);
            const left = await w.stock(sku);
            if ((left ?? 0) < 0 || won > 1) verdict.lostUpdate = true;
            if (left !== 0) problems.push(`stock ends at ${left}`);
            let changedOrders = 0;
            for (const [j, orderId] of orderIds.entries()) {
              const delta = await changed(w, orderId, 3);
              if (delta > 1) verdict.doubleApply = true;
              changedOrders += delta;
              if ((delta === 1) !== (replies[j]?.status === 200)) verdict.lostUpdate = true;
            }
            if (changedOrders !== won) problems.push(`${changedOrders} orders changed for ${won} replacements`);
            return verdict;
          },
        };
      },
    },
    {
      name: "last-slot",
      world,
      async prepare(w, i) {
        const orderIds = plan.slot[i] as string[];
        // One slot with one place, on a day of its own; every earlier interleaving's slot is full.
        const date = addDays(today, 1 + i);
        await w.load({ pickupSlots: [{ date, window: "08:00-12:00", capacity: 1 }] });
        const operationIds = orderIds.map(() => newOperationId("op-race"));
        return {
          tasks: orderIds.map(
            (orderId, j) => () =>
              w.call("start_return", owner, { operationId: operationIds[j], orderId, itemIds: ["ITM-1"], reason: "damaged" }),
          ),
          async check(results) {
            const replies = results as Reply[];
            const problems: string[] = [];
            const verdict: Verdict = { problems };
            const won = replies.filter((r) => r.status === 200);
            const none = replies.filter((r) => r.status === 409 && r.body?.error?.code === "NO_PICKUP_SLOT").length;
            if (won.length !== 1 || none !== n - 1)
              problems.push(`replies ${replies.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`).join(", ")}`);
            if (won[0] && won[0].body?.return?.pickup?.date !== date)
              problems.push(`the return was booked on ${show(won[0].body?.return?.pickup)}`);
            const left = await w.slot(date, "08:00-12:00");
            if ((left ?? 0) < 0 || won.length > 1) verdict.lostUpdate = true;
            if (left !== 0) problems.push(`capacity ends at ${left}`);
            for (const [j, orderId] of orderIds.entries()) {
              const delta = await changed(w, orderId, 3);
              if (delta > 1) verdict.doubleApply = true;
              if ((delta === 1) !== (replies[j]?.status === 200)) verdict.lostUpdate = true;
            }
            // Whatever happened, the next interleaving must find this day full.
            await w.admin.send(
              new UpdateCommand({
                TableName: w.names.orders,
                Key: pickupSlotKey(date, "08:00-12:00"),
                UpdateExpression: "SET #c = :zero",
                ExpressionAttributeNames: { "#c": "capacity" },
                ExpressionAttributeValues: { ":zero": 0 },
              }),
            );
            return verdict;
          },
        };
      },
    },
    {
      name: "hourly-cap",
      world: capWorld,
      async prepare(w, i) {
        const customerId = capCustomers[i] as string;
        const caller: Caller = customer(customerId);
        const [first, ...rest] = plan.cap[i] as string[];
        // One of the two allowances is used; three cancellations race for the last one.
        const used = await w.call("cancel_order", caller, { operationId: newOperationId("op-race"), orderId: first });
        const operationIds = rest.map(() => newOperationId("op-race"));
        return {
          tasks: rest.map((orderId, j) => () => w.call("cancel_order", caller, { operationId: operationIds[j], orderId })),
          async check(results) {
            const replies = results as Reply[];
            const problems: string[] = [];
            const verdict: Verdict = { problems };
            if (used.status !== 200) problems.push(`the first cancellation failed: ${show(used.text)}`);
            const won = replies.filter((r) => r.status === 200).length;
            const limited = replies.filter((r) => r.status === 429 && r.body?.error?.code === "RATE_LIMITED").length;
            if (won !== 1 || limited !== n - 1)
              problems.push(`replies ${replies.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`).join(", ")}`);
            let cancelled = 0;
            for (const [j, orderId] of rest.entries()) {
              const delta = await changed(w, orderId, 1);
              if (delta > 1) verdict.doubleApply = true;
              cancelled += delta;
              const record = await w.operation(caller.claims.sub as string, operationIds[j] as string);
              if (replies[j]?.status === 429 && record) problems.push("a RATE_LIMITED request was recorded");
              if ((delta === 1) !== (replies[j]?.status === 200)) verdict.lostUpdate = true;
            }
            if (cancelled > 1) verdict.lostUpdate = true;
            return verdict;
          },
        };
      },
    },
    {
      name: "seller-cap",
      world: capWorld,
      async prepare(w, i) {
        // Each interleaving has an actor of its own: a user of the same seller, with a fresh allowance.
        const caller: Caller = seller("SLR-2210", "orders:read orders:write", `agent-race-${i}`);
        const [first, ...rest] = plan.sellerCap[i] as string[];
        const used = await w.call("start_return", caller, {
          operationId: newOperationId("op-race"),
          orderId: first,
          itemIds: ["ITM-1"],
          reason: "damaged",
        });
        const operationIds = rest.map(() => newOperationId("op-race"));
        return {
          tasks: rest.map(
            (orderId, j) => () =>
              w.call("start_return", caller, { operationId: operationIds[j], orderId, itemIds: ["ITM-1"], reason: "damaged" }),
          ),
          async check(results) {
            const replies = results as Reply[];
            const problems: string[] = [];
            const verdict: Verdict = { problems };
            if (used.status !== 200) problems.push(`the first return failed: ${show(used.text)}`);
            const won = replies.filter((r) => r.status === 200).length;
            const limited = replies.filter((r) => r.status === 429 && r.body?.error?.code === "RATE_LIMITED").length;
            if (won !== 1 || limited !== n - 1)
              problems.push(`replies ${replies.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`).join(", ")}`);
            let returned = 0;
            for (const [j, orderId] of rest.entries()) {
              const delta = await changed(w, orderId, 2);
              if (delta > 1) verdict.doubleApply = true;
              returned += delta;
              const record = await w.operation(caller.claims.sub as string, operationIds[j] as string);
              if (replies[j]?.status === 429 && record) problems.push("a RATE_LIMITED request was recorded");
              if ((delta === 1) !== (replies[j]?.status === 200)) verdict.lostUpdate = true;
            }
            if (returned > 1) verdict.lostUpdate = true;
            return verdict;
          },
        };
      },
    },
  ];

  const schedulers = fc.sample(fc.scheduler(), { numRuns: per * scenarios.length, seed });
  const delays = fc.sample(fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 4, maxLength: 4 }), {
    numRuns: per * scenarios.length,
    seed: seed + 1,
  });
  try {
    let k = 0;
    for (let i = 0; i < per; i++) {
      for (const scenario of scenarios) {
        const index = k++;
        const scheduled = index % 2 === 1;
        const w = scenario.world;
        const { tasks, check } = await scenario.prepare(w, i);
        tally.interleavings = (tally.interleavings ?? 0) + 1;
        let results: unknown[];
        let order = "";
        if (scheduled) {
          tally.scheduled = (tally.scheduled ?? 0) + 1;
          const s = schedulers[index] as fc.Scheduler;
          schedulerHook(w, s);
          try {
            results = await drive(s, Promise.all(tasks.map((t) => t())));
          } finally {
            w.log.hooks = [];
          }
          order = ` under ${s
            .report()
            .filter((t) => t.status !== "pending")
            .map((t) => t.label)
            .join(" → ")}`;
        } else {
          const wait = delays[index] as number[];
          results = await Promise.all(
            tasks.map(async (t, j) => {
              await new Promise((r) => setTimeout(r, wait[j] ?? 0));
              return t();
            }),
          );
          order = ` with start delays ${wait.slice(0, tasks.length).join("/")} ms`;
        }
        const verdict = await check(results);
        if (verdict.doubleApply) tally["double-applies"] = (tally["double-applies"] ?? 0) + 1;
        if (verdict.lostUpdate) tally["lost updates"] = (tally["lost updates"] ?? 0) + 1;
        const problems = [
          ...verdict.problems,
          ...(verdict.doubleApply ? ["a double-apply"] : []),
          ...(verdict.lostUpdate ? ["a lost update"] : []),
        ];
        if (problems.length) failures.add(`${scenario.name} #${i} (seed ${seed})${show(order, 600)}: ${problems.join("; ")}`);
        tally[scenario.name] = (tally[scenario.name] ?? 0) + 1;
      }
    }
    return {
      part: "races",
      figures: { ...tally, seed },
      failures: failures.list,
      failureCount: failures.count,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await world.destroy();
    await capWorld.destroy();
  }
}
