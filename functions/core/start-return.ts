import type { ChangePlan, ConditionParts, LinkedWrite, OrderChange, Refusal } from "#core/change";
import { addDays, dayOf } from "#core/days";
import { startReturnRule } from "#core/eligibility";
import { InvalidInputError, NoPickupSlotError, NotEligibleError, OrderNotFoundError } from "#core/errors";
import {
  earliestOpenDelivery,
  type ReturnRecord,
  returnedItemIdsAttribute,
  returnsOf,
  startReturnIneligibility,
  storedIds,
  unknownItems,
} from "#core/item-eligibility";
import type { Order } from "#core/order";
import type { ReturnPolicy } from "#core/policy";

export const returnReasons = ["damaged", "wrong_item", "not_as_described", "no_longer_needed", "other"] as const;
export const maxItemsPerReturn = 20;

/** What start_return takes, once its schema has checked it (functions/contract/compound-schemas.ts is held to this type). */
export interface StartReturnInput {
  operationId: string;
  orderId: string;
  expectedVersion?: number;
  /** 1 to `maxItemsPerReturn` distinct item ids, each returned with its whole quantity. */
  itemIds: string[];
  reason: (typeof returnReasons)[number];
  /** The day the carrier should collect the parcel, YYYY-MM-DD; the earliest from tomorrow on when absent. */
  pickupDate?: string;
}

/** One carrier collection window on one day, and how many more parcels it takes. */
export interface PickupSlot {
  date: string;
  window: string;
  capacity: number;
}

/** What start_return needs from the store; the store implements it (functions/store/compound.ts). */
export interface ReturnStore {
  /** The return policy that applies to the seller's orders (the seller's supplement or its type's default). */
  policyOf(sellerId: string): Promise<ReturnPolicy>;
  /** One read: every pickup slot from `firstDay` on that still has capacity, earliest date and window first. */
  openPickupSlots(firstDay: string): Promise<PickupSlot[]>;
  /** The write that takes one unit of a slot's capacity, on condition that it does not go below zero. */
  takePickupSlot(slot: PickupSlot): LinkedWrite["write"];
}

/** How many dates NO_PICKUP_SLOT lists. */
const listedDates = 10;

/**
 * start_return — the owner (or support) returns delivered items in one step: eligibility, a return label, a
 * carrier pickup and a note on the order's activity log, all or nothing in one transaction.
 * Input: orderId, itemIds, reason, optional expectedVersion and pickupDate. Output: the return (returnId,
 * itemIds, labelRef, pickup {date, window}) and the order's new version.
 * Primary course: the order is delivered, today is within the seller's policy window and every item is on the
 * order and not yet returned → the earliest slot with capacity on pickupDate or later (from tomorrow on when
 * absent), chosen from one read of the slots, loses one unit of capacity; the return is recorded on the order.
 * Alternatives: not delivered → NOT_DELIVERED (cancelled → ALREADY_CANCELLED); window over →
 * RETURN_WINDOW_CLOSED; an item not on the order → UNKNOWN_ITEM; a replacement line → REPLACEMENT_LINE (a person
 * handles it); returned before → ITEM_ALREADY_RETURNED;
 * another caller takes the chosen slot's last unit first → the next candidate slot, once; no slot left →
 * NO_PICKUP_SLOT with the dates that still have capacity; stale expectedVersion → VERSION_CONFLICT; not the
 * caller's → ORDER_NOT_FOUND. A suspended seller does not matter: a return needs nothing from the seller.
 */
