/**
 * The local stand-in for API Gateway: an HTTP server on 127.0.0.1 that does what the deployed HTTP API does
 * before a function runs — match the route, authorize the bearer token with the route's scope — then turns
 * the request into the exact payload v2.0 event (local/lambda-context.ts), calls the same handler module with a
 * Lambda-like context, and maps the result back to HTTP.
 *
 * Order of checks, as in AWS: route (404 / 405), size (413), token (401 / 403), then the function, which
 * validates the body itself (a body that is not JSON is its 400 INVALID_INPUT, as deployed).
 *
 * It also serves the local OAuth authorization server (local/authorization-server.ts) under its own URL,
 * which is what the MCP endpoint's protected-resource metadata names.
 *
 * Traces, as deployed (docs/operations.md, "Traces"): an HTTP API passes no trace on, so Lambda starts a trace of
 * its own for each invocation and gives its id to the function (`_X_AMZN_TRACE_ID`), where Powertools writes it on
 * every log line as `xray_trace_id`. The gateway does the same: each function call runs with a new X-Ray trace id
 * in Lambda's per-invocation store (local/invocation.ts), and the request line names it — and the caller's trace,
 * when the request came with a `traceparent`, which the function logs as `callerTraceId`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ForbiddenError, InternalError, InvalidInputError, type ToolError, UnauthenticatedError } from "#core/errors";
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";
import { localAuthorizationServer } from "#local/authorization-server";
import { apiGatewayClaims, tokenCommandWithScopes, tokenScopes, verifyDevToken } from "#local/dev-auth";
import { type GatewayRoute, matchRoute, routeKey, routes as registryRoutes } from "#local/routes";
import { repoRoot } from "#local/stack";
import type { ToolHandler } from "#runtime/handler";
import { type HttpResult, maxBodyBytes } from "#runtime/http";
import { callerTraceId } from "#contract/trace-context";
import { type InvocationTrace, runInvocation } from "#local/invocation";

export interface GatewayOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** One line per request (method, path, status, time, and the trace of the function that answered); silent when not given. */
  log?: (line: string) => void;
  routes?: readonly GatewayRoute[];
  /** How a route's handler is found; by default the route's `entry` module is imported and its `handler` used. */
  resolveHandler?: (route: GatewayRoute) => ToolHandler | Promise<ToolHandler>;
}

export interface Gateway {
  url: string;
  port: number;
  server: Server;
  /** Stops accepting requests and closes open connections. */
  close(): Promise<void>;
}

/** API Gateway refuses payloads over 10 MB; past this we stop reading and close the connection. */
const drainLimitBytes = 10 * 1024 * 1024;

