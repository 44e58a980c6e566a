/**
 * The authorization matrix, driven by authorization-matrix.json: every tool × every principal (customers, support,
 * marketplace sellers, and tokens that must name no one) × every kind of order id. For each case: the outcome is the one the file names; nothing leaks (no marker of an order the
 * caller may not see, nothing from `internal` ever); nothing changes that should not (both orders, their
 * activity, stock and pickup capacity, and which operation records exist); and a deny is byte-identical to the
 * nonexistent id's reply apart from the ids — status, headers and body, and for changing tools their replay too.
 */
import { readFileSync } from "node:fs";
import {
  addDays,
  baseSellers,
  basePolicies,
  type Caller,
  changingTools,
  customer,
  customers,
  errorShapeProblems,
  Failures,
  type FixtureInput,
  newOperationId,
  nobody,
  orderIds,
  orderItem,
  type PartReport,
  type Reply,
  reliabilityWorld,
  seller,
  show,
  support,
  todayUtc,
  type ToolName,
  type World,
} from "#test/reliability/harness";

type Outcome = "allowed" | "not_found" | "none_found" | "invalid" | "forbidden" | "unauthenticated";
type Kind = "own" | "foreign" | "nonexistent" | "malformed";
type PrincipalSpec =
  | { kind: "customer"; customerId: string; scope?: string }
  | { kind: "support"; staffId: string }
  | { kind: "seller"; sellerId: string }
  /** A verified token with exactly these claims (its scopes from `scope`), for tokens that must name no principal. */
  | { kind: "claims"; claims: Record<string, string> }
  | { kind: "nobody" }
  | { kind: "none" };

interface Matrix {
  principals: Record<string, PrincipalSpec>;
  malformed: { orderId: string; operationId: string };
  orderState: Record<ToolName, { status: string }>;
  orderVersion: number;
  requests: Record<ToolName, Record<string, unknown>>;
  expect: Record<ToolName, Record<string, Record<Kind, Outcome>>>;
}

export const matrix = JSON.parse(readFileSync(new URL("./authorization-matrix.json", import.meta.url), "utf8")) as Matrix;
const kinds: Kind[] = ["own", "foreign", "nonexistent", "malformed"];

/** How many cases the file describes: rows × principals × id kinds. */
export const matrixCaseCount = () =>
  Object.values(matrix.expect).reduce((n, row) => n + Object.values(row).reduce((m, cells) => m + Object.keys(cells).length, 0), 0);

function callerOf(spec: PrincipalSpec): Caller | undefined {
  switch (spec.kind) {
    case "customer":
      return customer(spec.customerId, spec.scope);
    case "support":
      return support(spec.staffId);
    case "seller":
      return seller(spec.sellerId);
    case "claims":
      return { claims: spec.claims, scopes: (spec.claims.scope ?? "").split(" ").filter(Boolean) };
    case "nobody":
      return nobody();
    case "none":
      return undefined;
  }
}

const owner = "C-1001";
const other = "C-2002";
/** The seller of every order but a seller row's own and foreign ones, and the other seller of the matrix. */
const ownerSeller = "SLR-2210";
const otherSeller = "SLR-5500";

