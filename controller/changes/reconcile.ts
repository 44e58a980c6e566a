import type { ChangeResult, Definite, StatusResult } from "#controller/http/outcome";
import type { Intent } from "#controller/intents/intent";

/**
 * Reconciliation: what the controller does with a change whose outcome is unknown (a timeout, a network error,
 * a 5xx, OPERATION_IN_PROGRESS). It asks get_operation_status with bounded, jittered backoff:
 * - completed or rejected → that is the outcome;
 * - pending → wait as long as the service says;
 * - not_found → the request never took effect: resend the identical request with the same operationId (a
 *   bounded number of times);
 * - anything else → try again after the next wait.
 * A refused resend (429, 401, 403, 400: refusals the service does not record) settles nothing: the original
 * request may still land, so the intent stays unknown and is asked about again. Out of lookups or time, it
 * stays unknown, and the next turn starts by reconciling it again. A new operationId is never made.
 */
export interface ReconcileOptions {
  /** get_operation_status lookups per unknown outcome and turn. Default 5. */
  maxStatusChecks: number;
  /** Resends of the identical request (same operationId) after OPERATION_NOT_FOUND. Default 2. */
  maxResends: number;
  /** Backoff before lookup n is jittered between half and all of min(maxDelayMs, baseDelayMs · 2^(n−1)). */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultReconcile: ReconcileOptions = { maxStatusChecks: 5, maxResends: 2, baseDelayMs: 250, maxDelayMs: 4_000 };

/** The wait before lookup `step` (1, 2, …): the service's own retryAfter when it gave one, else jittered backoff. */
export function delayBefore(step: number, options: ReconcileOptions, random: () => number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxDelayMs);
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (step - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/** What a resend's answer settles: a definite answer the service recorded, or nothing (it stays unknown). */
export function resendSettles(result: ChangeResult): Definite | undefined {
  return result.kind === "definite" && result.outcome.recorded ? result.outcome : undefined;
}

/** What the controller needs from its surroundings to reconcile one intent. */
export interface ReconcileDeps {
  options: ReconcileOptions;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Milliseconds left in the turn (its time bound T). */
  remaining: () => number;
  status: (intent: Intent) => Promise<StatusResult>;
  /** Sends the identical request again; the answer, classified. */
  resend: (intent: Intent) => Promise<{ sent: Intent; result: ChangeResult }>;
  /** Writes a move of the intent (to the store, then the trace) and returns it. */
  move: (intent: Intent, to: "completed" | "rejected" | "unknown", changes?: Partial<Intent>) => Promise<Intent>;
  note: (step: number, action: "wait" | "status" | "resend" | "gave_up", result?: string, ms?: number) => void;
  /** A classification worth a trace line and a flag (a mismatched answer). */
  mismatch: (why: string) => void;
}

export async function reconcileIntent(start: Intent, deps: ReconcileDeps): Promise<Intent> {
  let intent = start;
  const { maxStatusChecks, maxResends } = deps.options;
  let resends = 0;
  let retryAfterMs: number | undefined;
  for (let step = 1; step <= maxStatusChecks; step++) {
    const delay = delayBefore(step, deps.options, deps.random, retryAfterMs);
    retryAfterMs = undefined;
    if (delay >= deps.remaining()) {
      deps.note(step, "gave_up", "no time left in this turn");
      return intent;
    }
    deps.note(step, "wait", undefined, delay);
    await deps.sleep(delay);
    const status = await deps.status(intent);
    deps.note(step, "status", status.kind);
    switch (status.kind) {
      case "definite":
        return deps.move(intent, status.outcome.status, { outcome: { ...status.outcome, via: "reconciliation" } });
      case "mismatch":
        deps.mismatch(status.why);
        return deps.move(intent, "unknown", { mismatch: status.why });
      case "pending":
        retryAfterMs = status.retryAfterSeconds * 1000;
        break;
      case "not_found": {
        if (resends >= maxResends) break;
        resends += 1;
        deps.note(step, "resend", `resend ${resends} of ${maxResends}, same operationId`);
        const { sent, result } = await deps.resend(intent);
        if (result.kind === "mismatch") {
          deps.mismatch(result.why);
          return deps.move(sent, "unknown", { mismatch: result.why });
        }
        const settled = resendSettles(result);
        if (settled) return deps.move(sent, settled.status, { outcome: { ...settled, via: "reconciliation" } });
        if (result.kind === "definite")
          deps.note(
            step,
            "resend",
            `refused without a record (${result.outcome.code ?? "no code"}): not an outcome; the original may still land`,
          );
        intent = await deps.move(sent, "unknown");
        break;
      }
      case "unavailable":
        break;
    }
  }
  deps.note(maxStatusChecks, "gave_up", "status budget spent; still unknown");
  return intent;
}
