import { searchOrdersInput } from "#contract/read-schemas";
import { searchOrdersInStore } from "#store/order-reads";
import type { StoreDeps } from "#store/client";
import { lazyHandler, type ToolSpec } from "#runtime/handler";
import { readTool } from "#runtime/read-tool";

/** The registry entry this function serves: its name and input schema (test/unit/tool-specs.test.ts). */
export const spec = { name: "search_orders", input: searchOrdersInput } as const satisfies ToolSpec;

export const createHandler = (deps: StoreDeps) => readTool(deps, spec, searchOrdersInStore);
export const handler = lazyHandler(createHandler);
