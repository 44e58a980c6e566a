import {
  Client,
  type OAuthClientInformationContext,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { createHash, randomBytes } from "node:crypto";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devSigningKey } from "#local/dev-auth";
import { type Gateway, startGateway } from "#local/gateway";
import type { localDeps } from "#local/stack";
import { parseFixture } from "#store/fixture";
import { seededLocalTables } from "#test/support/local-tables";
import { testFixture } from "#test/support/test-shop";

/**
 * What an MCP client does against `npm start` with no pasted token: the official client (2.x) reads the 401's
 * challenge, the protected-resource metadata and the authorization server's metadata, registers itself, sends
 * the browser to sign in — here this test is the browser: it follows the redirects, keeps the cookies and
 * submits the sign-in form — and exchanges the code (PKCE, resource indicator) for a token it then calls with.
 */

let gateway: Gateway;
let deps: ReturnType<typeof localDeps>;

beforeAll(async () => {
  deps = await seededLocalTables(parseFixture(testFixture()));
  gateway = await startGateway({ port: 0 });
});

afterAll(async () => {
  await gateway?.close();
  deps?.client.destroy();
});

const redirectUrl = "http://127.0.0.1:8976/callback";

/** An in-memory OAuthClientProvider, as the SDK's guide writes one; the redirect is recorded for the "browser". */
class RecordingProvider implements OAuthClientProvider {
  private readonly creds = new Map<string, OAuthClientInformationMixed>();
  private stored?: OAuthTokens;
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;
  lastState?: string;
  authorizationUrl?: URL;
  readonly redirectUrl = redirectUrl;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "order-tools OAuth test",
    redirect_uris: [redirectUrl],
    application_type: "native",
  };
  clientInformation(ctx?: OAuthClientInformationContext) {
    return ctx ? this.creds.get(ctx.issuer) : undefined;
  }
  saveClientInformation(info: OAuthClientInformationMixed, ctx?: OAuthClientInformationContext) {
    if (ctx) this.creds.set(ctx.issuer, info);
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  state() {
    this.lastState = crypto.randomUUID();
    return this.lastState;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error("no code verifier");
    return this.verifier;
  }
}

/** A browser that follows redirects by hand, keeping cookies, until it is sent to the client's redirect URL. */
async function browse(start: URL, signInAs: string): Promise<{ callback: URL; signInPage: string }> {
  const cookies = new Map<string, string>();
  const send = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = (pair as string).split("=");
      cookies.set(name as string, value.join("="));
    }
    return response;
  };
  let url = start;
  let signInPage = "";
  for (let hop = 0; hop < 10; hop++) {
    const response = await send(url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get("location") as string, url);
      if (url.href.startsWith(redirectUrl)) return { callback: url, signInPage };
      continue;
    }
    expect(response.status, `GET ${url.pathname}`).toBe(200);
    signInPage = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(signInPage)?.[1];
    expect(action, "the sign-in page has a form").toBeDefined();
    const posted = await send(new URL(action as string, url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ principal: signInAs }).toString(),
    });
    expect(posted.status, "the sign-in form redirects back to the authorization endpoint").toBe(303);
    url = new URL(posted.headers.get("location") as string, url);
  }
  throw new Error(`no redirect to ${redirectUrl} after 10 hops`);
}

