/**
 * What the model is told of a service error in the controller's own words (contract §8.5): a service `message` is
 * free text — it may name a seller, quote an item's title, or echo an argument — so the model never reads it. The
 * error's closed fields (code, reason, orderStatus, availableDates, currentVersion, retryAfterSeconds, sku…) stay;
 * this sentence, keyed by the code, stands in the message's place and says what to do next. Written by the
 * application, from closed values only: it taints nothing.
 */
const notes: Readonly<Record<string, string>> = {
  INVALID_INPUT:
    "The service refused the arguments: issues lists each field (path) that was wrong. Correct those fields and propose again.",
  UNAUTHENTICATED: "The service refused the principal's sign-in (a missing, expired or invalid token): nothing was read or changed.",
  FORBIDDEN: "The principal may not use this tool on this order (see requiredScope or allowedPrincipals): nothing was changed.",
  ORDER_NOT_FOUND:
    "No order with this id that the principal may see. Check the id with them, or look it up with search_orders; do not guess another id.",
  OPERATION_NOT_FOUND: "No operation with this id is recorded for the principal: it did not take effect.",
  VERSION_CONFLICT:
    "The order changed since it was read (currentVersion is its version now). Read it again with get_order, and propose the change again only if it still applies.",
  NOT_ELIGIBLE: "The order's state does not allow this change now: see reason and orderStatus. Do not retry it as it is.",
  SELLER_SUSPENDED: "The order's seller is suspended: a replacement is not possible, and a return still is.",
  OUT_OF_STOCK: "There is no stock to reserve a replacement (see sku). A return is still possible.",
  NO_PICKUP_SLOT: "No pickup capacity on the day asked for: availableDates lists the days that have some.",
  OPERATION_IN_PROGRESS: "The same operation is still running: its outcome is not known yet.",
  IDEMPOTENCY_KEY_REUSED: "The operation id was already used for another request: nothing was changed.",
  RATE_LIMITED: "Too many requests: wait retryAfterSeconds before trying again. Nothing was changed.",
  ORDER_TOO_LARGE: "The order is too large for this change: nothing was changed.",
  INTERNAL: "The service failed unexpectedly; the outcome is not known. Do not say it happened or that it failed.",
  TRACKING_EXPIRED: "The carrier keeps tracking scans for 90 days after delivery, and this delivery is older: no tracking to show.",
};

/** The controller's sentence for a service error's code, or undefined for a code it does not know. */
export function errorNoteFor(code: string): string | undefined {
  return notes[code];
}
