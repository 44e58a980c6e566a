import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterEach, describe, expect, it } from "vitest";
import { securitySchemeName } from "#service/openapi-document";
import { authorizationServersEnv } from "#deploy/service-functions";
import { lambdaContext } from "#local/lambda-context";
import { apiGatewayEvent } from "#runtime/api-event";
import { handler } from "#service/openapi";

/**
 * GET /v1/openapi.json names the token issuer of the API it was fetched through. One function serves the
 * customers' and the staff API, which trust different user pools; the stack tells it which is which by API id.
 */

const customersPool = "https://order-tools-prod-111122223333.auth.eu-west-1.amazoncognito.com";
const staffPool = "https://order-tools-prod-111122223333-staff.auth.eu-west-1.amazoncognito.com";
const servers = {
  custapi001: { authorizationUrl: `${customersPool}/oauth2/authorize`, tokenUrl: `${customersPool}/oauth2/token` },
  staffapi01: { authorizationUrl: `${staffPool}/oauth2/authorize`, tokenUrl: `${staffPool}/oauth2/token`, clientCredentials: true },
};

async function fetchDocument(apiId: string) {
  const event = apiGatewayEvent({ method: "GET", path: "/v1/openapi.json" });
  event.requestContext.apiId = apiId;
  event.requestContext.domainName = `${apiId}.execute-api.eu-west-1.amazonaws.com`;
  const result = await handler(event, lambdaContext("openapi"));
  return { status: result.statusCode, text: result.body ?? "", body: JSON.parse(result.body ?? "null") };
}

const saved = process.env[authorizationServersEnv];
afterEach(() => {
  if (saved === undefined) delete process.env[authorizationServersEnv];
  else process.env[authorizationServersEnv] = saved;
});

describe("the OpenAPI document's security scheme, as served", () => {
  it("names the customers' pool on the customers' API and the staff pool, with client credentials, on the staff API", async () => {
    process.env[authorizationServersEnv] = JSON.stringify(servers);
    const customers = await fetchDocument("custapi001");
    const staff = await fetchDocument("staffapi01");
    expect(customers.status).toBe(200);
    expect(customers.body.components.securitySchemes[securitySchemeName].flows).toEqual({
      authorizationCode: {
        authorizationUrl: `${customersPool}/oauth2/authorize`,
        tokenUrl: `${customersPool}/oauth2/token`,
        scopes: expect.any(Object),
      },
    });
    expect(staff.body.components.securitySchemes[securitySchemeName].flows).toEqual({
      authorizationCode: {
        authorizationUrl: `${staffPool}/oauth2/authorize`,
        tokenUrl: `${staffPool}/oauth2/token`,
        scopes: expect.any(Object),
      },
      clientCredentials: { tokenUrl: `${staffPool}/oauth2/token`, scopes: expect.any(Object) },
    });
    expect(customers.text).not.toContain(staffPool);
  });

  it("as served on a deployed API, passes Redocly's recommended ruleset with nothing to report", async () => {
    process.env[authorizationServersEnv] = JSON.stringify(servers);
    const { text } = await fetchDocument("staffapi01");
    const problems = await lintFromString({
      source: text,
      absoluteRef: "/openapi.json",
      config: await createConfig({ extends: ["recommended"] }),
    });
    expect(problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it("says no issuer is configured on an API the stack did not name, rather than borrowing another API's", async () => {
    process.env[authorizationServersEnv] = JSON.stringify(servers);
    const other = await fetchDocument("otherapi99");
    expect(other.status).toBe(200);
    expect(other.text).not.toContain("amazoncognito.com");
    expect(other.body.components.securitySchemes[securitySchemeName].description).toMatch(/No authorization server is configured/);
  });

  it("a malformed setting is INTERNAL, logged for the operator, never a document with a guessed issuer", async () => {
    for (const value of [
      "not json",
      JSON.stringify({ custapi001: { authorizationUrl: "http://plain.example/authorize", tokenUrl: `${customersPool}/oauth2/token` } }),
      JSON.stringify({ custapi001: "x" }),
    ]) {
      process.env[authorizationServersEnv] = value;
      const reply = await fetchDocument("custapi001");
      expect(reply.status, value).toBe(500);
      expect(reply.body, value).toEqual({
        error: { code: "INTERNAL", retryable: true, message: "Something went wrong while openapi ran. Retry the request." },
      });
    }
  });
});
