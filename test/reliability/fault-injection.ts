/**
 * Fault injection with AWS SDK middleware (see RequestLog in harness.ts), one valid change per run on a fresh
 * order, each run with one of these faults:
 * - lost-outer: the change's transaction commits and its response is lost after the SDK's retries (the caller
 *   sees an error);
 * - lost-inner: the same, inside the SDK's retries (the SDK sends the transaction again);
 * - throttle-outer / throttle-inner: the k-th DynamoDB request of the change is throttled (k over every request
 *   the change makes), outside the retries (the error reaches the store) or inside them (the SDK retries it);
 * - powertools: Powertools cannot save the outcome after the business commit;
 * - status-lookup: the response is lost and then the status lookup's own read fails once.
 * The caller then does what contract §4 tells it: a definite answer stands; otherwise it asks get_operation_status
 * (again if the lookup failed) and, on not_found, resends the identical request with the same operationId.
 * Each run must end reconciled with exactly one change (version + 1, one activity entry, stock or pickup
 * capacity taken once, a completed operation record), and no VERSION_CONFLICT may be told at any step.
 */
import {
  addDays,
  baseSellers,
  basePolicies,
  type ChangingTool,
  customer,
  customers,
  Failures,
  newOperationId,
  orderItem,
  type PartReport,
  type Reply,
  type RequestHook,
  random,
  reliabilityWorld,
  show,
  todayUtc,
  type World,
} from "#test/reliability/harness";

const owner = customer("C-1001");
const tools: ChangingTool[] = ["cancel_order", "add_delivery_note", "start_return", "offer_replacement"];
const faultKinds = ["lost-outer", "lost-inner", "throttle-outer", "throttle-inner", "powertools", "status-lookup"] as const;
type FaultKind = (typeof faultKinds)[number];

const throttled = () =>
  Object.assign(new Error("The level of configured provisioned throughput for the table was exceeded."), {
    name: "ProvisionedThroughputExceededException",
    $fault: "client",
    $metadata: { httpStatusCode: 400 },
  });
const lost = () =>
  Object.assign(new Error("socket hang up after the request was sent"), { name: "TimeoutError", code: "ECONNRESET", $metadata: {} });
const serverError = () =>
  Object.assign(new Error("Internal server error"), { name: "InternalServerError", $fault: "server", $metadata: { httpStatusCode: 500 } });

export interface FaultOptions {
  runs: number;
  seed?: number;
}

function requestFor(tool: ChangingTool, orderId: string, operationId: string): Record<string, unknown> {
  switch (tool) {
    case "cancel_order":
      return { operationId, orderId, expectedVersion: 3, reason: "No longer needed" };
    case "add_delivery_note":
      return { operationId, orderId, expectedVersion: 3, deliveryNote: "Ring twice" };
    case "start_return":
      return { operationId, orderId, expectedVersion: 3, itemIds: ["ITM-1"], reason: "damaged" };
    case "offer_replacement":
      return { operationId, orderId, expectedVersion: 3, itemId: "ITM-1", reason: "damaged" };
  }
}

