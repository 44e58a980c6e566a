import type { z } from "zod";
import { type ToolName, toolNamed } from "#catalog/tools";
import { parseArguments } from "#catalog/validate";
import type { Json } from "#core/change";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { spendRequestBudget } from "#store/request-budget";
import { argumentsOf, idsOf, observed, principalOf, type ToolHandler } from "#tools/handler";
import { jsonResponse } from "#tools/http";
import { principalHash } from "#tools/observability";

/**
 * A reading tool: principal → request budget → validated arguments → use case → 200 with its result.
 * The principal comes first, so an unauthenticated caller learns nothing about the arguments either; the
 * budget next, so that even malformed requests count against the caller who sends them.
 */
export function readTool<A>(
  deps: StoreDeps,
  name: ToolName,
  run: (deps: StoreDeps, args: A, principal: Principal) => Promise<{ statusCode?: number; body: Json }>,
): ToolHandler {
  const schema = toolNamed(name).input as z.ZodType<A>;
  return (event) =>
    observed(name, event, false, async (keys) => {
      const principal = principalOf(event, name);
      keys.principal = principalHash(principal.sub);
      await spendRequestBudget(deps, principal);
      const args = parseArguments(schema, name, argumentsOf(event));
      Object.assign(keys, idsOf(args));
      const { statusCode = 200, body } = await run(deps, args, principal);
      return jsonResponse(statusCode, body);
    });
}

