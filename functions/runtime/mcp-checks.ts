import { nestingIssue } from "#contract/validate";
import { ForbiddenError, InternalError, InvalidInputError, type ToolError, UnauthenticatedError } from "#core/errors";
import { type HttpEvent, type HttpResult, jsonResponse, maxBodyBytes, rawBody } from "#runtime/http";
import { logger } from "#runtime/logger";
import {
  type JsonRpcId,
  type McpHeaders,
  type Message,
  modernProtocolVersion,
  parseMessage,
  type Route,
  readableId,
  routeOf,
  rpcErrors,
  standardHeaderError,
  type WireError,
  withoutOws,
} from "#runtime/mcp-protocol";
import { bearerChallenge, endpointScope, type ProtectedResource } from "#runtime/oauth-resource";
import type { TokenCheck } from "#runtime/token-verifier";

/**
 * What POST /v1/mcp checks before a method runs, one small function per check, in the manner of the MCP SDK's
 * middleware (hostHeaderValidation, originValidation, bearerAuth): the method, the Host and Origin (MCP's
 * DNS-rebinding rule), the bearer token, the body's size, its JSON, Accept, Content-Type, the JSON-RPC message and
 * its route (mcp-protocol.ts). Each returns what the next step needs, or a Refusal that carries the very response
 * the client gets. The order they run in is the handler's (functions/service/mcp.ts): when two would refuse a
 * request, the earlier one answers.
 */

/** A check's answer when the request goes no further: the response to send, as it is sent. */
export class Refusal {
  constructor(readonly response: HttpResult) {}
}

/** How the endpoint learns who calls: the resource a request addresses, and the check of its bearer token. */
export interface McpAuthentication {
  /**
   * For this request: its resource (the MCP URL, its metadata URL, the scopes to ask for) and the check of a token
   * for it, which refuses one issued for another audience. Throws on a misconfigured deployment.
   */
  forRequest(event: HttpEvent): { resource: ProtectedResource; verify(token: string): Promise<TokenCheck> };
}

/** Who is calling, as the token says: the claims a tool's route would get from API Gateway. */
export interface Caller {
  claims: Record<string, string>;
  scopes: string[];
}

/** A request as the checks read it: the event, a header by its lower-case name, and the MCP headers. */
export interface McpRequest {
  event: HttpEvent;
  header(name: string): string | undefined;
  mcpHeaders: McpHeaders;
  /** MCP-Protocol-Version names 2026-07-28, so an error that cannot echo an id leaves the member out (else null). */
  modernWire: boolean;
}

export type ReplyFormat = "json" | "sse";
/** A body that is JSON, and its id if it has a readable one, for the errors about the rest of it to echo. */
export interface ParsedBody {
  json: unknown;
  id: JsonRpcId | undefined;
}
export type RpcRequest = Extract<Message, { kind: "request" }>;
/** The era a message is served in, once its route was not refused. */
export type ServedRoute = Exclude<Route, { era: "refused" }>;

export function mcpRequest(event: HttpEvent): McpRequest {
  const headers = event.headers ?? {};
  const header = (name: string) => headerOf(headers, name);
  const mcpHeaders: McpHeaders = {
    ...optional("protocolVersion", withoutOws(header("mcp-protocol-version"))),
    ...optional("method", withoutOws(header("mcp-method"))),
    ...optional("name", withoutOws(header("mcp-name"))),
  };
  return { event, header, mcpHeaders, modernWire: mcpHeaders.protocolVersion === modernProtocolVersion };
}

/** 127.0.0.1, localhost or [::1], with an optional port: this machine's loopback address as a Host or in an Origin. */
const loopbackHost = "(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::\\d{1,5})?";
const loopbackHostPattern = new RegExp(`^${loopbackHost}$`, "i");
/** Browsers send an Origin as scheme://host[:port], lower-case, nothing after. */
const loopbackOriginPattern = new RegExp(`^https?://${loopbackHost}$`);

/** One JSON-RPC message per POST: the endpoint keeps no session to DELETE and offers no stream to GET. */
export function checkMethod(request: McpRequest): Refusal | undefined {
  if (request.event.requestContext?.http?.method === "POST") return undefined;
  return refuse(
    request,
    405,
    `Method not allowed: this MCP endpoint takes POST, one JSON-RPC message per request. It is stateless: it keeps no sessions to DELETE and offers no stream to GET.`,
    { headers: { allow: "POST" } },
  );
}

/** On the loopback address, a Host that is not a loopback name is what a DNS-rebound page sends. */
export function checkHost(request: McpRequest, loopback: boolean | undefined): Refusal | undefined {
  if (!loopback) return undefined;
  const host = request.header("host");
  if (host === undefined || loopbackHostPattern.test(host)) return undefined;
  return refuse(
    request,
    403,
    `Requests for the host ${host} are not allowed: this local server answers only requests addressed to 127.0.0.1, localhost or [::1] (MCP's DNS-rebinding rule). Use http://127.0.0.1:<port>/v1/mcp.`,
  );
}

