import { offerReplacementInput } from "#contract/compound-schemas";
import { offerReplacement } from "#core/offer-replacement";
import type { StoreDeps } from "#store/client";
import { replacementStore } from "#store/compound";
import { changeTool } from "#runtime/change-tool";
import { lazyHandler, type ToolSpec } from "#runtime/handler";

/** The registry entry this function serves: its name and input schema (test/unit/tool-specs.test.ts). */
export const spec = { name: "offer_replacement", input: offerReplacementInput } as const satisfies ToolSpec;

export const createHandler = (deps: StoreDeps) => changeTool(deps, spec, (args) => offerReplacement(args, replacementStore(deps)));
export const handler = lazyHandler(createHandler);