export function startReturn(input: StartReturnInput, store: ReturnStore): OrderChange {
  // The slots are read once per operation; a retry after losing a slot moves on to the next candidate.
  let slotsRead: Promise<PickupSlot[]> | undefined;

  return {
    orderId: input.orderId,
    expectedVersion: input.expectedVersion,
    // The policy to condition on is the order's seller's, so the order is read even with expectedVersion.
    readsOrder: true,
    rule: startReturnRule,
    capped: true,
    async plan({ committedVersion, now, order, replans }): Promise<ChangePlan | Refusal> {
      const today = dayOf(now);
      const tomorrow = addDays(today, 1);
      if (input.pickupDate !== undefined && input.pickupDate < tomorrow) {
        throw new InvalidInputError([
          {
            path: "pickupDate",
            message: `pickupDate ${input.pickupDate} is not in the future; pickups can be booked from ${tomorrow} (tomorrow) on. Leave pickupDate out for the earliest day with capacity.`,
          },
        ]);
      }
      if (!order) return { refusal: new OrderNotFoundError(input.orderId) };

      const policy = await store.policyOf(order.sellerId);
      const explain = (current: Order) => {
        const ineligible = startReturnIneligibility(current, input.itemIds, policy, today);
        return ineligible && new NotEligibleError(ineligible.message, ineligible.reason, current.status);
      };
      // The order's own lines are written once, and a replacement line exists only as a record in the order's state,
      // which the write holds to the version it read: whether an item is on the order, and whether it is a
      // replacement line, cannot change before the write. What a change in between could break is a condition.
      const conditions = (p: ConditionParts) => [
        // Within the window: delivered on or after today − window days (a timestamp sorts after its own day).
        `${p.name("deliveredAt")} >= ${p.value(earliestOpenDelivery(policy, today))}`,
        ...input.itemIds.map((id) => `NOT contains(${p.name(returnedItemIdsAttribute)}, ${p.value(id)})`),
      ];

      const unknown = unknownItems(order, input.itemIds);
      if (unknown) return { refusal: new NotEligibleError(unknown.message, unknown.reason, order.status), conditions, explain };
      const ineligible = explain(order);
      if (ineligible) return { refusal: ineligible, conditions, explain };

      slotsRead ??= store.openPickupSlots(tomorrow);
      const open = await slotsRead;
      const wanted = input.pickupDate ?? tomorrow;
      const candidates = open.filter((slot) => slot.date >= wanted);
      const slot = candidates[replans];
      if (!slot) {
        return { refusal: noPickupSlot(wanted, tomorrow, open, candidates.slice(0, replans)), conditions, explain };
      }

      const returnId = `RET-${input.orderId.slice(3)}-${committedVersion}`;
      const record: ReturnRecord = {
        returnId,
        itemIds: input.itemIds,
        // No carrier is integrated: the label reference is derived from the return id, so it is stable for this
        // return; a carrier's label API would issue it here.
        labelRef: `LBL-${returnId.slice(4)}`,
        pickup: { date: slot.date, window: slot.window },
        reason: input.reason,
        createdAt: now.toISOString(),
      };
      return {
        // Whole lists from the read: the write is conditioned on the version it was read at.
        set: {
          returns: [...returnsOf(order), record],
          [returnedItemIdsAttribute]: [...storedIds(order, returnedItemIdsAttribute), ...input.itemIds],
        },
        conditions,
        explain,
        activity: {
          summary: `Return ${returnId} started for ${input.itemIds.join(", ")}; pickup ${slot.date} ${slot.window}`,
          returnId,
          itemIds: input.itemIds,
          labelRef: record.labelRef,
          pickup: record.pickup,
          reason: input.reason,
        },
        linkedWrites: [
          {
            write: store.takePickupSlot(slot),
            // Lost the slot between the read and the write: try the next candidate once, then give up.
            explain: () =>
              replans === 0 && candidates[1] ? "replan" : noPickupSlot(wanted, tomorrow, open, candidates.slice(0, replans + 1)),
          },
        ],
        result: { return: { returnId, itemIds: input.itemIds, labelRef: record.labelRef, pickup: record.pickup } },
      };
    },
  };
}

/**
 * NO_PICKUP_SLOT, listing the days that still have capacity as far as this operation read them: the open slots
 * from tomorrow on (those before `wanted` included, so a later pickupDate can be corrected), less the ones lost.
 */
export function noPickupSlot(
  wanted: string,
  tomorrow: string,
  open: readonly PickupSlot[],
  lost: readonly PickupSlot[],
): NoPickupSlotError {
  const availableDates = [...new Set(open.filter((s) => !lost.includes(s)).map((s) => s.date))].slice(0, listedDates);
  const what = lost.length
    ? `The pickup ${lost.length === 1 ? "slot" : "slots"} ${lost.map((s) => `${s.date} ${s.window}`).join(" and ")} filled up with other returns while this one was being booked.`
    : `No pickup slot has capacity on or after ${wanted}.`;
  const next = availableDates.length
    ? `Days that still have capacity: ${availableDates.join(", ")}. Send start_return again with a new operationId and one of them as pickupDate.`
    : `No day from ${tomorrow} on has pickup capacity left, so no collection can be booked now; try again later with a new operationId, when the carrier has opened more days.`;
  return new NoPickupSlotError(`${what} ${next}`, { availableDates });
}
