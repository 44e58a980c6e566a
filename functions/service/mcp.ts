import type { Context } from "aws-lambda";
import { catalogEntry, serviceInfo } from "#contract/json-schema";
import { mcpInstructions } from "#contract/mcp-instructions";
import { type DeployedTool as ToolDefinition, deployedTools as registry } from "#deploy/tool-functions";
import { nestingIssue } from "#contract/validate";
import { ForbiddenError, InternalError, InvalidInputError, type ToolError, UnauthenticatedError } from "#core/errors";
import { principalFromClaims } from "#core/principal";
import { apiGatewayEvent } from "#runtime/api-event";
import type { ToolHandler } from "#runtime/handler";
import { errorResponse, type HttpEvent, type HttpResult, jsonResponse, maxBodyBytes, rawBody } from "#runtime/http";
import type { ToolInvoker } from "#runtime/invoker";
import { lambdaInvoker, toolFunctionsFromEnv } from "#runtime/invoker-lambda";
import { logger } from "#runtime/logger";
import {
  type JsonRpcId,
  latestLegacyProtocolVersion,
  legacyProtocolVersions,
  type McpHeaders,
  type Message,
  metaKeys,
  modernProtocolVersion,
  parseMessage,
  readableId,
  removedInModern,
  routeOf,
  rpcErrors,
  standardHeaderError,
  supportedProtocolVersions,
  type WireError,
  withoutOws,
} from "#runtime/mcp-protocol";
import {
  apiAuthOf,
  authorizationServersOf,
  bearerChallenge,
  endpointScope,
  mcpAuthEnv,
  type ProtectedResource,
  parseMcpAuth,
  protectedResource,
  publicBaseUrl,
} from "#runtime/oauth-resource";
import { deployedVerifier, type TokenCheck } from "#runtime/token-verifier";

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
 */

export { latestLegacyProtocolVersion, modernProtocolVersion, supportedProtocolVersions } from "#runtime/mcp-protocol";

/** Output schemas and structuredContent arrived with 2025-06-18. */
const structuredSince = "2025-06-18";

/** How long a client may reuse server/discover and tools/list: the tools change only with a deployment. */
const listTtlMs = 5 * 60 * 1000;

/** How the endpoint learns who calls: the resource a request addresses, and the check of its bearer token. */
export interface McpAuthentication {
  /**
   * For this request: its resource (the MCP URL, its metadata URL, the scopes to ask for) and the check of a token
   * for it, which refuses one issued for another audience. Throws on a misconfigured deployment.
   */
  forRequest(event: HttpEvent): { resource: ProtectedResource; verify(token: string): Promise<TokenCheck> };
}

export interface McpOptions {
  tools?: readonly ToolDefinition[];
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
}

/** 127.0.0.1, localhost or [::1], with an optional port: this machine's loopback address as a Host or in an Origin. */
const loopbackHost = "(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::\\d{1,5})?";
const loopbackHostPattern = new RegExp(`^${loopbackHost}$`, "i");
/** Browsers send an Origin as scheme://host[:port], lower-case, nothing after. */
const loopbackOriginPattern = new RegExp(`^https?://${loopbackHost}$`);

type Request = Extract<Message, { kind: "request" }>;
/** Who is calling, as the token says: the claims a tool's route would get from API Gateway. */
interface Caller {
  claims: Record<string, string>;
  scopes: string[];
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** 2026-07-28 answers some errors with an HTTP status of their own (404 for an unknown method). */
    readonly status = 200,
  ) {
    super(message);
  }
}

