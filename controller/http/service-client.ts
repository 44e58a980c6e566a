import { type ToolName, toolPath } from "#contract/tools";
import { describeError } from "#controller/error-text";
import type { Fetch } from "#controller/http/faults";

/**
 * The controller's only way to the service: HTTP (contract §2) with the signed-in customer's own bearer token.
 * It never retries by itself: whether a retry is safe is the controller's decision (reconciliation, same
 * operationId), not the transport's.
 */
export interface ServiceOptions {
  /** The API's base URL, e.g. http://127.0.0.1:3000 or the deployed HTTP API's URL. */
  baseUrl: string;
  /** The customer's bearer token, or a function that returns a current one (called per request). */
  token: string | (() => string | Promise<string>);
  /** Any fetch; tests and the harness wrap it to inject faults. Default: the global fetch. */
  fetch?: Fetch;
  /** Per request; past it the request counts as timed out and its outcome as unknown. Default 10 s. */
  timeoutMs?: number;
}

export interface HttpRequestInfo {
  tool: ToolName;
  method: "POST";
  path: string;
  body: Record<string, unknown>;
  /** The trace headers sent with it (contract §8.1), if any. */
  traceHeaders?: TraceHeaders;
}

/** `traceparent`, and `x-amzn-trace-id` where the application has an X-Ray trace. */
export type TraceHeaders = { traceparent: string; "x-amzn-trace-id"?: string };

export type Exchange =
  | { kind: "response"; status: number; replayed: boolean; body: unknown; text: string; ms: number }
  | { kind: "failure"; failure: "timeout" | "network"; message: string; ms: number };

export interface ExchangeListener {
  request(info: HttpRequestInfo): void;
  exchange(info: HttpRequestInfo, exchange: Exchange): void;
}

export class ServiceClient {
  private readonly baseUrl: string;
  private readonly fetch: Fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: ServiceOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new Error(
        `service.baseUrl must be an absolute http(s) URL like http://127.0.0.1:3000, not ${JSON.stringify(options.baseUrl)}.`,
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new Error(`service.baseUrl must be http or https, not ${url.protocol}`);
    this.baseUrl = url.href.replace(/\/+$/, "");
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /**
   * POSTs a tool's arguments to its route and reports what came back, or how it failed. `deadlineMs` (epoch ms)
   * caps the request's own timeout: the turn's time bound covers every HTTP call. `traceHeaders` go with it.
   */
  async call(
    tool: ToolName,
    body: Record<string, unknown>,
    listener?: ExchangeListener,
    bound: { deadlineMs?: number; traceHeaders?: TraceHeaders } = {},
  ): Promise<Exchange> {
    const path = toolPath(tool);
    const info: HttpRequestInfo = {
      tool,
      method: "POST",
      path,
      body,
      ...(bound.traceHeaders ? { traceHeaders: bound.traceHeaders } : {}),
    };
    listener?.request(info);
    const started = performance.now();
    const ms = () => Math.round((performance.now() - started) * 10) / 10;
    let exchange: Exchange;
    try {
      const token = typeof this.options.token === "function" ? await this.options.token() : this.options.token;
      const response = await this.fetch(`${this.baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...bound.traceHeaders },
        body: JSON.stringify(body),
        // Whole milliseconds: AbortSignal.timeout throws on a fraction, and a deadline is one (performance.now()).
        signal: AbortSignal.timeout(
          Math.max(1, Math.floor(Math.min(this.timeoutMs, (bound.deadlineMs ?? Number.POSITIVE_INFINITY) - Date.now()))),
        ),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text === "" ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      exchange = {
        kind: "response",
        status: response.status,
        replayed: response.headers.get("idempotent-replayed") === "true",
        body: parsed,
        text,
        ms: ms(),
      };
    } catch (error) {
      const name = (error as Error).name;
      exchange = {
        kind: "failure",
        failure: name === "TimeoutError" || name === "AbortError" ? "timeout" : "network",
        // With its causes: fetch's own message is only "fetch failed"; the cause names the refused port or unknown host.
        message: describeError(error),
        ms: ms(),
      };
    }
    listener?.exchange(info, exchange);
    return exchange;
  }
}
