import { addDeliveryNote } from "#core/add-delivery-note";
import type { StoreDeps } from "#store/client";
import { changeTool } from "#tools/change-tool";
import { lazyHandler } from "#tools/handler";

export const createHandler = (deps: StoreDeps) => changeTool(deps, "add_delivery_note", addDeliveryNote);
export const handler = lazyHandler(createHandler);
