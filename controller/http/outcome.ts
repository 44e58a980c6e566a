import { recordedRejectionCodes } from "#core/errors";
import type { Exchange } from "#controller/http/service-client";
import type { Intent, IntentOutcome } from "#controller/intents/intent";

/**
 * Outcome classification (contract §8.1 step 3): what a response to a change, or to a status lookup, lets the
 * controller conclude. Only a body that names this intent's operationId and order counts as its outcome.
 */
export type Definite = Omit<IntentOutcome, "via">;

export type ChangeResult = { kind: "definite"; outcome: Definite } | { kind: "unknown"; why: string } | { kind: "mismatch"; why: string };

/** Refusals the service does not record (contract §4): definite for this request, nothing changed, nothing kept. */
const unrecordedRefusals: ReadonlySet<string> = new Set([
  "INVALID_INPUT",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "RATE_LIMITED",
  "IDEMPOTENCY_KEY_REUSED",
]);

type Body = Record<string, unknown> & { error?: Record<string, unknown> };

const asBody = (value: unknown): Body | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Body) : undefined;

function rejection(body: Body, recorded: boolean): Definite {
  const error = body.error ?? {};
  return {
    status: "rejected",
    body,
    recorded,
    ...(typeof error.code === "string" ? { code: error.code } : {}),
    ...(typeof error.reason === "string" ? { reason: error.reason } : {}),
  };
}

/** A 200 or a recorded rejection is definite; a timeout, a network error, a 5xx or OPERATION_IN_PROGRESS is unknown. */
export function classifyChange(intent: Intent, exchange: Exchange): ChangeResult {
  if (exchange.kind === "failure") return { kind: "unknown", why: `${exchange.failure}: ${exchange.message}` };
  const body = asBody(exchange.body);
  if (exchange.status >= 500) return { kind: "unknown", why: `HTTP ${exchange.status}` };
  if (!body) return { kind: "unknown", why: `HTTP ${exchange.status} with a body that is not a JSON object` };
  const named = namedElsewhere(intent, body);
  if (exchange.status === 200) {
    if (body.status !== "completed") return { kind: "unknown", why: `HTTP 200 with status ${JSON.stringify(body.status)}` };
    if (named) return { kind: "mismatch", why: named };
    return { kind: "definite", outcome: { status: "completed", body, recorded: true } };
  }
  const code = body.error?.code;
  if (typeof code !== "string") return { kind: "unknown", why: `HTTP ${exchange.status} without an error code` };
  if (code === "OPERATION_IN_PROGRESS") return { kind: "unknown", why: "OPERATION_IN_PROGRESS" };
  if (body.status === "rejected" || recordedRejectionCodes.has(code as never)) {
    if (named) return { kind: "mismatch", why: named };
    return { kind: "definite", outcome: rejection(body, true) };
  }
  if (unrecordedRefusals.has(code)) return { kind: "definite", outcome: rejection(body, false) };
  return { kind: "unknown", why: `HTTP ${exchange.status} ${code}` };
}

/** Why a body is not this intent's outcome, if it names another operation or another order. */
function namedElsewhere(intent: Intent, body: Body): string | undefined {
  if (body.operationId !== undefined && body.operationId !== intent.operationId)
    return `the response is for operation ${String(body.operationId)}, not ${intent.operationId}`;
  const orderId = body.orderId ?? body.error?.orderId;
  if (orderId !== undefined && orderId !== intent.orderId) return `the response is for order ${String(orderId)}, not ${intent.orderId}`;
  return undefined;
}

export type StatusResult =
  | { kind: "definite"; outcome: Definite }
  | { kind: "mismatch"; why: string }
  | { kind: "pending"; retryAfterSeconds: number }
  | { kind: "not_found" }
  | { kind: "unavailable"; why: string };

/** What get_operation_status said about this intent's operation (contract §4). */
export function classifyStatus(intent: Intent, exchange: Exchange): StatusResult {
  if (exchange.kind === "failure") return { kind: "unavailable", why: `${exchange.failure}: ${exchange.message}` };
  const body = asBody(exchange.body);
  if (!body) return { kind: "unavailable", why: `HTTP ${exchange.status} with a body that is not a JSON object` };
  if (exchange.status === 404 && body.status === "not_found") return { kind: "not_found" };
  if (exchange.status !== 200)
    return { kind: "unavailable", why: `HTTP ${exchange.status}${typeof body.error?.code === "string" ? ` ${body.error.code}` : ""}` };
  if (body.operationId !== intent.operationId)
    return { kind: "mismatch", why: `the status is for operation ${String(body.operationId)}, not ${intent.operationId}` };
  if (body.status === "pending")
    return { kind: "pending", retryAfterSeconds: typeof body.retryAfterSeconds === "number" ? body.retryAfterSeconds : 1 };
  if (body.tool !== intent.tool)
    return { kind: "mismatch", why: `operation ${intent.operationId} ran ${String(body.tool)}, not ${intent.tool}` };
  if (body.orderId !== intent.orderId)
    return { kind: "mismatch", why: `operation ${intent.operationId} is for order ${String(body.orderId)}, not ${intent.orderId}` };
  if (body.status === "completed") {
    const result = asBody(body.result);
    if (!result) return { kind: "unavailable", why: "a completed status without its result" };
    return { kind: "definite", outcome: { status: "completed", body: result, recorded: true } };
  }
  if (body.status === "rejected") {
    const error = asBody(body.error) ?? {};
    return {
      kind: "definite",
      outcome: rejection({ error, operationId: intent.operationId, status: "rejected", orderId: intent.orderId }, true),
    };
  }
  return { kind: "unavailable", why: `status ${JSON.stringify(body.status)}` };
}
