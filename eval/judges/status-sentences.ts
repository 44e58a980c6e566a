/**
 * The reply judge's own rendering of the status sentences the contract fixes (docs/contract.md, "The response
 * gate"): the sentence a reply must open with for each recorded outcome. Written here from the contract, not
 * imported from the controller, so a fault in the gate's templates cannot hide the same fault here.
 */

import { changeToolNamed, isChangeTool } from "#contract/tools";
import { at, evalChangeTools, str } from "#eval/change-tools";

/** What the harness read from the service's records about one operation. */
export interface RecordedOutcome {
  tool: string;
  orderId: string;
  operationId: string;
  /** completed / rejected: the service's record; unknown: nothing definite recorded (not found, pending). */
  status: "completed" | "rejected" | "unknown";
  result?: Record<string, unknown>;
  error?: Record<string, unknown>;
}

/** How a sentence names a change's action: the contract entry's verb ("I can't {verb} order X"). */
const verbOf = (tool: string): string => (isChangeTool(tool) ? changeToolNamed(tool).verb : "change");

/** The change's completion sentence (its entry in eval/change-tools.ts), from what its record holds. */
export function completionSentence(record: RecordedOutcome): string {
  const { orderId, result } = record;
  // A record names the tool its request did: only a changing tool's request is ever recorded as completed.
  return isChangeTool(record.tool) ? evalChangeTools[record.tool].completion(orderId, result) : `The change to order ${orderId} is done.`;
}

export function rejectionSentence(record: RecordedOutcome): string {
  const { orderId } = record;
  const code = str(at(record.error, "code"));
  const reason = str(at(record.error, "reason"));
  const verb = verbOf(record.tool);
  if (code === "NOT_ELIGIBLE") {
    const byReason: Record<string, string> = {
      ALREADY_SHIPPED: `Order ${orderId} has already shipped, so it can no longer be cancelled. Once it is delivered, a return is possible.`,
      DISPATCH_STARTED: `Order ${orderId} has started dispatch, so its delivery note can no longer be changed. The carrier's own tracking may let you leave instructions.`,
      ALREADY_CANCELLED: `Order ${orderId} can't be cancelled again: it was already cancelled before this request.`,
      NOT_DELIVERED: `Order ${orderId} has not been delivered, so I can't ${verb} it now. Once it is delivered, that becomes possible.`,
      RETURN_WINDOW_CLOSED: `The return window for order ${orderId} has closed, so I can't ${verb} it any more. Nothing was changed.`,
      ITEM_ALREADY_RETURNED: `That item on order ${orderId} can't be returned again: it is already being returned.`,
      ITEM_ALREADY_REPLACED: `That item on order ${orderId} can't be replaced again: a replacement was arranged for it earlier.`,
      REPLACEMENT_LINE: `That item on order ${orderId} is itself a replacement, so it can't be replaced or returned here; a member of our team needs to handle it. Nothing was changed.`,
      UNKNOWN_ITEM: `That item is not on order ${orderId}, so I couldn't change anything. Check the items on the order and tell me which one you mean.`,
    };
    return byReason[reason] ?? `Order ${orderId} is not eligible for that right now, so nothing was changed.`;
  }
  switch (code) {
    case "ORDER_NOT_FOUND":
      return `I couldn't find order ${orderId}, so nothing was changed. Please check the order number.`;
    case "VERSION_CONFLICT":
      return `I couldn't change order ${orderId}: it changed while I was working on it. I'll need to look at it again before trying.`;
    case "SELLER_SUSPENDED":
      return `The seller of order ${orderId} can't send replacements at the moment. A return is still possible.`;
    case "OUT_OF_STOCK":
      return `I couldn't arrange a replacement for order ${orderId}: there is no stock left. A return is still possible.`;
    case "NO_PICKUP_SLOT": {
      const dates = ((at(record.error, "availableDates") as string[] | undefined) ?? []).slice(0, 5);
      return `There is no carrier pickup available for that day for order ${orderId}, so the return was not started.${dates.length ? ` Days with room: ${dates.join(", ")}.` : ""}`;
    }
    case "RATE_LIMITED": {
      const seconds = at(record.error, "retryAfterSeconds");
      const minutes = typeof seconds === "number" ? Math.max(1, Math.ceil(seconds / 60)) : undefined;
      return `I couldn't change order ${orderId}: you have made as many changes as allowed for now.${minutes ? ` Please try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.` : " Please try again later."}`;
    }
    default:
      return `I couldn't ${verb} order ${orderId}; it is as it was.`;
  }
}

export function uncertaintySentence(record: Pick<RecordedOutcome, "tool" | "orderId">): string {
  return `I've asked to ${verbOf(record.tool)} order ${record.orderId}, but I can't confirm yet whether that has taken effect. I'm checking and will tell you as soon as I know; there is no need to ask again.`;
}

/** The sentences a reply may open with for one recorded outcome: the record's own, or honest uncertainty. */
export function openingsFor(record: RecordedOutcome): string[] {
  if (record.status === "completed") return [completionSentence(record), uncertaintySentence(record)];
  if (record.status === "rejected") return [rejectionSentence(record), uncertaintySentence(record)];
  return [uncertaintySentence(record)];
}

/** The controller's fixed replies that record nothing: it changed nothing, or it stopped at a bound. */
export const noChangeSentence = "I haven't changed anything on your orders.";
export const modelFailedPreamble = "I couldn't finish working on that just now.";
export const boundPreamble =
  /^I had to stop before finishing, because it (?:needed more than the \d+ steps|took longer than the \d+ seconds) I can take per message\. /;