export async function runAuthorizationMatrix(endpoint: string): Promise<PartReport> {
  const started = performance.now();
  const failures = new Failures();
  const today = todayUtc();
  const nextId = orderIds(40_000);
  const tools = Object.keys(matrix.expect) as ToolName[];
  const principals = Object.keys(matrix.principals);

  // One pair of orders per row and principal (own = the caller's, or the owner's; foreign = the other's). A
  // seller's pair differ in their seller (the same customer's two orders), everyone else's in their customer.
  const pairs = new Map<string, { own: string; foreign: string }>();
  const orders: unknown[] = [];
  for (const tool of tools) {
    for (const name of principals) {
      const spec = matrix.principals[name] as PrincipalSpec;
      const ownCustomer = spec.kind === "customer" ? spec.customerId : owner;
      const foreignCustomer = spec.kind === "seller" ? owner : ownCustomer === owner ? other : owner;
      const ownSeller = spec.kind === "seller" ? spec.sellerId : ownerSeller;
      const foreignSeller = spec.kind === "seller" ? (ownSeller === ownerSeller ? otherSeller : ownerSeller) : ownerSeller;
      const own = nextId();
      const foreign = nextId();
      pairs.set(`${tool}/${name}`, { own, foreign });
      const state = matrix.orderState[tool];
      const items = [{ itemId: "ITM-1", sku: skuOf(tool) }];
      orders.push(
        orderItem(own, today, {
          customerId: ownCustomer,
          sellerId: ownSeller,
          status: state.status,
          version: matrix.orderVersion,
          marker: `MARK-${own}`,
          items,
        }),
      );
      orders.push(
        orderItem(foreign, today, {
          customerId: foreignCustomer,
          sellerId: foreignSeller,
          status: state.status,
          version: matrix.orderVersion,
          marker: `MARK-${foreign}`,
          items,
        }),
      );
    }
  }
  // Orders the status lookups' operations are made on: cancellations by the customers and support, returns by the sellers.
  const opOrders = { owner: nextId(), other: nextId(), support: nextId() };
  for (const [who, id] of Object.entries(opOrders))
    orders.push(orderItem(id, today, { customerId: who === "other" ? other : owner, status: "placed" }));
  const sellerOpOrders: Record<string, string> = { [ownerSeller]: nextId(), [otherSeller]: nextId() };
  for (const [sellerId, id] of Object.entries(sellerOpOrders))
    orders.push(orderItem(id, today, { customerId: owner, sellerId, status: "delivered" }));

  const fixture: FixtureInput = {
    sellers: [...baseSellers, { id: otherSeller, name: "Corran Textiles", type: "marketplace", status: "active" }],
    policies: basePolicies,
    customers: customers([owner, other]),
    // A SKU per row, so the rows can run side by side and each sees only its own stock move.
    stock: tools.map((tool) => ({ sku: skuOf(tool), available: 10_000 })),
    pickupSlots: [{ date: addDays(today, 1), window: "08:00-12:00", capacity: 10_000 }],
    orders,
  };
  const world = await reliabilityWorld(endpoint, fixture);
  try {
    // The operations the status rows look up: one by the owner, one by the other customer, one by support.
    const ops = { owner: newOperationId(), other: newOperationId(), support: newOperationId() };
    const sellerOps: Record<string, string> = { [ownerSeller]: newOperationId(), [otherSeller]: newOperationId() };
    const made = [
      await world.call("cancel_order", customer(owner), { operationId: ops.owner, orderId: opOrders.owner }),
      await world.call("cancel_order", customer(other), { operationId: ops.other, orderId: opOrders.other }),
      await world.call("cancel_order", support("S-7"), { operationId: ops.support, orderId: opOrders.support }),
      ...(await Promise.all(
        Object.entries(sellerOps).map(([sellerId, operationId]) =>
          world.call("start_return", seller(sellerId), {
            operationId,
            orderId: sellerOpOrders[sellerId] as string,
            itemIds: ["ITM-1"],
            reason: "damaged",
          }),
        ),
      )),
    ];
    for (const reply of made) if (reply.status !== 200) failures.add(`setup: a change for the status rows failed: ${show(reply.text)}`);
    const opsFor = (spec: PrincipalSpec): { own: string; foreign: string } => {
      if (spec.kind === "customer" && spec.customerId === other) return { own: ops.other, foreign: ops.owner };
      if (spec.kind === "support") return { own: ops.support, foreign: ops.owner };
      // A seller's own operation is its return; the other seller's return is someone else's operation.
      if (spec.kind === "seller")
        return {
          own: sellerOps[spec.sellerId] as string,
          foreign: sellerOps[spec.sellerId === ownerSeller ? otherSeller : ownerSeller] as string,
        };
      return { own: ops.owner, foreign: ops.other };
    };

    const counts: Record<string, number> = {
      cases: 0,
      allowed: 0,
      not_found: 0,
      none_found: 0,
      invalid: 0,
      forbidden: 0,
      unauthenticated: 0,
      identical: 0,
      replays: 0,
    };
    // Rows run side by side: each has its own orders and SKU, and only start_return's row books pickups.
    await Promise.all(
      tools.map(async (tool) => {
        for (const name of principals) {
          const spec = matrix.principals[name] as PrincipalSpec;
          const caller = callerOf(spec);
          const pair = pairs.get(`${tool}/${name}`) as { own: string; foreign: string };
          const opIds = opsFor(spec);
          const replies = new Map<Kind, { reply: Reply; orderId: string; operationId: string; replay?: Reply }>();
          for (const kind of kinds) {
            const expected = matrix.expect[tool]?.[name]?.[kind];
            if (!expected) {
              failures.add(`${tool} × ${name} × ${kind}: the matrix has no expectation`);
              continue;
            }
            counts.cases = (counts.cases ?? 0) + 1;
            counts[expected] = (counts[expected] ?? 0) + 1;
            const orderId =
              kind === "own" ? pair.own : kind === "foreign" ? pair.foreign : kind === "nonexistent" ? nextId() : matrix.malformed.orderId;
            const operationId =
              tool === "get_operation_status"
                ? kind === "own"
                  ? opIds.own
                  : kind === "foreign"
                    ? opIds.foreign
                    : kind === "nonexistent"
                      ? newOperationId()
                      : matrix.malformed.operationId
                : newOperationId();
            const request = fill(matrix.requests[tool], { orderId, operationId });
            const label = `${tool} × ${name} × ${kind} (${show(request, 200)})`;
            const before = await snapshot(world, pair, tool);
            const reply = await world.call(tool, caller, request);
            const after = await snapshot(world, pair, tool);
            const problems: string[] = [];
            problems.push(...outcomeProblems(tool, expected, reply, { orderId, operationId, version: matrix.orderVersion }));
            problems.push(...leakProblems(reply, expected, kind, pair));
            problems.push(...changeProblems(tool, expected, kind, pair, before, after));
            problems.push(...(await recordProblems(world, tool, expected, caller, operationId, reply)));
            let replay: Reply | undefined;
            if ((changingTools as readonly string[]).includes(tool) && expected === "not_found") {
              // A recorded rejection replays byte for byte, and still changes nothing.
              replay = await world.call(tool, caller, request);
              counts.replays = (counts.replays ?? 0) + 1;
              if (replay.status !== reply.status || replay.text !== reply.text || replay.headers["idempotent-replayed"] !== "true") {
                problems.push(
                  `the replay differs: ${replay.status} ${show(replay.text)} (Idempotent-Replayed: ${replay.headers["idempotent-replayed"]})`,
                );
              }
              if (JSON.stringify(await snapshot(world, pair, tool)) !== JSON.stringify(after))
                problems.push("the replay changed something");
            }
            for (const problem of problems) failures.add(`${label}: ${problem}`);
            replies.set(kind, { reply, orderId, operationId, ...(replay ? { replay } : {}) });
          }

          // A deny is the nonexistent id's reply, byte for byte, apart from the ids.
          const absent = replies.get("nonexistent");
          for (const kind of ["own", "foreign"] as const) {
            const expected = matrix.expect[tool]?.[name]?.[kind];
            const seen = replies.get(kind);
            if (!absent || !seen || expected === "allowed" || expected !== matrix.expect[tool]?.[name]?.nonexistent) continue;
            counts.identical = (counts.identical ?? 0) + 1;
            const a = normalise(seen.reply, seen);
            const b = normalise(absent.reply, absent);
            if (a !== b)
              failures.add(
                `${tool} × ${name}: the ${kind} id's reply is not the nonexistent id's apart from the ids:\n  ${kind}: ${a}\n  nonexistent: ${b}`,
              );
            if (seen.replay && absent.replay && normalise(seen.replay, seen) !== normalise(absent.replay, absent)) {
              failures.add(`${tool} × ${name}: the ${kind} id's replay is not the nonexistent id's replay apart from the ids`);
            }
          }
        }
      }),
    );
    return {
      part: "authorization",
      figures: { ...counts, "matrix cases": matrixCaseCount() },
      failures: failures.list,
      failureCount: failures.count,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await world.destroy();
  }
}

function fill(template: Record<string, unknown>, values: { orderId: string; operationId: string }): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(template)
      .replaceAll('"{orderId}"', JSON.stringify(values.orderId))
      .replaceAll('"{operationId}"', JSON.stringify(values.operationId)),
  );
}

