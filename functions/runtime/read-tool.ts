import type { output, ZodMiniType } from "zod/mini";
import type { Json } from "#core/change";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { type ToolHandler, type ToolSpec, toolCall } from "#runtime/handler";
import { jsonResponse } from "#runtime/http";

/** A reading tool (scope orders:read): the admitted call (runtime/handler.ts) → use case → 200 with its result. */
export function readTool<S extends ZodMiniType>(
  deps: StoreDeps,
  spec: ToolSpec<S>,
  run: (deps: StoreDeps, args: output<S>, principal: Principal) => Promise<{ statusCode?: number; body: Json }>,
): ToolHandler {
  return (event) =>
    toolCall(deps, spec, false, event, async ({ principal, args }) => {
      const { statusCode = 200, body } = await run(deps, args, principal);
      return jsonResponse(statusCode, body);
    });
}
