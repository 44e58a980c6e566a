import type { ToolName } from "#catalog/tools";
import { composeOutcomes, type OrderFacts, type TurnOutcome } from "#controller/gate/outcomes";

/**
 * The fixed replies (contract §8.2): one per tool and outcome, one per rejection code and reason. Each says only
 * what the recorded outcome supports, names the order, and for a rejection says what is still possible.
 */

const action: Record<ToolName, string> = {
  search_orders: "search your orders",
  get_order: "read the order",
  cancel_order: "cancel",
  add_delivery_note: "set the delivery note on",
  start_return: "start a return on",
  offer_replacement: "send a replacement for an item on",
  get_operation_status: "check",
};

type Body = Record<string, unknown>;
const field = (body: Body, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Body)[k] : undefined), body);
const text = (value: unknown, fallback = ""): string => (typeof value === "string" && value !== "" ? value : fallback);

export function completedTemplate(outcome: Extract<TurnOutcome, { kind: "completed" }>): string {
  const { orderId, body } = outcome;
  switch (outcome.tool) {
    case "cancel_order":
      return `Order ${orderId} is cancelled.`;
    case "add_delivery_note":
      return `The delivery note on order ${orderId} is saved and will go to the carrier.`;
    case "start_return": {
      const items = (field(body, "return", "itemIds") as string[] | undefined) ?? [];
      const date = text(field(body, "return", "pickup", "date"));
      const window = text(field(body, "return", "pickup", "window"));
      const label = text(field(body, "return", "labelRef"));
      return `A return of ${items.length > 0 ? items.join(", ") : "the items"} from order ${orderId} is booked${date ? `: the carrier collects on ${date}${window ? `, ${window}` : ""}` : ""}.${label ? ` Your return label is ${label}.` : ""}`;
    }
    case "offer_replacement": {
      const item = text(field(body, "replacement", "itemId"), "the item");
      const line = text(field(body, "replacement", "replacementItemId"));
      return `A replacement for ${item} on order ${orderId} is reserved and added to the order${line ? ` as ${line}` : ""}.`;
    }
    default:
      return `The change to order ${orderId} is done.`;
  }
}

export function rejectedTemplate(outcome: Extract<TurnOutcome, { kind: "rejected" }>): string {
  const { orderId, tool, code, reason, body } = outcome;
  const what = action[tool];
  switch (code) {
    case "NOT_ELIGIBLE":
      switch (reason) {
        case "ALREADY_SHIPPED":
          return `Order ${orderId} has already shipped, so it can no longer be cancelled. Once it is delivered, a return is possible.`;
        case "DISPATCH_STARTED":
          return `Order ${orderId} has started dispatch, so its delivery note can no longer be changed. The carrier's own tracking may let you leave instructions.`;
        case "ALREADY_CANCELLED":
          return `Order ${orderId} can't be cancelled again: it was already cancelled before this request.`;
        case "NOT_DELIVERED":
          return `Order ${orderId} has not been delivered, so I can't ${what} it now. Once it is delivered, that becomes possible.`;
        case "RETURN_WINDOW_CLOSED":
          return `The return window for order ${orderId} has closed, so I can't ${what} it any more. Nothing was changed.`;
        case "ITEM_ALREADY_RETURNED":
          return `That item on order ${orderId} can't be returned again: it is already being returned.`;
        case "ITEM_ALREADY_REPLACED":
          return `That item on order ${orderId} can't be replaced again: a replacement was arranged for it earlier.`;
        case "REPLACEMENT_LINE":
          return `That item on order ${orderId} is itself a replacement, so it can't be replaced or returned here; a member of our team needs to handle it. Nothing was changed.`;
        case "UNKNOWN_ITEM":
          return `That item is not on order ${orderId}, so I couldn't change anything. Check the items on the order and tell me which one you mean.`;
        default:
          return `Order ${orderId} is not eligible for that right now, so nothing was changed.`;
      }
    case "ORDER_NOT_FOUND":
      return `I couldn't find order ${orderId}, so nothing was changed. Please check the order number.`;
    case "VERSION_CONFLICT":
      return `I couldn't change order ${orderId}: it changed while I was working on it. I'll need to look at it again before trying.`;
    case "SELLER_SUSPENDED":
      return `The seller of order ${orderId} can't send replacements at the moment. A return is still possible.`;
    case "OUT_OF_STOCK":
      return `I couldn't arrange a replacement for order ${orderId}: there is no stock left. A return is still possible.`;
    case "NO_PICKUP_SLOT": {
      const dates = (field(body, "error", "availableDates") as string[] | undefined) ?? [];
      return `There is no carrier pickup available for that day for order ${orderId}, so the return was not started.${dates.length > 0 ? ` Days with room: ${dates.slice(0, 5).join(", ")}.` : ""}`;
    }
    case "RATE_LIMITED": {
      const seconds = field(body, "error", "retryAfterSeconds");
      const minutes = typeof seconds === "number" ? Math.max(1, Math.ceil(seconds / 60)) : undefined;
      return `I couldn't change order ${orderId}: you have made as many changes as allowed for now.${minutes ? ` Please try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.` : " Please try again later."}`;
    }
    default:
      return `I couldn't ${what} order ${orderId}; it is as it was.`;
  }
}