/** The whole chain for one principal: 401 → metadata → registration → sign-in → code → token; the connected client. */
async function signInThroughTheClient(signInAs: string) {
  const mcpUrl = new URL(`${gateway.url}/v1/mcp`);
  const provider = new RecordingProvider();
  const client = new Client({ name: "order-tools-oauth-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const failure = await client.connect(first).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = provider.authorizationUrl as URL;
  expect(authorizationUrl.origin).toBe(gateway.url);
  expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
    response_type: "code",
    code_challenge_method: "S256",
    code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    resource: mcpUrl.href,
    scope: expect.stringContaining("orders:read orders:write"),
    redirect_uri: redirectUrl,
  });

  const { callback, signInPage } = await browse(authorizationUrl, signInAs);
  expect(callback.searchParams.get("state")).toBe(provider.lastState);
  expect(callback.searchParams.get("code")).toBeTruthy();
  await first.finishAuth(callback.searchParams);
  const token = provider.tokens()?.access_token as string;
  expect(token).toBeTruthy();

  const connected = new Client({ name: "order-tools-oauth-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  const clientId = authorizationUrl.searchParams.get("client_id") as string;
  return { client: connected, token, tokenResponse: provider.tokens() as OAuthTokens, signInPage, clientId };
}

/** The scope the sign-in page says a principal's token will carry, from that principal's choice on the form. */
function scopeShownFor(signInPage: string, choice: string): string | undefined {
  const label = new RegExp(`<label><input type="radio" name="principal" value="${choice}"[^>]*>([^\\n]*)</label>`).exec(signInPage)?.[1];
  return /\(token scope <code>([^<]*)<\/code>\)/.exec(label ?? "")?.[1];
}

describe("signing an MCP client in to the local stack by OAuth, with no pasted token", () => {
  it("a customer: discovery, registration, sign-in, PKCE code and resource-bound token, then tools/call on 2026-07-28", async () => {
    const { client, token, signInPage, clientId } = await signInThroughTheClient("customer:C-1001");
    try {
      // The client by the name it registered, its opaque id beside it in small print.
      expect(clientId).toMatch(/^\S{10,}$/);
      expect(signInPage).toContain(
        `The MCP client <b>order-tools OAuth test</b> <small>(client id <code>${clientId}</code>)</small> asks for`,
      );
      expect(signInPage).toMatch(/Ana Costa \(customer C-1001\)/);
      expect(signInPage).toMatch(/Support actor S-7/);
      expect(signInPage).toMatch(/Seller SLR-2210/);
      expect(client.getProtocolEra()).toBe("modern");

      // The same claims `npm run token -- --customer C-1001` carries, signed with the same key, for the MCP URL.
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: "RS256", kid: (await devSigningKey()).kid });
      expect(decodeJwt(token)).toMatchObject({
        iss: gateway.url,
        aud: `${gateway.url}/v1/mcp`,
        sub: "user-C-1001",
        customer_id: "C-1001",
        scope: "orders:read orders:write",
      });

      const result = await client.callTool({ name: "get_order", arguments: { orderId: "SU-10005" } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ orderId: "SU-10005", status: "delivered" });
      const someoneElses = await client.callTool({ name: "get_order", arguments: { orderId: "SU-20001" } });
      expect(someoneElses.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("a support actor's token also says orders:support — as the sign-in page and the token response do — and reaches any order", async () => {
    const { client, token, tokenResponse, signInPage } = await signInThroughTheClient("support:S-7");
    try {
      expect(decodeJwt(token)).toMatchObject({ sub: "staff-S-7", scope: "orders:read orders:write orders:support" });
      expect(tokenResponse.scope).toBe("orders:read orders:write orders:support");
      expect(scopeShownFor(signInPage, "support:S-7")).toBe("orders:read orders:write orders:support");
      expect(scopeShownFor(signInPage, "customer:C-1001")).toBe("orders:read orders:write");
      expect(decodeJwt(token).customer_id).toBeUndefined();
      const result = await client.callTool({ name: "get_order", arguments: { orderId: "SU-20001" } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ orderId: "SU-20001" });
    } finally {
      await client.close();
    }
  });

  it("a seller's token carries seller_id and sub, shaped like a customer's, and works the seller's own orders", async () => {
    const { client, token } = await signInThroughTheClient("seller:SLR-2210");
    try {
      expect(decodeJwt(token)).toMatchObject({ sub: "seller-SLR-2210", seller_id: "SLR-2210", scope: "orders:read orders:write" });
      expect(decodeJwt(token).customer_id).toBeUndefined();
      // The seller's own order (every order of this fixture is SLR-2210's), and a tool a seller may not use.
      const result = await client.callTool({ name: "get_order", arguments: { orderId: "SU-10005" } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ orderId: "SU-10005", seller: { id: "SLR-2210" } });
      const cancel = await client.callTool({ name: "cancel_order", arguments: { operationId: "op-oauth-seller-1", orderId: "SU-10005" } });
      expect(cancel.isError).toBe(true);
      expect(JSON.stringify(cancel.content)).toContain("FORBIDDEN");
    } finally {
      await client.close();
    }
  });
});

describe("the local authorization server, as a client without an SDK sees it", () => {
  const register = async () => {
    const response = await fetch(`${gateway.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "curl",
        redirect_uris: [redirectUrl],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
      }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { client_id: string }).client_id;
  };
  const authorize = (params: Record<string, string>) =>
    fetch(`${gateway.url}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });
  const pkce = { code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256" };

  it("publishes RFC 8414 metadata at its issuer, with S256 PKCE, registration, and the code flow only", async () => {
    const metadata = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: gateway.url,
      authorization_endpoint: `${gateway.url}/oauth/authorize`,
      token_endpoint: `${gateway.url}/oauth/token`,
      registration_endpoint: `${gateway.url}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
    });
    const resource = (await (await fetch(`${gateway.url}/.well-known/oauth-protected-resource/v1/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toEqual({
      resource: `${gateway.url}/v1/mcp`,
      authorization_servers: [gateway.url],
      scopes_supported: ["orders:read", "orders:write"],
      bearer_methods_supported: ["header"],
      resource_name: "order-tools",
    });
  });

  it("refuses an authorization request without PKCE, and one for a resource other than the MCP URL, back at the client's redirect URL", async () => {
    const clientId = await register();
    const base = { client_id: clientId, response_type: "code", redirect_uri: redirectUrl, scope: "orders:read", state: "s1" };
    const withoutPkce = new URL(String((await authorize({ ...base, resource: `${gateway.url}/v1/mcp` })).headers.get("location")));
    expect(Object.fromEntries(withoutPkce.searchParams)).toMatchObject({
      error: "invalid_request",
      state: "s1",
      error_description: expect.stringMatching(/PKCE/),
    });
    const elsewhere = new URL(
      String((await authorize({ ...base, ...pkce, resource: "https://elsewhere.example/mcp" })).headers.get("location")),
    );
    expect(Object.fromEntries(elsewhere.searchParams)).toMatchObject({ error: "invalid_target", state: "s1" });
  });

  it("for every principal and requested scope, the sign-in page, the token response and the token say the same scope", async () => {
    const clientId = await register();
    const cases = [
      ["orders:read orders:write", "customer:C-1001", "orders:read orders:write"],
      ["orders:read orders:write", "support:S-7", "orders:read orders:write orders:support"],
      ["orders:read orders:write", "seller:SLR-2210", "orders:read orders:write"],
      ["orders:read", "support:S-7", "orders:read orders:support"],
      ["orders:read", "customer:C-2002", "orders:read"],
      // orders:support is the support actor's, not the client's to ask for.
      ["orders:read orders:support", "customer:C-1001", "orders:read"],
      ["orders:read orders:write orders:support", "support:S-7", "orders:read orders:write orders:support"],
    ] as const;
    for (const [scope, signInAs, expected] of cases) {
      const verifier = randomBytes(32).toString("base64url");
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const resource = `${gateway.url}/v1/mcp`;
      const start = new URL(`${gateway.url}/oauth/authorize`);
      start.search = new URLSearchParams({
        client_id: clientId,
        response_type: "code",
        redirect_uri: redirectUrl,
        scope,
        state: "s3",
        resource,
        code_challenge: challenge,
        code_challenge_method: "S256",
      }).toString();
      const { callback, signInPage } = await browse(start, signInAs);
      const exchanged = await fetch(`${gateway.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: callback.searchParams.get("code") as string,
          redirect_uri: redirectUrl,
          client_id: clientId,
          code_verifier: verifier,
          resource,
        }).toString(),
      });
      expect(exchanged.status, `${signInAs} asking for ${scope}`).toBe(200);
      const response = (await exchanged.json()) as { access_token: string; scope?: string };
      const what = `${signInAs} asking for "${scope}"`;
      expect(scopeShownFor(signInPage, signInAs), `the page, ${what}`).toBe(expected);
      expect(response.scope, `the token response, ${what}`).toBe(expected);
      expect(decodeJwt(response.access_token).scope, `the token, ${what}`).toBe(expected);
    }
  });

  it("Cancel on the sign-in page sends the client back with access_denied and no code", async () => {
    const clientId = await register();
    const first = await authorize({
      client_id: clientId,
      response_type: "code",
      redirect_uri: redirectUrl,
      scope: "orders:read",
      state: "s2",
      resource: `${gateway.url}/v1/mcp`,
      ...pkce,
    });
    expect(first.status).toBe(303);
    const cookie = first.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const page = await fetch(new URL(String(first.headers.get("location")), gateway.url), { headers: { cookie } });
    const abort = /href="([^"]+\/abort)"/.exec(await page.text())?.[1] as string;
    const aborted = await fetch(new URL(abort, gateway.url), { headers: { cookie }, redirect: "manual" });
    const resumed = await fetch(new URL(String(aborted.headers.get("location")), gateway.url), {
      headers: { cookie: [cookie, ...aborted.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ") },
      redirect: "manual",
    });
    const back = new URL(String(resumed.headers.get("location")));
    expect(back.href.startsWith(redirectUrl)).toBe(true);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: "access_denied", state: "s2" });
    expect(back.searchParams.get("code")).toBeNull();
  });
});
