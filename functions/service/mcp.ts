import type { Context } from "aws-lambda";
import { catalogEntry, serviceInfo } from "#contract/json-schema";
import { mcpInstructions } from "#contract/mcp-instructions";
import { type DeployedTool, deployedTools as registry } from "#deploy/tool-functions";
import { nestingIssue } from "#contract/validate";
import { InternalError, InvalidInputError } from "#core/errors";
import { principalFromClaims } from "#core/principal";
import { apiGatewayEvent } from "#runtime/api-event";
import type { ToolHandler } from "#runtime/handler";
import { errorResponse, type HttpEvent, type HttpResult, jsonResponse } from "#runtime/http";
import type { ToolInvoker } from "#runtime/invoker";
import { type DeclineAnswer, declinedHeader } from "#core/declined";
import { lambdaInvoker, toolFunctionsFromEnv } from "#runtime/invoker-lambda";
import { logger } from "#runtime/logger";
import {
  accepted,
  type Caller,
  checkAccept,
  checkAuth,
  checkContentType,
  checkHost,
  checkMessage,
  checkMethod,
  checkOrigin,
  checkRoute,
  checkSize,
  checkStandardHeaders,
  headerOf,
  type McpAuthentication,
  mcpRequest,
  parseBody,
  Refusal,
  type ReplyFormat,
  type RpcRequest,
  rpcResponse,
  type ServedRoute,
} from "#runtime/mcp-checks";
import {
  latestLegacyProtocolVersion,
  legacyProtocolVersions,
  metaKeys,
  modernProtocolVersion,
  removedInModern,
  rpcErrors,
  supportedProtocolVersions,
} from "#runtime/mcp-protocol";
import { apiAuthOf, authorizationServersOf, mcpAuthEnv, parseMcpAuth, protectedResource, publicBaseUrl } from "#runtime/oauth-resource";
import { deployedVerifier } from "#runtime/token-verifier";
import { type McpToolCall, confirmationStep, confirmationTtlSeconds, type McpConfirmation } from "#runtime/mcp-confirmation";
import {
  confirmationKeyEnv,
  type UnconfirmedChanges,
  unconfirmedChangesEnv,
  unconfirmedChangesFrom,
} from "#runtime/mcp-confirmation-settings";
import { kmsRequestStateKey, localRequestStateKey, type RequestStateKey, unavailableRequestStateKey } from "#runtime/request-state";

/**
 * POST /v1/mcp — the Model Context Protocol over Streamable HTTP, stateless, in both revision families on the
 * same URL (see mcp-protocol.ts for how a request's era is told):
 *
 * - 2026-07-28: server/discover, tools/list and tools/call, each request carrying its version and the client's
 *   capabilities in `_meta`; every result has `resultType`, the cacheable ones `ttlMs` and `cacheScope`; a method
 *   this server does not offer is HTTP 404.
 * - 2025-03-26 to 2025-11-25: initialize, ping, tools/list and tools/call, exactly as before 2026-07-28.
 *
 * Every POST is one JSON-RPC message answered on its own, as JSON (or as one SSE event for a client that accepts
 * only text/event-stream); notifications and responses get 202. There are no sessions and no streams to GET.
 *
 * The endpoint is an OAuth protected resource: it verifies the bearer token itself (the HTTP API's JWT authorizer
 * could refuse a token, but not with a challenge that says where to get one), and a request without a valid one
 * gets 401 with `WWW-Authenticate: Bearer resource_metadata=…, scope=…`. tools/call runs the tool through a
 * ToolInvoker with the API Gateway event the tool's own POST route would get, carrying the verified claims (never
 * the token), so validation, principal, access, idempotency and replay are the tool's own. A refusal by the tool
 * (any non-200) is a tool result with isError and the tool's error body as text; protocol failures (unknown tool
 * or method, malformed message) are JSON-RPC errors.
 *
 * Before a changing tool runs, the person confirms it when their client can be asked (2026-07-28 with form
 * elicitation): the call is answered `input_required` with the question, and runs only on the retry that brings
 * their yes (functions/runtime/mcp-confirmation.ts).
 */

export type { McpAuthentication } from "#runtime/mcp-checks";
export { latestLegacyProtocolVersion, modernProtocolVersion, supportedProtocolVersions } from "#runtime/mcp-protocol";

