import { mcpInstructions } from "#catalog/model-context";
import type { Context } from "aws-lambda";
import { catalogEntry, serviceInfo } from "#catalog/json-schema";
import { type ToolDefinition, tools as registry } from "#catalog/tools";
import { nestingIssue } from "#catalog/validate";
import { InvalidInputError } from "#core/errors";
import { principalFromClaims } from "#core/principal";
import { apiGatewayEvent } from "#tools/api-event";
import type { ToolHandler } from "#tools/handler";
import { errorResponse, type HttpEvent, type HttpResult, maxBodyBytes, rawBody } from "#tools/http";
import type { ToolInvoker } from "#tools/invoker";
import { lambdaInvoker, toolFunctionsFromEnv } from "#tools/invoker-lambda";
import { logger } from "#tools/logger";

/**
 * POST /v1/mcp — the Model Context Protocol over Streamable HTTP, stateless: no Mcp-Session-Id, every POST one
 * JSON-RPC message answered on its own, as JSON (or as one SSE event for a client that accepts only
 * text/event-stream). It publishes the registry's tools and nothing else: initialize, ping, tools/list and
 * tools/call, plus 202 for notifications. Protocol revisions 2025-03-26 to 2025-11-25.
 *
 * tools/call runs the tool through a ToolInvoker with the API Gateway event the tool's own POST route would
 * get, carrying this caller's verified claims, so validation, principal, access, idempotency and replay are the
 * tool's own. A refusal by the tool (any non-200) is a tool result with isError and the tool's error body as text;
 * protocol failures (unknown tool or method, malformed message) are JSON-RPC errors.
 */

export const supportedProtocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const latestProtocolVersion = supportedProtocolVersions[0];
/** Streamable HTTP: a request without MCP-Protocol-Version is taken to be this revision. */
const assumedProtocolVersion = "2025-03-26";
/** Output schemas and structuredContent arrived with 2025-06-18. */
const structuredSince = "2025-06-18";

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
}

/** 127.0.0.1, localhost or [::1], with an optional port: this machine's loopback address as a Host or in an Origin. */
const loopbackHost = "(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::\\d{1,5})?";
const loopbackHostPattern = new RegExp(`^${loopbackHost}$`, "i");
/** Browsers send an Origin as scheme://host[:port], lower-case, nothing after. */
const loopbackOriginPattern = new RegExp(`^https?://${loopbackHost}$`);

type JsonRpcId = string | number;
type Message =
  | { kind: "request"; id: JsonRpcId; method: string; params: Record<string, unknown> }
  | { kind: "notification" | "response" }
  | { kind: "invalid"; problem: string };

