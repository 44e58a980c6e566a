import { isChangeTool, type ToolName } from "#contract/tools";
import type { Intent } from "#controller/intents/intent";
import type { TurnTrace } from "#controller/trace/record";
import type { Fixture } from "#store/fixture";
import type { EvalCase } from "#eval/case-schema";
import type { TappedRequest } from "#eval/service";

/**
 * What the four judges read. Each piece says whose account it is: the service's (the tap, the operation
 * records, the harness's own status lookup), the store's (orders read straight from DynamoDB), the harness's
 * (faults it applied to the order itself), and the controller's (traces, intents, the reply shown).
 */
export interface Evidence {
  case: EvalCase;
  fixture: Fixture;
  /** The caller: a customer id, a marketplace seller's id, or support. */
  caller: { kind: "customer"; customerId: string } | { kind: "seller"; sellerId: string } | { kind: "support"; staffId: string };
  /** Service: every request that reached a handler. */
  tap: TappedRequest[];
  /** Store: every order of the fixture (and any the case expects), as stored afterwards. */
  stored: Record<string, Record<string, unknown> | undefined>;
  /** Store: the operation records of the case's tables. */
  operationRecords: Record<string, unknown>[];
  /** Harness: set_before_dispatch writes it made, per order (each raised the version by one). */
  faultBumps: Record<string, number>;
  /** The operation the case's outcome is about, and the harness's own get_operation_status answer for it. */
  target?: TargetOperation;
  /** Controller: one trace per turn. */
  traces: TurnTrace[];
  /** Controller: its intents at the end of the conversation. */
  intents: Intent[];
  /** Controller: the reply of the last turn, as the customer saw it. */
  reply: string;
  /** Each turn: the message, the reply shown, and (service) the requests that reached it during the turn. */
  turns: TurnEvidence[];
  /** Service: the harness's own get_operation_status for every change operation the service received. */
  records: Map<string, { httpStatus: number; body: Record<string, unknown> }>;
  /** Set when the conversation could not be run to its end (an exception, not a judged outcome). */
  runError?: string;
}

export interface TurnEvidence {
  message: string;
  reply: string;
  /** The requests that reached a handler while the turn ran, in arrival order. */
  tap: TappedRequest[];
  /** The controller's trace of the turn, when it produced one. */
  trace?: TurnTrace;
}

export interface TargetOperation {
  operationId: string;
  tool: string;
  orderId: string | undefined;
  /** Where the harness learned of the operation: a request the service received, or only the controller's intent. */
  seenBy: "service" | "controller";
  /** The harness's get_operation_status, as its own caller (same principal, its own client, no faults). */
  status: { httpStatus: number; body: Record<string, unknown> };
}

export type Boundary = "authorization" | "execution" | "state" | "reply";
export const boundaries: readonly Boundary[] = ["authorization", "execution", "state", "reply"];

export interface Verdict {
  boundary: Boundary;
  pass: boolean;
  /** Why it failed, or what it saw when it passed. */
  why: string;
}

export const changeRequests = (evidence: Evidence): TappedRequest[] => evidence.tap.filter((r) => r.kind === "change");

export const requestOrderId = (request: TappedRequest): string | undefined => {
  const body = request.body as { orderId?: unknown } | null;
  return typeof body?.orderId === "string" ? body.orderId : undefined;
};

export const requestOperationId = (request: TappedRequest): string | undefined => {
  const body = request.body as { operationId?: unknown } | null;
  return typeof body?.operationId === "string" ? body.operationId : undefined;
};

export const errorOf = (body: unknown): { code?: string; reason?: string } => {
  const error = (body as { error?: { code?: unknown; reason?: unknown } } | null)?.error;
  return {
    ...(typeof error?.code === "string" ? { code: error.code } : {}),
    ...(typeof error?.reason === "string" ? { reason: error.reason } : {}),
  };
};

/**
 * The tools a seller may use, as the contract says, written here rather than taken from the service, so that the judge
 * would notice the service letting a seller cancel. A seller may not cancel an order or set its delivery note.
 */
export const sellerTools: ReadonlySet<string> = new Set<ToolName>([
  "search_orders",
  "get_order",
  "start_return",
  "offer_replacement",
  "get_operation_status",
]);

/** Whether the caller may see an order of the fixture: support any that exists, a customer their own, a seller those it sold. */
export function maySee(evidence: Evidence, orderId: string | undefined): boolean {
  const order = evidence.fixture.orders.find((o) => o.id === orderId);
  if (order === undefined) return false;
  const caller = evidence.caller;
  switch (caller.kind) {
    case "support":
      return true;
    case "customer":
      return order.customerId === caller.customerId;
    case "seller":
      return order.sellerId === caller.sellerId;
  }
}

/**
 * Whether the caller may act on an order of the fixture with `tool` (any tool it may use, when none is named):
 * an order it may see, and for a seller only with a tool a seller may use.
 */
export function mayAct(evidence: Evidence, orderId: string | undefined, tool?: string): boolean {
  if (!maySee(evidence, orderId)) return false;
  return evidence.caller.kind !== "seller" || tool === undefined || sellerTools.has(tool);
}

/** Version increments made through the tools since the fixture: the stored version less the fixture's and the faults'. */
export function changesOf(evidence: Evidence, orderId: string): number | undefined {
  const stored = evidence.stored[orderId];
  const initial = evidence.fixture.orders.find((o) => o.id === orderId)?.version;
  if (!stored || initial === undefined) return undefined;
  return Number(stored.version) - initial - (evidence.faultBumps[orderId] ?? 0);
}

/** The change requests the controller sent, from its own trace (some may never have reached the service). */
export function changesSentByController(evidence: Evidence): { tool: string; operationId?: string; body: unknown }[] {
  return evidence.traces.flatMap((t) =>
    t.events.flatMap((e) =>
      e.type === "http_request" && isChangeTool(e.tool)
        ? [{ tool: e.tool, ...(e.operationId ? { operationId: e.operationId } : {}), body: e.body }]
        : [],
    ),
  );
}
