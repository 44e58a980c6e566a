import { operationStatusInput } from "#contract/schemas";
import type { StoreDeps } from "#store/client";
import { operationStatus } from "#store/operation-status";
import { lazyHandler, type ToolSpec } from "#runtime/handler";
import { readTool } from "#runtime/read-tool";

/** The registry entry this function serves: its name and input schema (test/unit/tool-specs.test.ts). */
export const spec = { name: "get_operation_status", input: operationStatusInput } as const satisfies ToolSpec;

export const createHandler = (deps: StoreDeps) => readTool(deps, spec, operationStatus);
export const handler = lazyHandler(createHandler);
