import type { NotEligibleReason } from "#core/errors";
import type { Order, OrderStatus } from "#core/order";
import type { ReturnPolicy, Seller } from "#core/policy";
import { replaceableItemIds, returnableItemIds, returnWindow } from "#core/item-eligibility";

/**
 * Which order states each changing tool accepts. The store turns `allowedStatuses` into the condition of the
 * write that makes the change, `rejection` explains a refused write, and get_order derives `allowedActions`
 * from the same rules: one source of truth.
 */
export interface StatusRule {
  readonly allowedStatuses: readonly OrderStatus[];
  rejection(status: OrderStatus): { reason: NotEligibleReason; message: string } | undefined;
  /**
   * Optional: whatever besides the status rules out the change now, judged from what get_order has already
   * read (e.g. a closed return window, a suspended seller). It only keeps allowedActions from offering a change
   * that would be refused; the write still checks everything itself.
   */
  admits?(facts: OrderFacts): boolean;
}

/** What get_order knows about an order when it lists the changes it admits now. */
export interface OrderFacts {
  order: Order;
  seller: Seller;
  policy: ReturnPolicy;
  /** Today, as YYYY-MM-DD in UTC. */
  today: string;
}

export const cancelRule: StatusRule = {
  allowedStatuses: ["placed", "processing", "dispatching"],
  rejection(status) {
    switch (status) {
      case "shipped":
      case "delivered":
        return {
          reason: "ALREADY_SHIPPED",
          message: `The order is ${status}, so it can no longer be cancelled; orders can be cancelled while placed, processing or dispatching. Once delivered, start_return collects the items instead.`,
        };
      case "cancelled":
        return { reason: "ALREADY_CANCELLED", message: "The order is already cancelled; nothing more needs doing." };
      default:
        return undefined;
    }
  },
};

export const deliveryNoteRule: StatusRule = {
  allowedStatuses: ["placed", "processing"],
  rejection(status) {
    switch (status) {
      case "placed":
      case "processing":
        return undefined;
      case "cancelled":
        return { reason: "ALREADY_CANCELLED", message: "The order is cancelled, so it will not be delivered and takes no delivery note." };
      default:
        return {
          reason: "DISPATCH_STARTED",
          message: `The order is ${status}: dispatch has started and the carrier has the delivery instructions. Delivery notes can be added while the order is placed or processing.`,
        };
    }
  },
};

/** What a delivered order answers for start_return and offer_replacement; cancelled is its own reason. */
function notDeliveredRejection(
  status: OrderStatus,
  action: "returned" | "replaced",
): { reason: NotEligibleReason; message: string } | undefined {
  switch (status) {
    case "delivered":
      return undefined;
    case "cancelled":
      return { reason: "ALREADY_CANCELLED", message: `The order was cancelled before delivery, so nothing on it can be ${action}.` };
    default:
      return {
        reason: "NOT_DELIVERED",
        message: `The order is ${status}, not delivered; its items can be ${action} once it is delivered, within the seller's return window.`,
      };
  }
}

/**
 * start_return: delivered orders only; besides the status, the write conditions the policy window, that each
 * item is on the order and not yet returned (see item-eligibility.ts). Suspended sellers are allowed: a
 * return needs nothing from the seller.
 */
export const startReturnRule: StatusRule = {
  allowedStatuses: ["delivered"],
  rejection: (status) => notDeliveredRejection(status, "returned"),
  admits: ({ order, policy, today }) => returnWindow(order, policy, today).open && returnableItemIds(order).length > 0,
};

/**
 * offer_replacement: delivered orders only. Damaged, missing and wrong items are all found on receipt: before
 * delivery there is nothing to judge (a shipped parcel may still arrive intact), and before shipping
 * cancel_order is the remedy. Like a return it is bounded by the policy window, and it needs an active seller
 * (who sends the replacement) and stock, which the write checks on the seller and stock items.
 */
export const offerReplacementRule: StatusRule = {
  allowedStatuses: ["delivered"],
  rejection: (status) => notDeliveredRejection(status, "replaced"),
  admits: ({ order, seller, policy, today }) =>
    seller.status === "active" && returnWindow(order, policy, today).open && replaceableItemIds(order).length > 0,
};

/**
 * Every changing tool's rule, by tool name. get_order's allowedActions lists the tools whose rule admits the
 * order now, in this order; a new changing tool joins by adding `tool_name: itsRule` here.
 */
export const changeRules = {
  cancel_order: cancelRule,
  add_delivery_note: deliveryNoteRule,
  start_return: startReturnRule,
  offer_replacement: offerReplacementRule,
} satisfies Record<string, StatusRule>;

export type ChangeToolName = keyof typeof changeRules;
