import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { base64url, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployedTools as tools } from "#deploy/tool-functions";
import { devAudience, devIssuer, devSigningKey, principalClaims, signDevToken } from "#local/dev-auth";
import { type Gateway, importHandler, startGateway } from "#local/gateway";
import { routeKey, routes } from "#local/routes";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { operationKey, orderKey } from "#store/keys";
import type { HttpEvent } from "#runtime/http";
import { createHandler as createGetOrder } from "#tools/get-order";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/** The local gateway over real HTTP, in front of the real handlers and fresh tables on the run's DynamoDB Local. */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;
/** The last event each handler was given, so tests can see exactly what the function received. */
const seen: HttpEvent[] = [];

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await startGateway({
    port: 0,
    resolveHandler: async (route) => {
      const handler = await importHandler(route.entry);
      return (event, context) => {
        seen.push(structuredClone(event));
        return handler(event, context);
      };
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

const ana = () => signDevToken(principalClaims({ customer: "C-1001" }));

async function call(path: string, init: { method?: string; token?: string | null; body?: string; headers?: Record<string, string> } = {}) {
  const token = init.token === undefined ? await ana() : init.token;
  const response = await fetch(`${gateway.url}${path}`, {
    method: init.method ?? "POST",
    headers: { ...(token !== null ? { authorization: `Bearer ${token}` } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : (JSON.parse(text) as Record<string, any>) };
}

const storedOrder = async (orderId: string) =>
  (await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true }))).Item;

/** Every refusal has the contract §3 shape; 401 and 403 carry nothing else but requiredScope. */
function expectRefusal(reply: Awaited<ReturnType<typeof call>>, status: 401 | 403, message: RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers.get("content-type")).toBe("application/json");
  const code = status === 401 ? "UNAUTHENTICATED" : "FORBIDDEN";
  expect(Object.keys(reply.body?.error ?? {}).sort()).toEqual(
    status === 401 ? ["code", "message", "retryable"] : ["code", "message", "requiredScope", "retryable"],
  );
  expect(reply.body).toEqual({ error: expect.objectContaining({ code, retryable: false, message: expect.stringMatching(message) }) });
}

describe("local gateway: a tokened request reaches the real handler", () => {
  it("a customer cancels their order over HTTP: 200 with the tool's body, the order cancelled and the operation recorded", async () => {
    const operationId = "op-gateway-happy-0001";
    const reply = await call("/v1/tools/cancel_order", { body: JSON.stringify({ operationId, orderId: "SU-10002", expectedVersion: 4 }) });

    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("application/json");
    expect(reply.headers.get("idempotent-replayed")).toBeNull();
    expect(reply.body).toEqual({ operationId, status: "completed", orderId: "SU-10002", orderVersion: 5, orderStatus: "cancelled" });
    expect(await storedOrder("SU-10002")).toMatchObject({ status: "cancelled", version: 5 });
    const record = await deps.doc.send(
      new GetCommand({ TableName: deps.tables.orders, Key: operationKey("user-C-1001", operationId), ConsistentRead: true }),
    );
    expect(record.Item).toMatchObject({ tool: "cancel_order", status: "completed", orderVersion: 5 });

    const replay = await call("/v1/tools/cancel_order", { body: JSON.stringify({ operationId, orderId: "SU-10002", expectedVersion: 4 }) });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(reply.body);
    expect(await storedOrder("SU-10002")).toMatchObject({ status: "cancelled", version: 5 });
  });

  it("the handler gets the exact API Gateway v2 event: route key, raw path and query, lower-case headers, body, string claims, scopes", async () => {
    const body = JSON.stringify({ operationId: "op-gateway-event-0001", orderId: "SU-99999" });
    seen.length = 0;
    const reply = await call("/v1/tools/cancel_order?trace=1&trace=2", {
      body,
      headers: { "X-Custom-Header": "Mixed", "Content-Type": "application/json" },
    });
    expect(reply.status).toBe(404);
    expect(reply.body?.error.code).toBe("ORDER_NOT_FOUND");

    const event = seen.at(-1) as HttpEvent;
    expect(event).toMatchObject({
      version: "2.0",
      routeKey: "POST /v1/tools/cancel_order",
      rawPath: "/v1/tools/cancel_order",
      rawQueryString: "trace=1&trace=2",
      queryStringParameters: { trace: "1,2" },
      body,
      isBase64Encoded: false,
      requestContext: {
        routeKey: "POST /v1/tools/cancel_order",
        stage: "$default",
        http: { method: "POST", path: "/v1/tools/cancel_order" },
      },
    });
    expect(event.pathParameters).toBeUndefined();
    expect(event.headers).toMatchObject({
      "x-custom-header": "Mixed",
      "content-type": "application/json",
      authorization: expect.stringMatching(/^Bearer ey/),
    });
    expect(Object.keys(event.headers).every((name) => name === name.toLowerCase())).toBe(true);
    const { claims, scopes } = event.requestContext.authorizer.jwt;
    expect(claims).toMatchObject({
      sub: "user-C-1001",
      customer_id: "C-1001",
      scope: "orders:read orders:write",
      iss: devIssuer,
      aud: devAudience,
    });
    expect(Object.values(claims).every((value) => typeof value === "string")).toBe(true);
    expect(claims.exp).toMatch(/^\d+$/);
    expect(scopes).toEqual(["orders:read", "orders:write"]);
  });

  it("a path parameter reaches the function decoded, under the route template's key", async () => {
    seen.length = 0;
    const reply = await call("/v1/operations/op-gateway-happy-0001", { method: "GET" });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      operationId: "op-gateway-happy-0001",
      status: "completed",
      tool: "cancel_order",
      orderId: "SU-10002",
    });
    const event = seen.at(-1) as HttpEvent;
    expect(event.routeKey).toBe("GET /v1/operations/{operationId}");
    expect(event.rawPath).toBe("/v1/operations/op-gateway-happy-0001");
    expect(event.pathParameters).toEqual({ operationId: "op-gateway-happy-0001" });
    expect(event.body).toBeUndefined();
  });

  it("serves every route of every tool in the registry, each behind its scope", async () => {
    expect(routes.filter((r) => r.access === "token" && r.scope !== undefined).map(routeKey)).toEqual(
      tools.flatMap((tool) => tool.routes.map(routeKey)),
    );
    for (const tool of tools) {
      for (const route of tool.routes) {
        const path = route.path.replace("{operationId}", "op-gateway-routes-0001");
        const body = route.method === "POST" ? { body: "{}" } : {};
        const reply = await call(path, { method: route.method, token: null, ...body });
        expect(reply.status, routeKey(route)).toBe(401);
        const narrow = await signDevToken(principalClaims({ customer: "C-1001" }, "orders:none"));
        const forbidden = await call(path, { method: route.method, token: narrow, ...body });
        expect(forbidden.status, routeKey(route)).toBe(403);
        expect(forbidden.body?.error.requiredScope).toBe(tool.scope);
      }
    }
  });

  it("serves the service functions' routes as deployed: the catalogue, OpenAPI document and OAuth metadata without a token, MCP with one it checks itself", async () => {
    // These need no scope; the catalogue, the OpenAPI document and the metadata need no token either.
    expect(
      routes
        .filter((r) => r.scope === undefined)
        .map(routeKey)
        .sort(),
    ).toEqual([
      "DELETE /v1/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-protected-resource/v1/mcp",
      "GET /v1/mcp",
      "GET /v1/openapi.json",
      "GET /v1/tools",
      "POST /v1/mcp",
    ]);
    expect(
      routes
        .filter((r) => r.access === "public")
        .map(routeKey)
        .sort(),
    ).toEqual([
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-protected-resource/v1/mcp",
      "GET /v1/openapi.json",
      "GET /v1/tools",
    ]);
    expect(
      routes
        .filter((r) => r.access === "self")
        .map(routeKey)
        .sort(),
    ).toEqual(["DELETE /v1/mcp", "GET /v1/mcp", "POST /v1/mcp"]);
    for (const route of routes.filter((r) => r.access === "public")) {
      const reply = await call(route.path, { method: route.method, token: null });
      expect(reply.status, routeKey(route)).toBe(200);
    }
    for (const route of routes.filter((r) => r.access === "self" && r.method === "POST")) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      expect((await call(route.path, { token: null, body, headers })).status, routeKey(route)).toBe(401);
      expect((await call(route.path, { body, headers })).status, routeKey(route)).not.toBe(401);
    }
  });
});

