/**
 * The wire rules POST /v1/mcp applies before a method runs, for both revisions families it serves on one URL:
 *
 * - 2026-07-28 ("modern"): stateless, no handshake. Every request carries `params._meta` with the protocol version
 *   and the client's capabilities, and mirrors its method (and tool name) in headers that must agree with the body.
 * - 2025-03-26 to 2025-11-25 ("legacy"): `initialize` first, the version in `MCP-Protocol-Version` afterwards.
 *
 * The body decides the era (a request whose `_meta` names a version is that version's; one without is legacy),
 * and the headers are checked against it, as the 2026-07-28 backward-compatibility rules describe. Every function
 * here is pure: it reads a parsed message and the headers, and says what to do or which error to answer.
 */

export const modernProtocolVersion = "2026-07-28";
export const legacyProtocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const latestLegacyProtocolVersion = legacyProtocolVersions[0];
/** Every revision served, newest first: what server/discover lists and what an unsupported version is told. */
export const supportedProtocolVersions = [modernProtocolVersion, ...legacyProtocolVersions] as const;
/** Streamable HTTP: a legacy request without MCP-Protocol-Version is taken to be this revision. */
export const assumedLegacyProtocolVersion = "2025-03-26";

export const metaKeys = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

export const rpcErrors = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** Transport failures of the 2025 revisions (no method ran). */
  transport: -32000,
  headerMismatch: -32020,
  missingClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

export type JsonRpcId = string | number;

export type Message =
  | { kind: "request"; id: JsonRpcId; method: string; params: Record<string, unknown> }
  | { kind: "notification"; method: string; params: Record<string, unknown> }
  | { kind: "response" }
  /** Not one JSON-RPC message; the id is the request's when it could be read, for the error to echo. */
  | { kind: "invalid"; problem: string; id?: JsonRpcId };

/** An answer before any method runs: the HTTP status and the JSON-RPC error to send with it. */
export interface WireError {
  status: number;
  code: number;
  message: string;
  data?: unknown;
}

/** The request's MCP headers, with the whitespace HTTP allows around a value removed. */
export interface McpHeaders {
  protocolVersion?: string;
  method?: string;
  name?: string;
}

export type Route =
  | { era: "modern" }
  /** `version`: the revision the request speaks (its header, or the one assumed without it); initialize negotiates its own. */
  | { era: "legacy"; version: string }
  | { era: "refused"; error: WireError };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const isId = (value: unknown): value is JsonRpcId => typeof value === "string" || (typeof value === "number" && Number.isInteger(value));

/** The id of a request body, if it has a readable one, so that even an error about the rest of it can echo it. */
export function readableId(body: unknown): JsonRpcId | undefined {
  return isPlainObject(body) && isId(body.id) ? body.id : undefined;
}

/** What a parsed body is: one request, notification or response, or why it is none of them. */
export function parseMessage(value: unknown): Message {
  if (Array.isArray(value))
    return { kind: "invalid", problem: "JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per POST." };
  if (!isPlainObject(value)) return { kind: "invalid", problem: "the body must be a JSON-RPC 2.0 message object." };
  const id = readableId(value);
  const withId = (problem: string): Message => ({ kind: "invalid", problem, ...(id === undefined ? {} : { id }) });
  if (value.jsonrpc !== "2.0") return withId('jsonrpc must be "2.0".');
  const hasId = "id" in value;
  if (hasId && !isId(value.id)) return { kind: "invalid", problem: "id must be a string or an integer." };
  if (typeof value.method === "string") {
    const params = value.params ?? {};
    if (!isPlainObject(params)) return withId("params must be an object.");
    return hasId
      ? { kind: "request", id: value.id as JsonRpcId, method: value.method, params }
      : { kind: "notification", method: value.method, params };
  }
  if (hasId && ("result" in value || "error" in value)) return { kind: "response" };
  return withId("a message needs a method (a request or notification) or a result or error (a response).");
}

/** RFC 9110 §5.5: a field value's leading and trailing spaces and tabs are not part of it. */
export const withoutOws = (value: string | undefined): string | undefined => value?.replace(/^[ \t]+|[ \t]+$/g, "");

const versionList = supportedProtocolVersions.join(", ");

export function unsupportedVersion(requested: string): WireError {
  return {
    status: 400,
    code: rpcErrors.unsupportedProtocolVersion,
    message: `Unsupported protocol version: ${requested} (supported versions: ${versionList}). Send one of these in MCP-Protocol-Version and, on ${modernProtocolVersion}, in params._meta["${metaKeys.protocolVersion}"].`,
    data: { supported: [...supportedProtocolVersions], requested },
  };
}

