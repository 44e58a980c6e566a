import type { StartReturnInput } from "#catalog/compound-schemas";
import { startReturn } from "#core/start-return";
import type { StoreDeps } from "#store/client";
import { returnStore } from "#store/compound";
import { changeTool } from "#tools/change-tool";
import { lazyHandler } from "#tools/handler";

export const createHandler = (deps: StoreDeps) => changeTool(deps, "start_return", (args: StartReturnInput) => startReturn(args, returnStore(deps)));
export const handler = lazyHandler(createHandler);
