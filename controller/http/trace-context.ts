import {
  formatTraceparent,
  formatXrayHeader,
  newSpanId,
  newTraceId,
  parseTraceparent,
  parseXrayHeader,
  w3cTraceId,
  type XrayHeader,
} from "#contract/trace-context";

/*
 * Distributed tracing: the trace context a turn's service calls carry (`traceparent`, and `X-Amzn-Trace-Id` where
 * the application has one), so the service's logs join the application's trace. A turn's own record of what it
 * did is its trace (trace/record.ts); this is only what goes on the wire.
 */

/**
 * The application's own trace, which a turn joins instead of starting one: the `traceparent` of the request it is
 * serving (from its OpenTelemetry context, say) and/or an X-Ray trace header (`X-Amzn-Trace-Id`, or inside a
 * Lambda function its `_X_AMZN_TRACE_ID`). Invalid headers are ignored.
 */
export interface ApplicationTrace {
  traceparent?: string | undefined;
  xrayTraceHeader?: string | undefined;
}

/** The trace a turn's calls carry. */
export interface TurnTraceContext {
  /** The W3C trace-id, 32 hex. */
  traceId: string;
  sampled: boolean;
  /** The application's X-Ray header, passed on as it was given: the controller records no segment of its own. */
  xray?: XrayHeader;
}

/**
 * The trace a turn joins: the application's `traceparent` if valid; else its X-Ray header's root (the same 128
 * bits); else a new trace, whose id starts with the time so that X-Ray accepts it too.
 */
export function turnTraceContext(application: ApplicationTrace = {}): TurnTraceContext {
  const traceparent = parseTraceparent(application.traceparent);
  const xray = parseXrayHeader(application.xrayTraceHeader);
  if (traceparent) return { traceId: traceparent.traceId, sampled: traceparent.sampled, ...(xray ? { xray } : {}) };
  if (xray) return { traceId: w3cTraceId(xray.root), sampled: xray.sampled ?? true, xray };
  return { traceId: newTraceId(), sampled: true };
}

/**
 * The trace headers of one service call: `traceparent` with a parent-id of its own (so each call of the turn is
 * told apart in the service's logs), and `X-Amzn-Trace-Id` where the application gave an X-Ray trace.
 */
export function callTraceHeaders(context: TurnTraceContext): { traceparent: string; "x-amzn-trace-id"?: string } {
  return {
    traceparent: formatTraceparent({ traceId: context.traceId, parentId: newSpanId(), sampled: context.sampled }),
    ...(context.xray ? { "x-amzn-trace-id": formatXrayHeader(context.xray) } : {}),
  };
}
