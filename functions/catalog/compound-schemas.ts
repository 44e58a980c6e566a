import * as z from "zod";
import { expectedVersion, operationId, orderId, completedResult } from "#catalog/fields";
import { isCalendarDay } from "#core/days";

/** Input and output of the two compound changing tools, start_return and offer_replacement. */

export const returnReasons = ["damaged", "wrong_item", "not_as_described", "no_longer_needed", "other"] as const;
export const replacementReasons = ["damaged", "missing", "wrong_item"] as const;
export const maxItemsPerReturn = 20;

export const itemId = z
  .string({ error: "Item ids are strings: ITM- followed by digits, like ITM-1, as get_order lists them." })
  .regex(/^ITM-\d{1,12}$/, {
    error: (issue) => `${JSON.stringify(String(issue.input).slice(0, 40))} is not an item id: item ids are ITM- followed by digits, like ITM-1; get_order lists the order's items.`,
  })
  .meta({ description: "An item on the order: ITM- followed by digits, as get_order lists it.", examples: ["ITM-1"] });

const day = z
  .string({ error: "pickupDate must be a date written YYYY-MM-DD, like 2026-12-01." })
  .refine(isCalendarDay, { error: (issue) => `pickupDate is ${JSON.stringify(issue.input)}; it must be a calendar date written YYYY-MM-DD, like 2026-12-01.` });

export const startReturnInput = z
  .strictObject({
    operationId,
    orderId,
    expectedVersion: expectedVersion.optional(),
    itemIds: z
      .array(itemId, { error: `itemIds must be a list of 1–${maxItemsPerReturn} item ids, like ["ITM-1"].` })
      .min(1, { error: `itemIds is empty; list the 1–${maxItemsPerReturn} items to return, like ["ITM-1"].` })
      .max(maxItemsPerReturn, { error: (issue) => `itemIds lists ${(issue.input as unknown[]).length} items; one return takes at most ${maxItemsPerReturn}. Split them over several returns.` })
      .superRefine((ids, ctx) => {
        const seen = new Set<string>();
        for (const [i, id] of ids.entries()) {
          if (seen.has(id)) ctx.addIssue({ code: "custom", path: [i], message: `itemIds lists ${id} more than once; list each item once (a return takes the whole line).` });
          seen.add(id);
        }
      })
      .meta({ description: `The items to return, 1–${maxItemsPerReturn} distinct item ids from get_order; each is returned with its whole quantity.` }),
    reason: z
      .enum(returnReasons, { error: `reason must be one of ${returnReasons.join(", ")}.` })
      .meta({ description: "Why the items are returned." }),
    pickupDate: day
      .optional()
      .meta({
        description:
          "The day the carrier should collect the parcel (YYYY-MM-DD, UTC, from tomorrow on). If that day is full, the next day with capacity is booked. Leave it out for the earliest day from tomorrow on.",
        examples: ["2026-12-01"],
      }),
  })
  .meta({ description: "Start a return of delivered items: eligibility, return label and carrier pickup in one step." });

export const startReturnOutput = completedResult({
  return: z
    .strictObject({
      returnId: z.string().meta({ description: "The return's id on this order." }),
      itemIds: z.array(itemId).meta({ description: "The items being returned." }),
      labelRef: z.string().meta({ description: "The return label to print and attach to the parcel." }),
      pickup: z
        .strictObject({
          date: z.string().meta({ description: "The collection day, YYYY-MM-DD." }),
          window: z.string().meta({ description: "The collection time window on that day, e.g. 08:00-12:00." }),
        })
        .meta({ description: "The booked carrier collection." }),
    })
    .meta({ description: "The return as recorded on the order." }),
}, "The return was started: label issued and pickup booked.");

export const offerReplacementInput = z
  .strictObject({
    operationId,
    orderId,
    expectedVersion,
    itemId: itemId.meta({ description: "The delivered item to replace, as get_order lists it; its whole quantity is replaced." }),
    reason: z
      .enum(replacementReasons, { error: `reason must be one of ${replacementReasons.join(", ")}.` })
      .meta({ description: "What was wrong with the delivered item." }),
  })
  .meta({ description: "Send a replacement for a delivered item: stock is reserved and a replacement line added to the order." });

export const offerReplacementOutput = completedResult({
  replacement: z
    .strictObject({
      itemId: itemId.meta({ description: "The item being replaced." }),
      replacementItemId: itemId.meta({ description: "The new line on the order for the replacement." }),
      sku: z.string().meta({ description: "The stock-keeping unit reserved for the replacement." }),
    })
    .meta({ description: "The replacement as recorded on the order." }),
}, "The replacement was reserved and added to the order.");

export type StartReturnInput = z.output<typeof startReturnInput>;
export type OfferReplacementInput = z.output<typeof offerReplacementInput>;