export function createMcpHandler(invoker: ToolInvoker, options: McpOptions): ToolHandler {
  const tools = options.tools ?? registry;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  // The catalogue entries are the same for every request; built once per execution environment.
  const entries = new Map(tools.map((tool) => [tool.name, { tool, entry: catalogEntry(tool) }]));

  return async (event, context) => {
    const headers = event.headers ?? {};
    const modernWire = withoutOws(headerOf(headers, "mcp-protocol-version")) === modernProtocolVersion;
    const fail = (
      status: number,
      message: string,
      extra: { headers?: Record<string, string>; code?: number; data?: unknown; id?: JsonRpcId } = {},
    ) =>
      rpcResponse(
        status,
        errorMessage(extra.id, modernWire, extra.code ?? rpcErrors.transport, message, extra.data),
        "json",
        extra.headers,
      );

    const method = event.requestContext?.http?.method;
    if (method !== "POST") {
      return fail(
        405,
        `Method not allowed: this MCP endpoint takes POST, one JSON-RPC message per request. It is stateless: it keeps no sessions to DELETE and offers no stream to GET.`,
        {
          headers: { allow: "POST" },
        },
      );
    }
    if (options.loopback) {
      const host = headerOf(headers, "host");
      if (host !== undefined && !loopbackHostPattern.test(host)) {
        return fail(
          403,
          `Requests for the host ${host} are not allowed: this local server answers only requests addressed to 127.0.0.1, localhost or [::1] (MCP's DNS-rebinding rule). Use http://127.0.0.1:<port>/v1/mcp.`,
        );
      }
    }
    const origin = headerOf(headers, "origin");
    if (origin !== undefined && !allowedOrigins.has(origin) && !(options.loopback && loopbackOriginPattern.test(origin))) {
      return fail(
        403,
        options.loopback
          ? `Requests from the browser origin ${origin} are not allowed: this local server accepts pages served from 127.0.0.1, localhost or [::1] (MCP's DNS-rebinding rule) and the origins listed in ORDER_TOOLS_MCP_ALLOWED_ORIGINS. Call from a server-side MCP client, a local page, or add this origin to that list.`
          : `Requests from the browser origin ${origin} are not allowed. Call from a server-side MCP client, or have the operator allow this origin.`,
      );
    }

    let caller: Caller;
    try {
      const auth = options.authentication.forRequest(event);
      const authenticated = await authenticate(headerOf(headers, "authorization"), auth.resource, auth.verify);
      if (!authenticated.ok) return authenticated.result;
      caller = authenticated.caller;
    } catch (error) {
      logger.error("mcp authentication failed", { error: error as Error });
      const internal = new InternalError("The MCP endpoint could not check the bearer token just now. Retry the request.");
      return jsonResponse(internal.httpStatus, internal.toJSON());
    }

    const raw = rawBody(event);
    const bytes = Buffer.byteLength(raw, "utf8");
    if (bytes > maxBodyBytes) {
      return fail(413, `The message is ${bytes} bytes; the limit is ${maxBodyBytes} bytes (16 KiB), as for every route.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return fail(400, "Parse error: the body is not valid JSON; send one JSON-RPC 2.0 message.", { code: rpcErrors.parse });
    }
    const id = readableId(parsed);
    const format = replyFormat(headerOf(headers, "accept"));
    if (!format)
      return fail(406, "Not Acceptable: the Accept header must allow application/json or text/event-stream; MCP clients send both.", {
        ...withId(id),
      });
    const contentType = headerOf(headers, "content-type");
    if (!contentType || !/^application\/json\s*(;|$)/i.test(contentType.trim())) {
      return fail(415, "Unsupported Media Type: send the JSON-RPC message as Content-Type: application/json.", { ...withId(id) });
    }
    const message = parseMessage(parsed);
    if (message.kind === "invalid")
      return fail(400, `Invalid Request: ${message.problem}`, { code: rpcErrors.invalidRequest, ...withId(message.id) });
    // A tool's arguments are judged by the tool's own rules in tools/call; the rest of the message here.
    const envelopeTooDeep = nestingIssue(withoutToolArguments(message, parsed), "the JSON-RPC message", envelopeRemedy);
    if (envelopeTooDeep) {
      return fail(400, `Invalid Request: ${envelopeTooDeep.message}`, {
        code: rpcErrors.invalidRequest,
        data: new InvalidInputError([envelopeTooDeep]).toJSON(),
        ...withId(id),
      });
    }
    if (message.kind === "response") return accepted();

    const mcpHeaders: McpHeaders = {
      ...optional("protocolVersion", withoutOws(headerOf(headers, "mcp-protocol-version"))),
      ...optional("method", withoutOws(headerOf(headers, "mcp-method"))),
      ...optional("name", withoutOws(headerOf(headers, "mcp-name"))),
    };
    const route = routeOf(message, mcpHeaders);
    if (route.era === "refused") return wireError(route.error, id, modernWire, format);
    if (message.kind === "notification") return accepted();

    if (route.era === "modern") {
      const headerError = standardHeaderError(message, mcpHeaders);
      if (headerError) return wireError(headerError, message.id, true, format);
    }
    try {
      const result =
        route.era === "modern"
          ? await dispatchModern(message, caller, event, context)
          : await dispatchLegacy(message, route.version, caller, event, context);
      return rpcResponse(200, { jsonrpc: "2.0", id: message.id, result }, format);
    } catch (error) {
      if (!(error instanceof RpcError)) logger.error("mcp request failed", { method: message.method, error: error as Error });
      const rpc = error instanceof RpcError ? error : new RpcError(rpcErrors.internal, "Internal error. Retry the request.");
      return rpcResponse(rpc.status, { jsonrpc: "2.0", id: message.id, error: { code: rpc.code, message: rpc.message } }, format);
    }
  };

  /** 2025-03-26 to 2025-11-25: the handshake, ping, and the tools. */
  async function dispatchLegacy(
    request: Request,
    protocolVersion: string,
    caller: Caller,
    event: HttpEvent,
    context: Context,
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
        return { tools: [...entries.values()].map(({ entry }) => mcpTool(entry, structured)) };
      case "tools/call":
        return callTool(params, structured, caller, event, context);
      default:
        throw new RpcError(
          rpcErrors.methodNotFound,
          `Method not found: ${request.method}. This server offers initialize, ping, tools/list and tools/call.`,
        );
    }
  }

  /** 2026-07-28: discovery and the tools; every result says it is complete and who answered. */
  async function dispatchModern(request: Request, caller: Caller, event: HttpEvent, context: Context): Promise<Record<string, unknown>> {
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
          tools: [...entries.values()].map(({ entry }) => mcpTool(entry, true)),
          ttlMs: listTtlMs,
          cacheScope: "public",
          _meta: serverMeta,
        };
      case "tools/call": {
        const { _meta, ...result } = await callTool(request.params, true, caller, event, context);
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

  async function callTool(
    params: Record<string, unknown>,
    structured: boolean,
    caller: Caller,
    event: HttpEvent,
    context: Context,
  ): Promise<Record<string, unknown>> {
    const { name, arguments: args } = params;
    if (typeof name !== "string")
      throw new RpcError(rpcErrors.invalidParams, "tools/call needs params.name, one of the names tools/list returns.");
    const found = entries.get(name);
    if (!found) throw new RpcError(rpcErrors.invalidParams, `Unknown tool: ${name}. The tools are ${[...entries.keys()].join(", ")}.`);
    const { tool } = found;

    let result: HttpResult;
    try {
      // The tool checks its scope too; refusing here spares an invocation and answers with the same body.
      principalFromClaims(caller.claims, caller.scopes, tool.scope);
      // The tool's body reader applies the same limit, but the arguments must be serialised to reach it, and
      // JSON.stringify throws on deep nesting: that would be INTERNAL, "outcome unknown", for mere bad input.
      const tooDeep = nestingIssue(args, "the arguments");
      if (tooDeep) throw new InvalidInputError([tooDeep]);
      result = await invoker.invoke(tool, toolEvent(event, tool, args, caller), context);
    } catch (error) {
      // The one place errors become responses: a ToolError is its own body, anything else INTERNAL (logged),
      // which for a changing tool says the outcome is unknown and to ask get_operation_status.
      result = errorResponse(error, tool.name, tool.kind === "change");
    }
    return toolResult(result, structured);
  }
}

type Authenticated = { ok: true; caller: Caller } | { ok: false; result: HttpResult };

/**
 * The bearer token, verified for this resource. Without one, or with one that is refused: 401 and the challenge
 * that says where to get one. A valid token without the endpoint's scope: 403 insufficient_scope naming every
 * scope the endpoint needs. What each tool needs beyond that is the tool's to refuse, as an isError result.
 */
async function authenticate(
  header: string | undefined,
  resource: ProtectedResource,
  verify: (token: string) => Promise<TokenCheck>,
): Promise<Authenticated> {
  const refuse = (error: ToolError, status: number, challenge: string): Authenticated => ({
    ok: false,
    result: jsonResponse(status, error.toJSON(), { "www-authenticate": challenge }),
  });
  if (header === undefined || header.trim() === "") {
    return refuse(
      new UnauthenticatedError(
        `No bearer token came with the request. This endpoint is an OAuth protected resource: its metadata at ${resource.metadataUrl} names the authorization server to sign in with; then send Authorization: Bearer <token>.`,
      ),
      401,
      bearerChallenge(resource),
    );
  }
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (token === undefined) {
    const description = "The Authorization header must be Bearer <token>.";
    return refuse(
      new UnauthenticatedError(`${description} The resource metadata at ${resource.metadataUrl} says where to get a token.`),
      401,
      bearerChallenge(resource, { code: "invalid_token", description }),
    );
  }
  const check = await verify(token);
  if (!check.ok)
    return refuse(
      new UnauthenticatedError(check.message),
      401,
      bearerChallenge(resource, { code: "invalid_token", description: check.message }),
    );
  const granted = new Set([...check.scopes, ...(typeof check.claims.scope === "string" ? check.claims.scope.split(" ") : [])]);
  if (!granted.has(endpointScope)) {
    const needed = resource.scopes.join(" ");
    const description = `This endpoint needs a token with ${endpointScope}, and this one carries ${[...granted].filter(Boolean).join(" ") || "no scope"}; sign in again asking for ${needed}.`;
    return refuse(
      new ForbiddenError(description, endpointScope),
      403,
      bearerChallenge(resource, { code: "insufficient_scope", description }),
    );
  }
  return { ok: true, caller: { claims: check.claims, scopes: check.scopes } };
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, string>);
const withId = (id: JsonRpcId | undefined) => (id === undefined ? {} : { id });
const accepted = (): HttpResult => ({ statusCode: 202, headers: { "cache-control": "no-store" }, body: "" });

/**
 * A JSON-RPC error. Its id is the request's when it could be read; otherwise none: the 2026-07-28 schema leaves
 * the member out, the 2025 revisions (and every answer before this one) send null.
 */
function errorMessage(
  id: JsonRpcId | undefined,
  modernWire: boolean,
  code: number,
  message: string,
  data?: unknown,
): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    ...(id !== undefined ? { id } : modernWire ? {} : { id: null }),
    error: { code, message, ...(data === undefined ? {} : { data }) },
  };
}

function wireError(error: WireError, id: JsonRpcId | undefined, modernWire: boolean, format: "json" | "sse"): HttpResult {
  return rpcResponse(
    error.status,
    errorMessage(id, modernWire, error.code, error.message, error.data),
    error.status === 200 ? format : "json",
  );
}

/** A registry tool as MCP's tools/list lists it: the catalogue entry, without outputSchema before 2025-06-18. */
function mcpTool(entry: ReturnType<typeof catalogEntry>, structured: boolean): Record<string, unknown> {
  const { outputSchema, ...rest } = entry;
  return structured ? { ...rest, outputSchema } : rest;
}

/**
 * The event the tool's own POST route would receive from API Gateway for this caller: same claims and scopes,
 * same API, stage and source address; the arguments as the body; the caller's `traceparent`, so the tool's log line
 * names the caller's trace as it would on the tool's own route. The bearer token itself is not passed on.
 */
function toolEvent(mcpEvent: HttpEvent, tool: ToolDefinition, args: unknown, caller: Caller): HttpEvent {
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

/** The message with a tools/call's arguments left out, for the checks that apply to the envelope alone. */
function withoutToolArguments(message: Message, parsed: unknown): unknown {
  if (message.kind !== "request" || message.method !== "tools/call") return parsed;
  return { ...(parsed as Record<string, unknown>), params: { ...message.params, arguments: null } };
}

const envelopeRemedy =
  "Send one JSON-RPC 2.0 message whose params are as MCP defines them for the method; a tool's arguments go in params.arguments of tools/call.";

/** JSON when the client accepts it (MCP clients list both), else one SSE event; undefined when it takes neither. */
function replyFormat(accept: string | undefined): "json" | "sse" | undefined {
  if (accept === undefined || accept.trim() === "") return "json";
  const ranges = accept
    .split(",")
    .map((part) => part.trim().split(";"))
    .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p)))
    .map(([range]) => (range ?? "").trim().toLowerCase());
  if (ranges.some((r) => r === "application/json" || r === "application/*" || r === "*/*")) return "json";
  if (ranges.some((r) => r === "text/event-stream" || r === "text/*")) return "sse";
  return undefined;
}

function rpcResponse(
  statusCode: number,
  message: Record<string, unknown>,
  format: "json" | "sse",
  headers: Record<string, string> = {},
): HttpResult {
  const json = JSON.stringify(message);
  return format === "json"
    ? { statusCode, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers }, body: json }
    : {
        statusCode,
        headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no", ...headers },
        body: `event: message\ndata: ${json}\n\n`,
      };
}

function headerOf(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && value !== undefined && value !== null) return String(value);
  }
  return undefined;
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

/** The deployed handler: each tool runs in its own function, named in the environment by the CDK stack. */
let deployed: ToolHandler | undefined;
export const handler: ToolHandler = (event, context) => {
  deployed ??= createMcpHandler(lambdaInvoker(toolFunctionsFromEnv(registry)), {
    allowedOrigins: (process.env.ORDER_TOOLS_MCP_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    authentication: deployedAuthentication(),
  });
  return deployed(event, context);
};
