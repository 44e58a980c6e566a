import { createHash } from "node:crypto";
import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { ChangePlan, Json, LinkedWrite, OrderChange, Refusal } from "#core/change";
import { type DeclineAnswer, declinedBody } from "#core/declined";
import {
  IdempotencyKeyReusedError,
  InternalError,
  InvalidInputError,
  NotEligibleError,
  OrderNotFoundError,
  OrderTooLargeError,
  RateLimitedError,
  type ToolError,
  VersionConflictError,
} from "#core/errors";
import type { Order } from "#core/order";
import { actorOf, mayAccessOrder, ownershipOf, type Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { Expression } from "#store/expression";
import { reserveCapSlot } from "#store/hourly-cap";
import { historyLinks, type ItemKey, operationKey, orderKey, withoutStoreAttributes } from "#store/keys";
import { lastChangeOf, linkOf, orderOf, readStoredOrder, type StoredOrder, summaryChangeOf } from "#store/order-items";

/**
 * A rejection's record outlives Powertools' own record so a late retry still finds its outcome (contract §4: ≥ 7
 * days). A completed change's record is kept for good: it is the order's history (see `commitTransaction`).
 */
export const operationRecordDays = 30;
const maxVersionRetries = 3;
const maxConflictRetries = 4;
/** A safety bound only: each plan decides itself how often it plans again (start_return: once). */
const maxReplans = 3;

/** Who is asking for which operation, and the fingerprint of exactly what they asked. */
export interface OperationContext {
  principal: Principal;
  tool: string;
  operationId: string;
  fingerprint: string;
}

/** The final outcome of an operation: an HTTP status and the body the caller sees, every time. */
export interface Outcome {
  tool: string;
  httpStatus: number;
  body: Json;
  /** True when this outcome was decided by an earlier request with the same operationId. */
  replayed?: boolean;
}

export interface OperationRecord {
  tool: string;
  operationId: string;
  fingerprint: string;
  status: "completed" | "rejected" | "declined";
  orderId: string;
  orderVersion?: number;
  httpStatus: number;
  body: Json;
  actor: ReturnType<typeof actorOf>;
  recordedAt: string;
  /** A completed change's entry in the order's history: what changed, in a line, and its details. */
  activity?: ChangePlan["activity"];
}

/** The fingerprint of a request: which tool, with which validated arguments. */
export function fingerprintOf(tool: string, args: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify({ tool, arguments: args }))
    .digest("base64url");
}

function rejectedBody(op: OperationContext, orderId: string, error: ToolError): Json {
  return { ...(error.toJSON() as unknown as Json), operationId: op.operationId, status: "rejected", orderId };
}

/** Strips `undefined` so Powertools can store the outcome and the document client can write it. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function recordItem(
  op: OperationContext,
  record: Omit<OperationRecord, "tool" | "operationId" | "fingerprint" | "actor" | "recordedAt"> & { previous?: ItemKey },
  now: Date,
) {
  const { previous, ...outcome } = record;
  return plain({
    ...operationKey(op.principal.sub, op.operationId),
    entity: "operation",
    tool: op.tool,
    operationId: op.operationId,
    fingerprint: op.fingerprint,
    actor: actorOf(op.principal),
    recordedAt: now.toISOString(),
    // A completed change's record is the order's history and is never deleted; a rejection's or a decline's is kept 30 days.
    ...(record.status !== "completed" ? { expiresAt: Math.floor(now.getTime() / 1000) + operationRecordDays * 86_400 } : {}),
    ...outcome,
    ...(previous ? { [historyLinks.previous]: previous } : {}),
    // Kept as JSON text: a DynamoDB map does not keep key order, and a replay must be the same body.
    body: JSON.stringify(record.body),
  });
}

/** The recorded body as the caller first saw it. */
function recordedBody(body: unknown): Json {
  return (typeof body === "string" ? JSON.parse(body) : body) as Json;
}

/**
 * The outcome already recorded under this operationId. A record made for other arguments or another tool
 * means the id was reused: IDEMPOTENCY_KEY_REUSED, and nothing changes.
 */