/** Status, headers and body with this case's order id and operationId replaced by placeholders. */
function normalise(reply: Reply, ids: { orderId: string; operationId: string }): string {
  const headers = Object.entries(reply.headers)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return `${reply.status} ${JSON.stringify(headers)} ${reply.text.replaceAll(ids.orderId, "<orderId>").replaceAll(ids.operationId, "<operationId>")}`;
}

const skuOf = (tool: ToolName) => `REL-${tool.toUpperCase()}`;

async function snapshot(world: World, pair: { own: string; foreign: string }, tool: ToolName) {
  return {
    own: await world.order(pair.own),
    foreign: await world.order(pair.foreign),
    ownActivity: (await world.activity(pair.own)).length,
    foreignActivity: (await world.activity(pair.foreign)).length,
    stock: await world.stock(skuOf(tool)),
    // Only start_return's row books pickups; the others run beside it and must not look at the shared slot.
    slot: tool === "start_return" ? await world.slot(addDays(todayUtc(), 1), "08:00-12:00") : 0,
  };
}

function outcomeProblems(
  tool: ToolName,
  expected: Outcome,
  reply: Reply,
  ids: { orderId: string; operationId: string; version: number },
): string[] {
  const problems: string[] = [];
  const want = (status: number, code?: string) => {
    if (reply.status !== status) problems.push(`expected ${status}${code ? ` ${code}` : ""}, got ${reply.status}: ${show(reply.text)}`);
    else if (code && reply.body?.error?.code !== code) problems.push(`expected ${code}, got ${show(reply.text)}`);
    if (status >= 400) problems.push(...errorShapeProblems(reply));
  };
  const changing = (changingTools as readonly string[]).includes(tool);
  switch (expected) {
    case "allowed":
      want(200);
      if (reply.status !== 200) break;
      if (tool === "search_orders" && !reply.body?.orders?.some((o: { orderId?: string }) => o.orderId === ids.orderId))
        problems.push(`the search did not find ${ids.orderId}: ${show(reply.text)}`);
      if (tool === "get_order" && (reply.body?.orderId !== ids.orderId || reply.body?.version !== ids.version))
        problems.push(`get_order answered ${show(reply.text)}`);
      if (tool === "get_operation_status" && (reply.body?.status !== "completed" || reply.body?.operationId !== ids.operationId))
        problems.push(`the lookup answered ${show(reply.text)}`);
      if (
        changing &&
        (reply.body?.status !== "completed" ||
          reply.body?.orderId !== ids.orderId ||
          reply.body?.orderVersion !== ids.version + 1 ||
          reply.body?.operationId !== ids.operationId)
      ) {
        problems.push(`the change answered ${show(reply.text)}`);
      }
      break;
    case "none_found":
      want(200);
      if (reply.text !== JSON.stringify({ orders: [], truncated: false })) problems.push(`expected no orders, got ${show(reply.text)}`);
      break;
    case "not_found":
      if (tool === "get_operation_status") {
        want(404, "OPERATION_NOT_FOUND");
        if (reply.body?.status !== "not_found" || reply.body?.operationId !== ids.operationId)
          problems.push(`expected status not_found, got ${show(reply.text)}`);
      } else {
        want(404, "ORDER_NOT_FOUND");
        if (
          changing &&
          (reply.body?.status !== "rejected" || reply.body?.orderId !== ids.orderId || reply.body?.operationId !== ids.operationId)
        ) {
          problems.push(`a recorded rejection carries operationId, status "rejected" and orderId: ${show(reply.text)}`);
        }
      }
      break;
    case "invalid":
      want(400, "INVALID_INPUT");
      if (!Array.isArray(reply.body?.error?.issues) || reply.body.error.issues.length === 0) problems.push("INVALID_INPUT without issues");
      else if (
        !reply.body.error.issues.some((i: { path?: string }) => i.path === (tool === "get_operation_status" ? "operationId" : "orderId"))
      )
        problems.push(`no issue names the id: ${show(reply.text)}`);
      break;
    case "forbidden":
      want(403, "FORBIDDEN");
      break;
    case "unauthenticated":
      want(401, "UNAUTHENTICATED");
      break;
  }
  return problems;
}

