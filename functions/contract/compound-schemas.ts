import * as z from "zod/mini";
import { completedResult, expectedVersion, operationId, orderId, type Same, schema } from "#contract/fields";
import { isCalendarDay } from "#core/days";
import { type OfferReplacementInput, replacementReasons } from "#core/offer-replacement";
import { maxItemsPerReturn, returnReasons, type StartReturnInput } from "#core/start-return";

/** Input and output of the two compound changing tools, start_return and offer_replacement. */

export const itemId = /* @__PURE__ */ schema(() =>
  z.string({ error: "Item ids are strings: ITM- followed by digits, like ITM-1, as get_order lists them." }).check(
    z.regex(/^ITM-\d{1,12}$/, {
      error: (issue) =>
        `${JSON.stringify(String(issue.input).slice(0, 40))} is not an item id: item ids are ITM- followed by digits, like ITM-1; get_order lists the order's items.`,
    }),
    z.meta({ description: "An item on the order: ITM- followed by digits, as get_order lists it.", examples: ["ITM-1"] }),
  ),
);

const day = /* @__PURE__ */ schema(() =>
  z.string({ error: "pickupDate must be a date written YYYY-MM-DD, like 2026-12-01." }).check(
    z.refine(isCalendarDay, {
      error: (issue) => `pickupDate is ${JSON.stringify(issue.input)}; it must be a calendar date written YYYY-MM-DD, like 2026-12-01.`,
    }),
  ),
);

export const startReturnInput = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      operationId,
      orderId,
      expectedVersion: z.optional(expectedVersion),
      itemIds: z.array(itemId, { error: `itemIds must be a list of 1–${maxItemsPerReturn} item ids, like ["ITM-1"].` }).check(
        z.minLength(1, { error: `itemIds is empty; list the 1–${maxItemsPerReturn} items to return, like ["ITM-1"].` }),
        z.maxLength(maxItemsPerReturn, {
          error: (issue) =>
            `itemIds lists ${(issue.input as unknown[]).length} items; one return takes at most ${maxItemsPerReturn}. Split them over several returns.`,
        }),
        z.superRefine((ids, ctx) => {
          const seen = new Set<string>();
          for (const [i, id] of ids.entries()) {
            if (seen.has(id))
              ctx.addIssue({
                code: "custom",
                path: [i],
                message: `itemIds lists ${id} more than once; list each item once (a return takes the whole line).`,
              });
            seen.add(id);
          }
        }),
        z.meta({
          description: `The items to return, 1–${maxItemsPerReturn} distinct item ids from get_order; each is returned with its whole quantity.`,
        }),
      ),
      reason: z
        .enum(returnReasons, { error: `reason must be one of ${returnReasons.join(", ")}.` })
        .check(z.meta({ description: "Why the items are returned." })),
      pickupDate: z.optional(day).check(
        z.meta({
          description:
            "The day the carrier should collect the parcel (YYYY-MM-DD, UTC, from tomorrow on). If that day is full, the next day with capacity is booked. Leave it out for the earliest day from tomorrow on.",
          examples: ["2026-12-01"],
        }),
      ),
    })
    .check(z.meta({ description: "Start a return of delivered items: eligibility, return label and carrier pickup in one step." })),
);

export const startReturnOutput = /* @__PURE__ */ schema(() =>
  completedResult(
    {
      return: z
        .strictObject({
          returnId: z.string().check(z.meta({ description: "The return's id on this order." })),
          itemIds: z.array(itemId).check(z.meta({ description: "The items being returned." })),
          labelRef: z.string().check(z.meta({ description: "The return label to print and attach to the parcel." })),
          pickup: z
            .strictObject({
              date: z.string().check(z.meta({ description: "The collection day, YYYY-MM-DD." })),
              window: z.string().check(z.meta({ description: "The collection time window on that day, e.g. 08:00-12:00." })),
            })
            .check(z.meta({ description: "The booked carrier collection." })),
        })
        .check(z.meta({ description: "The return as recorded on the order." })),
    },
    "The return was started: label issued and pickup booked.",
  ),
);

export const offerReplacementInput = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      operationId,
      orderId,
      expectedVersion,
      itemId: itemId.check(
        z.meta({ description: "The delivered item to replace, as get_order lists it; its whole quantity is replaced." }),
      ),
      reason: z
        .enum(replacementReasons, { error: `reason must be one of ${replacementReasons.join(", ")}.` })
        .check(z.meta({ description: "What was wrong with the delivered item." })),
    })
    .check(
      z.meta({ description: "Send a replacement for a delivered item: stock is reserved and a replacement line added to the order." }),
    ),
);

export const offerReplacementOutput = /* @__PURE__ */ schema(() =>
  completedResult(
    {
      replacement: z
        .strictObject({
          itemId: itemId.check(z.meta({ description: "The item being replaced." })),
          replacementItemId: itemId.check(z.meta({ description: "The new line on the order for the replacement." })),
          sku: z.string().check(z.meta({ description: "The stock-keeping unit reserved for the replacement." })),
        })
        .check(z.meta({ description: "The replacement as recorded on the order." })),
    },
    "The replacement was reserved and added to the order.",
  ),
);

// What each schema lets through is exactly what its use case takes: a field on one side only does not compile.
true satisfies Same<z.output<typeof startReturnInput>, StartReturnInput>;
true satisfies Same<z.output<typeof offerReplacementInput>, OfferReplacementInput>;
