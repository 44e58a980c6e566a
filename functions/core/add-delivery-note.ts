import type { OrderChange } from "#core/change";
import { deliveryNoteRule } from "#core/eligibility";
import type { NoteAuthor } from "#core/order";
import type { Principal } from "#core/principal";

/** What add_delivery_note takes, once its schema has checked it (functions/contract/schemas.ts is held to this type). */
export interface AddDeliveryNoteInput {
  operationId: string;
  orderId: string;
  expectedVersion: number;
  /** The note, already normalised and checked with the carrier's rules (`deliveryNoteRules`). */
  deliveryNote: string;
}

/**
 * add_delivery_note — the owner (or support) gives the carrier instructions before dispatch starts.
 * Input: orderId, expectedVersion, the note (already normalised by its schema). Output: the new version
 * and the note as stored, marked with who wrote it (the customer, or support on their behalf).
 * Primary course: placed or processing at expectedVersion → the note replaces any earlier one.
 * Alternatives: dispatching or later → NOT_ELIGIBLE DISPATCH_STARTED; cancelled → ALREADY_CANCELLED;
 * stale version → VERSION_CONFLICT; not the caller's → ORDER_NOT_FOUND.
 */
export function addDeliveryNote(input: AddDeliveryNoteInput, principal: Pick<Principal, "kind">): OrderChange {
  // A seller never gets this far (contract §1); support writes on the customer's behalf, and the note says so.
  const author: NoteAuthor = principal.kind === "support" ? "support" : "customer";
  return {
    orderId: input.orderId,
    expectedVersion: input.expectedVersion,
    rule: deliveryNoteRule,
    plan: () => ({
      set: { deliveryNote: input.deliveryNote, deliveryNoteBy: author },
      activity: { summary: "Delivery note set" },
      result: { deliveryNote: { origin: author, text: input.deliveryNote } },
    }),
  };
}
