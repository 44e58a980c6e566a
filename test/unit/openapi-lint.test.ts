import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { type AuthorizationServer, openApiDocument, securitySchemeName } from "#service/openapi-document";
import type { JsonSchema } from "#contract/json-schema";
import { scopes } from "#core/principal";

/**
 * GET /v1/openapi.json as OpenAPI linters judge it: Redocly's `recommended` ruleset (what `redocly lint` runs
 * by default), run here as a library, finds nothing to warn about in any configuration the stack can give; and
 * the rule of Spectral's `spectral:oas` set that a library run here cannot cover cheaply — every scope an
 * operation requires is declared by its scheme — is checked directly.
 */

const deployedServer = "https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com";
const cognito: AuthorizationServer = {
  authorizationUrl: "https://order-tools-prod-111122223333.auth.eu-west-1.amazoncognito.com/oauth2/authorize",
  tokenUrl: "https://order-tools-prod-111122223333.auth.eu-west-1.amazoncognito.com/oauth2/token",
};

const configurations: Array<[string, Parameters<typeof openApiDocument>[0]]> = [
  ["the customers' API (Cognito, authorization code)", { serverUrl: deployedServer, authorization: cognito }],
  [
    "the staff API (Cognito, with a client-credentials service client)",
    { serverUrl: deployedServer, authorization: { ...cognito, clientCredentials: true } },
  ],
  [
    "an existing OpenID Connect provider",
    { serverUrl: deployedServer, authorization: { openIdConnectUrl: "https://idp.example.org/.well-known/openid-configuration" } },
  ],
  // Behind ORDER_TOOLS_PUBLIC_URL, with no token issuer configured. (The local stack's own document names its
  // loopback server, which Redocly's no-server-example.com rule warns about by design.)
  ["a public URL and no token issuer configured", { serverUrl: "https://orders-api.sundry.example.org" }],
];

