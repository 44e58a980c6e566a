import { randomUUID } from "node:crypto";
import type { HttpEvent } from "#runtime/http";

export interface EventInput {
  method: "GET" | "POST" | "DELETE";
  /** The concrete path, e.g. /v1/operations/op-12345678. */
  path: string;
  /** The route template API Gateway matched, e.g. GET /v1/operations/{operationId}. */
  routeKey?: string;
  pathParameters?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  claims?: Record<string, string | number | boolean | string[]>;
  scopes?: string[];
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** API Gateway's request time format: `29/Nov/2026:17:20:10 +0000`. */
function requestTime(at: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getUTCDate())}/${months[at.getUTCMonth()]}/${at.getUTCFullYear()}:${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} +0000`;
}

/**
 * The API Gateway HTTP API payload v2.0 event that a deployed function receives for this request, with the
 * JWT authorizer's claims and scopes. The MCP function (for each tools/call), the local gateway, `invoke`, the
 * sample events and the tests all build events here, so they all feed handlers what AWS would.
 */
export function apiGatewayEvent(input: EventInput): HttpEvent {
  const now = new Date();
  const headers = Object.fromEntries(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    version: "2.0",
    routeKey: input.routeKey ?? `${input.method} ${input.path}`,
    rawPath: input.path,
    rawQueryString: "",
    headers: input.body !== undefined ? { "content-type": "application/json", ...headers } : headers,
    requestContext: {
      accountId: "000000000000",
      apiId: "local",
      authorizer: {
        principalId: "",
        integrationLatency: 0,
        jwt: {
          claims: (input.claims ?? {}) as Record<string, string>,
          scopes: input.scopes ?? [],
        },
      },
      domainName: "127.0.0.1",
      domainPrefix: "127",
      http: {
        method: input.method,
        path: input.path,
        protocol: "HTTP/1.1",
        sourceIp: "127.0.0.1",
        userAgent: headers["user-agent"] ?? "order-tools",
      },
      requestId: randomUUID(),
      routeKey: input.routeKey ?? `${input.method} ${input.path}`,
      stage: "$default",
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    ...(input.pathParameters ? { pathParameters: input.pathParameters } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    isBase64Encoded: false,
  };
}
