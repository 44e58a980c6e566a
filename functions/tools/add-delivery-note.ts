import { addDeliveryNoteInput } from "#contract/schemas";
import { addDeliveryNote } from "#core/add-delivery-note";
import type { StoreDeps } from "#store/client";
import { changeTool } from "#runtime/change-tool";
import { lazyHandler, type ToolSpec } from "#runtime/handler";

/** The registry entry this function serves: its name and input schema (test/unit/tool-specs.test.ts). */
export const spec = { name: "add_delivery_note", input: addDeliveryNoteInput } as const satisfies ToolSpec;

export const createHandler = (deps: StoreDeps) => changeTool(deps, spec, addDeliveryNote);
export const handler = lazyHandler(createHandler);
