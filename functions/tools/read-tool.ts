import type { output, ZodMiniType } from "zod/mini";
import { parseArguments } from "#catalog/validate";
import type { Json } from "#core/change";
import { type Principal, scopes } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { spendRequestBudget } from "#store/request-budget";
import { argumentsOf, idsOf, observed, principalOf, type ToolHandler, type ToolSpec } from "#tools/handler";
import { jsonResponse } from "#tools/http";
import { principalHash } from "#tools/observability";

/**
 * A reading tool (scope orders:read): principal → request budget → validated arguments → use case → 200 with its result.
 * The principal comes first, so an unauthenticated caller learns nothing about the arguments either; the
 * budget next, so that even malformed requests count against the caller who sends them.
 */
export function readTool<S extends ZodMiniType>(
  deps: StoreDeps,
  { name, input: schema }: ToolSpec<S>,
  run: (deps: StoreDeps, args: output<S>, principal: Principal) => Promise<{ statusCode?: number; body: Json }>,
): ToolHandler {
  return (event) =>
    observed(name, event, false, async (keys) => {
      const principal = principalOf(event, scopes.read);
      keys.principal = principalHash(principal.sub);
      await spendRequestBudget(deps, principal);
      const args = parseArguments(schema, name, argumentsOf(event));
      Object.assign(keys, idsOf(args));
      const { statusCode = 200, body } = await run(deps, args, principal);
      return jsonResponse(statusCode, body);
    });
}

