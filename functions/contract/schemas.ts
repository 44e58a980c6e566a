import * as z from "zod/mini";
import { deliveryNoteRules } from "#core/text";
import {
  completedResult,
  noteText,
  expectedVersion,
  freeText,
  operationId,
  orderId,
  orderVersion,
  type Same,
  schema,
} from "#contract/fields";
import type { AddDeliveryNoteInput } from "#core/add-delivery-note";
import type { CancelOrderInput } from "#core/cancel-order";

/** One strict schema per tool: runtime validation, TypeScript types and the published JSON Schema. */

export const cancelOrderInput = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      operationId,
      orderId,
      expectedVersion: z.optional(expectedVersion),
      reason: z.optional(
        freeText(
          "reason",
          { maxCharacters: 200, maxLines: 1 },
          "Why the order is cancelled, in the customer's words; at most 200 characters on one line.",
        ),
      ),
    })
    .check(z.meta({ description: "Cancel an order that has not shipped." })),
);

export const cancelOrderOutput = /* @__PURE__ */ schema(() =>
  completedResult(
    { orderStatus: z.literal("cancelled").check(z.meta({ description: "The order's status after the change." })) },
    "The cancellation was applied.",
  ),
);

export const addDeliveryNoteInput = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      operationId,
      orderId,
      expectedVersion: expectedVersion,
      deliveryNote: freeText(
        "deliveryNote",
        deliveryNoteRules,
        "Instructions for the carrier: 1–500 characters after trimming, at most 10 lines, any script. Replaces any earlier note. Control characters, bidi controls and every invisible (default-ignorable) character are refused, except U+FE0E/U+FE0F directly after an emoji.",
      ),
    })
    .check(z.meta({ description: "Set the delivery note of an order that has not started dispatch." })),
);

export const addDeliveryNoteOutput = /* @__PURE__ */ schema(() =>
  completedResult({ deliveryNote: noteText }, "The note was stored and will go to the carrier."),
);

export const operationStatusInput = /* @__PURE__ */ schema(() =>
  z.strictObject({ operationId }).check(z.meta({ description: "Which of your operations to look up." })),
);

export const operationStatusOutput = /* @__PURE__ */ schema(() =>
  z
    .discriminatedUnion("status", [
      z.object({
        operationId,
        status: z.literal("completed").check(z.meta({ description: "The operation took effect; result is what it returned." })),
        tool: z.string().check(z.meta({ description: "The tool the operation ran." })),
        orderId,
        orderVersion,
        result: z.record(z.string(), z.unknown()).check(z.meta({ description: "The body the original request returned." })),
      }),
      z.object({
        operationId,
        status: z.literal("rejected").check(
          z.meta({
            description: "The operation was refused and changed nothing; error says why. A new attempt needs a new operationId.",
          }),
        ),
        tool: z.string().check(z.meta({ description: "The tool the operation ran." })),
        orderId,
        error: z.record(z.string(), z.unknown()).check(z.meta({ description: "The error the original request returned." })),
      }),
      z.object({
        operationId,
        status: z.literal("declined").check(
          z.meta({
            description:
              "The person did not confirm the change when asked over MCP; nothing changed, and this operationId will not run. A new attempt needs a new operationId.",
          }),
        ),
        tool: z.string().check(z.meta({ description: "The tool the operation would have run." })),
        orderId,
        error: z.record(z.string(), z.unknown()).check(z.meta({ description: "The CONFIRMATION_DECLINED error the answer was given." })),
      }),
      z.object({
        operationId,
        status: z.literal("pending").check(z.meta({ description: "The operation is executing right now." })),
        tool: z.string().check(z.meta({ description: "The tool the operation is running." })),
        retryAfterSeconds: z.int().check(z.meta({ description: "Ask again after this many seconds." })),
      }),
    ])
    .check(z.meta({ description: "What became of an operation: completed, rejected, declined by the person, or still running." })),
);

// What each schema lets through is exactly what its use case takes: a field on one side only does not compile.
true satisfies Same<z.output<typeof cancelOrderInput>, CancelOrderInput>;
true satisfies Same<z.output<typeof addDeliveryNoteInput>, AddDeliveryNoteInput>;
