import { tools } from "#contract/tools";

/**
 * Faults of contract §8.3, injected where they happen in real life. Three are in the controller's HTTP layer (a
 * wrapper round `fetch`): the request really leaves, or really does not, and the controller only sees what a
 * network would show it. The fourth changes the stored order between proposal and write, which the controller
 * cannot do over HTTP: it runs through a hook with a writer the caller supplies (tests, the demo and the eval
 * harness write to DynamoDB directly).
 */
export type Fault =
  /** The service commits; the response never arrives (the controller sees a timeout). */
  | { kind: "lose_response"; tool?: string; times?: number }
  /** The next `times` status lookups time out too (sent, answered, and lost). */
  | { kind: "lose_status"; times?: number }
  /** A 503 and nothing happened: the request never reaches the service. */
  | { kind: "service_error_before_commit"; tool?: string; times?: number }
  /** The order changes between proposal and write: fields set, version up by one, as any other change would. */
  | { kind: "set_before_dispatch"; tool: string; orderId: string; set: Record<string, unknown> };

export type HttpFault = Exclude<Fault, { kind: "set_before_dispatch" }>;

/** Writes fields to a stored order and raises its version by one (a change the order system made). */
export type OrderWriter = (orderId: string, set: Record<string, unknown>) => Promise<void>;

export interface FaultEvent {
  kind: Fault["kind"];
  tool: string;
  detail: string;
  /** The body of a response a fault dropped: what the service did say, for the trace (never for the controller's logic). */
  dropped?: string;
}

export type Fetch = typeof globalThis.fetch;

/** What a timeout looks like from fetch with `AbortSignal.timeout`. */
export function timeoutError(message = "The operation was aborted due to timeout"): Error {
  return new DOMException(message, "TimeoutError");
}

const statusTool = "get_operation_status";
const changingTools: ReadonlySet<string> = new Set(tools.filter((t) => t.kind === "change").map((t) => t.name));

function toolOf(url: string): string {
  const path = new URL(url).pathname;
  return /\/v1\/tools\/([a-z_]+)$/.exec(path)?.[1] ?? (path.startsWith("/v1/operations/") ? statusTool : path);
}

/**
 * `fetch` with the HTTP faults applied, each to the next `times` (default 1) matching requests. `onFault` hears
 * of every fault as it is injected, for the trace.
 */
export function faultyFetch(base: Fetch, faults: readonly Fault[], onFault: (event: FaultEvent) => void = () => undefined): Fetch {
  const armed = faults
    .filter((fault): fault is HttpFault => fault.kind !== "set_before_dispatch")
    .map((fault) => ({ fault, left: fault.times ?? 1 }));
  const take = (tool: string, kinds: readonly HttpFault["kind"][]) => {
    const match = armed.find(
      (a) =>
        a.left > 0 &&
        kinds.includes(a.fault.kind) &&
        (a.fault.kind === "lose_status"
          ? tool === statusTool
          : // Without a named tool the fault is the one contract §8.3 describes: a change that commits (or not), never a read.
            a.fault.tool === undefined
            ? changingTools.has(tool)
            : a.fault.tool === tool),
    );
    if (match) match.left -= 1;
    return match?.fault;
  };
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const tool = toolOf(url);
    const before = take(tool, ["service_error_before_commit"]);
    if (before) {
      onFault({ kind: before.kind, tool, detail: "503 returned; the request never reached the service" });
      return new Response(JSON.stringify({ message: "Service Unavailable" }), {
        status: 503,
        headers: { "content-type": "application/json" },
      });
    }
    const response = await base(input, init);
    const lost = take(tool, ["lose_response", "lose_status"]);
    if (lost) {
      // The service has answered (and, for a change, committed); the answer is read and thrown away.
      const dropped = await response.text();
      onFault({ kind: lost.kind, tool, detail: `the service answered ${response.status}; the response was dropped`, dropped });
      throw timeoutError();
    }
    return response;
  };
}

/** The set_before_dispatch faults as a hook run after an intent is persisted and before its request is sent. */
export function beforeDispatchFaults(faults: readonly Fault[], writer: OrderWriter | undefined) {
  const pending = faults.filter((fault): fault is Extract<Fault, { kind: "set_before_dispatch" }> => fault.kind === "set_before_dispatch");
  if (pending.length > 0 && writer === undefined) {
    throw new Error(
      "set_before_dispatch faults change the stored order, which the controller cannot do over HTTP: pass `orderWriter` with the test seams (`withTestSeams` of order-tools/controller/testing; local/order-writer.ts writes to DynamoDB).",
    );
  }
  return async (intent: { tool: string; orderId: string }, onFault: (event: FaultEvent) => void): Promise<void> => {
    const index = pending.findIndex((fault) => fault.tool === intent.tool && fault.orderId === intent.orderId);
    if (index < 0 || writer === undefined) return;
    const [fault] = pending.splice(index, 1);
    if (!fault) return;
    await writer(fault.orderId, fault.set);
    onFault({ kind: fault.kind, tool: intent.tool, detail: `${fault.orderId} set ${JSON.stringify(fault.set)}, version +1` });
  };
}