export function unknownTemplate(outcome: { tool: ToolName; orderId: string }): string {
  return `I've asked to ${action[outcome.tool]} order ${outcome.orderId}, but I can't confirm yet whether that has taken effect. I'm checking and will tell you as soon as I know; there is no need to ask again.`;
}

export function mismatchTemplate(outcome: { tool: ToolName; orderId: string }): string {
  return `I'm checking the request to ${action[outcome.tool]} order ${outcome.orderId}: the answer I got was for a different request, so I can't confirm it yet.`;
}

export function describeOrder(order: OrderFacts): string {
  const details = [order.itemTitles?.slice(0, 2).join(", "), order.status].filter((d): d is string => d !== undefined && d !== "");
  return details.length > 0 ? `${order.orderId} (${details.join(", ")})` : order.orderId;
}

export function clarificationTemplate(candidates: readonly OrderFacts[]): string {
  const names = candidates.map(describeOrder);
  const list = names.length <= 2 ? names.join(" and ") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `More than one order has come up in this conversation: ${list}. Which order do you mean?`;
}

export function declinedTemplate(outcome: { tool: ToolName; orderId: string }): string {
  return `All right, order ${outcome.orderId} stays as it is.`;
}

export function templateFor(outcome: TurnOutcome): string {
  switch (outcome.kind) {
    case "completed":
      return completedTemplate(outcome);
    case "rejected":
      return rejectedTemplate(outcome);
    case "unknown":
      return unknownTemplate(outcome);
    case "mismatch":
      return mismatchTemplate(outcome);
    case "clarification":
      return clarificationTemplate(outcome.candidates);
    case "awaiting_confirmation":
      return outcome.question;
    case "declined":
      return declinedTemplate(outcome);
  }
}

/** A turn that changed nothing, when the model's reply cannot be shown. */
export const noChangeTemplate = "I haven't changed anything on your orders.";

/**
 * The opening of a turn's reply: one sentence per change, rendered from its recorded outcome (composed: the
 * last outcome of each tool on each order), in the order the changes came up.
 */
export function openingFor(outcomes: readonly TurnOutcome[]): string {
  return composeOutcomes(outcomes).map(templateFor).join(" ");
}

/** The honest progress reply when a turn hits its bound (contract §8.1 loop bounds). */
export function boundTemplate(limit: { kind: "tool_calls" | "time"; value: number }, outcomes: readonly TurnOutcome[]): string {
  const why =
    limit.kind === "tool_calls"
      ? `it needed more than the ${limit.value} steps I can take per message`
      : `it took longer than the ${limit.value} seconds I can take per message`;
  const so = outcomes.length > 0 ? openingFor(outcomes) : noChangeTemplate;
  return `I had to stop before finishing, because ${why}. ${so}`;
}
