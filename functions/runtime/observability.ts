import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { RateLimitedError } from "#core/errors";
import { logger } from "#runtime/logger";
import type { HttpEvent, HttpResult } from "#runtime/http";

/**
 * What every tool call leaves behind besides its response: one structured log line that correlates it, and
 * CloudWatch metrics in the embedded metric format (EMF) — business outcomes per tool, with dimensions of low
 * cardinality only (tool, outcome code and reason, limit, lookup answer): never a customer, order or operation id.
 */
export const metricsNamespace = "OrderTools";

export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? metricsNamespace,
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? "order-tools",
});

/** The metric names the dashboard and alarms read (lib/), written once. */
export const metricNames = {
  /** Every call, by `tool` and `outcome`: completed / ok / the error code, or code.reason for NOT_ELIGIBLE. */
  outcome: "Outcome",
  /** A changing tool answered from a recorded outcome (`Idempotent-Replayed: true`), by `tool`. */
  replayed: "Replayed",
  /** OPERATION_IN_PROGRESS: the same operation was executing, by `tool`. */
  inProgress: "OperationInProgress",
  /** VERSION_CONFLICT: a stale proposal, by `tool`. */
  versionConflict: "VersionConflict",
  /** get_operation_status answers, by `answer`: completed / rejected / declined / pending / not_found (the reconciliation path). */
  statusLookup: "StatusLookup",
  /** RATE_LIMITED, by `tool` and `limit`: request_budget / hourly_cap / support_hourly_cap / seller_hourly_cap. */
  limitRefused: "LimitRefused",
  /**
   * A change run over MCP with no person's confirmation (a client that cannot show a form, under the default
   * unconfirmedChanges "allow"), by `tool`: what an operator watches to see how many changes went out unasked.
   */
  unconfirmedChange: "UnconfirmedChange",
} as const;

/** One change run over MCP without the person's confirmation (contract §2.1). */
export function countUnconfirmedChange(tool: string): void {
  emit(metricNames.unconfirmedChange, { tool });
}

export { principalHash } from "#runtime/principal-hash";

/** What the handler learns about a call as it goes, for the log line's keys. */
export interface CallKeys {
  principal?: string;
  operationId?: string;
  orderId?: string;
  /** The trace the request came with (its `traceparent`), in X-Ray's form: the caller's turn names the same id. */
  callerTraceId?: string;
}

/** Where one request writes: every line carries the tool, the API Gateway request id and the call's keys as known then. */
export interface RequestLogger {
  info(message: string, attributes?: Record<string, unknown>): void;
  error(message: string, attributes?: Record<string, unknown>): void;
}

/**
 * A logger for one request, carrying its correlation keys on every line it writes. It writes through the one
 * module-level Powertools Logger: a child Logger per request (`createChild`) builds a new Logger and Console each
 * time, ~0.4 ms of a call's CPU (docs/benchmarks.md, changing tools).
 */
export function requestLogger(tool: string, event: HttpEvent, keys: CallKeys = {}): RequestLogger {
  const requestId = event.requestContext?.requestId ?? "unknown";
  return {
    info: (message, attributes) => logger.info(message, { tool, requestId, ...keys, ...attributes }),
    error: (message, attributes) => logger.error(message, { tool, requestId, ...keys, ...attributes }),
  };
}

/**
 * One EMF line for one metric with its own dimensions, through the module's one Metrics instance (publishing
 * clears its dimensions and metrics). `singleMetric()` would build a new Metrics, and a Console, per metric.
 */
function emit(name: string, dimensions: Record<string, string>): void {
  for (const [dimension, value] of Object.entries(dimensions)) metrics.addDimension(dimension, value);
  metrics.addMetric(name, MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}

export interface ResultFacts {
  outcome: string;
  replayed: boolean;
  limit?: string;
  answer?: string;
}

/**
 * Reads the facts off a response: a success is `completed` for a change and `ok` for a read (a 200 says it all,
 * so a large read result is never parsed again); a refusal is its code, or code.reason for NOT_ELIGIBLE; replays
 * come from the header, and a status lookup's answer from its body.
 */
export function factsOf(tool: string, changing: boolean, result: HttpResult, error?: unknown): ResultFacts {
  const replayed = result.headers?.["idempotent-replayed"] === "true";
  const lookup = tool === "get_operation_status";
  let body: Record<string, unknown> = {};
  if (result.statusCode !== 200 || lookup) {
    try {
      body = JSON.parse(result.body ?? "{}") as Record<string, unknown>;
    } catch {
      // Every response is JSON; a body that is not is counted by its status alone.
    }
  }
  const failure = body.error as { code?: string; reason?: string } | undefined;
  const outcome = failure?.code
    ? failure.reason && failure.code === "NOT_ELIGIBLE"
      ? `${failure.code}.${failure.reason}`
      : failure.code
    : result.statusCode === 200 && changing
      ? "completed"
      : "ok";
  const limit = error instanceof RateLimitedError ? error.limit : undefined;
  // Only lookups that found an answer (completed, rejected, declined, pending, not_found), not refused ones.
  const answer = lookup && typeof body.status === "string" ? body.status : undefined;
  return { outcome, replayed, ...(limit ? { limit } : {}), ...(answer ? { answer } : {}) };
}

/**
 * Emits the call's metrics and writes its one log line (the note, the token and the arguments never appear);
 * returns the facts it recorded, for the trace.
 */
export function recordCall(
  log: RequestLogger,
  tool: string,
  changing: boolean,
  result: HttpResult,
  startedAt: number,
  error?: unknown,
): ResultFacts {
  const facts = factsOf(tool, changing, result, error);
  emit(metricNames.outcome, { tool, outcome: facts.outcome });
  if (facts.replayed) emit(metricNames.replayed, { tool });
  if (facts.outcome === "OPERATION_IN_PROGRESS") emit(metricNames.inProgress, { tool });
  if (facts.outcome === "VERSION_CONFLICT") emit(metricNames.versionConflict, { tool });
  if (facts.answer) emit(metricNames.statusLookup, { answer: facts.answer });
  if (facts.limit) emit(metricNames.limitRefused, { tool, limit: facts.limit });
  log.info("tool call", {
    status: result.statusCode,
    outcome: facts.outcome,
    replayed: facts.replayed,
    durationMs: Date.now() - startedAt,
  });
  return facts;
}
