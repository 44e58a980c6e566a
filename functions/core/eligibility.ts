import type { NotEligibleReason } from "#core/errors";
import type { OrderStatus } from "#core/order";

/**
 * Which order states each changing tool accepts. The store turns `allowedStatuses` into the condition of the
 * write that makes the change, `rejection` explains a refused write, and get_order derives `allowedActions`
 * from the same rules: one source of truth.
 */
export interface StatusRule {
  readonly allowedStatuses: readonly OrderStatus[];
  rejection(status: OrderStatus): { reason: NotEligibleReason; message: string } | undefined;
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
