import type { Json } from "#core/change";
import { OperationNotFoundError } from "#core/errors";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { readInFlight } from "#store/idempotency";
import { readOperationRecord } from "#store/operations";

/**
 * get_operation_status — what became of one of the caller's own operations.
 * Primary course: the operation record says completed (with the original body), rejected (with the
 * original error) or declined (the person's no to its confirmation over MCP, with the error it was answered). Alternatives: Powertools holds it in progress → pending; nothing anywhere → 404
 * not_found: not recorded yet (the request may not have arrived, or may still be on its way), so the caller
 * resends the identical request with the same operationId, which takes effect at most once.
 * Records are keyed by the caller's `sub`, so another caller's operation is simply not found.
 */
export async function operationStatus(
  deps: StoreDeps,
  args: { operationId: string },
  principal: Principal,
): Promise<{ statusCode: number; body: Json }> {
  const { operationId } = args;
  const record = await readOperationRecord(deps, principal.sub, operationId);
  if (record?.status === "completed") {
    return {
      statusCode: 200,
      body: {
        operationId,
        status: "completed",
        tool: record.tool,
        orderId: record.orderId,
        orderVersion: record.orderVersion ?? null,
        result: record.body,
      },
    };
  }
  if (record?.status === "rejected" || record?.status === "declined") {
    return {
      statusCode: 200,
      body: { operationId, status: record.status, tool: record.tool, orderId: record.orderId, error: record.body.error ?? null },
    };
  }
  const inFlight = await readInFlight(deps, principal.sub, operationId);
  if (inFlight) {
    return {
      statusCode: 200,
      body: { operationId, status: "pending", tool: inFlight.tool, retryAfterSeconds: inFlight.retryAfterSeconds },
    };
  }
  const notFound = new OperationNotFoundError(operationId);
  return { statusCode: notFound.httpStatus, body: { operationId, status: "not_found", ...(notFound.toJSON() as unknown as Json) } };
}
