import type { ToolName } from "#contract/tools";
import {
  type ErrorCode,
  ForbiddenError,
  IdempotencyKeyReusedError,
  InternalError,
  InvalidInputError,
  NoPickupSlotError,
  NotEligibleError,
  OperationInProgressError,
  OperationNotFoundError,
  OrderNotFoundError,
  OrderTooLargeError,
  OutOfStockError,
  RateLimitedError,
  SellerSuspendedError,
  type ToolError,
  UnauthenticatedError,
  VersionConflictError,
} from "#core/errors";

/**
 * Every error code with the class that makes it, so its HTTP status is read from the error hierarchy rather than
 * restated, and what it means for a caller. `satisfies` makes a new code a compile error here until described.
 */
const errorCodes = {
  INVALID_INPUT: {
    make: () => new InvalidInputError([{ path: "", message: "" }]),
    when: "the arguments fail the tool's schema (unknown, missing or malformed field, a body that is not JSON or is over 16 KiB); `issues` lists each problem",
  },
  UNAUTHENTICATED: { make: () => new UnauthenticatedError(""), when: "no, bad or expired bearer token, or one without an expiry (exp)" },
  FORBIDDEN: {
    make: () => new ForbiddenError(""),
    when: "the token lacks the route's scope, names no principal (or two), or names one who may not use this tool; `requiredScope` says which scope, `allowedPrincipals` who may use the tool",
  },
  ORDER_NOT_FOUND: {
    make: () => new OrderNotFoundError(""),
    when: "no such order, or one the caller may not access (the two are indistinguishable)",
  },
  OPERATION_NOT_FOUND: {
    make: () => new OperationNotFoundError(""),
    when: "this caller's operationId is not recorded yet: resend the identical request with the same operationId",
  },
  VERSION_CONFLICT: {
    make: () => new VersionConflictError("", 1, 2),
    when: "expectedVersion is stale; `currentVersion` says what it is now",
  },
  NOT_ELIGIBLE: {
    make: () => new NotEligibleError("", "ALREADY_SHIPPED", ""),
    when: "the order's state forbids the change; `reason` and `orderStatus` say why",
  },
  SELLER_SUSPENDED: {
    make: () => new SellerSuspendedError(""),
    when: "the seller is suspended and cannot send a replacement; start_return still works",
  },
  OUT_OF_STOCK: { make: () => new OutOfStockError(""), when: "no stock to reserve for the replacement; `sku` names the product" },
  NO_PICKUP_SLOT: {
    make: () => new NoPickupSlotError(""),
    when: "no carrier pickup capacity on or after the date; `availableDates` lists days that have some",
  },
  OPERATION_IN_PROGRESS: {
    make: () => new OperationInProgressError("", 1),
    when: "the same operation is executing right now; retry after `retryAfterSeconds`",
  },
  IDEMPOTENCY_KEY_REUSED: {
    make: () => new IdempotencyKeyReusedError("", "", undefined),
    when: "the operationId was used before with another tool or other arguments",
  },
  RATE_LIMITED: {
    make: () => new RateLimitedError("", { retryAfterSeconds: 1 }, "request_budget"),
    when: "the caller's request budget per minute, the customer's hourly cap on cancellations, returns and replacements, or a support actor's hourly cap on changes is reached; retry after `retryAfterSeconds`",
  },
  ORDER_TOO_LARGE: {
    make: () => new OrderTooLargeError(""),
    when: "the order has reached the size limit of one stored order, so no further change fits on it; nothing was changed, and a person must handle it",
  },
  INTERNAL: {
    make: () => new InternalError(""),
    when: "anything unexpected; for a changing tool the outcome is unknown: ask get_operation_status with the same operationId",
  },
} satisfies Record<ErrorCode, { make: () => ToolError; when: string }>;

export const errorCodeList = Object.keys(errorCodes) as ErrorCode[];

export function httpStatusOf(code: ErrorCode): number {
  return errorCodes[code].make().httpStatus;
}

// Every tool call counts against the caller's request budget, so any of them may be RATE_LIMITED.
export const alwaysPossible: ErrorCode[] = ["INVALID_INPUT", "UNAUTHENTICATED", "FORBIDDEN", "RATE_LIMITED", "INTERNAL"];
const everyChange: ErrorCode[] = [
  ...alwaysPossible,
  "ORDER_NOT_FOUND",
  "VERSION_CONFLICT",
  "NOT_ELIGIBLE",
  "OPERATION_IN_PROGRESS",
  "IDEMPOTENCY_KEY_REUSED",
  "ORDER_TOO_LARGE",
];

/**
 * Which contract §3 errors each tool can answer with (contract §4–5). Keyed by the registry's tool names, so a tool added
 * there does not compile until its errors are listed here.
 */
export const toolErrors: Record<ToolName, readonly ErrorCode[]> = {
  search_orders: alwaysPossible,
  get_order: [...alwaysPossible, "ORDER_NOT_FOUND"],
  get_operation_status: [...alwaysPossible, "OPERATION_NOT_FOUND"],
  cancel_order: everyChange,
  add_delivery_note: everyChange,
  start_return: [...everyChange, "NO_PICKUP_SLOT"],
  offer_replacement: [...everyChange, "SELLER_SUSPENDED", "OUT_OF_STOCK"],
};

/** What a code means for a caller, as the document and the error schema describe it. */
export function errorMeaning(code: ErrorCode): string {
  return errorCodes[code].when;
}
