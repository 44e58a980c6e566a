import { getOrderFromStore } from "#store/order-reads";
import type { StoreDeps } from "#store/client";
import { lazyHandler, readTool } from "#tools/handler";

export const createHandler = (deps: StoreDeps) => readTool(deps, "get_order", getOrderFromStore);
export const handler = lazyHandler(createHandler);