function replayRecorded(op: OperationContext, record: Record<string, unknown>): Outcome {
  if (record.fingerprint !== op.fingerprint) {
    throw new IdempotencyKeyReusedError(op.operationId, op.tool, String(record.tool));
  }
  return { tool: String(record.tool), httpStatus: Number(record.httpStatus), body: recordedBody(record.body), replayed: true };
}

export async function readOperationRecord(deps: StoreDeps, sub: string, operationId: string): Promise<OperationRecord | undefined> {
  const { Item } = await deps.doc.send(
    new GetCommand({ TableName: deps.tables.orders, Key: operationKey(sub, operationId), ConsistentRead: true }),
  );
  return Item ? ({ ...withoutStoreAttributes(Item), body: recordedBody(Item.body) } as unknown as OperationRecord) : undefined;
}

/** Records a business rejection so that it replays; if an outcome is already recorded, that one stands. */
function recordRejection(deps: StoreDeps, op: OperationContext, orderId: string, error: ToolError): Promise<Outcome> {
  return recordFinal(deps, op, { status: "rejected", orderId, httpStatus: error.httpStatus, body: rejectedBody(op, orderId, error) });
}

/** The HTTP status of a change the person did not confirm: the request conflicts with their recorded answer. */
export const declinedHttpStatus = 409;

/**
 * Records that the person did not confirm this operation (contract §2.1), changing no order: from then on the
 * operationId answers this outcome and never runs. If an outcome is already recorded (the change was confirmed and
 * made), that one stands and is the answer: a late no does not undo or deny it.
 */
export function recordDeclined(deps: StoreDeps, op: OperationContext, orderId: string, how: DeclineAnswer): Promise<Outcome> {
  const body = declinedBody(op.tool, op.operationId, orderId, how);
  return recordFinal(deps, op, { status: "declined", orderId, httpStatus: declinedHttpStatus, body });
}