/** Output schemas and structuredContent arrived with 2025-06-18. */
const structuredSince = "2025-06-18";

/** How long a client may reuse server/discover and tools/list: the tools change only with a deployment. */
const listTtlMs = 5 * 60 * 1000;

export interface McpOptions {
  tools?: readonly DeployedTool[];
  /** Browser origins allowed to call; a request with any other Origin header is refused (MCP's DNS-rebinding rule). */
  allowedOrigins?: readonly string[];
  /**
   * The server runs on this machine, on the loopback address (the local gateway). MCP's rule for such a server is
   * to refuse foreign origins and accept local ones: pages served from 127.0.0.1, localhost or [::1] may call it,
   * and a request whose Host is not one of those is refused, since that is what a DNS-rebound page sends. The
   * deployed function leaves this off: only `allowedOrigins` may call it from a browser.
   */
  loopback?: boolean;
  authentication: McpAuthentication;
  /**
   * How changes are confirmed: the key that signs a question's `requestState` (by default one made for this
   * process, which suits one process only: deployed, a KMS key), and what a client that cannot be asked gets
   * (by default the change, as before).
   */
  confirmation?: { key?: RequestStateKey; unconfirmedChanges?: UnconfirmedChanges; ttlSeconds?: number; now?: () => Date };
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** 2026-07-28 answers some errors with an HTTP status of their own (404 for an unknown method). */
    readonly status = 200,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** What the endpoint serves: the tools by name with their catalogue entries, and how to run one. */
interface Endpoint {
  entries: ReadonlyMap<string, { tool: DeployedTool; entry: ReturnType<typeof catalogEntry> }>;
  invoker: ToolInvoker;
  confirmation: McpConfirmation;
}

/** One request's own: who calls, the endpoint's event (the tool's event is built from it) and the invocation. */
interface Call {
  caller: Caller;
  event: HttpEvent;
  context: Context;
}

export function createMcpHandler(invoker: ToolInvoker, options: McpOptions): ToolHandler {
  const tools = options.tools ?? registry;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  // The catalogue entries are the same for every request; built once per execution environment.
  const endpoint: Endpoint = {
    entries: new Map(tools.map((tool) => [tool.name, { tool, entry: catalogEntry(tool) }])),
    invoker,
    confirmation: {
      key: options.confirmation?.key ?? localRequestStateKey(),
      unconfirmedChanges: options.confirmation?.unconfirmedChanges ?? "allow",
      ttlSeconds: options.confirmation?.ttlSeconds ?? confirmationTtlSeconds,
      now: options.confirmation?.now ?? (() => new Date()),
    },
  };

  // The checks in the order they apply: when two would refuse a request, the earlier one answers, and clients and
  // tests rely on which. The token is checked before the body is read, so that a client without one gets the 401
  // challenge that starts its sign-in whatever it sent; Accept and Content-Type only after the body parsed, so that
  // their refusals echo the request's id (and a body that is not JSON is a parse error whatever its headers say).
  return async (event, context) => {
    const request = mcpRequest(event);
    const refused = checkMethod(request) ?? checkHost(request, options.loopback) ?? checkOrigin(request, allowedOrigins, options.loopback);
    if (refused) return refused.response;
    const caller = await checkAuth(request, options.authentication);
    if (caller instanceof Refusal) return caller.response;
    const raw = checkSize(request);
    if (raw instanceof Refusal) return raw.response;
    const body = parseBody(request, raw);
    if (body instanceof Refusal) return body.response;
    const format = checkAccept(request, body.id);
    if (format instanceof Refusal) return format.response;
    const unsupportedType = checkContentType(request, body.id);
    if (unsupportedType) return unsupportedType.response;
    const message = checkMessage(request, body);
    if (message instanceof Refusal) return message.response;

    // The endpoint sends no requests, so a response answers nothing here: taken without routing.
    if (message.kind === "response") return accepted();
    const route = checkRoute(request, message, body.id, format);
    if (route instanceof Refusal) return route.response;
    // Routed first, so that a notification in a refused era or with a broken envelope is told so rather than taken.
    if (message.kind === "notification") return accepted();
    const headersDisagree = checkStandardHeaders(request, message, route, format);
    if (headersDisagree) return headersDisagree.response;
    return answer(endpoint, message, route, { caller, event, context }, format);
  };
}

/** The request's method run in its era: its result, or the JSON-RPC error it ends in (INTERNAL, logged, if unforeseen). */
async function answer(endpoint: Endpoint, request: RpcRequest, route: ServedRoute, call: Call, format: ReplyFormat): Promise<HttpResult> {
  try {
    const result =
      route.era === "modern" ? await dispatchModern(endpoint, request, call) : await dispatchLegacy(endpoint, request, route.version, call);
    return rpcResponse(200, { jsonrpc: "2.0", id: request.id, result }, format);
  } catch (error) {
    if (!(error instanceof RpcError)) logger.error("mcp request failed", { method: request.method, error: error as Error });
    const rpc = error instanceof RpcError ? error : new RpcError(rpcErrors.internal, "Internal error. Retry the request.");
    const body = { code: rpc.code, message: rpc.message, ...(rpc.data ? { data: rpc.data } : {}) };
    return rpcResponse(rpc.status, { jsonrpc: "2.0", id: request.id, error: body }, format);
  }
}

/** 2025-03-26 to 2025-11-25: the handshake, ping, and the tools. */
async function dispatchLegacy(
  endpoint: Endpoint,
  request: RpcRequest,
  protocolVersion: string,
  call: Call,
): Promise<Record<string, unknown>> {
  const { params } = request;
  const structured = protocolVersion >= structuredSince;
  switch (request.method) {
    case "initialize": {
      const asked = params.protocolVersion;
      if (typeof asked !== "string")
        throw new RpcError(
          rpcErrors.invalidParams,
          "initialize needs params.protocolVersion, the latest revision the client supports, e.g. 2025-11-25.",
        );
      return {
        protocolVersion: (legacyProtocolVersions as readonly string[]).includes(asked) ? asked : latestLegacyProtocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { ...serviceInfo },
        instructions: mcpInstructions,
      };
    }
    case "ping":
      return {};
    case "tools/list":
      return { tools: [...endpoint.entries.values()].map(({ entry }) => mcpTool(entry, structured)) };
    case "tools/call": {
      const called = await callTool(endpoint, params, { modern: false, version: protocolVersion }, call);
      // Only a 2026-07-28 request is ever asked; the 2025 revisions get a tool result.
      if (called.kind !== "result") throw new Error("an input_required result reached a 2025 client");
      return toolResult(called.result, structured);
    }
    default:
      throw new RpcError(
        rpcErrors.methodNotFound,
        `Method not found: ${request.method}. This server offers initialize, ping, tools/list and tools/call.`,
      );
  }
}

/** 2026-07-28: discovery and the tools; every result says it is complete and who answered. */
async function dispatchModern(endpoint: Endpoint, request: RpcRequest, call: Call): Promise<Record<string, unknown>> {
  const serverMeta = { [metaKeys.serverInfo]: { ...serviceInfo } };
  switch (request.method) {
    case "server/discover":
      return {
        resultType: "complete",
        supportedVersions: [...supportedProtocolVersions],
        capabilities: { tools: {} },
        instructions: mcpInstructions,
        ttlMs: listTtlMs,
        cacheScope: "public",
        _meta: serverMeta,
      };
    case "tools/list":
      return {
        resultType: "complete",
        tools: [...endpoint.entries.values()].map(({ entry }) => mcpTool(entry, true)),
        ttlMs: listTtlMs,
        cacheScope: "public",
        _meta: serverMeta,
      };
    case "tools/call": {
      const called = await callTool(endpoint, request.params, { modern: true }, call);
      if (called.kind === "input_required") {
        return { resultType: "input_required", inputRequests: called.inputRequests, requestState: called.requestState, _meta: serverMeta };
      }
      const { _meta, ...result } = toolResult(called.result, true);
      return { resultType: "complete", ...result, _meta: { ...(_meta as Record<string, unknown> | undefined), ...serverMeta } };
    }
    default: {
      const removed = Object.hasOwn(removedInModern, request.method) ? removedInModern[request.method] : undefined;
      throw new RpcError(
        rpcErrors.methodNotFound,
        removed
          ? `Method not found: ${request.method}. ${removed}.`
          : `Method not found: ${request.method}. On ${modernProtocolVersion} this server offers server/discover, tools/list and tools/call.`,
        404,
      );
    }
  }
}

/** What a tools/call comes to: the tool's answer (or the confirmation's in its place), or a question for the person. */
type Called =
  | { kind: "result"; result: HttpResult }
  | { kind: "input_required"; inputRequests: Record<string, unknown>; requestState: string };

async function callTool(endpoint: Endpoint, params: Record<string, unknown>, era: McpToolCall["era"], call: Call): Promise<Called> {
  const { entries } = endpoint;
  const { name, arguments: args } = params;
  if (typeof name !== "string")
    throw new RpcError(rpcErrors.invalidParams, "tools/call needs params.name, one of the names tools/list returns.");
  const found = entries.get(name);
  if (!found) throw new RpcError(rpcErrors.invalidParams, `Unknown tool: ${name}. The tools are ${[...entries.keys()].join(", ")}.`);
  const { tool } = found;
  const run = (deployed: DeployedTool, toolArgs: unknown, declined?: DeclineAnswer) =>
    runTool(endpoint, deployed, toolArgs, call, declined);

  try {
    // The tool checks its scope too; refusing here spares an invocation and answers with the same body.
    principalFromClaims(call.caller.claims, call.caller.scopes, tool.scope);
    // The tool's body reader applies the same limit, but the arguments must be serialised to reach it, and
    // JSON.stringify throws on deep nesting: that would be INTERNAL, "outcome unknown", for mere bad input.
    const tooDeep = nestingIssue(args, "the arguments");
    if (tooDeep) throw new InvalidInputError([tooDeep]);
  } catch (error) {
    return { kind: "result", result: errorResponse(error, tool.name, tool.kind === "change") };
  }

  let step: Awaited<ReturnType<typeof confirmationStep>>;
  try {
    step = await confirmationStep(endpoint.confirmation, {
      tool,
      args,
      era,
      params,
      acceptLanguage: headerOf(call.event.headers, "accept-language"),
      caller: call.caller,
      requestId: call.event.requestContext?.requestId ?? "unknown",
      run: async (other, otherArgs, declined) => {
        const target = entries.get(other)?.tool;
        if (!target) throw new Error(`The confirmation of ${tool.name} reads through ${other}, which this endpoint does not serve.`);
        return run(target, otherArgs, declined);
      },
    });
  } catch (error) {
    // Nothing was sent: the question could not be asked or the answer not checked (the key's service failing, say).
    logger.error("mcp confirmation failed", { tool: tool.name, error: error as Error });
    const internal = new InternalError(
      `The person could not be asked to confirm this ${tool.name} just now, so it was not sent and nothing changed. Retry the request.`,
    );
    return { kind: "result", result: jsonResponse(internal.httpStatus, internal.toJSON()) };
  }
  switch (step.kind) {
    case "run":
      return { kind: "result", result: await run(tool, args) };
    case "answer":
      return { kind: "result", result: step.result };
    case "ask":
      return { kind: "input_required", inputRequests: step.inputRequests, requestState: step.requestState };
    case "refuse":
      throw new RpcError(rpcErrors.invalidParams, step.message, 200, step.data);
  }
}

/**
 * Runs a tool as the caller: its answer, a refusal included. The one place errors become responses: a ToolError is
 * its own body, anything else INTERNAL (logged), which for a changing tool says the outcome is unknown and to ask
 * get_operation_status.
 */
async function runTool(
  { invoker }: Endpoint,
  tool: DeployedTool,
  args: unknown,
  { caller, event, context }: Call,
  declined?: DeclineAnswer,
): Promise<HttpResult> {
  try {
    return await invoker.invoke(tool, toolEvent(event, tool, args, caller, declined), context);
  } catch (error) {
    return errorResponse(error, tool.name, tool.kind === "change");
  }
}

/** A registry tool as MCP's tools/list lists it: the catalogue entry, without outputSchema before 2025-06-18. */
function mcpTool(entry: ReturnType<typeof catalogEntry>, structured: boolean): Record<string, unknown> {
  const { outputSchema, ...rest } = entry;
  return structured ? { ...rest, outputSchema } : rest;
}

/**
 * The event the tool's own POST route would receive from API Gateway for this caller: same claims and scopes,
 * same API, stage and source address; the arguments as the body; the caller's `traceparent`, so the tool's log line
 * names the caller's trace as it would on the tool's own route. The bearer token itself is not passed on. A change the
 * person did not confirm carries their answer, which the tool records instead of making the change.
 */
function toolEvent(mcpEvent: HttpEvent, tool: DeployedTool, args: unknown, caller: Caller, declined?: DeclineAnswer): HttpEvent {
  const route = tool.routes.find((r) => r.method === "POST");
  if (!route) throw new Error(`${tool.name} has no POST route to call it through`);
  const { requestContext } = mcpEvent;
  const userAgent = headerOf(mcpEvent.headers, "user-agent");
  const traceparent = headerOf(mcpEvent.headers, "traceparent");
  const event = apiGatewayEvent({
    method: "POST",
    path: route.path,
    routeKey: `POST ${route.path}`,
    headers: {
      ...(userAgent ? { "user-agent": userAgent } : {}),
      ...(traceparent ? { traceparent } : {}),
      "x-order-tools-via": "mcp",
      ...(declined ? { [declinedHeader]: declined } : {}),
    },
    body: JSON.stringify(args === undefined ? {} : args),
    claims: caller.claims,
    scopes: caller.scopes,
  });
  event.requestContext = {
    ...event.requestContext,
    accountId: requestContext.accountId,
    apiId: requestContext.apiId,
    domainName: requestContext.domainName,
    domainPrefix: requestContext.domainPrefix,
    stage: requestContext.stage,
    http: { ...event.requestContext.http, sourceIp: requestContext.http.sourceIp, userAgent: requestContext.http.userAgent },
  };
  return event;
}

/**
 * A tool's HTTP result as an MCP CallToolResult: the body as text always (the tool's JSON, or its error body);
 * on success also as structuredContent (2025-06-18 on); any other status is a tool error, isError.
 */
function toolResult(result: HttpResult, structured: boolean): Record<string, unknown> {
  const text = result.body ?? "";
  const ok = result.statusCode === 200;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const replayed = String(headerOf(result.headers, "idempotent-replayed")) === "true";
  return {
    content: [{ type: "text", text }],
    ...(ok && structured && body !== null && typeof body === "object" && !Array.isArray(body) ? { structuredContent: body } : {}),
    ...(ok ? {} : { isError: true }),
    // The route's Idempotent-Replayed header: this outcome was recorded by an earlier call with this operationId.
    ...(replayed ? { _meta: { "order-tools/idempotentReplayed": true } } : {}),
  };
}

/**
 * The deployed authentication: each API of the stack names its user pool (or identity provider), its pinned app
 * clients and its public URL in ORDER_TOOLS_MCP_AUTH, keyed by API id.
 */
export function deployedAuthentication(env: NodeJS.ProcessEnv = process.env): McpAuthentication {
  const config = parseMcpAuth(env[mcpAuthEnv]);
  return {
    forRequest(event) {
      const api = apiAuthOf(config, event);
      const base = publicBaseUrl(event, api.publicUrl);
      const resource = protectedResource(base, authorizationServersOf(api, base), api.scopes);
      const verify = deployedVerifier(api.tokens);
      return { resource, verify: (token) => verify(token, resource.resource) };
    },
  };
}

/**
 * The deployed confirmation settings: the stack's KMS key signs each question's `requestState` (so every function
 * instance checks what any other signed), and its setting says what a client that cannot be asked gets.
 */
export function deployedConfirmation(env: NodeJS.ProcessEnv = process.env): NonNullable<McpOptions["confirmation"]> {
  const keyId = env[confirmationKeyEnv];
  return {
    key: keyId
      ? kmsRequestStateKey(keyId)
      : unavailableRequestStateKey(`${confirmationKeyEnv} is not set, so no change can be confirmed: deploy the stack, which sets it.`),
    unconfirmedChanges: unconfirmedChangesFrom(env[unconfirmedChangesEnv]),
  };
}

/** The deployed handler: each tool runs in its own function, named in the environment by the CDK stack. */
let deployed: ToolHandler | undefined;
export const handler: ToolHandler = (event, context) => {
  deployed ??= createMcpHandler(lambdaInvoker(toolFunctionsFromEnv(registry)), {
    allowedOrigins: (process.env.ORDER_TOOLS_MCP_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    authentication: deployedAuthentication(),
    confirmation: deployedConfirmation(),
  });
  return deployed(event, context);
};
