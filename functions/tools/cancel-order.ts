import { cancelOrder } from "#core/cancel-order";
import type { StoreDeps } from "#store/client";
import { changeTool } from "#tools/change-tool";
import { lazyHandler } from "#tools/handler";

export const createHandler = (deps: StoreDeps) => changeTool(deps, "cancel_order", cancelOrder);
export const handler = lazyHandler(createHandler);