/** Fails as startGateway would if the port is taken: `npm start` checks before it spends seconds starting Java. */
export async function assertPortFree(port: number, host = "127.0.0.1"): Promise<void> {
  const server = createServer();
  await listen(server, port, host);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${port} on ${host} is already in use (another \`npm start\`?). Stop it, or set PORT to a free port.`)
          : error,
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const host = options.host ?? "127.0.0.1";
  const table = options.routes ?? registryRoutes;
  const log = options.log ?? (() => undefined);
  const resolveHandler = options.resolveHandler ?? ((route: GatewayRoute) => importHandler(route.entry));
  const handlers = new Map<string, Promise<ToolHandler>>();
  const handlerFor = (route: GatewayRoute): Promise<ToolHandler> => {
    let handler = handlers.get(route.entry);
    if (!handler) {
      handler = Promise.resolve(resolveHandler(route));
      handlers.set(route.entry, handler);
      handler.catch(() => handlers.delete(route.entry));
    }
    return handler;
  };

  // What API Gateway puts in requestContext.domainName: the address it serves, never the client's Host header.
  // Locally that is the loopback address and port, known once listening (no request arrives before then).
  let domainName = host;
  let authorizationServer: ReturnType<typeof localAuthorizationServer> | undefined;
  const server = createServer((req, res) => {
    const started = performance.now();
    const pathname = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const invocation: { trace?: InvocationTrace } = {};
    const handled =
      authorizationServer?.handles(pathname) === true
        ? authorizationServer.handle(req, res)
        : serve(req, res, table, handlerFor, domainName, invocation);
    handled
      .catch((error: unknown) => {
        console.error("local gateway: request failed", error);
        if (!res.headersSent) sendError(res, new InternalError("The local gateway failed while handling the request. Retry it."));
        else res.destroy();
      })
      .finally(() =>
        log(`${req.method} ${req.url} → ${res.statusCode} (${Math.round(performance.now() - started)} ms)${traceNote(invocation.trace)}`),
      );
  });
  // Handlers are quick; a slow client must not hold a socket forever.
  server.requestTimeout = 30_000;

  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  domainName = `${host}:${port}`;
  authorizationServer = localAuthorizationServer(`http://${domainName}`);

  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  table: readonly GatewayRoute[],
  handlerFor: (route: GatewayRoute) => Promise<ToolHandler>,
  domainName: string,
  invocation: { trace?: InvocationTrace },
): Promise<void> {
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const match = matchRoute(method, url.pathname, table);

  if (match.kind === "not-found") {
    req.resume();
    return sendJson(res, 404, routeError("NOT_FOUND", `There is no route ${url.pathname}. The routes are: ${describeRoutes(table)}.`));
  }
  if (match.kind === "method-not-allowed") {
    req.resume();
    return sendJson(
      res,
      405,
      routeError("METHOD_NOT_ALLOWED", `${url.pathname} does not take ${method}; use ${match.allow.join(" or ")}.`),
      { allow: match.allow.join(", ") },
    );
  }
  const { route, pathParameters } = match;

  const body = await readRequestBody(req);
  if (body.tooLarge) {
    const error = new InvalidInputError([
      {
        path: "",
        message: `The body is ${body.bytes}${body.complete ? "" : " or more"} bytes; the limit is ${maxBodyBytes} bytes (16 KiB). Send only the tool's arguments.`,
      },
    ]);
    return sendError(res, error, 413, body.complete ? {} : { connection: "close" });
  }

  let claims: Record<string, string> = {};
  let scopes: string[] = [];
  if (route.access === "token") {
    const authorized = await authorize(req.headers.authorization, route.scope);
    if (!authorized.ok) {
      return sendError(
        res,
        authorized.error,
        undefined,
        authorized.error.httpStatus === 401 ? { "www-authenticate": 'Bearer realm="order-tools"' } : {},
      );
    }
    ({ claims, scopes } = authorized);
  }

  const event = apiGatewayEvent({
    method: route.method,
    path: url.pathname,
    routeKey: routeKey(route),
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    headers: forwardedHeaders(req),
    ...(body.text !== "" ? { body: body.text } : {}),
    claims,
    scopes,
  });
  event.requestContext.domainName = domainName;
  if (url.search !== "") {
    event.rawQueryString = url.search.slice(1);
    event.queryStringParameters = queryParameters(url.searchParams);
  }
  // A route without an authorizer gets no authorizer context from API Gateway.
  if (route.access !== "token") delete (event.requestContext as { authorizer?: unknown }).authorizer;

  const handler = await handlerFor(route);
  const context = lambdaContext(route.name);
  invocation.trace = { caller: callerTraceId(event.headers) };
  const result = await runInvocation(context.awsRequestId, invocation.trace, () => handler(event, context));
  sendResult(res, result);
}

