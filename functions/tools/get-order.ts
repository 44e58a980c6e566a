import { getOrderInput } from "#contract/read-schemas";
import { getOrderFromStore } from "#store/order-reads";
import type { StoreDeps } from "#store/client";
import { lazyHandler, type ToolSpec } from "#runtime/handler";
import { readTool } from "#runtime/read-tool";

/** The registry entry this function serves: its name and input schema (test/unit/tool-specs.test.ts). */
export const spec = { name: "get_order", input: getOrderInput } as const satisfies ToolSpec;

export const createHandler = (deps: StoreDeps) => readTool(deps, spec, getOrderFromStore);
export const handler = lazyHandler(createHandler);
