import { cancelOrderInput } from "#contract/schemas";
import { cancelOrder } from "#core/cancel-order";
import type { StoreDeps } from "#store/client";
import { changeTool } from "#runtime/change-tool";
import { lazyHandler, type ToolSpec } from "#runtime/handler";

/** The registry entry this function serves: its name and input schema (test/unit/tool-specs.test.ts). */
export const spec = { name: "cancel_order", input: cancelOrderInput } as const satisfies ToolSpec;

export const createHandler = (deps: StoreDeps) => changeTool(deps, spec, cancelOrder);
export const handler = lazyHandler(createHandler);
