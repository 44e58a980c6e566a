import type { OfferReplacementInput } from "#catalog/compound-schemas";
import { offerReplacement } from "#core/offer-replacement";
import type { StoreDeps } from "#store/client";
import { replacementStore } from "#store/compound";
import { changeTool } from "#tools/change-tool";
import { lazyHandler } from "#tools/handler";

export const createHandler = (deps: StoreDeps) => changeTool(deps, "offer_replacement", (args: OfferReplacementInput) => offerReplacement(args, replacementStore(deps)));
export const handler = lazyHandler(createHandler);
