import { cancelOrder } from "#core/cancel-order";
import type { StoreDeps } from "#store/client";
import { changeTool, lazyHandler } from "#tools/handler";

export const createHandler = (deps: StoreDeps) => changeTool(deps, "cancel_order", cancelOrder);
export const handler = lazyHandler(createHandler);
