import { startReturnInput } from "#contract/compound-schemas";
import { startReturn } from "#core/start-return";
import type { StoreDeps } from "#store/client";
import { returnStore } from "#store/compound";
import { changeTool } from "#runtime/change-tool";
import { lazyHandler, type ToolSpec } from "#runtime/handler";

/** The registry entry this function serves: its name and input schema (test/unit/tool-specs.test.ts). */
export const spec = { name: "start_return", input: startReturnInput } as const satisfies ToolSpec;

export const createHandler = (deps: StoreDeps) => changeTool(deps, spec, (args) => startReturn(args, returnStore(deps)));
export const handler = lazyHandler(createHandler);
