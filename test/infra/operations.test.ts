import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceFunctions } from "#deploy/service-functions";
import { tools } from "#contract/tools";
import { metricNames } from "#runtime/observability";
import {
  httpApisOf,
  removeSynthesizedOutput,
  resourcesOf,
  type Synthesized,
  serviceFunctionsOf,
  synthesized,
  toolFunctions,
} from "#test/infra/synthesized-app";

const run = promisify(execFile);

/** One EMF metric as a function writes it: name, namespace, its full dimension set and their values. */
interface EmittedMetric {
  name: string;
  namespace: string;
  dimensions: string[];
  values: Record<string, string>;
}

/** The business metrics the functions write, through their own recordCall, under the given service name. */
async function emitted(serviceName: string): Promise<EmittedMetric[]> {
  const { stdout } = await run("npx", ["tsx", "test/infra/emit-business-metrics.ts"], {
    env: { ...process.env, POWERTOOLS_SERVICE_NAME: serviceName, POWERTOOLS_METRICS_DISABLED: "false", POWERTOOLS_LOG_LEVEL: "SILENT" },
  });
  return stdout
    .split("\n")
    .filter((line) => line.includes('"CloudWatchMetrics"'))
    .flatMap((line) => {
      const emf = JSON.parse(line) as Record<string, any>;
      return (emf._aws.CloudWatchMetrics as Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }>).flatMap(
        (directive) =>
          directive.Metrics.flatMap((metric) =>
            directive.Dimensions.map((set) => ({
              name: metric.Name,
              namespace: directive.Namespace,
              dimensions: [...set].sort(),
              values: Object.fromEntries(set.map((d) => [d, String(emf[d])])),
            })),
          ),
      );
    });
}

/** The dashboard body as JSON, each CloudFormation reference in it written as `REF:<logicalId>` or `IMPORT:<export>`. */
function dashboardOf(synth: Synthesized): { widgets: Array<{ type: string; properties: Record<string, any> }> } {
  const dashboards = Object.values(resourcesOf(synth.apiTemplate, "AWS::CloudWatch::Dashboard"));
  expect(dashboards).toHaveLength(1);
  const body = dashboards[0]!.Properties.DashboardBody as { "Fn::Join": [string, unknown[]] };
  const text = body["Fn::Join"][1]
    .map((part) => {
      if (typeof part === "string") return part;
      const ref = part as { Ref?: string; "Fn::ImportValue"?: string };
      if (ref.Ref) return `REF:${ref.Ref}`;
      if (ref["Fn::ImportValue"]) return `IMPORT:${ref["Fn::ImportValue"]}`;
      return `OTHER:${JSON.stringify(part).replace(/"/g, "'")}`;
    })
    .join("");
  return JSON.parse(text);
}

const metricsOf = (synth: Synthesized) => dashboardOf(synth).widgets.flatMap((w) => (w.properties.metrics ?? []) as unknown[][]);
const searchesOf = (synth: Synthesized) =>
  metricsOf(synth)
    .flatMap((m) => m.filter((e): e is { expression: string } => typeof e === "object" && e !== null && "expression" in e))
    .map((e) => e.expression);