function headerMismatch(what: string, header: string, body: string): WireError {
  return { status: 400, code: rpcErrors.headerMismatch, message: `Header mismatch: ${what}`, data: { header, body } };
}

const envelopeRule = `A ${modernProtocolVersion} request carries params._meta with "${metaKeys.protocolVersion}": "${modernProtocolVersion}" and "${metaKeys.clientCapabilities}" (an object; {} for none), and may add "${metaKeys.clientInfo}": {"name", "version"}.`;

function invalidEnvelope(problem: string, key: string): WireError {
  return {
    status: 400,
    code: rpcErrors.invalidParams,
    message: `Invalid params: ${problem}. ${envelopeRule}`,
    data: { envelope: { key, problem } },
  };
}

const logLevels = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);

/** The first thing wrong with a request's `_meta` envelope, checked as the 2026-07-28 schema defines it. */
function envelopeProblem(meta: Record<string, unknown>): WireError | undefined {
  const version = meta[metaKeys.protocolVersion];
  if (version === undefined) return invalidEnvelope(`params._meta has no "${metaKeys.protocolVersion}"`, metaKeys.protocolVersion);
  if (typeof version !== "string" || version === "")
    return invalidEnvelope(
      `params._meta["${metaKeys.protocolVersion}"] must be a version string such as "${modernProtocolVersion}"`,
      metaKeys.protocolVersion,
    );
  const capabilities = meta[metaKeys.clientCapabilities];
  if (capabilities === undefined)
    return invalidEnvelope(`params._meta has no "${metaKeys.clientCapabilities}"`, metaKeys.clientCapabilities);
  if (!isPlainObject(capabilities))
    return invalidEnvelope(`params._meta["${metaKeys.clientCapabilities}"] must be an object`, metaKeys.clientCapabilities);
  const info = meta[metaKeys.clientInfo];
  if (info !== undefined && !(isPlainObject(info) && typeof info.name === "string" && typeof info.version === "string")) {
    return invalidEnvelope(`params._meta["${metaKeys.clientInfo}"] must be an object with a string name and version`, metaKeys.clientInfo);
  }
  const level = meta[metaKeys.logLevel];
  if (level !== undefined && !(typeof level === "string" && logLevels.has(level))) {
    return invalidEnvelope(`params._meta["${metaKeys.logLevel}"] must be one of ${[...logLevels].join(", ")}`, metaKeys.logLevel);
  }
  const progress = meta.progressToken;
  if (progress !== undefined && !isId(progress))
    return invalidEnvelope("params._meta.progressToken must be a string or an integer", "progressToken");
  return undefined;
}

const metaOf = (params: Record<string, unknown>) => (isPlainObject(params._meta) ? params._meta : undefined);
const claims = (params: Record<string, unknown>) => {
  const meta = metaOf(params);
  return meta !== undefined && metaKeys.protocolVersion in meta;
};

/**
 * Which era serves a request or notification, or the error it gets. The body decides: an envelope that names a
 * version is that version's (checked, and cross-checked against the headers); `initialize` without one is the
 * 2025 handshake; anything else without one is 2025 traffic, unless its header names 2026-07-28, in which case its
 * missing envelope is the error.
 */
export function routeOf(message: Extract<Message, { kind: "request" | "notification" }>, headers: McpHeaders): Route {
  const { params, method } = message;
  const header = headers.protocolVersion;
  const headerIsModern = header === modernProtocolVersion;

  if (claims(params)) {
    const meta = metaOf(params) as Record<string, unknown>;
    const problem =
      message.kind === "request"
        ? envelopeProblem(meta)
        : typeof meta[metaKeys.protocolVersion] === "string"
          ? undefined
          : envelopeProblem(meta);
    if (problem) return { era: "refused", error: problem };
    const claimed = meta[metaKeys.protocolVersion] as string;
    if (header !== undefined && header !== claimed) {
      return {
        era: "refused",
        error: headerMismatch(
          `MCP-Protocol-Version is ${header}, but params._meta["${metaKeys.protocolVersion}"] is ${claimed}; send the same version in both.`,
          header,
          claimed,
        ),
      };
    }
    if (headers.method !== undefined && headers.method !== method) {
      return {
        era: "refused",
        error: headerMismatch(
          `Mcp-Method is ${headers.method}, but the body's method is ${method}; send the body's method in Mcp-Method.`,
          headers.method,
          method,
        ),
      };
    }
    if (claimed === modernProtocolVersion) return { era: "modern" };
    if ((legacyProtocolVersions as readonly string[]).includes(claimed)) return { era: "legacy", version: claimed };
    return { era: "refused", error: unsupportedVersion(claimed) };
  }

  if (method === "initialize" && message.kind === "request") {
    if (headerIsModern) {
      return {
        era: "refused",
        error: headerMismatch(
          `initialize is the 2025 handshake, but MCP-Protocol-Version names ${modernProtocolVersion}, which has none. Either send initialize without that header, or skip it and send ${modernProtocolVersion} requests directly.`,
          header,
          method,
        ),
      };
    }
    return { era: "legacy", version: latestLegacyProtocolVersion };
  }

  if (headerIsModern) {
    if (message.kind === "notification") {
      if (headers.method !== undefined && headers.method !== method) {
        return {
          era: "refused",
          error: headerMismatch(`Mcp-Method is ${headers.method}, but the body's method is ${method}.`, headers.method, method),
        };
      }
      return { era: "modern" };
    }
    const meta = metaOf(params);
    return {
      era: "refused",
      error: invalidEnvelope(
        meta === undefined
          ? `MCP-Protocol-Version names ${modernProtocolVersion}, but the request has no params._meta`
          : `MCP-Protocol-Version names ${modernProtocolVersion}, but params._meta has no "${metaKeys.protocolVersion}"`,
        meta === undefined ? "_meta" : metaKeys.protocolVersion,
      ),
    };
  }
  if (header !== undefined && !(legacyProtocolVersions as readonly string[]).includes(header))
    return { era: "refused", error: unsupportedVersion(header) };
  return { era: "legacy", version: header ?? assumedLegacyProtocolVersion };
}

