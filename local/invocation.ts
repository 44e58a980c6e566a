import { InvokeStore, InvokeStoreBase } from "@aws/lambda-invoke-store";
import { formatXrayHeader, newSpanId, newTraceId, xrayTraceId } from "#contract/trace-context";

/**
 * What Lambda's Node.js runtime keeps per invocation, for handlers run in this process: the request id and the
 * X-Ray trace header, in the store the runtime provides (`@aws/lambda-invoke-store`, which Powertools reads the
 * trace id from before `_X_AMZN_TRACE_ID`). The store is the one that keeps each invocation apart by async
 * context, so concurrent requests to the local gateway each log their own trace id.
 */
export interface InvocationTrace {
  /** The trace the request came with (its `traceparent`), in X-Ray's form, if any. */
  caller?: string | undefined;
  /** The invocation's own trace id, set when it starts: what its log lines carry as `xray_trace_id`. */
  traceId?: string;
}

const store = InvokeStore.getInstanceAsync(true);

/** Runs `work` as one invocation with a trace of its own, as Lambda does behind an HTTP API; `trace.traceId` names it. */
export async function runInvocation<T>(requestId: string, trace: InvocationTrace, work: () => Promise<T>): Promise<T> {
  const traceId = xrayTraceId(newTraceId());
  trace.traceId = traceId;
  const invokeStore = await store;
  return invokeStore.run(
    {
      [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId,
      [InvokeStoreBase.PROTECTED_KEYS.X_RAY_TRACE_ID]: formatXrayHeader({ root: traceId, parent: newSpanId(), sampled: true }),
    },
    work,
  );
}
