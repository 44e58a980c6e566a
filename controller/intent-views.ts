import { applicationField } from "#contract/model-tools";
import type { TurnOutcome } from "#controller/gate/outcomes";
import type { Definite } from "#controller/http/outcome";
import type { Intent } from "#controller/intents/intent";

/**
 * What an intent looks like to the two readers of it: the gate (an outcome to judge the reply by) and the model
 * (the tool result of the change it proposed, without the application's operationId).
 */

/** What the gate judges an intent by. */
export function outcomeOf(intent: Intent): TurnOutcome {
  const { tool, orderId, operationId } = intent;
  switch (intent.state) {
    case "completed":
      return { kind: "completed", tool, orderId, operationId, body: intent.outcome?.body ?? {} };
    case "rejected":
      return {
        kind: "rejected",
        tool,
        orderId,
        operationId,
        code: intent.outcome?.code ?? "UNKNOWN",
        ...(intent.outcome?.reason ? { reason: intent.outcome.reason } : {}),
        body: intent.outcome?.body ?? {},
      };
    case "awaiting_confirmation":
      return {
        kind: "awaiting_confirmation",
        tool,
        orderId,
        operationId,
        question: intent.confirmationQuestion ?? `Shall I go ahead with ${tool} on order ${orderId}? Reply yes to confirm.`,
      };
    case "declined":
      return { kind: "declined", tool, orderId, operationId };
    default:
      return intent.mismatch
        ? { kind: "mismatch", tool, orderId, operationId, why: intent.mismatch }
        : { kind: "unknown", tool, orderId, operationId };
  }
}

/** Bodies as the model may see them: no operationId anywhere (the application's, never the model's). */
function withoutOperationIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOperationIds);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== applicationField)
      .map(([key, v]) => [key, withoutOperationIds(v)]),
  );
}

/** The tool result a model gets for a change it proposed. */
export function modelResult(intent: Intent): Record<string, unknown> {
  switch (intent.state) {
    case "completed":
    case "rejected":
      return withoutOperationIds(intent.outcome?.body ?? {}) as Record<string, unknown>;
    case "awaiting_confirmation":
      return {
        status: "awaiting_confirmation",
        orderId: intent.orderId,
        message: `Not sent: the principal must confirm first, and the application asks them itself: ${JSON.stringify(intent.confirmationQuestion)} Do not say it happened.`,
      };
    case "declined":
      return {
        status: "not_sent",
        orderId: intent.orderId,
        message: "The principal did not confirm, so nothing was sent and nothing changed.",
      };
    case "persisted":
      return { status: "not_sent", orderId: intent.orderId, message: "Not sent yet: this turn ran out of time first. Nothing changed." };
    default:
      return {
        status: "unknown",
        orderId: intent.orderId,
        message: intent.mismatch
          ? "The answer did not match the request, so the outcome is not confirmed. The application is checking. Do not say it happened or that it failed."
          : "The request was sent but no answer came back, so whether it took effect is not known yet. The application keeps checking. Say it is not confirmed yet; do not say it happened or that it failed.",
      };
  }
}

export function modelView(intent: Intent): string {
  return JSON.stringify(modelResult(intent));
}

/** A definite outcome's fields, for the trace. */
export function outcomeFields(outcome: Definite): { status: string; code?: string; reason?: string } {
  return { status: outcome.status, ...(outcome.code ? { code: outcome.code } : {}), ...(outcome.reason ? { reason: outcome.reason } : {}) };
}