async function redoclyProblems(document: JsonSchema) {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: JSON.stringify(document, null, 2), absoluteRef: "/openapi.json", config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`);
}

/** Every [scope, operation] whose scope the oauth2 scheme's flows do not declare (Spectral's oas3-operation-security-defined). */
function undeclaredScopes(document: any): string[] {
  const scheme = document.components.securitySchemes[securitySchemeName];
  const declared = new Set(
    Object.values((scheme.flows ?? {}) as Record<string, { scopes: Record<string, string> }>).flatMap((flow) => Object.keys(flow.scopes)),
  );
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) =>
      ((operation.security ?? []) as Array<Record<string, string[]>>).flatMap((requirement) =>
        Object.entries(requirement).flatMap(([name, required]) => [
          ...(name in document.components.securitySchemes ? [] : [`${method} ${path}: unknown scheme ${name}`]),
          ...required.filter((scope) => !declared.has(scope)).map((scope) => `${method} ${path}: ${scope}`),
        ]),
      ),
    ),
  );
}

describe("the OpenAPI document under Redocly's recommended ruleset", () => {
  it.each(configurations)("has no error and no warning for %s", async (_, options) => {
    expect(await redoclyProblems(openApiDocument(options))).toEqual([]);
  });

  it("is the linter that finds what it should: the old bearer scheme's gaps come back as warnings", async () => {
    // The document as it was before: no licence, an operation with no 4xx, one with no 2xx.
    const document = openApiDocument({ serverUrl: deployedServer, authorization: cognito }) as any;
    delete document.info.license;
    delete document.paths["/v1/tools"].get.responses["429"];
    document.paths["/v1/mcp"].get = {
      operationId: "mcp_stream",
      summary: "No stream.",
      description: "405 only.",
      security: [],
      responses: { "405": { description: "Use POST." } },
    };
    expect(await redoclyProblems(document)).toEqual([
      expect.stringContaining("info-license"),
      expect.stringContaining("operation-4xx-response"),
      expect.stringContaining("operation-2xx-response"),
    ]);
  });
});

describe("the security scheme", () => {
  it("is OAuth 2.0 with the Cognito pool's own endpoints, declaring every scope an operation requires", () => {
    const document = openApiDocument({ serverUrl: deployedServer, authorization: { ...cognito, clientCredentials: true } }) as any;
    const scheme = document.components.securitySchemes[securitySchemeName];
    expect(scheme).toMatchObject({
      type: "oauth2",
      flows: {
        authorizationCode: { authorizationUrl: cognito.authorizationUrl, tokenUrl: (cognito as { tokenUrl: string }).tokenUrl },
        clientCredentials: { tokenUrl: (cognito as { tokenUrl: string }).tokenUrl },
      },
    });
    expect(Object.keys(scheme.flows.authorizationCode.scopes).sort()).toEqual(Object.values(scopes).sort());
    expect(undeclaredScopes(document)).toEqual([]);
    // Tool routes require their scope; MCP any valid token; the catalogue and this document none.
    expect(document.paths["/v1/tools/cancel_order"].post.security).toEqual([{ [securitySchemeName]: [scopes.write] }]);
    expect(document.paths["/v1/tools/get_order"].post.security).toEqual([{ [securitySchemeName]: [scopes.read] }]);
    expect(document.paths["/v1/mcp"].post.security).toEqual([{ [securitySchemeName]: [] }]);
    expect(document.paths["/v1/tools"].get.security).toEqual([]);
  });

  it("offers client credentials only where the pool has a service client", () => {
    const scheme = (openApiDocument({ authorization: cognito }) as any).components.securitySchemes[securitySchemeName];
    expect(Object.keys(scheme.flows)).toEqual(["authorizationCode"]);
  });

  it("names an existing provider by its OpenID Connect discovery document, as the JWT authorizer finds it", () => {
    const scheme = (
      openApiDocument({ authorization: { openIdConnectUrl: "https://idp.example.org/.well-known/openid-configuration" } }) as any
    ).components.securitySchemes[securitySchemeName];
    expect(scheme).toEqual({
      type: "openIdConnect",
      openIdConnectUrl: "https://idp.example.org/.well-known/openid-configuration",
      description: expect.stringContaining("orders:write"),
    });
  });

  it("says so when nothing is configured, with URLs in the reserved .invalid domain rather than real-looking ones", () => {
    const document = openApiDocument() as any;
    const scheme = document.components.securitySchemes[securitySchemeName];
    expect(scheme.type).toBe("oauth2");
    expect(scheme.description).toMatch(/No authorization server is configured.*npm run --silent token/);
    expect(new URL(scheme.flows.authorizationCode.authorizationUrl).hostname).toMatch(/\.invalid$/);
    expect(undeclaredScopes(document)).toEqual([]);
  });
});

describe("what the linters asked for", () => {
  const document = openApiDocument({ serverUrl: deployedServer, authorization: cognito }) as any;

  it("names a licence and a contact", () => {
    expect(document.info.license).toEqual({ name: "Proprietary", identifier: "LicenseRef-Proprietary" });
    expect(document.info.contact.name).toBeTruthy();
  });

  it("gives every operation a 2xx and a 4xx response; the public ones answer 429 from the stage's throttling", () => {
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((s) => s.startsWith("2")),
          `${method} ${path}`,
        ).toBe(true);
        expect(
          statuses.some((s) => s.startsWith("4")),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
    for (const path of ["/v1/tools", "/v1/openapi.json"]) {
      expect(document.paths[path].get.responses["429"].content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/GatewayRefusal",
      });
    }
  });

  it("leaves GET /v1/mcp, which only ever answers 405, to the POST operation's description", () => {
    expect(document.paths["/v1/mcp"].get).toBeUndefined();
    expect(document.paths["/v1/mcp"].post.description).toMatch(/GET of this path.*405 Method Not Allowed/);
  });
});
