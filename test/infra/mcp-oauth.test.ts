import { App } from "aws-cdk-lib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildOrderTools } from "#lib/app";
import { handler as metadataHandler } from "#service/oauth-metadata";
import { type ApiAuth, mcpAuthEnv, parseMcpAuth } from "#runtime/oauth-resource";
import { apiGatewayEvent } from "#runtime/api-event";
import {
  httpApisOf,
  removeSynthesizedOutput,
  resourcesOf,
  serviceFunctionsOf,
  statementsOfRole,
  type Synthesized,
  synthesized,
} from "#test/infra/synthesized-app";

/**
 * POST /v1/mcp as the stack deploys it for OAuth clients: which pool and app clients each API's MCP function
 * trusts, what its metadata documents say (checked by running the deployed metadata handler on the environment
 * the stack writes), the app clients pre-registered for the MCP clients named in context, and CORS for browsers.
 */

afterAll(removeSynthesizedOutput);

const claude = { name: "Claude", redirectUrls: ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"] };
const chatgpt = { name: "ChatGPT", redirectUrls: ["https://chatgpt.com/connector_platform_oauth_redirect"], confidential: true };
const vscode = { name: "VS Code", redirectUrls: ["http://localhost:33418/", "https://vscode.dev/redirect"] };
const withMcpClients = () =>
  synthesized({
    context: { mcpClients: [claude, chatgpt, vscode], publicUrl: "https://api.example.com", mcpAllowedOrigins: "https://app.example.com" },
  });
const withExistingIdp = () =>
  synthesized({ context: { jwtIssuer: "https://idp.example.com/", jwtAudience: "order-tools-api,order-tools-agent" } });

/**
 * A CloudFormation value as the deployed function would see it: Fn::Join resolved, each Ref replaced by a stand-in
 * of the right shape (a user pool id, a client id, a domain prefix, the Region).
 */
function resolved(value: unknown): string {
  if (typeof value === "string") return value;
  const join = (value as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  if (join) return join[1].map(resolved).join(join[0]);
  const ref = (value as { Ref?: string }).Ref;
  if (ref === "AWS::Region") return "eu-west-1";
  if (ref && /UserPool[0-9A-F]{8}$/.test(ref)) return `eu-west-1_${ref.replace(/[^A-Za-z0-9]/g, "")}`;
  if (ref && /Domain[0-9A-F]{8}$/.test(ref)) return ref.toLowerCase();
  if (ref) return ref;
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}

function mcpAuthOf(synth: Synthesized, fn: "mcp" | "oauth-metadata" = "mcp"): Record<string, ApiAuth> {
  return parseMcpAuth(resolved(serviceFunctionsOf(synth.apiTemplate).get(fn)!.properties.Environment.Variables[mcpAuthEnv]));
}

const clientsOf = (synth: Synthesized): Array<Record<string, any> & { logicalId: string }> =>
  Object.entries(resourcesOf(synth.apiTemplate, "AWS::Cognito::UserPoolClient")).map(([logicalId, r]) => ({
    logicalId,
    ...(r.Properties as Record<string, any>),
  }));

describe("POST /v1/mcp and its OAuth metadata, deployed with the stack's user pools", () => {
  it("each API's MCP function trusts that API's pool, pins its app client and each MCP client's, and names the scopes to ask for", () => {
    const synth = withMcpClients();
    const apis = httpApisOf(synth.apiTemplate);
    const auth = mcpAuthOf(synth);
    expect(Object.keys(auth).sort()).toEqual(apis.map((a) => a.logicalId).sort());
    expect(mcpAuthOf(synth, "oauth-metadata")).toEqual(auth);
    const clients = clientsOf(synth);
    for (const api of apis) {
      const entry = auth[api.logicalId]!;
      const poolId = String(api.authorizer.JwtConfiguration.Issuer["Fn::GetAtt"][0]);
      const staff = poolId.startsWith("Staff");
      expect(entry.tokens).toEqual({ userPoolId: `eu-west-1_${poolId.replace(/[^A-Za-z0-9]/g, "")}`, clientIds: expect.any(Array) });
      const pinned = clients.filter((c) => JSON.stringify(c.UserPoolId) === JSON.stringify({ Ref: poolId })).map((c) => c.logicalId);
      expect([...(entry.tokens as { clientIds: string[] }).clientIds].sort()).toEqual(pinned.sort());
      expect(pinned).toHaveLength(4);
      expect(entry.scopes).toEqual(staff ? ["orders:read", "orders:write", "orders:support"] : ["orders:read", "orders:write"]);
      expect(entry.authorizationServer).toMatchObject({
        cognitoDomain: expect.stringMatching(/^https:\/\/\S+domain\S+\.auth\.eu-west-1\.amazoncognito\.com$/),
        region: "eu-west-1",
      });
      // The tool routes' authorizer keeps trusting only the pool's own app client: an MCP client's token is for MCP.
      expect(api.authorizer.JwtConfiguration.Audience).toHaveLength(1);
      // Only the customers' public URL was given: the other two APIs name the origin a request came to.
      expect(entry.publicUrl).toBe(poolId.startsWith("Auth") ? "https://api.example.com" : undefined);
    }
  });

  it("serves, through the deployed handler, RFC 9728 metadata naming the API as the authorization server, and RFC 8414 metadata for the pool under that name", async () => {
    const synth = withMcpClients();
    const auth = mcpAuthOf(synth);
    const staffApi = httpApisOf(synth.apiTemplate).find((a) => a.logicalId.startsWith("Staff"))!;
    const before = process.env[mcpAuthEnv];
    process.env[mcpAuthEnv] = JSON.stringify(auth);
    try {
      const get = async (path: string, query = "") => {
        const event = apiGatewayEvent({ method: "GET", path });
        event.rawQueryString = query;
        event.requestContext.apiId = staffApi.logicalId;
        event.requestContext.domainName = "stf123.execute-api.eu-west-1.amazonaws.com";
        delete (event.requestContext as { authorizer?: unknown }).authorizer;
        return metadataHandler(event, {} as never);
      };
      const base = "https://stf123.execute-api.eu-west-1.amazonaws.com";
      const prm = await get("/.well-known/oauth-protected-resource/v1/mcp");
      expect(prm.statusCode).toBe(200);
      expect(JSON.parse(prm.body ?? "")).toEqual({
        resource: `${base}/v1/mcp`,
        authorization_servers: [base],
        scopes_supported: ["orders:read", "orders:write", "orders:support"],
        bearer_methods_supported: ["header"],
        resource_name: "order-tools",
      });
      expect(JSON.parse((await get("/.well-known/oauth-protected-resource")).body ?? "")).toEqual(JSON.parse(prm.body ?? ""));

      const as = JSON.parse((await get("/.well-known/oauth-authorization-server")).body ?? "");
      const cognito = (auth[staffApi.logicalId]!.authorizationServer as { cognitoDomain: string }).cognitoDomain;
      expect(as).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth2/authorize`,
        token_endpoint: `${cognito}/oauth2/token`,
        revocation_endpoint: `${cognito}/oauth2/revoke`,
        jwks_uri: expect.stringMatching(
          /^https:\/\/cognito-idp\.eu-west-1\.amazonaws\.com\/eu-west-1_StaffAuthUserPool\w+\/\.well-known\/jwks\.json$/,
        ),
        code_challenge_methods_supported: ["S256"],
        response_types_supported: ["code"],
        scopes_supported: ["orders:read", "orders:write", "orders:support"],
      });
      expect(as.registration_endpoint).toBeUndefined();

      // The authorization endpoint sends the browser on to the pool's hosted sign-in, scopes in Cognito's spelling.
      const query = new URLSearchParams({
        response_type: "code",
        client_id: "abc",
        redirect_uri: "https://claude.ai/api/mcp/auth_callback",
        scope: "orders:read orders:write orders:support",
        code_challenge: "x".repeat(43),
        code_challenge_method: "S256",
        state: "s1",
        resource: `${base}/v1/mcp`,
      });
      const redirect = await get("/oauth2/authorize", query.toString());
      expect(redirect.statusCode).toBe(302);
      const location = new URL(String(redirect.headers?.location));
      expect(location.origin + location.pathname).toBe(`${cognito}/oauth2/authorize`);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        ...Object.fromEntries(query),
        scope: "orders/read orders/write orders/support",
      });

      const withoutPkce = await get("/oauth2/authorize", new URLSearchParams({ response_type: "code", client_id: "abc" }).toString());
      expect(withoutPkce.statusCode).toBe(400);
      expect(JSON.parse(withoutPkce.body ?? "").error).toMatchObject({
        code: "INVALID_INPUT",
        issues: [{ path: "code_challenge", message: expect.stringMatching(/PKCE is required/) }],
      });
    } finally {
      if (before === undefined) delete process.env[mcpAuthEnv];
      else process.env[mcpAuthEnv] = before;
    }
  });

  it("pre-registers an app client per MCP client in each of the three pools: authorization code only, the orders scopes, exactly the redirect URLs given", () => {
    const synth = withMcpClients();
    const mcp = clientsOf(synth).filter((c) => /McpClient/.test(c.logicalId));
    expect(mcp).toHaveLength(9);
    for (const client of mcp) {
      const given = [claude, chatgpt, vscode].find((c) => client.logicalId.includes(c.name.replace(/\s/g, "")))!;
      expect(client, client.logicalId).toMatchObject({
        AllowedOAuthFlows: ["code"],
        AllowedOAuthFlowsUserPoolClient: true,
        CallbackURLs: given.redirectUrls,
        GenerateSecret: given === chatgpt,
        EnableTokenRevocation: true,
      });
      expect(client.ExplicitAuthFlows ?? ["ALLOW_REFRESH_TOKEN_AUTH"]).toEqual(["ALLOW_REFRESH_TOKEN_AUTH"]);
      const scopes = JSON.stringify(client.AllowedOAuthScopes);
      expect(scopes).toContain("/read");
      expect(scopes).toContain("/write");
      expect(scopes.includes("/support")).toBe(client.logicalId.startsWith("Staff"));
    }
    const outputs = Object.keys(synth.apiTemplate.toJSON().Outputs as Record<string, unknown>);
    for (const name of ["Claude", "ChatGPT", "VSCode"])
      expect(outputs).toEqual(expect.arrayContaining([`McpClient${name}ClientId`, `StaffMcpClient${name}ClientId`]));
  });

  it("gives the metadata function nothing but its own logs (and trace segments), and lets browsers of the allowed origins send MCP's headers and read the challenge", () => {
    const synth = withMcpClients();
    const metadata = serviceFunctionsOf(synth.apiTemplate).get("oauth-metadata")!;
    const statements = statementsOfRole(synth.apiTemplate, metadata.properties.Role["Fn::GetAtt"][0]);
    expect(statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).every((a) => /^(logs|xray):/.test(a))).toBe(true);
    for (const api of Object.values(resourcesOf(synth.apiTemplate, "AWS::ApiGatewayV2::Api"))) {
      expect(api.Properties.CorsConfiguration).toMatchObject({
        AllowOrigins: ["https://app.example.com"],
        AllowHeaders: expect.arrayContaining(["authorization", "mcp-protocol-version", "mcp-method", "mcp-name"]),
        ExposeHeaders: ["www-authenticate", "retry-after", "idempotent-replayed"],
      });
    }
  });
});

describe("each API's protected-resource metadata names that API and its own user pool", () => {
  const urls = {
    publicUrl: "https://api.example.com",
    staffPublicUrl: "https://staff-api.example.com",
    sellerPublicUrl: "https://sellers-api.example.com",
  };
  const audienceOf = (poolId: string) =>
    poolId.startsWith("StaffAuth") ? "staff" : poolId.startsWith("SellerAuth") ? "sellers" : poolId.startsWith("Auth") ? "customers" : "?";
  const urlContext = { customers: "publicUrl", staff: "staffPublicUrl", sellers: "sellerPublicUrl" } as const;

  it.each([
    ["a public URL for each API", urls],
    ["the customers' public URL alone", { publicUrl: urls.publicUrl }],
    ["no public URL", {}],
  ])("with %s: resource and authorization server are the API's own URL, the keys its own pool's", async (_what, context) => {
    const synth = synthesized({ context });
    const auth = mcpAuthOf(synth, "oauth-metadata");
    expect(mcpAuthOf(synth, "mcp")).toEqual(auth);
    const apis = httpApisOf(synth.apiTemplate);
    expect(apis.map((api) => audienceOf(String(api.authorizer.JwtConfiguration.Issuer["Fn::GetAtt"][0]))).sort()).toEqual([
      "customers",
      "sellers",
      "staff",
    ]);
    const before = process.env[mcpAuthEnv];
    process.env[mcpAuthEnv] = JSON.stringify(auth);
    // The deployed handler reads its environment once per execution environment: a fresh one for this stack.
    vi.resetModules();
    const { handler } = await import("#service/oauth-metadata");
    try {
      const named: string[] = [];
      for (const api of apis) {
        const poolId = String(api.authorizer.JwtConfiguration.Issuer["Fn::GetAtt"][0]);
        const audience = audienceOf(poolId) as keyof typeof urlContext;
        const domain = `${api.logicalId.toLowerCase()}.execute-api.eu-west-1.amazonaws.com`;
        const base = (context as Record<string, string>)[urlContext[audience]] ?? `https://${domain}`;
        const get = async (path: string) => {
          const event = apiGatewayEvent({ method: "GET", path });
          event.requestContext.apiId = api.logicalId;
          event.requestContext.domainName = domain;
          delete (event.requestContext as { authorizer?: unknown }).authorizer;
          const result = await handler(event, {} as never);
          expect(result.statusCode, `${audience} ${path}`).toBe(200);
          return JSON.parse(result.body ?? "");
        };
        expect(await get("/.well-known/oauth-protected-resource/v1/mcp"), audience).toEqual({
          resource: `${base}/v1/mcp`,
          authorization_servers: [base],
          scopes_supported: audience === "staff" ? ["orders:read", "orders:write", "orders:support"] : ["orders:read", "orders:write"],
          bearer_methods_supported: ["header"],
          resource_name: "order-tools",
        });
        const cognitoDomain = (auth[api.logicalId]!.authorizationServer as { cognitoDomain: string }).cognitoDomain;
        expect(cognitoDomain, audience).toContain(poolId.replace(/UserPool\w+$/, "").toLowerCase());
        expect(await get("/.well-known/oauth-authorization-server"), audience).toMatchObject({
          issuer: base,
          authorization_endpoint: `${base}/oauth2/authorize`,
          token_endpoint: `${cognitoDomain}/oauth2/token`,
          jwks_uri: `https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_${poolId.replace(/[^A-Za-z0-9]/g, "")}/.well-known/jwks.json`,
        });
        named.push(base);
      }
      expect(new Set(named).size, "three APIs, three URLs").toBe(3);
    } finally {
      if (before === undefined) delete process.env[mcpAuthEnv];
      else process.env[mcpAuthEnv] = before;
    }
  });
});

describe("with an existing identity provider", () => {
  it("the MCP function trusts that issuer for the configured audiences (or the MCP URL), and its metadata names it; no pool metadata is served", () => {
    const synth = withExistingIdp();
    const [api] = httpApisOf(synth.apiTemplate);
    expect(mcpAuthOf(synth)).toEqual({
      [api!.logicalId]: {
        scopes: ["orders:read", "orders:write"],
        tokens: { issuer: "https://idp.example.com/", audience: ["order-tools-api", "order-tools-agent"] },
        authorizationServer: { issuer: "https://idp.example.com/" },
      },
    });
    expect(api!.routes.map((r) => r.RouteKey)).not.toContain("GET /.well-known/oauth-authorization-server");
    expect(api!.routes.map((r) => r.RouteKey)).toContain("GET /.well-known/oauth-protected-resource/v1/mcp");
  });
});

describe("context mcpClients, checked", () => {
  const bad = (context: Record<string, unknown>) => () =>
    buildOrderTools(new App({ context: { "aws:cdk:bundling-stacks": [], controlTowerChecks: "false", ...context } }));
  it.each([
    ["not a list", { mcpClients: "Claude" }, /mcpClients must be a JSON array such as \[\{"name": "Claude"/],
    [
      "a name that cannot name an app client",
      { mcpClients: [{ name: "9lives", redirectUrls: ["https://a.example/cb"] }] },
      /name must be 1–40 letters.*starting with a letter/,
    ],
    ["a name given twice", { mcpClients: [claude, { ...claude, name: "claude" }] }, /"claude" is given twice/],
    ["no redirect URL", { mcpClients: [{ name: "Claude", redirectUrls: [] }] }, /redirectUrls must list the client's OAuth redirect URL/],
    [
      "plain http beyond localhost",
      { mcpClients: [{ name: "VS Code", redirectUrls: ["http://127.0.0.1:33418/"] }] },
      /Cognito accepts plain http only for http:\/\/localhost/,
    ],
    [
      "an unknown field",
      { mcpClients: [{ ...claude, secret: "x" }] },
      /has "secret"; an MCP client has only name, redirectUrls and confidential/,
    ],
    [
      "with an existing identity provider",
      { jwtIssuer: "https://idp.example.com/", jwtAudience: "api", mcpClients: [claude] },
      /applies only to the user pools this stack creates/,
    ],
  ])("refuses %s, saying what would be right", (_what, context, message) => {
    expect(bad(context)).toThrow(message);
  });

  it("accepts the list as a JSON string, as -c gives it", () => {
    const synth = synthesized({ context: { mcpClients: JSON.stringify([claude]) } });
    expect(clientsOf(synth).filter((c) => /McpClient/.test(c.logicalId))).toHaveLength(3);
  });
});
