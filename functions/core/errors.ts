/**
 * The one error hierarchy of the order domain. Each error knows its HTTP status, its stable code and
 * whether a retry of the same request can help; `toJSON()` is the body the caller sees (contract §3).
 * The message always says what was wrong and what would be right.
 */

export type ErrorCode =
  | "INVALID_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "ORDER_NOT_FOUND"
  | "OPERATION_NOT_FOUND"
  | "VERSION_CONFLICT"
  | "NOT_ELIGIBLE"
  | "SELLER_SUSPENDED"
  | "OUT_OF_STOCK"
  | "NO_PICKUP_SLOT"
  | "OPERATION_IN_PROGRESS"
  | "IDEMPOTENCY_KEY_REUSED"
  | "RATE_LIMITED"
  | "ORDER_TOO_LARGE"
  | "INTERNAL";

/** contract §3's NOT_ELIGIBLE reasons, in the order the contract lists them. */
export const notEligibleReasons = [
  "ALREADY_SHIPPED",
  "DISPATCH_STARTED",
  "ALREADY_CANCELLED",
  "NOT_DELIVERED",
  "RETURN_WINDOW_CLOSED",
  "ITEM_ALREADY_RETURNED",
  "ITEM_ALREADY_REPLACED",
  "REPLACEMENT_LINE",
  "UNKNOWN_ITEM",
] as const;

export type NotEligibleReason = (typeof notEligibleReasons)[number];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface ErrorBody {
  readonly error: { code: ErrorCode; message: string; retryable: boolean } & Record<string, JsonValue>;
}

export abstract class ToolError extends Error {
  abstract readonly code: ErrorCode;
  abstract readonly httpStatus: number;
  readonly retryable: boolean = false;

