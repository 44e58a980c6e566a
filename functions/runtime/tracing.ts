import type { Tracer } from "@aws-lambda-powertools/tracer";

/**
 * X-Ray, as far as the functions' code takes part in it. Every function runs with Lambda's active tracing (the
 * stack sets it): Lambda records each invocation's segments and puts the trace id in `_X_AMZN_TRACE_ID`, which
 * Powertools' Logger writes on every log line (`xray_trace_id`). That costs the code nothing.
 *
 * The Powertools Tracer adds what only code can: a subsegment per tool call with searchable annotations
 * (`TraceAnnotations`), and one per DynamoDB or Lambda request. It is built into a function only when the stack's
 * `tracer` setting is `powertools` (lib/config.ts): esbuild replaces `process.env.ORDER_TOOLS_TRACER` with the setting when it
 * bundles, so in a bundle built without it the import below is dead code and is dropped, with the X-Ray SDK it
 * brings (about 120 KB, three bundles past the 250 KB budget: docs/benchmarks.md, "Tracing"). Unbundled (tests,
 * `npm start`) the variable is read from the environment. The Tracer itself traces only inside Lambda.
 */

const tracer: Tracer | undefined =
  process.env.ORDER_TOOLS_TRACER === "powertools"
    ? new (await import("@aws-lambda-powertools/tracer")).Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? "order-tools" })
    : undefined;

/**
 * The annotations a tool call's subsegment carries, which X-Ray indexes for search (`annotation.operationId =
 * "…"`). Identifiers of things and codes only. Left out because an annotation is indexed and kept with the trace:
 * the caller's `sub`, customerId, sellerId and the hash of the `sub` that the log line carries (each picks out a
 * person), an e-mail address searched for, the delivery note and every other free text, and the token.
 */
export interface TraceAnnotations {
  tool: string;
  operationId: string;
  orderId: string;
  /** The call's outcome: completed, ok, or the error code (code.reason for NOT_ELIGIBLE), as the Outcome metric. */
  outcome: string;
  /** customer, support or seller. */
  principalKind: string;
  /** The trace the request came with (its `traceparent`), in X-Ray's form. */
  callerTraceId: string;
}

/** One traced stretch of a call: annotated as it learns things, ended once. */
export interface TraceSpan {
  annotate(annotations: Partial<TraceAnnotations>): void;
  /**
   * Closes the subsegment, flagged as a fault when the call failed on the service's side: the error itself stays in
   * the log line (joined by `xray_trace_id`), since a message may quote what the caller sent.
   */
  end(fault?: boolean): void;
}

const untraced: TraceSpan = { annotate: () => undefined, end: () => undefined };

/**
 * Opens a subsegment `## <name>` under the invocation's segment and makes it the current one, so the DynamoDB
 * and Lambda requests made meanwhile nest under it. Without the Tracer, or outside Lambda, it does nothing.
 */
export function startSpan(name: string): TraceSpan {
  const parent = tracer?.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (!tracer || !parent) return untraced;
  const subsegment = parent.addNewSubsegment(`## ${name}`);
  tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  let open = true;
  return {
    annotate(annotations) {
      for (const [key, value] of Object.entries(annotations)) if (value !== undefined) subsegment.addAnnotation(key, value);
    },
    end(fault) {
      if (!open) return;
      open = false;
      if (fault) subsegment.addFaultFlag();
      subsegment.close();
      tracer.setSegment(parent);
    },
  };
}

/** The client, its requests traced as subsegments when the Tracer is built in; otherwise the client as it is. */
export function traceClient<T>(client: T): T {
  return tracer ? tracer.captureAWSv3Client(client) : client;
}