/** The methods whose `Mcp-Name` header mirrors a body field (2026-07-28, Standard Request Headers). */
const nameSource: Readonly<Record<string, "name" | "uri">> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

const sentinel = /^=\?base64\?(.*)\?=$/;
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header value as the client meant it: `=?base64?…?=` decoded (UTF-8), else as sent; undefined if the sentinel is malformed. */
export function decodedHeaderValue(value: string): string | undefined {
  const encoded = sentinel.exec(value)?.[1];
  if (encoded === undefined) return value;
  if (!canonicalBase64.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  return decoded.includes("\uFFFD") ? undefined : decoded;
}

/**
 * The standard request headers of a 2026-07-28 request, which must be present and agree with the body so that
 * anything routing on them sees what the server executes: MCP-Protocol-Version, Mcp-Method, and Mcp-Name for
 * tools/call (and the other methods that name a target).
 */
export function standardHeaderError(message: Extract<Message, { kind: "request" }>, headers: McpHeaders): WireError | undefined {
  const { method, params } = message;
  if (headers.protocolVersion === undefined) {
    return headerMismatch(
      `the required MCP-Protocol-Version header is missing; send MCP-Protocol-Version: ${modernProtocolVersion}, as in params._meta.`,
      "(missing)",
      modernProtocolVersion,
    );
  }
  if (headers.method === undefined)
    return headerMismatch(`the required Mcp-Method header is missing; send Mcp-Method: ${method}.`, "(missing)", method);
  const field = Object.hasOwn(nameSource, method) ? nameSource[method] : undefined;
  if (field === undefined) return undefined;
  const body = typeof params[field] === "string" ? (params[field] as string) : undefined;
  if (headers.name === undefined) {
    return body === undefined
      ? undefined
      : headerMismatch(`the required Mcp-Name header is missing; send Mcp-Name: ${body}, the body's params.${field}.`, "(missing)", body);
  }
  const decoded = decodedHeaderValue(headers.name);
  if (decoded === undefined)
    return headerMismatch(
      "Mcp-Name carries a malformed =?base64?…?= value; encode the UTF-8 name in canonical base64 between the markers.",
      headers.name,
      body ?? "",
    );
  if (body !== undefined && decoded !== body)
    return headerMismatch(
      `Mcp-Name is ${JSON.stringify(decoded)}, but the body's params.${field} is ${JSON.stringify(body)}; send the same name in both.`,
      headers.name,
      body,
    );
  return undefined;
}

/** The methods earlier revisions had and 2026-07-28 removed, so a modern client that sends one is told why. */
export const removedInModern: Readonly<Record<string, string>> = {
  initialize: `${modernProtocolVersion} has no handshake: send each request directly, with the version and client capabilities in params._meta`,
  ping: `${modernProtocolVersion} has no ping; any request (server/discover is cheap) shows the server is there`,
  "logging/setLevel": `${modernProtocolVersion} sets the log level per request, in params._meta["${metaKeys.logLevel}"]`,
  "resources/subscribe": `${modernProtocolVersion} subscribes through subscriptions/listen, and this server publishes no resources`,
  "resources/unsubscribe": `${modernProtocolVersion} subscribes through subscriptions/listen, and this server publishes no resources`,
};
