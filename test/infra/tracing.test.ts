import { App } from "aws-cdk-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOrderTools } from "#lib/app";
import { asList, removeSynthesizedOutput, resourcesOf, type Synthesized, statementsOfRole, synthesized } from "#test/infra/synthesized-app";

/** Traces (docs/operations.md): every function of every stack runs with X-Ray active tracing, whatever the options. */

const withCognito = () => synthesized();
const withExistingIdp = () =>
  synthesized({ context: { jwtIssuer: "https://idp.example.com/", jwtAudience: "order-tools-api", deletionProtection: "false" } });
const withPowertoolsTracer = () => synthesized({ context: { tracer: "powertools", customerManagedKey: "true" } });

beforeAll(() => {
  withCognito();
  withExistingIdp();
  withPowertoolsTracer();
}, 180_000);
afterAll(removeSynthesizedOutput);

const functionsOf = (synth: Synthesized) => ({
  ...resourcesOf(synth.dataTemplate, "AWS::Lambda::Function"),
  ...resourcesOf(synth.apiTemplate, "AWS::Lambda::Function"),
});

describe("X-Ray active tracing", () => {
  it("is on for every function in the synthesized templates: each tool, service function and token trigger, with the user pools, with an existing identity provider and with the Powertools Tracer", () => {
    for (const [name, synth] of [
      ["user pools", withCognito()],
      ["existing identity provider", withExistingIdp()],
      ["Powertools Tracer", withPowertoolsTracer()],
    ] as const) {
      const functions = functionsOf(synth);
      // Seven tools, the catalogue, OpenAPI, MCP, OAuth metadata, the Bedrock action group, and a trigger per pool.
      expect(Object.keys(functions).length, name).toBe(name === "existing identity provider" ? 12 : 15);
      const untraced = Object.entries(functions)
        .filter(([, fn]) => fn.Properties.TracingConfig?.Mode !== "Active")
        .map(([id, fn]) => `${id} (${fn.Properties.Description})`);
      expect(untraced, name).toEqual([]);
    }
  });

  it("lets each function's own role write its segments, and only that: X-Ray's two write actions, which take no resource but '*'", () => {
    const synth = withCognito();
    for (const [id, fn] of Object.entries(resourcesOf(synth.apiTemplate, "AWS::Lambda::Function"))) {
      const role = fn.Properties.Role["Fn::GetAtt"][0] as string;
      const xray = statementsOfRole(synth.apiTemplate, role).filter((s) => asList(s.Action).some((a) => a.startsWith("xray:")));
      expect(xray, id).toEqual([{ Effect: "Allow", Action: ["xray:PutTraceSegments", "xray:PutTelemetryRecords"], Resource: "*" }]);
    }
  });

  it("keeps the tracer setting a choice between lambda and powertools, and says what each does when given anything else", () => {
    const bad = (context: Record<string, unknown>) => () =>
      buildOrderTools(new App({ context: { "aws:cdk:bundling-stacks": [], controlTowerChecks: "false", ...context } }));
    expect(bad({ tracer: "xray" })).toThrow(
      /Context tracer must be lambda \(X-Ray active tracing only, the default\) or powertools \(the Powertools Tracer too: .*\), not "xray"/,
    );
    expect(withCognito().config.tracer).toBe("lambda");
    expect(withPowertoolsTracer().config.tracer).toBe("powertools");
  });
});
