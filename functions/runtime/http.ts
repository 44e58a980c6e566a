import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { nestingIssue } from "#contract/validate";
import { InternalError, InvalidInputError, ToolError } from "#core/errors";
import { logger } from "#runtime/logger";

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** contract §2: request bodies are JSON objects of at most 16 KiB. */
export const maxBodyBytes = 16 * 1024;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}

/** The request body as text, decoded if API Gateway base64-encoded it. */
export function rawBody(event: HttpEvent): string {
  return event.body === undefined || event.body === null
    ? ""
    : event.isBase64Encoded
      ? Buffer.from(event.body, "base64").toString("utf8")
      : event.body;
}

/**
 * The request body as JSON; a missing, oversized, malformed or too deeply nested body is INVALID_INPUT with an
 * issue that says so. Nesting is limited here, where every tool's body is read, so that nothing after it (the
 * argument fingerprint, the operation record, logging) can fail on it and turn bad input into INTERNAL.
 */
export function readBody(event: HttpEvent): unknown {
  const raw = rawBody(event);
  const bytes = Buffer.byteLength(raw, "utf8");
  if (bytes > maxBodyBytes) {
    throw new InvalidInputError([
      { path: "", message: `The body is ${bytes} bytes; the limit is ${maxBodyBytes} bytes (16 KiB). Send only the tool's arguments.` },
    ]);
  }
  if (raw.trim() === "") {
    throw new InvalidInputError([{ path: "", message: "The body is empty; send the tool's arguments as a JSON object." }]);
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    throw new InvalidInputError([
      { path: "", message: `The body is not valid JSON (${(error as Error).message}); send the tool's arguments as a JSON object.` },
    ]);
  }
  // V8's JSON.parse does not recurse, so any depth that fits in 16 KiB parses; what comes after may recurse.
  const tooDeep = nestingIssue(body, "the body");
  if (tooDeep) throw new InvalidInputError([tooDeep]);
  return body;
}

/**
 * RFC 9110's Retry-After, in seconds, for a refusal whose body says `retryAfterSeconds` (a 429 RATE_LIMITED, a
 * 409 OPERATION_IN_PROGRESS): HTTP clients, SDK retry layers and agent frameworks read the header, not the body.
 */
export function retryAfter(error: ToolError): Record<string, string> {
  const seconds = error.details.retryAfterSeconds;
  return typeof seconds === "number" && Number.isInteger(seconds) && seconds >= 0 ? { "retry-after": String(seconds) } : {};
}

/** The one place errors become responses: a ToolError is its own body; anything else is INTERNAL and logged. */
export function errorResponse(
  error: unknown,
  tool: string,
  changing: boolean,
  log: { error(message: string, attributes: Record<string, unknown>): void } = logger,
): HttpResult {
  if (error instanceof ToolError) {
    if (error.httpStatus >= 500) log.error("tool failed", { tool, error });
    return jsonResponse(error.httpStatus, error.toJSON(), retryAfter(error));
  }
  log.error("unexpected error", { tool, error: error as Error });
  const internal = new InternalError(
    changing
      ? `Something went wrong while ${tool} ran, and its outcome is unknown — ask get_operation_status with the same operationId; if it answers not_found (nothing recorded yet), resend the identical request with the same operationId.`
      : `Something went wrong while ${tool} ran. Retry the request.`,
  );
  return jsonResponse(internal.httpStatus, internal.toJSON());
}