/** Writes an outcome that changes no order, only if none is recorded under this operationId; else replays that one. */
async function recordFinal(
  deps: StoreDeps,
  op: OperationContext,
  record: { status: "rejected" | "declined"; orderId: string; httpStatus: number; body: Json },
): Promise<Outcome> {
  try {
    await deps.doc.send(
      new PutCommand({
        TableName: deps.tables.orders,
        Item: recordItem(op, record, deps.now()),
        ConditionExpression: "attribute_not_exists(PK)",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
  } catch (err) {
    // The document client does not unmarshall the item that comes back with a failed condition.
    const existing =
      (err as { name?: string; Item?: Record<string, never> }).name === "ConditionalCheckFailedException"
        ? (err as { Item?: Record<string, never> }).Item
        : undefined;
    if (existing) return replayRecorded(op, unmarshall(existing));
    throw err;
  }
  return { tool: op.tool, httpStatus: record.httpStatus, body: record.body };
}

type Attempt =
  | { kind: "committed"; outcome: Outcome }
  | { kind: "decided"; outcome: Outcome }
  | { kind: "rejected"; error: ToolError }
  | { kind: "retry"; reason: "version" | "conflict" | "replan" };

/**
 * Applies one change to one order as a single TransactWriteItems: the order update, conditioned on
 * ownership, eligibility and version, together with the operation record (`attribute_not_exists`) and any
 * linked writes. A failed transaction is diagnosed from the items as they are (ALL_OLD), ownership first,
 * so a caller who may not access the order learns nothing about it. Business rejections are recorded and
 * returned, never thrown, so they replay like successes.
 */
export async function commitOrderChange(deps: StoreDeps, op: OperationContext, change: OrderChange): Promise<Outcome> {
  let versionRetries = 0;
  let conflictRetries = 0;
  let replans = 0;
  for (;;) {
    const attempt = await attemptChange(deps, op, change, replans).catch(async (error: unknown) => {
      // A refusal judged against the present and never recorded (the hourly cap, a pickup date that has since
      // passed) must not hide an outcome already recorded under this operationId: a late retry replays it.
      if (!(error instanceof RateLimitedError || error instanceof InvalidInputError)) throw error;
      const record = await readOperationRecord(deps, op.principal.sub, op.operationId);
      if (!record) throw error;
      return { kind: "decided" as const, outcome: replayRecorded(op, record as unknown as Record<string, unknown>) };
    });
    switch (attempt.kind) {
      case "committed":
      case "decided":
        return attempt.outcome;
      case "rejected":
        return recordRejection(deps, op, change.orderId, attempt.error);
      case "retry":
        if (attempt.reason === "replan") {
          if (++replans > maxReplans)
            throw new InternalError(
              `The change to order ${change.orderId} could not be planned; the outcome is unknown — ask get_operation_status with the same operationId.`,
            );
          continue;
        }
        if (attempt.reason === "version" && ++versionRetries > maxVersionRetries) {
          throw new InternalError(
            `Order ${change.orderId} kept changing while ${op.tool} ran; the outcome is unknown — ask get_operation_status with the same operationId, then retry it.`,
          );
        }
        if (attempt.reason === "conflict" && ++conflictRetries > maxConflictRetries) {
          throw new InternalError(
            `Order ${change.orderId} is busy; the outcome is unknown — ask get_operation_status with the same operationId, then retry it.`,
          );
        }
        await new Promise((r) => setTimeout(r, 10 + Math.random() * 40 * conflictRetries));
    }
  }
}

async function attemptChange(deps: StoreDeps, op: OperationContext, change: OrderChange, replans: number): Promise<Attempt> {
  const now = deps.now();
  // Every change reads the order's state: the version to condition on, and the last change its record links back
  // to (the order's history, see commitTransaction). With its content only when the plan needs the order's lines
  // or seller (`readsOrder`). The actor's hourly allowance is read side by side.
  const [read, capSlot] = await Promise.all([
    readStoredOrder(deps, change.orderId, change.readsOrder === true),
    reserveCapSlot(deps, op.principal, now, change.capped === true),
  ]);
  // The write below re-checks everything; an order the caller cannot see still goes through it, so that
  // an operation already recorded under this id is found rather than answered afresh. The plan never sees it.
  const stored = read && mayAccessOrder(op.principal, read.state as Pick<Order, "customerId" | "sellerId">) ? read : undefined;
  // Whatever the plan computes from the order as read is written only under the version it was read at, never
  // under the caller's expectedVersion alone: a change that lands in between must fail this write, not be
  // overwritten by it. An order the caller cannot see is conditioned on the expectedVersion, and fails on ownership.
  const version = stored ? Number(stored.state.version) : (change.expectedVersion ?? 0);
  const order = stored && change.readsOrder ? orderOf(stored) : undefined;
  const plan = await change.plan({ committedVersion: version + 1, now, order, replans });
  const attempt: AttemptContext = { deps, op, change, version, plan, now, expr: new Expression(), stored, order };

  // The proposal was made against another version than the one read: stale (or ahead of the order), so the
  // answer is VERSION_CONFLICT — unless the order itself is ineligible, which the same checked write tells.
  if (stored !== undefined && change.expectedVersion !== undefined && change.expectedVersion !== version) {
    return send(attempt, refusalTransaction(attempt, new VersionConflictError(change.orderId, change.expectedVersion, version)));
  }
  if ("refusal" in plan) return send(attempt, refusalTransaction(attempt, plan.refusal));
  return send(attempt, commitTransaction(attempt, plan, capSlot?.put));
}

/** One attempt's inputs, shared by the parts it writes and the diagnosis of a failed transaction. */
interface AttemptContext {
  deps: StoreDeps;
  op: OperationContext;
  change: OrderChange;
  /** The version the write is conditioned on. */
  version: number;
  plan: ChangePlan | Refusal;
  now: Date;
  expr: Expression;
  /** The order's items as read, when the caller may access it. */
  stored?: StoredOrder;
  /** The order as read, when the plan needs it (`readsOrder`). */
  order?: Order;
}

type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/**
 * One item of the transaction, with what it is there for: a failed transaction's cancellation reasons come
 * back in the items' order, and each is read by the role of the item it belongs to.
 */
type Part = { item: TransactItem } & ({ role: "order" | "record" | "cap" } | { role: "linked"; write: LinkedWrite });

/** A transaction to send, and the outcome its operation record holds: the answer when it commits. */
interface Transaction {
  parts: Part[];
  outcome: { httpStatus: number; body: Json };
}

/** What the order must be for the write: ownership first (a customer's by customerId, a seller's by sellerId, support any), then eligibility and version. */
function orderConditions({ op, change, version, plan, expr, stored }: AttemptContext): string {
  const owner = ownershipOf(op.principal);
  const lastChange = stored && lastChangeOf(stored.state);
  return [
    "attribute_exists(PK)",
    ...(owner ? [expr.equals(owner.attribute, owner.value)] : []),
    expr.oneOf("status", change.rule.allowedStatuses),
    expr.equals("version", version),
    // The last change as read, which this change's record names as the one before: the layout migration links an
    // order's older history without changing its version, and a change must not cut that link off.
    ...(stored ? [lastChange ? expr.equals(historyLinks.last, lastChange) : `attribute_not_exists(${expr.name(historyLinks.last)})`] : []),
    ...(("conditions" in plan && plan.conditions?.(expr)) || []),
  ].join(" AND ");
}

/** The operation record, written only if none exists under this operationId (a concurrent twin's stands). */
function recordPart(attempt: AttemptContext, record: Parameters<typeof recordItem>[1]): Part {
  const { deps, op, now } = attempt;
  return {
    role: "record",
    item: {
      Put: {
        TableName: deps.tables.orders,
        Item: recordItem(op, record, now),
        ConditionExpression: "attribute_not_exists(PK)",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    },
  };
}

/** A refusal, recorded in one transaction with a check that the order meets everything else it must. */
function refusalTransaction(attempt: AttemptContext, refusal: ToolError): Transaction {
  const { deps, op, change, expr } = attempt;
  const conditions = orderConditions(attempt);
  const outcome = { httpStatus: refusal.httpStatus, body: rejectedBody(op, change.orderId, refusal) };
  const parts: Part[] = [
    {
      role: "order",
      item: {
        ConditionCheck: {
          TableName: deps.tables.orders,
          Key: orderKey(change.orderId),
          ConditionExpression: conditions,
          ...expr.attributes(),
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    },
    recordPart(attempt, { status: "rejected", orderId: change.orderId, ...outcome }),
  ];
  return { parts, outcome };
}

/**
 * The change itself: the update of the order's state, its operation record, the plan's linked writes and the cap's
 * slot. The record of a completed change is also the order's history entry (who, which tool, what changed): the
 * state names it as its last change, and it names the change before (the state's last change as read, which the
 * write is conditioned on, with the version). So the history costs no item of its own in the transaction, the
 * state item stays the same size however often it changes, and the history is read from the state back
 * (`readActivity`).
 */
function commitTransaction(attempt: AttemptContext, plan: ChangePlan, capSlot: TransactItem["Put"] | undefined): Transaction {
  const { deps, op, change, version, now, expr, stored, order } = attempt;
  const committedVersion = version + 1;
  const conditions = orderConditions(attempt);
  const record = operationKey(op.principal.sub, op.operationId);
  const set = { ...plan.set, ...(order ? summaryChangeOf(order, plan.set) : {}), [historyLinks.last]: record };
  const sets = [
    `${expr.name("version")} = ${expr.value(committedVersion)}`,
    `${expr.name("updatedAt")} = ${expr.value(now.toISOString())}`,
    ...Object.entries(set).map(([attribute, value]) => `${expr.name(attribute)} = ${expr.value(value)}`),
  ];
  const body: Json = plain({
    operationId: op.operationId,
    status: "completed",
    orderId: change.orderId,
    orderVersion: committedVersion,
    ...plan.result,
  });
  const previous = stored && lastChangeOf(stored.state);
  const parts: Part[] = [
    {
      role: "order",
      item: {
        Update: {
          TableName: deps.tables.orders,
          Key: orderKey(change.orderId),
          UpdateExpression: `SET ${sets.join(", ")}`,
          ConditionExpression: conditions,
          ...expr.attributes(),
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    },
    recordPart(attempt, {
      status: "completed",
      orderId: change.orderId,
      orderVersion: committedVersion,
      httpStatus: 200,
      body,
      activity: plan.activity,
      ...(previous ? { previous } : {}),
    }),
    ...(plan.linkedWrites ?? []).map((write): Part => ({ role: "linked", write, item: linkedItem(deps, write) })),
    ...(capSlot ? [{ role: "cap" as const, item: { Put: capSlot } }] : []),
  ];
  return { parts, outcome: { httpStatus: 200, body } };
}

/** Writes the parts as one transaction; the outcome is the one recorded, or what the failure says. */
async function send(attempt: AttemptContext, { parts, outcome }: Transaction): Promise<Attempt> {
  const { deps, op, change } = attempt;
  try {
    await deps.doc.send(new TransactWriteCommand({ TransactItems: parts.map((p) => p.item) }));
    return { kind: "committed", outcome: { tool: op.tool, ...outcome } };
  } catch (err) {
    // A value that alone passes the item size limit (e.g. a whole items list) is refused before anything is written.
    if ((err as Error).name === "ValidationException" && itemTooLarge.test((err as Error).message)) {
      return { kind: "rejected", error: new OrderTooLargeError(change.orderId) };
    }
    if (!(err instanceof TransactionCanceledException)) throw err;
    return diagnose(attempt, parts, err);
  }
}

/** A linked write in the transaction's shape, returning the item as it was if its condition fails. */
function linkedItem(deps: StoreDeps, { write }: LinkedWrite): TransactItem {
  const TableName = deps.tables.orders;
  const common = {
    TableName,
    ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    ConditionExpression: write.condition,
    ...(write.names ? { ExpressionAttributeNames: write.names } : {}),
  };
  switch (write.kind) {
    case "update":
      return { Update: { ...common, Key: write.key, UpdateExpression: write.update, ExpressionAttributeValues: write.values } };
    case "conditionCheck":
      return { ConditionCheck: { ...common, Key: write.key, ExpressionAttributeValues: write.values } };
    case "put":
      return { Put: { ...common, Item: write.item } };
  }
}

/**
 * DynamoDB's words when an item would pass 400 KB: "Item size has exceeded the maximum allowed size" when one
 * value alone is too large (a ValidationException, before anything is written), "Item size to update has
 * exceeded …" when the update would make the stored item too large (a cancellation reason).
 */
const itemTooLarge = /item size (to update )?has exceeded the maximum allowed size/i;

/** Why the transaction was cancelled, read part by part: the record first, then the order (ownership first), then the rest. */
function diagnose({ op, change, version, plan, stored }: AttemptContext, parts: Part[], err: TransactionCanceledException): Attempt {
  const reasons = err.CancellationReasons ?? [];
  const reasonOf = (role: Part["role"]) => reasons[parts.findIndex((p) => p.role === role)];
  const failed = (reason: (typeof reasons)[number] | undefined) => reason?.Code === "ConditionalCheckFailed";
  // The document client does not unmarshall the items that come back with a cancellation.
  const current = (reason: (typeof reasons)[number] | undefined) =>
    reason?.Item ? unmarshall(reason.Item as Parameters<typeof unmarshall>[0]) : undefined;

  const recordReason = reasonOf("record");
  const recorded = failed(recordReason) ? current(recordReason) : undefined;
  if (recorded) return { kind: "decided", outcome: replayRecorded(op, recorded) };
  if (reasons.some((r) => r.Code === "TransactionConflict")) return { kind: "retry", reason: "conflict" };
  const orderReason = reasonOf("order");
  if (failed(orderReason)) {
    const state = current(orderReason);
    // The order's state as it is now, with its content as read (which does not change) for the plan's explanation.
    const order = state && (orderOf({ state, ...(stored?.content ? { content: stored.content } : {}) }) as Order);
    if (!order || !mayAccessOrder(op.principal, order))
      return { kind: "rejected", error: new OrderNotFoundError(change.orderId, op.principal.kind) };
    const planned = plan.explain?.(order);
    if (planned) return { kind: "rejected", error: planned };
    const ineligible = change.rule.rejection(order.status);
    if (ineligible) return { kind: "rejected", error: new NotEligibleError(ineligible.message, ineligible.reason, order.status) };
    if (order.version !== version) {
      // Without an expectedVersion, or now at exactly the version the proposal was made against: plan again
      // from a fresh read. Otherwise the proposal is stale.
      if (change.expectedVersion === undefined || order.version === change.expectedVersion) return { kind: "retry", reason: "version" };
      return { kind: "rejected", error: new VersionConflictError(change.orderId, change.expectedVersion, order.version) };
    }
    // The same version, but the history was linked anew in between (the layout migration): read it again.
    if (stored && JSON.stringify(lastChangeOf(state ?? {})) !== JSON.stringify(lastChangeOf(stored.state)))
      return { kind: "retry", reason: "version" };
    throw new InternalError(
      `Order ${change.orderId} refused the change for a reason not yet explained; the outcome is unknown — ask get_operation_status with the same operationId.`,
      { cause: { reasons: reasons.map((r) => r.Code ?? "None") } },
    );
  }
  // The order would pass DynamoDB's item size limit: definite (nothing was written) and final for this order.
  if (orderReason?.Code === "ValidationError" && itemTooLarge.test(orderReason.Message ?? "")) {
    return { kind: "rejected", error: new OrderTooLargeError(change.orderId) };
  }
  // The cap's allowance changed since it was read (another change by the same actor): read it again.
  if (failed(reasonOf("cap"))) return { kind: "retry", reason: "conflict" };
  for (const [i, part] of parts.entries()) {
    if (part.role === "linked" && failed(reasons[i])) {
      const explained = part.write.explain(current(reasons[i]));
      return explained === "replan" ? { kind: "retry", reason: "replan" } : { kind: "rejected", error: explained };
    }
  }
  // The details (DynamoDB's cancellation codes) are for the log, not for the caller.
  throw new InternalError(
    `The change to order ${change.orderId} could not be written; the outcome is unknown — ask get_operation_status with the same operationId.`,
    { cause: { reasons: reasons.map((r) => ({ code: r.Code ?? "None", message: r.Message })) } },
  );
}

/**
 * The order's history, oldest first: one entry per version a change committed ({orderId, version, at, tool,
 * operationId, actor, summary, …details}), read from its state's last change back, one item at a time (see
 * commitTransaction). Entries written by the previous layout (`ACTIVITY#` items) are in the same chain once the
 * layout migration has linked them.
 */
export async function readActivity(deps: StoreDeps, orderId: string): Promise<Record<string, unknown>[]> {
  const entries: Record<string, unknown>[] = [];
  const read = (Key: ItemKey) => deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key, ConsistentRead: true }));
  const seen = new Set<string>();
  let link = lastChangeOf((await read(orderKey(orderId))).Item ?? {});
  while (link && !seen.has(`${link.PK}\u0000${link.SK}`)) {
    seen.add(`${link.PK}\u0000${link.SK}`);
    const { Item } = await read(link);
    if (!Item) break;
    entries.push(historyEntryOf(Item));
    link = linkOf(Item[historyLinks.previous]);
  }
  return entries.reverse();
}

/** One history entry in one shape, from a change's operation record or from a previous layout's activity item. */
function historyEntryOf(item: Record<string, unknown>): Record<string, unknown> {
  if (item.entity !== "operation") return withoutStoreAttributes(item);
  const { orderId, orderVersion, recordedAt, tool, operationId, actor, activity } = item;
  return { orderId, version: orderVersion, at: recordedAt, tool, operationId, actor, ...(activity as Record<string, unknown>) };
}
