import type { OrderChange } from "#core/change";
import { deliveryNoteRule } from "#core/eligibility";

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
 * and the note as stored, marked as customer text.
 * Primary course: placed or processing at expectedVersion → the note replaces any earlier one.
 * Alternatives: dispatching or later → NOT_ELIGIBLE DISPATCH_STARTED; cancelled → ALREADY_CANCELLED;
 * stale version → VERSION_CONFLICT; not the caller's → ORDER_NOT_FOUND.
 */
export function addDeliveryNote(input: AddDeliveryNoteInput): OrderChange {
  return {
    orderId: input.orderId,
    expectedVersion: input.expectedVersion,
    rule: deliveryNoteRule,
    plan: () => ({
      set: { deliveryNote: input.deliveryNote },
      activity: { summary: "Delivery note set" },
      result: { deliveryNote: { origin: "customer", text: input.deliveryNote } },
    }),
  };
}
