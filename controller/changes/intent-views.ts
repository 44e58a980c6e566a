import type { PrincipalKind } from "#contract/model-context";
import { applicationField } from "#contract/model-tools";
import { escapeFrames } from "#controller/context/frames";
import { type ForeignText, forModel } from "#controller/context/taint";
import { type ConversationState, factsOf, noteChangeSettled, noteForeign } from "#controller/state/conversation";
import { heldChange } from "#controller/guard/confirmation";
import type { TurnOutcome } from "#controller/outcomes";
import type { Definite } from "#controller/http/outcome";
import type { Intent } from "#controller/intents/intent";
import { heldIn, type Run } from "#controller/state/run";

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
    case "superseded":
      return { kind: "declined", tool, orderId, operationId };
    case "expired":
      return { kind: "expired", tool, orderId, operationId };
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
        message:
          "Not sent: the principal must confirm this exact change first, and the application asks them itself, with buttons. Do not ask again, and do not say it happened.",
      };
    case "declined":
      return {
        status: "not_sent",
        orderId: intent.orderId,
        message:
          intent.confirmable === false
            ? "Nothing was sent and nothing changed: the change held words the principal did not write, so it could not be confirmed as it was. If they still want it, ask for their exact words."
            : `The principal declined, so nothing was sent and nothing changed.${intent.declineReason ? ` Their reason, in their words: ${JSON.stringify(escapeFrames(intent.declineReason))}.` : ""}`,
      };
    case "expired":
      return {
        status: "not_sent",
        orderId: intent.orderId,
        message:
          "The principal did not answer before the confirmation expired, so nothing was sent and nothing changed. They were told; if they still want it, it is asked about again.",
      };
    case "superseded":
      return {
        status: "not_sent",
        orderId: intent.orderId,
        message: "Replaced by the same change with other values, which the principal is asked about instead. Nothing was sent.",
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

/**
 * The model's view of an intent as JSON text, and the foreign texts in it: what the service answered passes through
 * the one placement of every string (context/taint.ts), so a seller's words inside an error or a result reach the
 * model datamarked and taint the conversation; the controller's own sentences for the other states hold none.
 */
export function modelView(intent: Intent, principal: PrincipalKind): { text: string; foreign: ForeignText[] } {
  const result = modelResult(intent);
  if (intent.state !== "completed" && intent.state !== "rejected") return { text: JSON.stringify(result), foreign: [] };
  const { body, foreign } = forModel(result, principal);
  return { text: JSON.stringify(body), foreign };
}

/** A definite outcome's fields, for the trace. */
export function outcomeFields(outcome: Definite): { status: string; code?: string; reason?: string } {
  return { status: outcome.status, ...(outcome.code ? { code: outcome.code } : {}), ...(outcome.reason ? { reason: outcome.reason } : {}) };
}

/**
 * What the model reads of an intent, as JSON text: the service's words placed by the one rule (context/taint.ts),
 * and the conversation tainted by any that are foreign, with the trace told.
 */
export function modelText(state: ConversationState, run: Pick<Run, "principal" | "recorder">, intent: Intent): string {
  const { text, foreign } = modelView(intent, run.principal);
  const sources = noteForeign(state, `${intent.tool} ${intent.orderId}`, foreign);
  if (sources.length > 0) run.recorder.add({ type: "taint", tool: intent.tool, sources });
  return text;
}

/**
 * An intent this turn settled or reported: the gate judges the reply by its outcome, a re-proposal in the same turn
 * is that intent, and the conversation's books note it.
 */
export function noteSettled(state: ConversationState, intent: Intent, run: Run): void {
  run.outcomes.push(outcomeOf(intent));
  run.settled.add(intent.operationId);
  noteChangeSettled(state, intent);
}

/**
 * What a change held now carries (guard/confirmation.ts `heldChange`), asked in this conversation's locale about
 * the order as it knows it, and the turn that holds it.
 */
export function heldFields(
  state: ConversationState,
  intent: Pick<Intent, "tool" | "request" | "operationId" | "orderId">,
  quoteNote: boolean,
  expiresAt: Date,
  run: Run,
) {
  return {
    ...heldChange({
      conversationId: state.conversationId,
      locale: state.locale ?? "en",
      facts: factsOf(state, intent.orderId),
      tool: intent.tool,
      request: intent.request,
      operationId: intent.operationId,
      quoteNote,
      expiresAt,
    }),
    ...heldIn(run),
  };
}