  constructor(
    message: string,
    readonly details: Record<string, JsonValue> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  toJSON(): ErrorBody {
    return { error: { code: this.code, message: this.message, retryable: this.retryable, ...this.details } };
  }
}

export interface InputIssue {
  path: string;
  message: string;
}

export class InvalidInputError extends ToolError {
  readonly code = "INVALID_INPUT";
  readonly httpStatus = 400;
  /** contract §3: never without an issue, so a caller always learns what to fix. */
  constructor(readonly issues: readonly [InputIssue, ...InputIssue[]]) {
    const first = issues[0];
    super(
      issues.length === 1 && first
        ? `${first.path ? `${first.path}: ` : ""}${first.message}`
        : `${issues.length} problems with the request: ${issues.map((i) => `${i.path ? `${i.path}: ` : ""}${i.message}`).join("; ")}`,
      { issues: issues.map((i) => ({ path: i.path, message: i.message })) },
    );
  }
}

export class UnauthenticatedError extends ToolError {
  readonly code = "UNAUTHENTICATED";
  readonly httpStatus = 401;
}

export class ForbiddenError extends ToolError {
  readonly code = "FORBIDDEN";
  readonly httpStatus = 403;
  /** `extra`: further details, e.g. `allowedPrincipals` when the tool is not one this kind of principal may use. */
  constructor(message: string, requiredScope?: string, extra: Record<string, JsonValue> = {}) {
    super(message, { ...(requiredScope ? { requiredScope } : {}), ...extra });
  }
}

/**
 * The same status and body, but for the id, whether the order does not exist or the caller may not see it. The
 * search it suggests is one this kind of caller may make (a seller does not search by e-mail); it depends on
 * the caller only, never on the order.
 */
export class OrderNotFoundError extends ToolError {
  readonly code = "ORDER_NOT_FOUND";
  readonly httpStatus = 404;
  constructor(orderId: string, caller?: "customer" | "seller" | "support") {
    const searchBy =
      caller === "seller"
        ? "an id fragment of 3 or more digits, or a date range"
        : "by e-mail, an id fragment of 3 or more digits, or a date range";
    super(
      `No order ${orderId} was found among the orders you can access. Check the id with search_orders (${searchBy}) and use an id it returns.`,
      { orderId },
    );
  }
}

export class OperationNotFoundError extends ToolError {
  readonly code = "OPERATION_NOT_FOUND";
  readonly httpStatus = 404;
  constructor(operationId: string) {
    super(
      `Operation ${operationId} is not recorded yet under your identity: the request may not have arrived, or may still be on its way. Resend the identical request with the same operationId; it takes effect at most once, and if it already has, you get its recorded outcome.`,
      { operationId },
    );
  }
}

export class VersionConflictError extends ToolError {
  readonly code = "VERSION_CONFLICT";
  readonly httpStatus = 409;
  constructor(orderId: string, expectedVersion: number, currentVersion: number) {
    super(
      `Order ${orderId} is at version ${currentVersion}, not ${expectedVersion}: it changed after the proposal was made. Read it again with get_order, decide whether the change still applies, and send a new request with expectedVersion ${currentVersion} and a new operationId.`,
      { expectedVersion, currentVersion },
    );
  }
}

export class NotEligibleError extends ToolError {
  readonly code = "NOT_ELIGIBLE";
  readonly httpStatus = 409;
  constructor(message: string, reason: NotEligibleReason, orderStatus: string, extra: Record<string, JsonValue> = {}) {
    super(message, { reason, orderStatus, ...extra });
  }
}

export class SellerSuspendedError extends ToolError {
  readonly code = "SELLER_SUSPENDED";
  readonly httpStatus = 409;
}

export class OutOfStockError extends ToolError {
  readonly code = "OUT_OF_STOCK";
  readonly httpStatus = 409;
}

export class NoPickupSlotError extends ToolError {
  readonly code = "NO_PICKUP_SLOT";
  readonly httpStatus = 409;
}

export class OperationInProgressError extends ToolError {
  readonly code = "OPERATION_IN_PROGRESS";
  readonly httpStatus = 409;
  override readonly retryable = true;
  constructor(operationId: string, retryAfterSeconds: number) {
    super(
      `Operation ${operationId} is being executed right now. Wait ${retryAfterSeconds} s, then send the identical request again or ask get_operation_status with the same operationId.`,
      { operationId, retryAfterSeconds },
    );
  }
}

export class IdempotencyKeyReusedError extends ToolError {
  readonly code = "IDEMPOTENCY_KEY_REUSED";
  readonly httpStatus = 422;
  constructor(operationId: string, tool: string, originalTool: string | undefined) {
    super(
      originalTool && originalTool !== tool
        ? `operationId ${operationId} was already used for ${originalTool}. Every distinct change needs its own operationId: create a new one for this ${tool} request.`
        : `operationId ${operationId} was already used for a ${originalTool ?? tool} request with different arguments. To repeat that request, send exactly the same arguments; for a different change, create a new operationId.`,
      originalTool ? { operationId, originalTool } : { operationId },
    );
  }
}

/** Which per-caller limit refused a request; for the metrics and the log, never part of the body. */
export type RateLimit = "request_budget" | "hourly_cap" | "support_hourly_cap" | "seller_hourly_cap";

export class RateLimitedError extends ToolError {
  readonly code = "RATE_LIMITED";
  readonly httpStatus = 429;
  override readonly retryable = true;
  constructor(
    message: string,
    details: { retryAfterSeconds: number },
    readonly limit: RateLimit,
  ) {
    super(message, details);
  }
}

/**
 * The order would grow past what one stored order can hold (DynamoDB's 400 KB item limit). Nothing was
 * written, and repeating the change cannot succeed: definite and recorded, unlike INTERNAL.
 */
export class OrderTooLargeError extends ToolError {
  readonly code = "ORDER_TOO_LARGE";
  readonly httpStatus = 409;
  constructor(orderId: string) {
    super(
      `Order ${orderId} has reached the size limit of one stored order, so this change cannot be added to it; nothing was changed, and repeating the request will not change that. A person must handle further changes to this order.`,
      { orderId },
    );
  }
}

export class InternalError extends ToolError {
  readonly code = "INTERNAL";
  readonly httpStatus = 500;
  override readonly retryable = true;
  /** `cause` holds what only the log may see (DynamoDB's codes, ids of other entities); it never reaches the body. */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message);
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** Recorded business outcomes (contract §4): final for their operationId and replayed as they were. */
export const recordedRejectionCodes: ReadonlySet<ErrorCode> = new Set([
  "VERSION_CONFLICT",
  "NOT_ELIGIBLE",
  "ORDER_NOT_FOUND",
  "SELLER_SUSPENDED",
  "OUT_OF_STOCK",
  "NO_PICKUP_SLOT",
  "ORDER_TOO_LARGE",
]);