/** A browser page may call only from an allowed origin, or on the loopback address from a local one. */
export function checkOrigin(request: McpRequest, allowedOrigins: ReadonlySet<string>, loopback: boolean | undefined): Refusal | undefined {
  const origin = request.header("origin");
  if (origin === undefined || allowedOrigins.has(origin) || (loopback && loopbackOriginPattern.test(origin))) return undefined;
  return refuse(
    request,
    403,
    loopback
      ? `Requests from the browser origin ${origin} are not allowed: this local server accepts pages served from 127.0.0.1, localhost or [::1] (MCP's DNS-rebinding rule) and the origins listed in ORDER_TOOLS_MCP_ALLOWED_ORIGINS. Call from a server-side MCP client, a local page, or add this origin to that list.`
      : `Requests from the browser origin ${origin} are not allowed. Call from a server-side MCP client, or have the operator allow this origin.`,
  );
}

/**
 * The caller, from a bearer token verified for this request's resource; a deployment that cannot check tokens
 * (misconfigured, or its verifier failing) answers INTERNAL, logged, and the client may retry.
 */
export async function checkAuth(request: McpRequest, authentication: McpAuthentication): Promise<Caller | Refusal> {
  try {
    const auth = authentication.forRequest(request.event);
    return await authenticate(request.header("authorization"), auth.resource, auth.verify);
  } catch (error) {
    logger.error("mcp authentication failed", { error: error as Error });
    const internal = new InternalError("The MCP endpoint could not check the bearer token just now. Retry the request.");
    return new Refusal(jsonResponse(internal.httpStatus, internal.toJSON()));
  }
}

/**
 * The bearer token, verified for this resource. Without one, or with one that is refused: 401 and the challenge
 * that says where to get one. A valid token without the endpoint's scope: 403 insufficient_scope naming every
 * scope the endpoint needs. What each tool needs beyond that is the tool's to refuse, as an isError result.
 */
async function authenticate(
  header: string | undefined,
  resource: ProtectedResource,
  verify: (token: string) => Promise<TokenCheck>,
): Promise<Caller | Refusal> {
  const token = bearerToken(header, resource);
  if (token instanceof Refusal) return token;
  const check = await verify(token);
  if (!check.ok)
    return refuseToken(
      new UnauthenticatedError(check.message),
      401,
      bearerChallenge(resource, { code: "invalid_token", description: check.message }),
    );
  return checkEndpointScope(check, resource) ?? { claims: check.claims, scopes: check.scopes };
}

/** The token an Authorization header carries, or the 401 that says how to send one and where to get it. */
function bearerToken(header: string | undefined, resource: ProtectedResource): string | Refusal {
  if (header === undefined || header.trim() === "") {
    return refuseToken(
      new UnauthenticatedError(
        `No bearer token came with the request. This endpoint is an OAuth protected resource: its metadata at ${resource.metadataUrl} names the authorization server to sign in with; then send Authorization: Bearer <token>.`,
      ),
      401,
      bearerChallenge(resource),
    );
  }
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (token !== undefined) return token;
  const description = "The Authorization header must be Bearer <token>.";
  return refuseToken(
    new UnauthenticatedError(`${description} The resource metadata at ${resource.metadataUrl} says where to get a token.`),
    401,
    bearerChallenge(resource, { code: "invalid_token", description }),
  );
}

/** A verified token must carry the endpoint's scope, in its scopes or its scope claim. */
function checkEndpointScope(check: Extract<TokenCheck, { ok: true }>, resource: ProtectedResource): Refusal | undefined {
  const granted = new Set([...check.scopes, ...(typeof check.claims.scope === "string" ? check.claims.scope.split(" ") : [])]);
  if (granted.has(endpointScope)) return undefined;
  const needed = resource.scopes.join(" ");
  const description = `This endpoint needs a token with ${endpointScope}, and this one carries ${[...granted].filter(Boolean).join(" ") || "no scope"}; sign in again asking for ${needed}.`;
  return refuseToken(
    new ForbiddenError(description, endpointScope),
    403,
    bearerChallenge(resource, { code: "insufficient_scope", description }),
  );
}

/** The token's refusal as every route gives it (the error's own body), with the Bearer challenge. */
function refuseToken(error: ToolError, status: number, challenge: string): Refusal {
  return new Refusal(jsonResponse(status, error.toJSON(), { "www-authenticate": challenge }));
}

/** The body as text, if it is within the limit every route applies. */
export function checkSize(request: McpRequest): string | Refusal {
  const raw = rawBody(request.event);
  const bytes = Buffer.byteLength(raw, "utf8");
  if (bytes <= maxBodyBytes) return raw;
  return refuse(request, 413, `The message is ${bytes} bytes; the limit is ${maxBodyBytes} bytes (16 KiB), as for every route.`);
}

