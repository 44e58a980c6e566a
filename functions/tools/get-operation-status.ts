import type { StoreDeps } from "#store/client";
import { operationStatus } from "#store/operation-status";
import { lazyHandler, readTool } from "#tools/handler";

export const createHandler = (deps: StoreDeps) => readTool(deps, "get_operation_status", operationStatus);
export const handler = lazyHandler(createHandler);