const rpcErrors = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, transport: -32000 } as const;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function createMcpHandler(invoker: ToolInvoker, options: McpOptions = {}): ToolHandler {
  const tools = options.tools ?? registry;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  // The catalogue entries are the same for every request; built once per execution environment.
  const entries = new Map(tools.map((tool) => [tool.name, { tool, entry: catalogEntry(tool) }]));

  return async (event, context) => {
    const method = event.requestContext?.http?.method;
    if (method !== "POST") {
      return transportError(405, "Method not allowed: this MCP endpoint takes POST, one JSON-RPC message per request. It is stateless and offers no stream to GET.", { allow: "POST" });
    }
    if (options.loopback) {
      const host = headerOf(event.headers, "host");
      if (host !== undefined && !loopbackHostPattern.test(host)) {
        return transportError(403, `Requests for the host ${host} are not allowed: this local server answers only requests addressed to 127.0.0.1, localhost or [::1] (MCP's DNS-rebinding rule). Use http://127.0.0.1:<port>/v1/mcp.`);
      }
    }
    const origin = headerOf(event.headers, "origin");
    if (origin !== undefined && !allowedOrigins.has(origin) && !(options.loopback && loopbackOriginPattern.test(origin))) {
      return transportError(
        403,
        options.loopback
          ? `Requests from the browser origin ${origin} are not allowed: this local server accepts pages served from 127.0.0.1, localhost or [::1] (MCP's DNS-rebinding rule) and the origins listed in ORDER_TOOLS_MCP_ALLOWED_ORIGINS. Call from a server-side MCP client, a local page, or add this origin to that list.`
          : `Requests from the browser origin ${origin} are not allowed. Call from a server-side MCP client, or have the operator allow this origin.`,
      );
    }
    const jwt = event.requestContext.authorizer?.jwt;
    if (typeof jwt?.claims?.sub !== "string" || jwt.claims.sub === "") {
      return transportError(401, "No verified bearer token came with the request. Send `Authorization: Bearer <token>` with a token from your identity provider.", {
        "www-authenticate": 'Bearer realm="order-tools"',
      });
    }
    const format = replyFormat(headerOf(event.headers, "accept"));
    if (!format) return transportError(406, "Not Acceptable: the Accept header must allow application/json or text/event-stream; MCP clients send both.");
    const contentType = headerOf(event.headers, "content-type");
    if (!contentType || !/^application\/json\s*(;|$)/i.test(contentType.trim())) {
      return transportError(415, "Unsupported Media Type: send the JSON-RPC message as Content-Type: application/json.");
    }
    const raw = rawBody(event);
    if (Buffer.byteLength(raw, "utf8") > maxBodyBytes) {
      return transportError(413, `The message is ${Buffer.byteLength(raw, "utf8")} bytes; the limit is ${maxBodyBytes} bytes (16 KiB), as for every route.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return transportError(400, "Parse error: the body is not valid JSON; send one JSON-RPC 2.0 message.", {}, rpcErrors.parse);
    }
    const message = classify(parsed);
    if (message.kind === "invalid") return transportError(400, `Invalid Request: ${message.problem}`, {}, rpcErrors.invalidRequest);
    // A tool's arguments are judged by the tool's own rules in tools/call; the rest of the message here.
    const envelopeTooDeep = nestingIssue(withoutToolArguments(message, parsed), "the JSON-RPC message", envelopeRemedy);
    if (envelopeTooDeep) {
      return transportError(400, `Invalid Request: ${envelopeTooDeep.message}`, {}, rpcErrors.invalidRequest, new InvalidInputError([envelopeTooDeep]).toJSON());
    }

    const isInitialize = message.kind === "request" && message.method === "initialize";
    const version = headerOf(event.headers, "mcp-protocol-version");
    if (!isInitialize && version !== undefined && !(supportedProtocolVersions as readonly string[]).includes(version)) {
      return transportError(400, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supportedProtocolVersions.join(", ")})`);
    }
    if (message.kind !== "request") return { statusCode: 202, headers: { "cache-control": "no-store" }, body: "" };

    const protocolVersion = version ?? assumedProtocolVersion;
    let reply: Record<string, unknown>;
    try {
      reply = { jsonrpc: "2.0", id: message.id, result: await dispatch(message, protocolVersion, event, context) };
    } catch (error) {
      if (!(error instanceof RpcError)) logger.error("mcp request failed", { method: message.method, error: error as Error });
      reply = {
        jsonrpc: "2.0",
        id: message.id,
        error: error instanceof RpcError ? { code: error.code, message: error.message } : { code: rpcErrors.internal, message: "Internal error. Retry the request." },
      };
    }
    return rpcReply(format, reply);
  };

  async function dispatch(request: Extract<Message, { kind: "request" }>, protocolVersion: string, event: HttpEvent, context: Context): Promise<Record<string, unknown>> {
    const { params } = request;
    switch (request.method) {
      case "initialize": {
        const asked = params.protocolVersion;
        if (typeof asked !== "string") throw new RpcError(rpcErrors.invalidParams, "initialize needs params.protocolVersion, the latest revision the client supports, e.g. 2025-11-25.");
        return {
          protocolVersion: (supportedProtocolVersions as readonly string[]).includes(asked) ? asked : latestProtocolVersion,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { ...serviceInfo },
          instructions: mcpInstructions,
        };
      }
      case "ping":
        return {};
      case "tools/list":
        return { tools: [...entries.values()].map(({ entry }) => mcpTool(entry, protocolVersion >= structuredSince)) };
      case "tools/call":
        return callTool(params, protocolVersion >= structuredSince, event, context);
      default:
        throw new RpcError(rpcErrors.methodNotFound, `Method not found: ${request.method}. This server offers initialize, ping, tools/list and tools/call.`);
    }
  }

  async function callTool(params: Record<string, unknown>, structured: boolean, event: HttpEvent, context: Context): Promise<Record<string, unknown>> {
    const { name, arguments: args } = params;
    if (typeof name !== "string") throw new RpcError(rpcErrors.invalidParams, "tools/call needs params.name, one of the names tools/list returns.");
    const found = entries.get(name);
    if (!found) throw new RpcError(rpcErrors.invalidParams, `Unknown tool: ${name}. The tools are ${[...entries.keys()].join(", ")}.`);
    const { tool } = found;

    let result: HttpResult;
    try {
      // The tool checks its scope too; refusing here spares an invocation and answers with the same body.
      const jwt = event.requestContext.authorizer.jwt;
      principalFromClaims(jwt.claims, jwt.scopes ?? undefined, tool.scope);
      // The tool's body reader applies the same limit, but the arguments must be serialised to reach it, and
      // JSON.stringify throws on deep nesting: that would be INTERNAL, "outcome unknown", for mere bad input.
      const tooDeep = nestingIssue(args, "the arguments");
      if (tooDeep) throw new InvalidInputError([tooDeep]);
      result = await invoker.invoke(tool, toolEvent(event, tool, args), context);
    } catch (error) {
      // The one place errors become responses: a ToolError is its own body, anything else INTERNAL (logged),
      // which for a changing tool says the outcome is unknown and to ask get_operation_status.
      result = errorResponse(error, tool.name, tool.kind === "change");
    }
    return toolResult(result, structured);
  }
}