/** `SEARCH('{Namespace,dims} MetricName="X" service="Y"', ...)` → its parts. */
function parseSearch(expression: string) {
  const match = /^SEARCH\('\{([^}]*)\} MetricName="([^"]+)"(?: service="([^"]+)")?/.exec(expression);
  if (!match) return undefined;
  const [namespace, ...dimensions] = match[1]!.split(",");
  return { namespace: namespace!, dimensions: dimensions.sort(), name: match[2]!, service: match[3] };
}

const serviceNameOf = (synth: Synthesized): string => {
  const names = new Set(
    [...toolFunctions(synth.apiTemplate).values()].map((fn) => fn.properties.Environment.Variables.POWERTOOLS_SERVICE_NAME as string),
  );
  expect(names.size).toBe(1);
  return [...names][0]!;
};

const alarmsOf = (synth: Synthesized) => Object.entries(resourcesOf(synth.apiTemplate, "AWS::CloudWatch::Alarm"));
const alarmNamed = (synth: Synthesized, id: string) => {
  const found = alarmsOf(synth).filter(([logicalId]) => logicalId.startsWith(`Operations${id}`));
  expect(found, id).toHaveLength(1);
  return found[0]![1].Properties as Record<string, any>;
};

const dev = () => synthesized();
const qa = () => synthesized({ context: { stage: "qa", jwtIssuer: "https://idp.example.com/", jwtAudience: "api" } });
let devMetrics: EmittedMetric[];

beforeAll(async () => {
  dev();
  qa();
  devMetrics = await emitted(serviceNameOf(dev()));
}, 180_000);
afterAll(removeSynthesizedOutput);

describe("the dashboard", () => {
  it("shows every business metric the functions emit, by SEARCH over the exact dimension set of its EMF line and the stage's service", () => {
    const synth = dev();
    expect(serviceNameOf(synth)).toBe("order-tools-dev");
    expect(new Set(devMetrics.map((m) => m.name))).toEqual(new Set(Object.values(metricNames)));
    const searches = searchesOf(synth)
      .map(parseSearch)
      .filter((s) => s !== undefined);
    for (const metric of devMetrics) {
      const shown = searches.filter(
        (s) => s.name === metric.name && s.namespace === metric.namespace && s.dimensions.join() === metric.dimensions.join(),
      );
      expect(shown, `${metric.name} {${metric.dimensions.join(",")}}`).not.toEqual([]);
      for (const search of shown) expect(search.service, metric.name).toBe(metric.values.service);
    }
  });

  it("graphs calls, errors and p50/p99 duration of every tool and service function, and their throttles", () => {
    const synth = dev();
    const metrics = metricsOf(synth).map((m) => JSON.stringify(m));
    const functions = [...toolFunctions(synth.apiTemplate).values(), ...serviceFunctionsOf(synth.apiTemplate).values()];
    expect(functions).toHaveLength(tools.length + serviceFunctions.length);
    const graphed = (metric: string, fnId: string, stat: string) =>
      metrics.some(
        (m) =>
          m.startsWith(JSON.stringify(["AWS/Lambda", metric, "FunctionName", `REF:${fnId}`]).slice(0, -1)) &&
          m.includes(`"stat":"${stat}"`),
      );
    for (const fn of functions) {
      expect(graphed("Invocations", fn.logicalId, "Sum"), fn.logicalId).toBe(true);
      expect(graphed("Errors", fn.logicalId, "Sum"), fn.logicalId).toBe(true);
      expect(graphed("Duration", fn.logicalId, "p50"), fn.logicalId).toBe(true);
      expect(graphed("Duration", fn.logicalId, "p99"), fn.logicalId).toBe(true);
      expect(graphed("Throttles", fn.logicalId, "Sum"), fn.logicalId).toBe(true);
    }
  });

  it("graphs each API's requests, 4xx, 5xx and latency, and each table's consumed capacity, throttle events and its indexes' capacity", () => {
    const synth = dev();
    const metrics = metricsOf(synth).map((m) => JSON.stringify(m));
    for (const api of httpApisOf(synth.apiTemplate)) {
      for (const name of ["Count", "4xx", "5xx", "Latency"]) {
        expect(
          metrics.some((m) => m.startsWith(JSON.stringify(["AWS/ApiGateway", name, "ApiId", `REF:${api.logicalId}`]).slice(0, -1))),
          `${api.logicalId} ${name}`,
        ).toBe(true);
      }
    }
    // The tables live in the data stack: the dashboard names them through its exports.
    const tableMetric = (name: string) =>
      metrics.filter((m) => m.startsWith(JSON.stringify(["AWS/DynamoDB", name, "TableName"]).slice(0, -1)));
    for (const name of ["ConsumedReadCapacityUnits", "ConsumedWriteCapacityUnits", "ReadThrottleEvents", "WriteThrottleEvents"]) {
      const tables = new Set(tableMetric(name).map((m) => /IMPORT:[^"]+/.exec(m)?.[0]));
      expect(tables.size, name).toBe(2);
    }
    const perIndex = searchesOf(synth).filter((e) => e.includes("{AWS/DynamoDB,TableName,GlobalSecondaryIndexName}"));
    expect(perIndex.map((e) => /MetricName="(\w+)"/.exec(e)?.[1]).sort()).toEqual([
      "ConsumedReadCapacityUnits",
      "ConsumedWriteCapacityUnits",
    ]);
  });

  it("lists every alarm of the API stack in its alarm status panel", () => {
    const synth = dev();
    const panel = dashboardOf(synth).widgets.find((w) => w.type === "alarm" && w.properties.alarms);
    const listed = new Set(JSON.stringify(panel?.properties.alarms).match(/OTHER:[^"]+/g) ?? []);
    const arns = alarmsOf(synth).map(([logicalId]) => `OTHER:${JSON.stringify({ "Fn::GetAtt": [logicalId, "Arn"] }).replace(/"/g, "'")}`);
    expect(arns.length).toBeGreaterThan(2 * (tools.length + serviceFunctions.length));
    for (const arn of arns) expect(listed.has(arn), arn).toBe(true);
  });
});

describe("alarms on outcomes nobody knows yet", () => {
  it("alarms on the INTERNAL rate: one Metrics Insights query over the Outcome metric as emitted, against every API's requests", () => {
    const synth = dev();
    const alarm = alarmNamed(synth, "InternalRate");
    const internal = devMetrics.find((m) => m.name === metricNames.outcome && m.values.outcome === "INTERNAL")!;
    const query = (alarm.Metrics as Array<{ Expression?: string; Period?: number }>).find((m) => m.Expression?.startsWith("SELECT"))!;
    const parsed = /^SELECT SUM\((\w+)\) FROM SCHEMA\(([^)]*)\) WHERE service = '([^']+)' AND outcome = '([^']+)'$/.exec(query.Expression!);
    expect(parsed, query.Expression).not.toBeNull();
    const [, name, schema, service, outcome] = parsed!;
    const [namespace, ...dimensions] = schema!.split(",").map((d) => d.trim());
    expect({ name, namespace, dimensions: dimensions.sort(), service, outcome }).toEqual({
      name: internal.name,
      namespace: internal.namespace,
      dimensions: internal.dimensions,
      service: internal.values.service,
      outcome: internal.values.outcome,
    });
    expect(query.Period).toBe(300);
    const counted = (
      alarm.Metrics as Array<{ MetricStat?: { Metric: { MetricName: string; Dimensions: Array<{ Value: { Ref: string } }> } } }>
    )
      .filter((m) => m.MetricStat?.Metric.MetricName === "Count")
      .map((m) => m.MetricStat!.Metric.Dimensions[0]!.Value.Ref);
    expect(counted.sort()).toEqual(
      httpApisOf(synth.apiTemplate)
        .map((a) => a.logicalId)
        .sort(),
    );
    expect(alarm).toMatchObject({ Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2, TreatMissingData: "notBreaching" });
  });

  it("alarms on outcomes unknown to callers: INTERNAL on each changing tool and lookups answered pending or not_found, each metric exactly as emitted", () => {
    const synth = dev();
    const alarm = alarmNamed(synth, "UnknownOutcomes");
    const read = (
      alarm.Metrics as Array<{
        MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: Array<{ Name: string; Value: string }> } };
      }>
    )
      .filter((m) => m.MetricStat)
      .map((m) => m.MetricStat!.Metric);
    for (const metric of read) {
      const asEmitted = devMetrics.find((e) => e.name === metric.MetricName);
      expect(asEmitted, metric.MetricName).toBeDefined();
      expect(metric.Namespace).toBe(asEmitted!.namespace);
      expect(metric.Dimensions.map((d) => d.Name).sort(), metric.MetricName).toEqual(asEmitted!.dimensions);
      expect(metric.Dimensions.find((d) => d.Name === "service")?.Value).toBe(asEmitted!.values.service);
    }
    const value = (metric: (typeof read)[number], name: string) => metric.Dimensions.find((d) => d.Name === name)?.Value;
    const internal = read.filter((m) => m.MetricName === metricNames.outcome);
    expect(internal.every((m) => value(m, "outcome") === "INTERNAL")).toBe(true);
    expect(internal.map((m) => value(m, "tool")).sort()).toEqual(
      tools
        .filter((t) => t.kind === "change")
        .map((t) => t.name)
        .sort(),
    );
    expect(
      read
        .filter((m) => m.MetricName === metricNames.statusLookup)
        .map((m) => value(m, "answer"))
        .sort(),
    ).toEqual(["not_found", "pending"]);
    expect(alarm).toMatchObject({ Threshold: 5, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
  });

  it("reads another stage's metrics under that stage's own service, so two stages in one account do not mix", async () => {
    const synth = qa();
    const service = serviceNameOf(synth);
    expect(service).toBe("order-tools-qa");
    expect(Object.values(resourcesOf(synth.apiTemplate, "AWS::CloudWatch::Dashboard"))[0]!.Properties.DashboardName).toBe("OrderTools-qa");
    const searches = searchesOf(synth)
      .map(parseSearch)
      .filter((s) => s?.service);
    expect(searches.length).toBeGreaterThanOrEqual(Object.values(metricNames).length);
    for (const search of searches) expect(search!.service).toBe(service);
    expect(JSON.stringify(alarmNamed(synth, "InternalRate").Metrics)).toContain(`WHERE service = '${service}'`);
    const qaMetrics = await emitted(service);
    expect(new Set(qaMetrics.map((m) => m.values.service))).toEqual(new Set([service]));
  });
});
