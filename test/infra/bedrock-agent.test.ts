import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizationServersEnv, bedrockAgentFunction, serviceFunctions, toolFunctionEnv } from "#deploy/service-functions";
import {
  asList,
  httpApisOf,
  removeSynthesizedOutput,
  resourcesOf,
  type Synthesized,
  statementsOfRole,
  synthesize,
  synthesized,
  toolFunctions,
} from "#test/infra/synthesized-app";

/**
 * The Bedrock Agents action-group function in the API stack: invoked only by Bedrock (for this account, and the
 * agent named in context), holding no table grant, allowed to invoke exactly the tools' own functions; and the
 * OpenAPI function told who issues each API's tokens.
 */

const agentArn = "arn:aws:bedrock:eu-west-1:111122223333:agent/AB12CD34EF";
const withCognito = () => synthesized();
const withAgent = () => synthesized({ context: { bedrockAgentArn: agentArn } });
const withExistingIdp = () => synthesized({ context: { jwtIssuer: "https://idp.example.org/", jwtAudience: "order-tools-api" } });

beforeAll(() => {
  withCognito();
  withAgent();
  withExistingIdp();
}, 120_000);
afterAll(removeSynthesizedOutput);

function functionNamed(synth: Synthesized, description: string) {
  const found = Object.entries(resourcesOf(synth.apiTemplate, "AWS::Lambda::Function")).filter(
    ([, f]) => f.Properties.Description === description,
  );
  expect(found, description).toHaveLength(1);
  const [logicalId, resource] = found[0]!;
  return { logicalId, properties: resource.Properties };
}

const roleOf = (fn: { properties: Record<string, any> }) => fn.properties.Role["Fn::GetAtt"][0] as string;