export async function runFaultInjection(endpoint: string, options: FaultOptions): Promise<PartReport> {
  const started = performance.now();
  const today = todayUtc();
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const next = random(seed);
  const slotDate = addDays(today, 1);
  const runs = Array.from({ length: options.runs }, (_, i) => ({
    tool: tools[i % tools.length] as ChangingTool,
    fault: faultKinds[Math.floor(i / tools.length) % faultKinds.length] as FaultKind,
    orderId: `SU-${String(60_000 + i).padStart(5, "0")}`,
    sku: `FAULT-${i}`,
  }));
  // Two spare orders per tool for measuring how many requests a change makes: the second, once the seller and
  // policy caches are warm, is what every later run makes.
  const probes = [...tools, ...tools].map((tool, i) => ({ tool, orderId: `SU-${String(59_900 + i).padStart(5, "0")}`, sku: `PROBE-${i}` }));
  const orderFor = (tool: ChangingTool, orderId: string, sku: string) =>
    orderItem(orderId, today, {
      customerId: "C-1001",
      status: tool === "cancel_order" ? "placed" : tool === "add_delivery_note" ? "processing" : "delivered",
      version: 3,
      items: [{ itemId: "ITM-1", sku }],
    });
  const world = await reliabilityWorld(endpoint, {
    sellers: baseSellers,
    policies: basePolicies,
    customers: customers(["C-1001"]),
    stock: [...runs, ...probes].map((r) => ({ sku: r.sku, available: 5 })),
    pickupSlots: [{ date: slotDate, window: "08:00-12:00", capacity: 1_000_000 }],
    orders: [...runs, ...probes].map((r) => orderFor(r.tool, r.orderId, r.sku)),
  });
  const failures = new Failures();
  const tally: Record<string, number> = {
    runs: 0,
    "faults injected": 0,
    "definite at once": 0,
    "reconciled by retry": 0,
    "reconciled by status lookup": 0,
    unreconciled: 0,
    "double-applies": 0,
    "false VERSION_CONFLICTs": 0,
    "5xx seen (then reconciled)": 0,
  };
  const bump = (key: string) => (tally[key] = (tally[key] ?? 0) + 1);
  try {
    // How many DynamoDB requests each tool's change makes, so throttling can hit each one of them.
    const requestsPerChange = new Map<ChangingTool, number>();
    for (const probe of probes) {
      world.log.reset();
      const reply = await world.call(probe.tool, owner, requestFor(probe.tool, probe.orderId, newOperationId("op-probe")));
      if (reply.status !== 200) failures.add(`probe ${probe.tool} failed: ${show(reply.text)}`);
      requestsPerChange.set(probe.tool, world.log.total);
    }

    for (const run of runs) {
      tally.runs = (tally.runs ?? 0) + 1;
      const operationId = newOperationId("op-fault");
      const request = requestFor(run.tool, run.orderId, operationId);
      const k = 1 + next(requestsPerChange.get(run.tool) ?? 4);
      const { hook, fired } = faultHook(run.fault, k);
      const stockBefore = await world.stock(run.sku);
      const slotBefore = await world.slot(slotDate, "08:00-12:00");
      const seen: Reply[] = [];
      world.log.hooks = [hook];
      let first: Reply;
      try {
        first = await world.call(run.tool, owner, request);
      } finally {
        // The status-lookup fault stays armed for the lookup; every other fault is spent on the change itself.
        if (run.fault !== "status-lookup") world.log.hooks = [];
      }
      seen.push(first);
      const how = await reconcile(world, run.tool, request, first, seen);
      world.log.hooks = [];
      const injected = fired();
      tally["faults injected"] = (tally["faults injected"] ?? 0) + injected;
      const label = `run ${tally.runs} (${run.fault}${run.fault.startsWith("throttle") ? ` on request ${k}` : ""}, ${run.tool} ${show(request)}; seed ${seed})`;
      if (injected === 0) failures.add(`${label}: the fault never fired`);
      for (const reply of seen) {
        if (reply.body?.error?.code === "VERSION_CONFLICT") bump("false VERSION_CONFLICTs");
        if (reply.status >= 500) bump("5xx seen (then reconciled)");
      }

      const order = await world.order(run.orderId);
      const activity = (await world.activity(run.orderId)).filter((a) => a.operationId === operationId);
      const record = await world.operation(owner.claims.sub as string, operationId);
      const stockTaken = (stockBefore ?? 0) - ((await world.stock(run.sku)) ?? 0);
      const slotTaken = (slotBefore ?? 0) - ((await world.slot(slotDate, "08:00-12:00")) ?? 0);
      const problems: string[] = [];
      if (how.outcome === undefined) problems.push(`not reconciled: ${seen.map((r) => `${r.status} ${show(r.text, 200)}`).join(" | ")}`);
      else if (how.outcome.status !== "completed") problems.push(`reconciled to ${show(how.outcome)}, not completed`);
      if ((order?.version ?? 0) > 4 || activity.length > 1 || stockTaken > 1 || slotTaken > 1) {
        bump("double-applies");
        problems.push(
          `applied more than once: version ${order?.version}, ${activity.length} activity entries, stock −${stockTaken}, capacity −${slotTaken}`,
        );
      }
      if (order?.version !== 4 || activity.length !== 1)
        problems.push(`the order is at version ${order?.version} with ${activity.length} activity entries for this operation`);
      if (stockTaken !== (run.tool === "offer_replacement" ? 1 : 0) || slotTaken !== (run.tool === "start_return" ? 1 : 0))
        problems.push(`stock −${stockTaken}, pickup capacity −${slotTaken}`);
      if (record?.status !== "completed" || record?.orderVersion !== 4)
        problems.push(`the operation record is ${show(record?.status)} at ${show(record?.orderVersion)}`);
      if (how.outcome?.status === "completed" && how.outcome.orderVersion !== 4)
        problems.push(`the caller was told version ${how.outcome.orderVersion}`);
      if (problems.length) {
        bump("unreconciled");
        failures.add(`${label}: ${problems.join("; ")}`);
      } else bump(how.by);
    }
    const reconciled = (tally["definite at once"] ?? 0) + (tally["reconciled by retry"] ?? 0) + (tally["reconciled by status lookup"] ?? 0);
    return {
      part: "faults",
      figures: { ...tally, "reconciled (%)": Number(((100 * reconciled) / Math.max(1, tally.runs ?? 1)).toFixed(1)), seed },
      failures: failures.list,
      failureCount: failures.count,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    world.log.hooks = [];
    await world.destroy();
  }
}

/** The hook that injects one fault of this kind; `fired` tells how many times it did. */
function faultHook(kind: FaultKind, k: number): { hook: RequestHook; fired: () => number } {
  let fired = 0;
  let outerSeen = 0;
  let armed = true;
  const isChange = (command: string) => command === "TransactWriteItemsCommand";
  const hook: RequestHook = {
    before(request) {
      if (request.layer === "outer") outerSeen++;
      if (!armed) return;
      if (kind === "throttle-outer" && request.layer === "outer" && outerSeen === k) {
        armed = false;
        fired++;
        throw throttled();
      }
      if (kind === "throttle-inner" && request.layer === "inner" && outerSeen >= k) {
        armed = false;
        fired++;
        throw throttled();
      }
      // Powertools saves the outcome with an UpdateItem once the business transaction has committed.
      if (
        kind === "powertools" &&
        request.layer === "outer" &&
        request.client === "powertools" &&
        request.command === "UpdateItemCommand"
      ) {
        armed = false;
        fired++;
        throw serverError();
      }
      if (
        kind === "status-lookup" &&
        request.layer === "outer" &&
        request.client === "store" &&
        request.command === "GetItemCommand" &&
        lookupArmed &&
        String((request.input.Key as { PK?: string } | undefined)?.PK ?? "").startsWith("OPERATION#")
      ) {
        lookupArmed = false;
        armed = false;
        fired++;
        throw serverError();
      }
    },
    after(request) {
      if (!isChange(request.command) || request.client !== "store") return;
      if ((kind === "lost-outer" || kind === "status-lookup") && request.layer === "outer" && lostArmed) {
        lostArmed = false;
        fired++;
        if (kind === "status-lookup") lookupArmed = true;
        throw lost();
      }
      if (kind === "lost-inner" && request.layer === "inner" && lostArmed) {
        lostArmed = false;
        fired++;
        throw lost();
      }
    },
  };
  let lostArmed = true;
  let lookupArmed = false;
  return { hook, fired: () => fired };
}

type Outcome = { status: string; orderVersion?: number; code?: string };

/**
 * What a careful caller does with an answer (contract §4): a 200 or a recorded rejection is definite; anything else
 * is unknown, so ask get_operation_status (again, if the lookup itself fails) and resend the identical request
 * on not_found, a bounded number of times.
 */
async function reconcile(
  world: World,
  tool: ChangingTool,
  request: Record<string, unknown>,
  first: Reply,
  seen: Reply[],
): Promise<{ outcome?: Outcome; by: string }> {
  const definite = (r: Reply): Outcome | undefined =>
    r.status === 200
      ? { status: "completed", orderVersion: r.body?.orderVersion }
      : r.body?.status === "rejected"
        ? { status: "rejected", code: r.body?.error?.code }
        : undefined;
  const now = definite(first);
  if (now) return { outcome: now, by: "definite at once" };
  for (let attempt = 0; attempt < 6; attempt++) {
    const look = await world.call("get_operation_status", owner, { operationId: request.operationId });
    seen.push(look);
    if (look.status >= 500) continue;
    if (look.body?.status === "completed")
      return { outcome: { status: "completed", orderVersion: look.body.orderVersion }, by: "reconciled by status lookup" };
    if (look.body?.status === "rejected")
      return { outcome: { status: "rejected", code: look.body.error?.code }, by: "reconciled by status lookup" };
    if (look.body?.status === "pending") {
      await new Promise((r) => setTimeout(r, 100 * (look.body.retryAfterSeconds ?? 1)));
      continue;
    }
    // not_found: it did not take effect; the identical request with the same operationId.
    const again = await world.call(tool, owner, request);
    seen.push(again);
    const settled = definite(again);
    if (settled) return { outcome: settled, by: "reconciled by retry" };
  }
  return { by: "unreconciled" };
}
