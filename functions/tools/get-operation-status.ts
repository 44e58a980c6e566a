import type { StoreDeps } from "#store/client";
import { operationStatus } from "#store/operation-status";
import { lazyHandler } from "#tools/handler";
import { readTool } from "#tools/read-tool";

export const createHandler = (deps: StoreDeps) => readTool(deps, "get_operation_status", operationStatus);
export const handler = lazyHandler(createHandler);