function leakProblems(reply: Reply, expected: Outcome, kind: Kind, pair: { own: string; foreign: string }): string[] {
  const problems: string[] = [];
  if (reply.text.includes("INTERNAL-MARK")) problems.push(`an internal field reached the caller: ${show(reply.text)}`);
  // Markers sit in the orders' titles, descriptions and tracking ids: only an allowed read of that order shows them.
  const visible = expected === "allowed" ? (kind === "own" ? pair.own : kind === "foreign" ? pair.foreign : "") : "";
  for (const id of [pair.own, pair.foreign]) {
    if (id !== visible && reply.text.includes(`MARK-${id}`))
      problems.push(`order ${id}'s contents reached a caller who did not ask for them or may not see them: ${show(reply.text)}`);
  }
  if (expected !== "allowed" && reply.body?.error && ("currentVersion" in reply.body.error || "orderStatus" in reply.body.error)) {
    problems.push(`a refusal told the order's version or status: ${show(reply.text)}`);
  }
  return problems;
}

function changeProblems(
  tool: ToolName,
  expected: Outcome,
  kind: Kind,
  pair: { own: string; foreign: string },
  before: Awaited<ReturnType<typeof snapshot>>,
  after: Awaited<ReturnType<typeof snapshot>>,
): string[] {
  const changing = (changingTools as readonly string[]).includes(tool);
  const target = expected === "allowed" && changing ? (kind === "own" ? "own" : kind === "foreign" ? "foreign" : undefined) : undefined;
  const problems: string[] = [];
  for (const side of ["own", "foreign"] as const) {
    const was = before[side];
    const now = after[side];
    if (side === target) {
      if (now?.version !== (was?.version as number) + 1)
        problems.push(`the allowed change left ${pair[side]} at version ${now?.version}, not ${(was?.version as number) + 1}`);
      if (after[`${side}Activity`] !== before[`${side}Activity`] + 1)
        problems.push(`the allowed change wrote ${after[`${side}Activity`] - before[`${side}Activity`]} activity entries`);
    } else if (JSON.stringify(now) !== JSON.stringify(was) || after[`${side}Activity`] !== before[`${side}Activity`]) {
      problems.push(`order ${pair[side]} changed though it should not have: ${show(was, 200)} → ${show(now, 200)}`);
    }
  }
  const stockTaken = (before.stock ?? 0) - (after.stock ?? 0);
  const slotTaken = (before.slot ?? 0) - (after.slot ?? 0);
  if (stockTaken !== (target && tool === "offer_replacement" ? 1 : 0)) problems.push(`stock went down by ${stockTaken}`);
  if (slotTaken !== (target && tool === "start_return" ? 1 : 0)) problems.push(`pickup capacity went down by ${slotTaken}`);
  return problems;
}

/** contract §4: business outcomes are recorded; INVALID_INPUT, 401 and 403 are not. */
async function recordProblems(
  world: World,
  tool: ToolName,
  expected: Outcome,
  caller: Caller | undefined,
  operationId: string,
  reply: Reply,
): Promise<string[]> {
  if (!(changingTools as readonly string[]).includes(tool) || !caller) return [];
  const record = await world.operation(caller.claims.sub as string, operationId);
  if (expected === "allowed" || expected === "not_found") {
    if (!record) return ["no operation record was written for a business outcome"];
    if (JSON.stringify(record.body) !== reply.text) return [`the operation record's body differs from the reply: ${show(record.body)}`];
    if (record.status !== (expected === "allowed" ? "completed" : "rejected")) return [`the operation record says ${record.status}`];
    return [];
  }
  return record ? [`an operation record was written for a ${expected} reply`] : [];
}