describe("local gateway: a refusal that says when to try again says it in Retry-After too", () => {
  it("the request budget spent: 429 over HTTP with Retry-After equal to the body's retryAfterSeconds", async () => {
    // One request a minute for this gateway's get_order, so the second is over budget.
    const budgeted = await startGateway({
      port: 0,
      resolveHandler: async (route) =>
        route.name === "get_order" ? createGetOrder({ ...deps, requestBudget: 1 }) : importHandler(route.entry),
    });
    try {
      const token = await signDevToken({ ...principalClaims({ customer: "C-1001" }), sub: `budget-${Date.now()}` });
      const ask = () =>
        fetch(`${budgeted.url}/v1/tools/get_order`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify({ orderId: "SU-10001" }),
        });
      expect((await ask()).status).toBe(200);
      const limited = await ask();
      const body = (await limited.json()) as Record<string, any>;
      expect(limited.status).toBe(429);
      expect(body.error).toMatchObject({ code: "RATE_LIMITED", retryable: true, retryAfterSeconds: expect.any(Number) });
      expect(limited.headers.get("retry-after")).toBe(String(body.error.retryAfterSeconds));
    } finally {
      await budgeted.close();
    }
  });
});

describe("local gateway: tokens are checked as API Gateway's JWT authorizer checks them", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cancelBody = JSON.stringify({ operationId: "op-gateway-token-0001", orderId: "SU-10001" });

  /** Refused before any function runs: the order is untouched and no handler saw the request. */
  async function expectRefusedAndNothingChanged(
    token: string | null,
    status: 401 | 403,
    message: RegExp,
    headers: Record<string, string> = {},
  ) {
    seen.length = 0;
    const reply = await call("/v1/tools/cancel_order", { token, body: cancelBody, headers });
    expectRefusal(reply, status, message);
    expect(seen).toHaveLength(0);
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
    return reply;
  }

  it("no token: 401 UNAUTHENTICATED with a WWW-Authenticate challenge", async () => {
    const reply = await expectRefusedAndNothingChanged(null, 401, /No bearer token/);
    expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("not a Bearer header: 401", async () => {
    await expectRefusedAndNothingChanged(null, 401, /must be `Bearer <token>`/, { authorization: "Basic YW5hOnNlY3JldA==" });
  });

  it("an expired token: 401 naming when it expired", async () => {
    const token = await signDevToken({ ...principalClaims({ customer: "C-1001" }), iat: now() - 7200, nbf: now() - 7200, exp: now() - 60 });
    await expectRefusedAndNothingChanged(token, 401, /expired at \d{4}-\d\d-\d\dT/);
  });

  it("a token that is not valid yet (nbf in the future): 401", async () => {
    const token = await signDevToken({ ...principalClaims({ customer: "C-1001" }), nbf: now() + 600 });
    await expectRefusedAndNothingChanged(token, 401, /not valid yet/);
  });

  it("a token without an expiry: 401", async () => {
    const key = await devSigningKey();
    const token = await new SignJWT({ ...principalClaims({ customer: "C-1001" }), iss: devIssuer, aud: devAudience })
      .setProtectedHeader({ alg: "RS256", kid: key.kid })
      .sign(key.privateKey);
    await expectRefusedAndNothingChanged(token, 401, /no expiry/);
  });

  it("the wrong audience: 401 naming the audience accepted", async () => {
    const token = await signDevToken({ ...principalClaims({ customer: "C-1001" }), aud: "another-api" });
    await expectRefusedAndNothingChanged(token, 401, new RegExp(`"another-api".*accepts the audience ${devAudience}`));
  });

  it("the wrong issuer: 401 naming the issuer accepted", async () => {
    const token = await signDevToken({ ...principalClaims({ customer: "C-1001" }), iss: "https://login.example.com/" });
    await expectRefusedAndNothingChanged(token, 401, /issued by "https:\/\/login\.example\.com\/".*accepts tokens issued by/);
  });

  it("a bad signature (another key, the trusted key id): 401", async () => {
    const key = await devSigningKey();
    const { privateKey } = await generateKeyPair("RS256");
    const token = await new SignJWT({ ...principalClaims({ customer: "C-1001" }), iss: devIssuer, aud: devAudience, exp: now() + 600 })
      .setProtectedHeader({ alg: "RS256", kid: key.kid })
      .sign(privateKey);
    await expectRefusedAndNothingChanged(token, 401, /signature does not verify/);
  });

  it("a signature tampered with after signing (claims swapped to another customer): 401", async () => {
    const [header, , signature] = (await ana()).split(".");
    const forged = base64url.encode(
      JSON.stringify({ ...principalClaims({ customer: "C-2002" }), iss: devIssuer, aud: devAudience, exp: now() + 600 }),
    );
    await expectRefusedAndNothingChanged(`${header}.${forged}.${signature}`, 401, /signature does not verify/);
  });

  it("an unknown key id: 401", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const token = await new SignJWT({ ...principalClaims({ customer: "C-1001" }), iss: devIssuer, aud: devAudience, exp: now() + 600 })
      .setProtectedHeader({ alg: "RS256", kid: "someone-elses-key" })
      .sign(privateKey);
    await expectRefusedAndNothingChanged(token, 401, /key id \(kid\)/);
  });

  it("alg none (an unsigned token), with or without the trailing dot: 401", async () => {
    const key = await devSigningKey();
    const header = base64url.encode(JSON.stringify({ alg: "none", typ: "JWT", kid: key.kid }));
    const payload = base64url.encode(
      JSON.stringify({ ...principalClaims({ customer: "C-1001" }), iss: devIssuer, aud: devAudience, exp: now() + 600 }),
    );
    await expectRefusedAndNothingChanged(`${header}.${payload}.`, 401, /not a valid signed JWT|not signed with RS256/);
    await expectRefusedAndNothingChanged(`${header}.${payload}`, 401, /not a valid signed JWT/);
  });

  it("HS256 signed with the public key as the secret (algorithm confusion): 401", async () => {
    const key = await devSigningKey();
    const secret = new TextEncoder().encode(JSON.stringify({ kty: "RSA", n: key.publicJwk.n, e: key.publicJwk.e }));
    const token = await new SignJWT({ ...principalClaims({ customer: "C-1001" }), iss: devIssuer, aud: devAudience, exp: now() + 600 })
      .setProtectedHeader({ alg: "HS256", kid: key.kid })
      .sign(secret);
    await expectRefusedAndNothingChanged(token, 401, /not signed with RS256/);
  });

  it("a token without the route's scope: 403 FORBIDDEN with requiredScope", async () => {
    const token = await signDevToken(principalClaims({ customer: "C-1001" }, "orders:read"));
    await expectRefusedAndNothingChanged(token, 403, /needs the scope orders:write/);
    const reply = await call("/v1/tools/cancel_order", { token, body: cancelBody });
    expect(reply.body?.error.requiredScope).toBe("orders:write");
  });

  it("the 403 suggests a token for the same principal with the scope it lacks added, not one that drops what it had", async () => {
    const cases = [
      [{ customer: "C-1001" }, "orders:read", `--customer C-1001 --scope "orders:read orders:write"`],
      [{ seller: "SLR-2210" }, "orders:read", `--seller SLR-2210 --scope "orders:read orders:write"`],
      [{ support: "S-7" }, "orders:read orders:support", `--support S-7 --scope "orders:read orders:write orders:support"`],
    ] as const;
    for (const [principal, scope, advice] of cases) {
      const reply = await expectRefusedAndNothingChanged(
        await signDevToken(principalClaims(principal, scope)),
        403,
        /needs the scope orders:write/,
      );
      expect(reply.body?.error.message).toContain(`\`npm run --silent token -- ${advice}\``);
    }

    // Following the advice for the read-only customer: the token it describes (what `npm run token` signs for
    // those arguments) reads and writes.
    const message = String(
      (
        await call("/v1/tools/cancel_order", {
          token: await signDevToken(principalClaims({ customer: "C-1001" }, "orders:read")),
          body: cancelBody,
        })
      ).body?.error.message,
    );
    const [, id, scopes] = /token -- --customer (\S+) --scope "([^"]+)"/.exec(message) ?? [];
    const advised = await signDevToken(principalClaims({ customer: id as string }, scopes));
    const read = await call("/v1/operations/op-gateway-never-sent", { method: "GET", token: advised });
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ status: "not_found", error: { code: "OPERATION_NOT_FOUND" } });
    const write = await call("/v1/tools/cancel_order", {
      token: advised,
      body: JSON.stringify({ operationId: "op-gateway-advice-0001", orderId: "SU-99999" }),
    });
    expect(write.status).toBe(404);
    expect(write.body?.error.code).toBe("ORDER_NOT_FOUND");
  });

  it("a read scope is enough for a reading route", async () => {
    const token = await signDevToken(principalClaims({ customer: "C-1001" }, "orders:read"));
    const reply = await call("/v1/operations/op-gateway-never-sent", { method: "GET", token });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ operationId: "op-gateway-never-sent", status: "not_found", error: { code: "OPERATION_NOT_FOUND" } });
  });
});

