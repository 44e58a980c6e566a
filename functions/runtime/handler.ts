// What every tool handler shares. readTool and changeTool live in read-tool.ts and change-tool.ts, so that a read
// tool's bundle carries neither Powertools idempotency nor the operation ledger (docs/benchmarks.md, cold start).
import type { Context } from "aws-lambda";
import type { output, ZodMiniType } from "zod/mini";
import type { ToolName } from "#contract/tools";
import { parseArguments } from "#contract/validate";
import { admitToTool, type Principal, principalFromClaims, type Scope, scopes } from "#core/principal";
import { depsFromEnv } from "#runtime/deps";
import type { StoreDeps } from "#store/client";
import { spendRequestBudget } from "#store/request-budget";
import { errorResponse, type HttpEvent, type HttpResult, readBody } from "#runtime/http";
import { callerTraceId } from "#contract/trace-context";
import { type CallKeys, principalHash, recordCall, requestLogger } from "#runtime/observability";
import { startSpan } from "#runtime/tracing";

export type ToolHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/**
 * What a tool's function needs of its registry entry: its name and its input schema, imported from the schema
 * module itself. The function never imports the registry (functions/contract/tools.ts), which builds every tool's
 * input and output schemas: a bundle keeps only the schemas it uses (docs/benchmarks.md, cold start).
 * test/unit/tool-specs.test.ts holds each spec to the registry.
 */
export interface ToolSpec<S extends ZodMiniType = ZodMiniType> {
  name: ToolName;
  input: S;
}

/** A handler whose dependencies are made on first use, once per execution environment. */
export function lazyHandler(create: (deps: StoreDeps) => ToolHandler): ToolHandler {
  let handler: ToolHandler | undefined;
  return (event, context) => {
    handler ??= create(depsFromEnv());
    return handler(event, context);
  };
}

/** The caller, who must hold `scope`: orders:read for a reading tool, orders:write for a changing one. */
function principalOf(event: HttpEvent, scope: Scope): Principal {
  const jwt = event.requestContext?.authorizer?.jwt;
  return principalFromClaims(jwt?.claims, jwt?.scopes ?? undefined, scope);
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

/** Who is calling and with what, once admitted. */
export interface Admitted<S extends ZodMiniType> {
  principal: Principal;
  args: output<S>;
}

/**
 * Runs one call of a tool with what every call gets. First the caller, who must hold orders:write for a changing
 * tool and orders:read otherwise (so an unauthenticated caller learns nothing about the arguments either) and be
 * a principal that may use this tool at all (a seller may not cancel or set a delivery note); then
 * the request budget (so that even malformed requests count against the caller who sends them); then the
 * validated arguments. Around it: a logger whose lines carry the tool, the API Gateway request id, a hash of the
 * principal, the operation and order ids and the trace the request came with; one log line and the EMF metrics of
 * the outcome; a traced subsegment annotated with the same ids (runtime/tracing.ts); and the one place errors
 * become responses.
 */
export async function toolCall<S extends ZodMiniType>(
  deps: StoreDeps,
  { name, input }: ToolSpec<S>,
  changing: boolean,
  event: HttpEvent,
  run: (admitted: Admitted<S>) => Promise<HttpResult>,
): Promise<HttpResult> {
  const startedAt = Date.now();
  const caller = callerTraceId(event.headers);
  const keys: CallKeys = caller ? { callerTraceId: caller } : {};
  const log = requestLogger(name, event, keys);
  const span = startSpan(name);
  span.annotate({ tool: name, ...keys });
  let result: HttpResult;
  let failure: unknown;
  try {
    const principal = principalOf(event, changing ? scopes.write : scopes.read);
    keys.principal = principalHash(principal.sub);
    span.annotate({ principalKind: principal.kind });
    // A tool this kind of principal may not use is refused before anything is counted or recorded.
    admitToTool(principal, name);
    await spendRequestBudget(deps, principal);
    const args = parseArguments(input, name, argumentsOf(event));
    const ids = idsOf(args);
    Object.assign(keys, ids);
    span.annotate(ids);
    result = await run({ principal, args });
  } catch (error) {
    failure = error;
    result = errorResponse(error, name, changing, log);
  }
  const { outcome } = recordCall(log, name, changing, result, startedAt, failure);
  span.annotate({ outcome });
  span.end((result.statusCode ?? 200) >= 500);
  return result;
}