/** A registry tool as MCP's tools/list lists it: the catalogue entry, without outputSchema before 2025-06-18. */
function mcpTool(entry: ReturnType<typeof catalogEntry>, structured: boolean): Record<string, unknown> {
  const { outputSchema, ...rest } = entry;
  return structured ? { ...rest, outputSchema } : rest;
}

/**
 * The event the tool's own POST route would receive from API Gateway for this caller: same claims and scopes,
 * same API, stage and source address; the arguments as the body. The bearer token itself is not passed on.
 */
function toolEvent(mcpEvent: HttpEvent, tool: ToolDefinition, args: unknown): HttpEvent {
  const route = tool.routes.find((r) => r.method === "POST");
  if (!route) throw new Error(`${tool.name} has no POST route to call it through`);
  const { requestContext } = mcpEvent;
  const userAgent = headerOf(mcpEvent.headers, "user-agent");
  const event = apiGatewayEvent({
    method: "POST",
    path: route.path,
    routeKey: `POST ${route.path}`,
    headers: { ...(userAgent ? { "user-agent": userAgent } : {}), "x-order-tools-via": "mcp" },
    body: JSON.stringify(args === undefined ? {} : args),
    claims: requestContext.authorizer.jwt.claims,
    scopes: requestContext.authorizer.jwt.scopes ?? [],
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

function classify(value: unknown): Message {
  if (Array.isArray(value)) return { kind: "invalid", problem: "JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per POST." };
  if (value === null || typeof value !== "object") return { kind: "invalid", problem: "the body must be a JSON-RPC 2.0 message object." };
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return { kind: "invalid", problem: 'jsonrpc must be "2.0".' };
  const hasId = "id" in message;
  if (hasId && !(typeof message.id === "string" || (typeof message.id === "number" && Number.isInteger(message.id)))) {
    return { kind: "invalid", problem: "id must be a string or an integer." };
  }
  if (typeof message.method === "string") {
    const params = message.params ?? {};
    if (params === null || typeof params !== "object" || Array.isArray(params)) return { kind: "invalid", problem: "params must be an object." };
    return hasId ? { kind: "request", id: message.id as JsonRpcId, method: message.method, params: params as Record<string, unknown> } : { kind: "notification" };
  }
  if (hasId && ("result" in message || "error" in message)) return { kind: "response" };
  return { kind: "invalid", problem: "a message needs a method (a request or notification) or a result or error (a response)." };
}

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

function rpcReply(format: "json" | "sse", message: Record<string, unknown>): HttpResult {
  const json = JSON.stringify(message);
  return format === "json"
    ? { statusCode: 200, headers: { "content-type": "application/json", "cache-control": "no-store" }, body: json }
    : { statusCode: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-store" }, body: `event: message\ndata: ${json}\n\n` };
}

/** A failure of the transport itself, before any method ran: an HTTP status with a JSON-RPC error without id. */
function transportError(statusCode: number, message: string, headers: Record<string, string> = {}, code: number = rpcErrors.transport, data?: unknown): HttpResult {
  return {
    statusCode,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message, ...(data === undefined ? {} : { data }) } }),
  };
}

function headerOf(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && value !== undefined && value !== null) return String(value);
  }
  return undefined;
}

/** The deployed handler: each tool runs in its own function, named in the environment by the CDK stack. */
let deployed: ToolHandler | undefined;
export const handler: ToolHandler = (event, context) => {
  deployed ??= createMcpHandler(lambdaInvoker(toolFunctionsFromEnv(registry)), {
    allowedOrigins: (process.env.ORDER_TOOLS_MCP_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean),
  });
  return deployed(event, context);
};