/** ` trace 1-…` on the request line of a request a function answered, and the trace the caller sent, if any. */
function traceNote(trace: InvocationTrace | undefined): string {
  if (!trace?.traceId) return "";
  return ` trace ${trace.traceId}${trace.caller ? ` (caller's trace ${trace.caller})` : ""}`;
}

type Authorization = { ok: true; claims: Record<string, string>; scopes: string[] } | { ok: false; error: ToolError };

/** What API Gateway's JWT authorizer decides for a route, with its one authorization scope if it has one. */
async function authorize(header: string | undefined, scope: string | undefined): Promise<Authorization> {
  if (header === undefined || header.trim() === "") {
    return {
      ok: false,
      error: new UnauthenticatedError(
        "No bearer token came with the request. Send `Authorization: Bearer <token>`; get a local one with `npm run --silent token -- --customer C-1001`.",
      ),
    };
  }
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (token === undefined) {
    return {
      ok: false,
      error: new UnauthenticatedError(
        "The Authorization header must be `Bearer <token>`. Get a local token with `npm run --silent token -- --customer C-1001`.",
      ),
    };
  }
  const check = await verifyDevToken(token);
  if (!check.ok) return { ok: false, error: new UnauthenticatedError(check.message) };
  const scopes = tokenScopes(check.payload);
  if (scope !== undefined && !scopes.includes(scope)) {
    return {
      ok: false,
      error: new ForbiddenError(
        `This route needs the scope ${scope}, and the token carries ${scopes.length > 0 ? scopes.join(" ") : "no scope"}. Ask for a token with ${scope} as well, e.g. \`${tokenCommandWithScopes(check.payload, [scope])}\`.`,
        scope,
      ),
    };
  }
  return { ok: true, claims: apiGatewayClaims(check.payload), scopes };
}

/** A handler module's `handler`, as the Lambda runtime loads it (tsx or vitest compile the .ts on the way). */
export async function importHandler(entry: string): Promise<ToolHandler> {
  const module = (await import(pathToFileURL(join(repoRoot, entry)).href)) as { handler?: unknown };
  if (typeof module.handler !== "function") throw new Error(`${entry} does not export a handler function`);
  return module.handler as ToolHandler;
}

interface RequestBody {
  text: string;
  bytes: number;
  tooLarge: boolean;
  /** Whether the whole body was read (false when we stopped past the drain limit). */
  complete: boolean;
}

/** Reads at most 16 KiB; a longer body is counted (up to API Gateway's own 10 MB) but not kept. */
function readRequestBody(req: IncomingMessage): Promise<RequestBody> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? Number.NaN);
    if (declared > drainLimitBytes) {
      req.pause();
      resolve({ text: "", bytes: declared, tooLarge: true, complete: false });
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= maxBodyBytes) chunks.push(chunk);
      else chunks.length = 0;
      if (bytes > drainLimitBytes) {
        req.pause();
        resolve({ text: "", bytes, tooLarge: true, complete: false });
      }
    });
    req.once("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8"), bytes, tooLarge: bytes > maxBodyBytes, complete: true }));
    req.once("error", reject);
  });
}

/** Header names lower-cased (Node already does), repeated headers joined with commas, as API Gateway does. */
function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(",") : value;
  }
  headers["x-forwarded-for"] ??= req.socket.remoteAddress ?? "127.0.0.1";
  headers["x-forwarded-proto"] ??= "http";
  headers["x-forwarded-port"] ??= String(req.socket.localPort ?? "");
  return headers;
}

function queryParameters(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of new Set(params.keys())) out[name] = params.getAll(name).join(",");
  return out;
}

/** Maps a function's result back as API Gateway does for payload v2.0 (a result without statusCode is a 200 JSON body). */
function sendResult(res: ServerResponse, result: HttpResult | string | undefined): void {
  if (result === undefined || typeof result === "string" || typeof result.statusCode !== "number") {
    sendJson(res, 200, result ?? null);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (result.cookies?.length) headers["set-cookie"] = result.cookies;
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8");
  headers["content-type"] ??= "application/json";
  headers["content-length"] = String(body.length);
  res.writeHead(result.statusCode, headers);
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: ToolError, status = error.httpStatus, headers: Record<string, string> = {}): void {
  sendJson(res, status, error.toJSON(), headers);
}

/** 404 and 405 come from the gateway, not a tool; their bodies have the same shape as every other failure. */
function routeError(code: "NOT_FOUND" | "METHOD_NOT_ALLOWED", message: string) {
  return { error: { code, message, retryable: false } };
}

function describeRoutes(table: readonly GatewayRoute[]): string {
  return table.map(routeKey).join(", ");
}
