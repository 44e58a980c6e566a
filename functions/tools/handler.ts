import type { Context } from "aws-lambda";
import type { z } from "zod";
import { type ToolName, toolNamed } from "#catalog/tools";
import { parseArguments } from "#catalog/validate";
import type { Json, OrderChange } from "#core/change";
import { type Principal, principalFromClaims } from "#core/principal";
import { depsFromEnv, type StoreDeps } from "#store/client";
import { idempotentOperations } from "#store/idempotency";
import { commitOrderChange, fingerprintOf } from "#store/operations";
import { spendRequestBudget } from "#store/request-budget";
import { errorResponse, type HttpEvent, type HttpResult, jsonResponse, readBody } from "#tools/http";
import { type CallKeys, principalHash, recordCall, requestLogger } from "#tools/observability";

export type ToolHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/** A handler whose dependencies are made on first use, once per execution environment. */
export function lazyHandler(create: (deps: StoreDeps) => ToolHandler): ToolHandler {
  let handler: ToolHandler | undefined;
  return (event, context) => {
    handler ??= create(depsFromEnv());
    return handler(event, context);
  };
}

function principalOf(event: HttpEvent, tool: ToolName): Principal {
  const jwt = event.requestContext?.authorizer?.jwt;
  return principalFromClaims(jwt?.claims, jwt?.scopes ?? undefined, toolNamed(tool).scope);
}

/** Reads a tool's arguments: the JSON body, or for GET routes the path parameters. */
function argumentsOf(event: HttpEvent): unknown {
  return event.requestContext?.http?.method === "GET" ? { ...(event.pathParameters ?? {}) } : readBody(event);
}

/** The ids a tool's arguments name, for the log line: never the arguments themselves (a note is the customer's). */
function idsOf(args: unknown): { operationId?: string; orderId?: string } {
  const { operationId, orderId } = (args ?? {}) as { operationId?: unknown; orderId?: unknown };
  return { ...(typeof operationId === "string" ? { operationId } : {}), ...(typeof orderId === "string" ? { orderId } : {}) };
}

/**
 * Runs one call with what every call gets: a logger whose lines carry the tool, the API Gateway request id, a
 * hash of the principal and the operation and order ids; one log line and the EMF metrics of its outcome; and
 * the one place errors become responses.
 */
async function observed(name: ToolName, event: HttpEvent, changing: boolean, run: (keys: CallKeys) => Promise<HttpResult>): Promise<HttpResult> {
  const startedAt = Date.now();
  const log = requestLogger(name, event);
  const keys: CallKeys = {};
  let result: HttpResult;
  let failure: unknown;
  try {
    result = await run(keys);
  } catch (error) {
    failure = error;
    result = errorResponse(error, name, changing, log.createChild({ persistentKeys: { ...keys } }));
  }
  recordCall(log, name, keys, result, startedAt, failure);
  return result;
}

/**
 * A reading tool: principal → request budget → validated arguments → use case → 200 with its result.
 * The principal comes first, so an unauthenticated caller learns nothing about the arguments either; the
 * budget next, so that even malformed requests count against the caller who sends them.
 */
export function readTool<A>(
  deps: StoreDeps,
  name: ToolName,
  run: (deps: StoreDeps, args: A, principal: Principal) => Promise<{ statusCode?: number; body: Json }>,
): ToolHandler {
  const schema = toolNamed(name).input as z.ZodType<A>;
  return (event) =>
    observed(name, event, false, async (keys) => {
      const principal = principalOf(event, name);
      keys.principal = principalHash(principal.sub);
      await spendRequestBudget(deps, principal);
      const args = parseArguments(schema, name, argumentsOf(event));
      Object.assign(keys, idsOf(args));
      const { statusCode = 200, body } = await run(deps, args, principal);
      return jsonResponse(statusCode, body);
    });
}

/**
 * A changing tool: principal → request budget → validated arguments → Powertools idempotency keyed by principal and
 * operationId → one transaction that applies the use case's change with its operation record.
 * A replayed outcome carries `Idempotent-Replayed: true`.
 */
export function changeTool<A extends { operationId: string }>(
  deps: StoreDeps,
  name: ToolName,
  toChange: (args: A, principal: Principal) => OrderChange,
): ToolHandler {
  const schema = toolNamed(name).input as z.ZodType<A>;
  const runOnce = idempotentOperations(deps, name);
  return (event, context) =>
    observed(name, event, true, async (keys) => {
      const principal = principalOf(event, name);
      keys.principal = principalHash(principal.sub);
      await spendRequestBudget(deps, principal);
      const args = parseArguments(schema, name, argumentsOf(event));
      Object.assign(keys, idsOf(args));
      const op = { principal, tool: name, operationId: args.operationId, fingerprint: fingerprintOf(name, args) };
      const outcome = await runOnce(context, op, () => commitOrderChange(deps, op, toChange(args, principal)));
      return jsonResponse(outcome.httpStatus, outcome.body, outcome.replayed ? { "idempotent-replayed": "true" } : {});
    });
}
