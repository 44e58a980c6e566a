import type { Json } from "#core/change";

/** How the person answered a confirmation they did not give: declined, closed the form, or sent it back unticked. */
export const declineAnswers = ["decline", "cancel", "unticked"] as const;
export type DeclineAnswer = (typeof declineAnswers)[number];

/**
 * The header with which the MCP function tells a changing tool's function that the person did not confirm it, and
 * how: the tool records that answer under the operationId instead of making the change. Sent by anyone else, it can
 * only record a no to the sender's own operation.
 */
export const declinedHeader = "x-order-tools-declined";

/**
 * The outcome of a change the person did not confirm (contract §2.1): nothing was sent, and the answer is recorded
 * under the operationId, so the question it answered is answered once — a later yes to it, or the same call again,
 * gets this outcome back and changes nothing.
 */
export function declinedBody(tool: string, operationId: string, orderId: string, how: DeclineAnswer): Json {
  const what =
    how === "cancel"
      ? "closed the confirmation form without answering"
      : how === "unticked"
        ? "sent the confirmation form back without ticking its box"
        : "declined it in the confirmation form";
  const next =
    how === "cancel"
      ? "To ask them again, call the tool with a new operationId."
      : "Tell them it was not done; make it again, with a new operationId, only if they ask again.";
  return {
    operationId,
    status: "declined",
    orderId,
    error: {
      code: "CONFIRMATION_DECLINED",
      message: `The person ${what} their MCP client showed for this ${tool}, so it was not sent: nothing changed on order ${orderId}. The answer is recorded under operationId ${operationId}, which will not run: a later yes to the same question is refused. ${next}`,
      retryable: false,
      answer: how,
    },
  };
}
