import type { output, ZodMiniType } from "zod/mini";
import { parseArguments } from "#catalog/validate";
import type { OrderChange } from "#core/change";
import { type Principal, scopes } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { idempotentOperations } from "#store/idempotency";
import { commitOrderChange, fingerprintOf } from "#store/operations";
import { spendRequestBudget } from "#store/request-budget";
import { argumentsOf, idsOf, observed, principalOf, type ToolHandler, type ToolSpec } from "#tools/handler";
import { jsonResponse } from "#tools/http";
import { principalHash } from "#tools/observability";

/**
 * A changing tool (scope orders:write): principal → request budget → validated arguments → Powertools idempotency keyed by principal and
 * operationId → one transaction that applies the use case's change with its operation record.
 * A replayed outcome carries `Idempotent-Replayed: true`.
 */
export function changeTool<S extends ZodMiniType<{ operationId: string }>>(
  deps: StoreDeps,
  { name, input: schema }: ToolSpec<S>,
  toChange: (args: output<S>, principal: Principal) => OrderChange,
): ToolHandler {
  const runOnce = idempotentOperations(deps, name);
  return (event, context) =>
    observed(name, event, true, async (keys) => {
      const principal = principalOf(event, scopes.write);
      keys.principal = principalHash(principal.sub);
      await spendRequestBudget(deps, principal);
      const args = parseArguments(schema, name, argumentsOf(event));
      Object.assign(keys, idsOf(args));
      const op = { principal, tool: name, operationId: args.operationId, fingerprint: fingerprintOf(name, args) };
      const outcome = await runOnce(context, op, () => commitOrderChange(deps, op, toChange(args, principal)));
      return jsonResponse(outcome.httpStatus, outcome.body, outcome.replayed ? { "idempotent-replayed": "true" } : {});
    });
}
