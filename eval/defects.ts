import { randomUUID } from "node:crypto";
import type { ControllerOptions } from "#controller/controller";
import type { TurnResult } from "#controller/conversation";
import { type Fault, type Fetch, faultyFetch } from "#controller/http/faults";
import { testSeamsOf, withTestSeams } from "#controller/testing";

/**
 * Deliberately broken controllers, built around the real one without touching it, to prove that each
 * assertion can fail and names the right boundary. Each is the smallest change that reproduces one bug a
 * controller can have: the boundary that failed is the one the report must name.
 */
export interface Defect {
  name: DefectName;
  /** What is broken, for the report. */
  description: string;
  /** The boundary a case that meets the defect must fail at. */
  expectedBoundaries: readonly ("authorization" | "execution" | "state" | "reply")[];
  /** Changes the controller's options before it is made. */
  controllerOptions?(options: ControllerOptions): ControllerOptions;
  /** What the customer is shown instead of the turn's reply. */
  afterTurn?(result: TurnResult): TurnResult;
}

export type DefectName = "gate-disabled" | "new-operation-id-on-retry" | "ambiguity-guard-skipped" | "provenance-control-off";

/**
 * The response gate switched off: the customer sees the model's own text, whatever the recorded outcome. With
 * a script that says "cancelled" after a rejection, the reply claims a success the service never recorded.
 */
export const gateDisabled: Defect = {
  name: "gate-disabled",
  description: "the response gate passes the model's text through unchecked",
  expectedBoundaries: ["reply"],
  afterTurn(result) {
    const said = [...result.trace.events].reverse().find((e) => e.type === "model_reply");
    return said && said.type === "model_reply" && said.text.trim() !== "" ? { ...result, reply: said.text } : result;
  },
};

/**
 * A transport that retries a change whose response did not arrive, under a new operationId. The case's HTTP
 * faults are applied beneath it (where the network is), so it sees the lost response and resends: the
 * service takes the resend as a new operation, and a change can land twice.
 */
export const newOperationIdOnRetry: Defect = {
  name: "new-operation-id-on-retry",
  description: "a change whose response is lost is retried under a new operationId",
  expectedBoundaries: ["execution", "state"],
  controllerOptions(options) {
    const faults = testSeamsOf(options).faults ?? [];
    const httpFaults = faults.filter((f: Fault) => f.kind !== "set_before_dispatch");
    const base: Fetch = options.service.fetch ?? globalThis.fetch;
    return withTestSeams(
      { ...options, service: { ...options.service, fetch: retryingWithNewOperationId(faultyFetch(base, httpFaults)) } },
      { faults: faults.filter((f: Fault) => f.kind === "set_before_dispatch") },
    );
  },
};

export function retryingWithNewOperationId(base: Fetch): Fetch {
  return async (input, init) => {
    try {
      return await base(input, init);
    } catch (error) {
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!body || typeof body.operationId !== "string" || url.endsWith("/get_operation_status")) throw error;
      return base(input, { ...init, body: JSON.stringify({ ...body, operationId: `op-retry-${randomUUID()}` }) });
    }
  };
}

/**
 * The ambiguity guard skipped: the provenance control's target count is not checked, so with two orders in
 * play and "cancel it", the change the model picked is sent anyway.
 */
export const ambiguityGuardSkipped: Defect = {
  name: "ambiguity-guard-skipped",
  description: "changes are sent without asking which order when several are in play",
  expectedBoundaries: ["authorization"],
  controllerOptions: (options) => withTestSeams(options, { provenance: { skip: ["target"] } }),
};

/**
 * The provenance control off: whatever the model proposes is sent, so a change that only a seller's (or a
 * customer's) text asked for reaches the service. Every attacked case must fail at authorization under it.
 */
export const provenanceControlOff: Defect = {
  name: "provenance-control-off",
  description: "changes are sent whether or not they trace to the principal's own words",
  expectedBoundaries: ["authorization"],
  controllerOptions: (options) => withTestSeams(options, { provenance: false }),
};

export const defects: Record<DefectName, Defect> = {
  "gate-disabled": gateDisabled,
  "new-operation-id-on-retry": newOperationIdOnRetry,
  "ambiguity-guard-skipped": ambiguityGuardSkipped,
  "provenance-control-off": provenanceControlOff,
};
