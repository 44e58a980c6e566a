import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";
import type { HttpEvent } from "#tools/http";

export interface EventInput {
  method: "GET" | "POST";
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

/**
 * The API Gateway HTTP API payload v2.0 event that a deployed function receives for this request, with the
 * JWT authorizer's claims and scopes. The local gateway, `invoke`, the sample events and the tests all
 * build events here, so they all feed handlers what AWS would.
 */
export function apiGatewayEvent(input: EventInput): HttpEvent {
  const now = new Date();
  const headers = Object.fromEntries(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    version: "2.0",
    routeKey: input.routeKey ?? `${input.method} ${input.path}`,
    rawPath: input.path,
    rawQueryString: "",
    headers: { "content-type": "application/json", ...headers },
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
      http: { method: input.method, path: input.path, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: headers["user-agent"] ?? "order-tools" },
      requestId: randomUUID(),
      routeKey: input.routeKey ?? `${input.method} ${input.path}`,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(input.pathParameters ? { pathParameters: input.pathParameters } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    isBase64Encoded: false,
  };
}

/** A Lambda-like context: Powertools needs the remaining time to bound an in-progress record. */
export function lambdaContext(functionName: string, timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:000000000000:function:${functionName}`,
    memoryLimitInMB: "512",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
