import { afterEach, describe, expect, it } from "vitest";
import { toolNamed } from "#contract/tools";
import { lambdaContext } from "#local/lambda-context";
import { apiGatewayEvent } from "#runtime/api-event";
import { handler, publicUrlEnv } from "#service/openapi";

/**
 * GET /v1/openapi.json names its server from what API Gateway or the operator says, never from what the client
 * sends: the document is cached publicly for five minutes, and agents send their tokens to the server it names.
 */

const domain = "abc123.execute-api.eu-west-1.amazonaws.com";

async function fetchDocument(headers: Record<string, string>, domainName = domain) {
  const event = apiGatewayEvent({ method: "GET", path: "/v1/openapi.json", headers });
  event.requestContext.domainName = domainName;
  const result = await handler(event, lambdaContext("openapi"));
  return { status: result.statusCode, headers: result.headers ?? {}, text: result.body ?? "", body: JSON.parse(result.body ?? "null") };
}

const saved = process.env[publicUrlEnv];
afterEach(() => {
  if (saved === undefined) delete process.env[publicUrlEnv];
  else process.env[publicUrlEnv] = saved;
});

describe("the OpenAPI document's server", () => {
  it("is the domain API Gateway received the request on, over HTTPS, whatever Host and X-Forwarded-Proto say", async () => {
    delete process.env[publicUrlEnv];
    const honest = await fetchDocument({ host: domain, "x-forwarded-proto": "https" });
    const forged = await fetchDocument({ host: "evil.example", "x-forwarded-proto": "http", "x-forwarded-host": "evil.example" });

    expect(honest.status).toBe(200);
    expect(honest.body.servers).toEqual([{ url: `https://${domain}` }]);
    expect(forged.status).toBe(200);
    expect(forged.text).toBe(honest.text);
    expect(forged.headers["cache-control"]).toBe("public, max-age=300");
  });

  it("is ORDER_TOOLS_PUBLIC_URL when set (a CDN or custom domain in front), for every request alike", async () => {
    process.env[publicUrlEnv] = "https://api.example.com/orders/";
    const a = await fetchDocument({ host: "evil.example", "x-forwarded-proto": "http" });
    const b = await fetchDocument({}, "other.execute-api.eu-west-1.amazonaws.com");
    expect(a.body.servers).toEqual([{ url: "https://api.example.com/orders" }]);
    expect(b.text).toBe(a.text);
  });

  it("a malformed ORDER_TOOLS_PUBLIC_URL is INTERNAL, never a document naming some other server", async () => {
    for (const value of ["api.example.com", "ftp://api.example.com", "https://api.example.com/?x=1"]) {
      process.env[publicUrlEnv] = value;
      const reply = await fetchDocument({ host: "evil.example" });
      expect(reply.status, value).toBe(500);
      expect(reply.body, value).toEqual({
        error: { code: "INTERNAL", retryable: true, message: "Something went wrong while openapi ran. Retry the request." },
      });
      expect(reply.text, value).not.toContain("evil.example");
    }
  });

  it("is plain HTTP only for the local gateway's loopback domain", async () => {
    delete process.env[publicUrlEnv];
    expect((await fetchDocument({ host: "evil.example" }, "127.0.0.1:3111")).body.servers).toEqual([{ url: "http://127.0.0.1:3111" }]);
    expect((await fetchDocument({}, "127.0.0.1.example.com")).body.servers).toEqual([{ url: "https://127.0.0.1.example.com" }]);
  });
});

describe("what not_found tells a caller (contract §4)", () => {
  it("the catalogue and the OpenAPI document say 'not recorded yet' and to resend with the same operationId", async () => {
    delete process.env[publicUrlEnv];
    const { body: document } = await fetchDocument({});
    const notFound = document.components.schemas.OperationNotFound;
    const texts = [
      toolNamed("get_operation_status").description,
      notFound.description,
      notFound.properties.status.description,
      document.paths["/v1/tools/get_operation_status"].post.responses["404"].description,
    ];
    for (const text of texts) {
      expect(text).toMatch(/not recorded yet/i);
      expect(text).toMatch(/same operationId/);
      expect(text).not.toMatch(/did not take effect/);
    }
  });
});
