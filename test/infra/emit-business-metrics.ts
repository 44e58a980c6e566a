/**
 * Records one call of each kind that produces a business metric, through the functions' own `recordCall`, so that
 * stdout carries exactly the EMF lines a deployed function writes (the service name comes from
 * POWERTOOLS_SERVICE_NAME, as there). test/infra/operations.test.ts holds the dashboard and alarms to these lines.
 */
import { RateLimitedError } from "#core/errors";
import { type HttpEvent, jsonResponse } from "#runtime/http";
import { countUnconfirmedChange, recordCall, requestLogger } from "#runtime/observability";

const at = Date.now();
const logger = requestLogger("emit-business-metrics", { requestContext: { requestId: "emit-business-metrics" } } as HttpEvent);
recordCall(logger, "cancel_order", true, jsonResponse(200, { status: "completed" }, { "idempotent-replayed": "true" }), at);
recordCall(logger, "add_delivery_note", true, jsonResponse(409, { error: { code: "VERSION_CONFLICT" } }), at);
recordCall(logger, "start_return", true, jsonResponse(409, { error: { code: "OPERATION_IN_PROGRESS" } }), at);
recordCall(logger, "offer_replacement", true, jsonResponse(500, { error: { code: "INTERNAL" } }), at);
recordCall(logger, "get_operation_status", false, jsonResponse(200, { status: "pending" }), at);
recordCall(logger, "get_operation_status", false, jsonResponse(404, { status: "not_found" }), at);
const refusal = new RateLimitedError("budget spent", { retryAfterSeconds: 30 }, "request_budget");
recordCall(logger, "search_orders", false, jsonResponse(429, { error: { code: "RATE_LIMITED" } }), at, refusal);
// A change over MCP that no person confirmed (a client that cannot be asked, under unconfirmedChanges "allow").
countUnconfirmedChange("cancel_order");
