import { searchOrdersInStore } from "#store/order-reads";
import type { StoreDeps } from "#store/client";
import { lazyHandler } from "#tools/handler";
import { readTool } from "#tools/read-tool";

export const createHandler = (deps: StoreDeps) => readTool(deps, "search_orders", searchOrdersInStore);
export const handler = lazyHandler(createHandler);
