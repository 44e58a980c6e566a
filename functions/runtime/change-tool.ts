import type { output, ZodMiniType } from "zod/mini";
import type { OrderChange } from "#core/change";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { idempotentOperations } from "#store/idempotency";
import { InvalidInputError } from "#core/errors";
import { type DeclineAnswer, declineAnswers, declinedHeader } from "#core/declined";
import { commitOrderChange, fingerprintOf, recordDeclined } from "#store/operations";
import { type ToolHandler, type ToolSpec, toolCall } from "#runtime/handler";
import { type HttpEvent, jsonResponse } from "#runtime/http";

/**
 * A changing tool (scope orders:write): the admitted call (runtime/handler.ts) → Powertools idempotency keyed by
 * principal and operationId → one transaction that applies the use case's change with its operation record.
 * A replayed outcome carries `Idempotent-Replayed: true`.
 */
export function changeTool<S extends ZodMiniType<{ operationId: string }>>(
  deps: StoreDeps,
  spec: ToolSpec<S>,
  toChange: (args: output<S>, principal: Principal) => OrderChange,
): ToolHandler {
  const runOnce = idempotentOperations(deps, spec.name);
  return (event, context) =>
    toolCall(deps, spec, true, event, async ({ principal, args }) => {
      const op = { principal, tool: spec.name, operationId: args.operationId, fingerprint: fingerprintOf(spec.name, args) };
      const declined = declinedAnswer(event);
      const outcome = await runOnce(context, op, () =>
        declined ? recordDeclined(deps, op, orderIdOf(args), declined) : commitOrderChange(deps, op, toChange(args, principal)),
      );
      return jsonResponse(outcome.httpStatus, outcome.body, outcome.replayed ? { "idempotent-replayed": "true" } : {});
    });
}

function declinedAnswer(event: HttpEvent): DeclineAnswer | undefined {
  // API Gateway (HTTP API) hands headers over with lower-case names, as the MCP function's event does.
  const value = event.headers?.[declinedHeader];
  if (value === undefined) return undefined;
  if ((declineAnswers as readonly string[]).includes(value)) return value as DeclineAnswer;
  throw new InvalidInputError([
    { path: declinedHeader, message: `The ${declinedHeader} header must be one of ${declineAnswers.join(", ")}; it was "${value}".` },
  ]);
}

const orderIdOf = (args: object): string => String((args as { orderId?: unknown }).orderId ?? "");
