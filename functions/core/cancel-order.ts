import type { OrderChange } from "#core/change";
import { cancelRule } from "#core/eligibility";

/** What cancel_order takes, once its schema has checked it (functions/contract/schemas.ts is held to this type). */
export interface CancelOrderInput {
  operationId: string;
  orderId: string;
  expectedVersion?: number;
  /** Why, in the customer's words: one line, already normalised. */
  reason?: string;
}

/**
 * cancel_order — the owner (or support) cancels an order that has not shipped.
 * Input: orderId, optional expectedVersion and reason. Output: the order's new version and status.
 * Primary course: the order is placed, processing or dispatching → it becomes cancelled, version + 1.
 * Alternatives: shipped or delivered → NOT_ELIGIBLE ALREADY_SHIPPED; cancelled → ALREADY_CANCELLED;
 * stale expectedVersion → VERSION_CONFLICT; not the caller's → ORDER_NOT_FOUND.
 */
export function cancelOrder(input: CancelOrderInput): OrderChange {
  return {
    orderId: input.orderId,
    expectedVersion: input.expectedVersion,
    rule: cancelRule,
    capped: true,
    plan: ({ now }) => ({
      set: {
        status: "cancelled",
        cancellation: { at: now.toISOString(), ...(input.reason ? { reason: { origin: "customer", text: input.reason } } : {}) },
      },
      activity: { summary: "Order cancelled", ...(input.reason ? { reason: input.reason } : {}) },
      result: { orderStatus: "cancelled" },
    }),
  };
}
