// What every tool handler shares. readTool and changeTool live in read-tool.ts and change-tool.ts, so that a read
// tool's bundle carries neither Powertools idempotency nor the operation ledger (docs/benchmarks.md, cold start).
import type { Context } from "aws-lambda";
import type { ZodMiniType } from "zod/mini";
import type { ToolName } from "#catalog/tools";
import { type Principal, principalFromClaims, type Scope } from "#core/principal";
import { depsFromEnv, type StoreDeps } from "#store/client";
import { errorResponse, type HttpEvent, type HttpResult, readBody } from "#tools/http";
import { type CallKeys, recordCall, requestLogger } from "#tools/observability";

export type ToolHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/**
 * What a tool's function needs of its registry entry: its name and its input schema, imported from the schema
 * module itself. The function never imports the registry (functions/catalog/tools.ts), which builds every tool's
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
export function principalOf(event: HttpEvent, scope: Scope): Principal {
  const jwt = event.requestContext?.authorizer?.jwt;
  return principalFromClaims(jwt?.claims, jwt?.scopes ?? undefined, scope);
}

/** Reads a tool's arguments: the JSON body, or for GET routes the path parameters. */
export function argumentsOf(event: HttpEvent): unknown {
  return event.requestContext?.http?.method === "GET" ? { ...(event.pathParameters ?? {}) } : readBody(event);
}

/** The ids a tool's arguments name, for the log line: never the arguments themselves (a note is the customer's). */
export function idsOf(args: unknown): { operationId?: string; orderId?: string } {
  const { operationId, orderId } = (args ?? {}) as { operationId?: unknown; orderId?: unknown };
  return { ...(typeof operationId === "string" ? { operationId } : {}), ...(typeof orderId === "string" ? { orderId } : {}) };
}

/**
 * Runs one call with what every call gets: a logger whose lines carry the tool, the API Gateway request id, a
 * hash of the principal and the operation and order ids; one log line and the EMF metrics of its outcome; and
 * the one place errors become responses.
 */
export async function observed(name: ToolName, event: HttpEvent, changing: boolean, run: (keys: CallKeys) => Promise<HttpResult>): Promise<HttpResult> {
  const startedAt = Date.now();
  const keys: CallKeys = {};
  const log = requestLogger(name, event, keys);
  let result: HttpResult;
  let failure: unknown;
  try {
    result = await run(keys);
  } catch (error) {
    failure = error;
    result = errorResponse(error, name, changing, log);
  }
  recordCall(log, name, changing, keys, result, startedAt, failure);
  return result;
}