export function parseBody(request: McpRequest, raw: string): ParsedBody | Refusal {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return refuse(request, 400, "Parse error: the body is not valid JSON; send one JSON-RPC 2.0 message.", { code: rpcErrors.parse });
  }
  return { json, id: readableId(json) };
}

/** JSON when the client accepts it (MCP clients list both), else one SSE event; refused when it takes neither. */
export function checkAccept(request: McpRequest, id: JsonRpcId | undefined): ReplyFormat | Refusal {
  const format = replyFormat(request.header("accept"));
  if (format) return format;
  const message = "Not Acceptable: the Accept header must allow application/json or text/event-stream; MCP clients send both.";
  return refuse(request, 406, message, withId(id));
}

export function checkContentType(request: McpRequest, id: JsonRpcId | undefined): Refusal | undefined {
  const contentType = request.header("content-type");
  if (contentType && /^application\/json\s*(;|$)/i.test(contentType.trim())) return undefined;
  return refuse(request, 415, "Unsupported Media Type: send the JSON-RPC message as Content-Type: application/json.", withId(id));
}

/** One JSON-RPC request, notification or response, whose envelope is within the nesting limit. */
export function checkMessage(request: McpRequest, body: ParsedBody): Exclude<Message, { kind: "invalid" }> | Refusal {
  const message = parseMessage(body.json);
  if (message.kind === "invalid")
    return refuse(request, 400, `Invalid Request: ${message.problem}`, { code: rpcErrors.invalidRequest, ...withId(message.id) });
  // A tool's arguments are judged by the tool's own rules in tools/call; the rest of the message here.
  const envelopeTooDeep = nestingIssue(withoutToolArguments(message, body.json), "the JSON-RPC message", envelopeRemedy);
  if (!envelopeTooDeep) return message;
  return refuse(request, 400, `Invalid Request: ${envelopeTooDeep.message}`, {
    code: rpcErrors.invalidRequest,
    data: new InvalidInputError([envelopeTooDeep]).toJSON(),
    ...withId(body.id),
  });
}

/** The era that serves the message (mcp-protocol.ts's routeOf), or its refusal, which echoes the body's id. */
export function checkRoute(
  request: McpRequest,
  message: Extract<Message, { kind: "request" | "notification" }>,
  id: JsonRpcId | undefined,
  format: ReplyFormat,
): ServedRoute | Refusal {
  const route = routeOf(message, request.mcpHeaders);
  return route.era === "refused" ? new Refusal(wireError(route.error, id, request.modernWire, format)) : route;
}

/** A 2026-07-28 request's standard headers must agree with its body; the 2025 revisions have none to check. */
export function checkStandardHeaders(
  request: McpRequest,
  message: RpcRequest,
  route: ServedRoute,
  format: ReplyFormat,
): Refusal | undefined {
  if (route.era !== "modern") return undefined;
  const headerError = standardHeaderError(message, request.mcpHeaders);
  return headerError ? new Refusal(wireError(headerError, message.id, true, format)) : undefined;
}

/** Notifications and responses: taken, with nothing to answer. */
export const accepted = (): HttpResult => ({ statusCode: 202, headers: { "cache-control": "no-store" }, body: "" });

/** A transport failure (no method ran), as JSON whatever the client accepts. */
function refuse(
  request: McpRequest,
  status: number,
  message: string,
  extra: { headers?: Record<string, string>; code?: number; data?: unknown; id?: JsonRpcId } = {},
): Refusal {
  return new Refusal(
    rpcResponse(
      status,
      errorMessage(extra.id, request.modernWire, extra.code ?? rpcErrors.transport, message, extra.data),
      "json",
      extra.headers,
    ),
  );
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, string>);
const withId = (id: JsonRpcId | undefined) => (id === undefined ? {} : { id });

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

function wireError(error: WireError, id: JsonRpcId | undefined, modernWire: boolean, format: ReplyFormat): HttpResult {
  return rpcResponse(
    error.status,
    errorMessage(id, modernWire, error.code, error.message, error.data),
    error.status === 200 ? format : "json",
  );
}

/** The message with a tools/call's arguments left out, for the checks that apply to the envelope alone. */
function withoutToolArguments(message: Message, parsed: unknown): unknown {
  if (message.kind !== "request" || message.method !== "tools/call") return parsed;
  return { ...(parsed as Record<string, unknown>), params: { ...message.params, arguments: null } };
}

const envelopeRemedy =
  "Send one JSON-RPC 2.0 message whose params are as MCP defines them for the method; a tool's arguments go in params.arguments of tools/call.";

function replyFormat(accept: string | undefined): ReplyFormat | undefined {
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

export function rpcResponse(
  statusCode: number,
  message: Record<string, unknown>,
  format: ReplyFormat,
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

export function headerOf(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && value !== undefined && value !== null) return String(value);
  }
  return undefined;
}