/** A CloudFormation string value with every reference written as <LogicalId>, so it can be read as text. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  const join = (value as { "Fn::Join"?: [string, unknown[]] })["Fn::Join"];
  if (join)
    return join[1]
      .map((part) => (typeof part === "string" ? part : `<${(part as { Ref?: string }).Ref ?? JSON.stringify(part)}>`))
      .join(join[0]);
  return `<${(value as { Ref?: string }).Ref ?? JSON.stringify(value)}>`;
}

describe("the Bedrock Agents action-group function", () => {
  it("may be invoked only by bedrock.amazonaws.com, for an agent of this account and Region", () => {
    const { apiTemplate } = withCognito();
    const fn = functionNamed(withCognito(), bedrockAgentFunction.description);
    const permissions = Object.values(resourcesOf(apiTemplate, "AWS::Lambda::Permission")).filter((p) =>
      JSON.stringify(p.Properties.FunctionName).includes(fn.logicalId),
    );
    expect(permissions.map((p) => ({ ...p.Properties, SourceArn: asText(p.Properties.SourceArn) }))).toEqual([
      {
        Action: "lambda:InvokeFunction",
        FunctionName: { "Fn::GetAtt": [fn.logicalId, "Arn"] },
        Principal: "bedrock.amazonaws.com",
        SourceAccount: { Ref: "AWS::AccountId" },
        SourceArn: "arn:<AWS::Partition>:bedrock:<AWS::Region>:<AWS::AccountId>:agent/*",
      },
    ]);
    // No route reaches it.
    for (const api of httpApisOf(apiTemplate)) {
      const integrations = Object.values(resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Integration")).filter((i) =>
        JSON.stringify(i.Properties.IntegrationUri).includes(fn.logicalId),
      );
      expect(integrations, api.logicalId).toEqual([]);
    }
  });

  it("names the agent as the only source when context gives its ARN, and refuses a malformed one", () => {
    const synth = withAgent();
    const fn = functionNamed(synth, bedrockAgentFunction.description);
    const permission = Object.values(resourcesOf(synth.apiTemplate, "AWS::Lambda::Permission")).find(
      (p) => p.Properties.Principal === "bedrock.amazonaws.com",
    )!;
    expect(permission.Properties).toEqual({
      Action: "lambda:InvokeFunction",
      FunctionName: { "Fn::GetAtt": [fn.logicalId, "Arn"] },
      Principal: "bedrock.amazonaws.com",
      SourceAccount: { Ref: "AWS::AccountId" },
      SourceArn: agentArn,
    });
    expect(() =>
      synthesize({ context: { bedrockAgentArn: "arn:aws:bedrock:eu-west-1:111122223333:agent-alias/AB12CD34EF/TSTALIASID" } }),
    ).toThrow(/bedrockAgentArn must be the ARN of the Bedrock agent.*agent\/AB12CD34EF/);
  });

  it("may invoke exactly the tools' functions, named in its environment, and touches no table", () => {
    const synth = withCognito();
    const fn = functionNamed(synth, bedrockAgentFunction.description);
    const tools = toolFunctions(synth.apiTemplate);
    // Beside its own logs and X-Ray segments (test/infra/tracing.test.ts), which every function writes.
    const statements = statementsOfRole(synth.apiTemplate, roleOf(fn)).filter(
      (s) => !asList(s.Action).every((a) => /^(logs|xray):/.test(a)),
    );
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: "Allow", Action: "lambda:InvokeFunction" });
    expect(
      asList(statements[0]!.Resource as unknown[])
        .map((r) => JSON.stringify(r))
        .sort(),
    ).toEqual([...tools.values()].map((t) => JSON.stringify({ "Fn::GetAtt": [t.logicalId, "Arn"] })).sort());
    const env = fn.properties.Environment.Variables as Record<string, unknown>;
    for (const [name, tool] of tools) expect(env[toolFunctionEnv(name)], name).toEqual({ Ref: tool.logicalId });
    expect(Object.keys(env).filter((k) => /TABLE/.test(k))).toEqual([]);
    expect(fn.properties.Timeout).toBeGreaterThan(20);
  });
});

describe("the OpenAPI function's token issuers", () => {
  const issuersOf = (synth: Synthesized) => {
    const openapi = functionNamed(synth, serviceFunctions.find((f) => f.name === "openapi")!.description);
    return JSON.parse(asText(openapi.properties.Environment.Variables[authorizationServersEnv])) as Record<string, Record<string, unknown>>;
  };

  it("with Cognito: each API's own pool, by API id, its hosted domain's OAuth endpoints; client credentials on the staff pool only when it has a service client", () => {
    const synth = withCognito();
    const issuers = issuersOf(synth);
    const apis = httpApisOf(synth.apiTemplate).map((a) => a.logicalId);
    expect(Object.keys(issuers).sort()).toEqual(apis.map((id) => `<${id}>`).sort());
    const staffApi = apis.find((id) => id.startsWith("StaffApi"))!;
    const customersApi = apis.find((id) => id !== staffApi)!;
    // The hosted domains the pools really have, as their UserPoolDomain resources name them.
    const domains = Object.values(resourcesOf(synth.apiTemplate, "AWS::Cognito::UserPoolDomain")).map(
      (d) => `https://${asText(d.Properties.Domain)}.auth.<AWS::Region>.amazoncognito.com`,
    );
    const staffDomain = domains.find((d) => d.includes("-staff"))!;
    const customersDomain = domains.find((d) => d !== staffDomain)!;
    expect(issuers[`<${customersApi}>`]).toEqual({
      authorizationUrl: `${customersDomain}/oauth2/authorize`,
      tokenUrl: `${customersDomain}/oauth2/token`,
    });
    expect(issuers[`<${staffApi}>`]).toEqual({
      authorizationUrl: `${staffDomain}/oauth2/authorize`,
      tokenUrl: `${staffDomain}/oauth2/token`,
    });
    const withService = issuersOf(synthesize({ context: { supportServiceClient: "true" } }));
    expect(Object.values(withService).filter((i) => i.clientCredentials === true)).toHaveLength(1);
  });

  it("with an existing identity provider: its OpenID Connect discovery document", () => {
    const issuers = Object.values(issuersOf(withExistingIdp()));
    expect(issuers).toEqual([{ openIdConnectUrl: "https://idp.example.org/.well-known/openid-configuration" }]);
  });
});