describe("local gateway: requests that never reach a function", () => {
  it("an unknown path: 404 JSON listing the routes", async () => {
    const reply = await call("/v1/tools/launch_rocket", { body: "{}" });
    expect(reply.status).toBe(404);
    expect(reply.headers.get("content-type")).toBe("application/json");
    expect(reply.body).toEqual({
      error: { code: "NOT_FOUND", retryable: false, message: expect.stringContaining("POST /v1/tools/cancel_order") },
    });
  });

  it("a known path with the wrong method: 405 JSON with Allow", async () => {
    const reply = await call("/v1/tools/cancel_order", { method: "GET" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("POST");
    expect(reply.body).toEqual({ error: { code: "METHOD_NOT_ALLOWED", retryable: false, message: expect.stringContaining("use POST") } });
    const put = await call("/v1/operations/op-gateway-happy-0001", { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET");
  });

  it("a body over 16 KiB: 413 with an INVALID_INPUT body, and the order untouched", async () => {
    seen.length = 0;
    const body = JSON.stringify({ operationId: "op-gateway-large-0001", orderId: "SU-10001", reason: "x".repeat(17_000) });
    const reply = await call("/v1/tools/cancel_order", { body });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({
      error: {
        code: "INVALID_INPUT",
        retryable: false,
        message: expect.stringMatching(/limit is 16384 bytes/),
        issues: [{ path: "", message: expect.stringMatching(/limit is 16384 bytes/) }],
      },
    });
    expect(seen).toHaveLength(0);
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("a body of exactly 16 KiB goes through to the function", async () => {
    seen.length = 0;
    const prefix = JSON.stringify({ operationId: "op-gateway-edge-0001", orderId: "SU-99999", reason: "" });
    const body = `${prefix.slice(0, -2)}${"x".repeat(16 * 1024 - prefix.length)}"}`;
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    const reply = await call("/v1/tools/cancel_order", { body });
    expect(reply.status).toBe(400); // the reason is too long for the schema: the function answered, not the gateway
    expect(seen).toHaveLength(1);
  });

  it("a body that is not JSON: 400 INVALID_INPUT with a non-empty issues list", async () => {
    const reply = await call("/v1/tools/cancel_order", { body: "orderId=SU-10001" });
    expect(reply.status).toBe(400);
    expect(reply.body?.error).toMatchObject({ code: "INVALID_INPUT", retryable: false });
    expect(reply.body?.error.issues.length).toBeGreaterThan(0);
    expect(reply.body?.error.issues[0].message).toMatch(/not valid JSON/);
    expect(await storedOrder("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("an empty body: 400 INVALID_INPUT saying what to send", async () => {
    const reply = await call("/v1/tools/cancel_order", {});
    expect(reply.status).toBe(400);
    expect(reply.body?.error.issues[0].message).toMatch(/empty; send the tool's arguments as a JSON object/);
  });
});
