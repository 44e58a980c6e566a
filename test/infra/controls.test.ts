import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools } from "#contract/tools";
import {
  acknowledgeLogGroupControls,
  acknowledgementId,
  addControlTowerChecks,
  type ControlId,
  controls,
  controlTowerPlugin,
} from "#lib/controls";
import { removeSynthesizedOutput, resourcesOf, type Synthesized, synthesized } from "#test/infra/synthesized-app";

/**
 * AWS Control Tower's proactive controls (cfn-guard rules shipped in @cdklabs/cdk-validator-cfnguard) run as CDK's
 * policy-validation plugin while the app synthesizes, over both templates, exactly as `npx cdk synth` runs them.
 * A finding fails the synth unless acknowledged, with a reason, at the construct that made the resource.
 */

interface Finding {
  control: string;
  logicalId: string;
  constructPath: string;
  fqn: string;
  reason?: string;
  acknowledgedAt?: string;
}

interface Report {
  violations: Finding[];
  acknowledged: Finding[];
}

function reportOf(synth: Synthesized): Report {
  const report = JSON.parse(readFileSync(join(synth.outdir, "validation-report.json"), "utf8")) as {
    pluginReports: Array<{ pluginName: string; violations: any[]; suppressedViolations?: any[] }>;
  };
  const plugin = report.pluginReports.find((r) => r.pluginName === controlTowerPlugin);
  expect(plugin, "the Control Tower plugin ran").toBeDefined();
  const flatten = (violations: any[]): Finding[] =>
    violations.flatMap((v) =>
      (v.violatingConstructs as any[]).map((c) => ({
        control: /^\[(CT\.[A-Z0-9]+\.PR\.\d+)\]/.exec(v.description)?.[1] ?? v.ruleName,
        logicalId: c.cloudFormationResource.logicalId,
        constructPath: c.constructPath,
        fqn: c.constructFqn,
        ...(v.reason ? { reason: v.reason, acknowledgedAt: v.acknowledgedAt } : {}),
      })),
    );
  return { violations: flatten(plugin!.violations), acknowledged: flatten(plugin!.suppressedViolations ?? []) };
}

/** Every acknowledgement recorded in the construct tree: where, which rule, why. */
function acknowledgementsOf(synth: Synthesized): Array<{ path: string; id: string; reason: string }> {
  return synth.app.node
    .findAll()
    .flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({ path: c.node.path, id, reason }))),
    );
}

const byControl = (findings: Finding[]) => {
  const grouped = new Map<string, Finding[]>();
  for (const f of findings) grouped.set(f.control, [...(grouped.get(f.control) ?? []), f]);
  return grouped;
};

/** As a new user runs it: the defaults, with the user pools, synthesized offline (no account). */
const asGiven = () => synthesized({ controlTowerChecks: true });
/** As `cdk deploy` synthesizes for an account, with the customer key, a year of every log, and one identity provider. */
const hardened = () =>
  synthesized({
    controlTowerChecks: true,
    env: { account: "111122223333", region: "eu-west-1" },
    context: {
      customerManagedKey: "true",
      logRetentionDays: "365",
      accessLogRetentionDays: "365",
      jwtIssuer: "https://idp.example.com/",
      jwtAudience: "api",
      alarmTopicArn: "arn:aws:sns:eu-west-1:111122223333:ops",
    },
  });

// Two synths, each running cfn-guard over both templates once (the annotations, which would synthesize again, are
// never read here): about ten seconds each on a quiet 2-core machine, several times that when other suites share it.
beforeAll(() => {
  asGiven();
  hardened();
}, 480_000);
afterAll(removeSynthesizedOutput);

describe("AWS Control Tower proactive controls", () => {
  it("leave no unexplained finding in either template, with or without the options", () => {
    for (const synth of [asGiven(), hardened()]) {
      const { violations, acknowledged } = reportOf(synth);
      expect(violations, JSON.stringify(violations.slice(0, 3))).toEqual([]);
      for (const finding of acknowledged) {
        expect(finding.reason, `${finding.control} ${finding.constructPath}`).toMatch(
          new RegExp(`^\\[${finding.control.replaceAll(".", "\\.")}\\] .{80,}`),
        );
      }
    }
  });

  it("fix what is real: every alarm notifies someone, the tables are under a KMS key, and permissions name their source where the account is known", () => {
    const given = byControl(reportOf(asGiven()).acknowledged);
    const hard = byControl(reportOf(hardened()).acknowledged);
    for (const found of [given, hard]) {
      expect(found.get("CT.CLOUDWATCH.PR.1"), "alarms without an action").toBeUndefined();
      expect(found.get("CT.DYNAMODB.PR.2"), "tables without a KMS key").toBeUndefined();
    }
    // Offline the account is a pseudo-parameter the rule cannot read: acknowledged only on permissions that name
    // their source account that way and whose SourceArn the rule cannot read either.
    const permissions = resourcesOf(asGiven().apiTemplate, "AWS::Lambda::Permission");
    const unreadable = given.get("CT.LAMBDA.PR.2")!;
    expect(unreadable.length).toBeGreaterThanOrEqual(2 * (tools.length + 3));
    for (const finding of unreadable) {
      const permission = permissions[finding.logicalId]!.Properties;
      expect(permission.SourceAccount, finding.constructPath).toEqual({ Ref: "AWS::AccountId" });
      expect(Object.keys(permission.SourceArn), finding.constructPath).toEqual(["Fn::Join"]);
    }
    expect(hard.get("CT.LAMBDA.PR.2"), "with an account, every permission passes").toBeUndefined();
  });

  it("acknowledge exactly the deliberate exceptions: the public catalogue and OAuth metadata routes and MCP's own token check per API, no VPC, and logs kept or encrypted short of the controls only where chosen", () => {
    const given = byControl(reportOf(asGiven()).acknowledged);
    const routes = given
      .get("CT.APIGATEWAY.PR.5")!
      .map((f) => f.constructPath.replace(/^OrderTools-dev-Api\//, ""))
      .sort();
    const everyApi = [
      "GET--v1--openapi.json",
      "GET--v1--tools",
      "GET--.well-known--oauth-protected-resource--v1--mcp",
      "GET--.well-known--oauth-protected-resource",
      "POST--v1--mcp",
      "GET--v1--mcp",
      "DELETE--v1--mcp",
    ];
    const withPools = [...everyApi, "GET--.well-known--oauth-authorization-server", "GET--oauth2--authorize"];
    expect(routes).toEqual(["Api", "SellerApi", "StaffApi"].flatMap((api) => withPools.map((route) => `${api}/${route}/Resource`)).sort());
    for (const finding of given.get("CT.APIGATEWAY.PR.5")!) {
      const route = finding.constructPath;
      const why =
        /--v1--mcp\/Resource$/.test(route) && !/well-known/.test(route)
          ? /verify the bearer token in the MCP function itself/
          : /--v1--(tools|openapi)/.test(route)
            ? /no order or caller data/
            : /reads them before it holds a token/;
      expect(finding.reason, route).toMatch(why);
    }
    const ids = (control: string) => new Set(given.get(control)?.map((f) => f.logicalId));
    const template = asGiven().apiTemplate;
    expect(ids("CT.LAMBDA.PR.3")).toEqual(new Set(Object.keys(resourcesOf(template, "AWS::Lambda::Function"))));
    const groups = resourcesOf(template, "AWS::Logs::LogGroup");
    expect(ids("CT.CLOUDWATCH.PR.3")).toEqual(new Set(Object.keys(groups)));
    const underAYear = Object.keys(groups).filter((id) => groups[id]!.Properties.RetentionInDays < 365);
    expect(ids("CT.CLOUDWATCH.PR.2")).toEqual(new Set(underAYear));
    const changing = tools
      .filter((t) => t.kind === "change")
      .map((t) => t.name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase()));
    const retention = given.get("CT.CLOUDWATCH.PR.2")!.map((f) => f.constructPath);
    expect(
      retention.filter((p) => changing.some((name) => p.includes(`/Tool${name}/`))),
      "the change logs are kept a year",
    ).toEqual([]);
    expect(underAYear.length).toBeLessThan(Object.keys(groups).length);

    // With the customer key and a year of logs, only what cannot change is left, and the key's cross-stack reference.
    const hard = byControl(reportOf(hardened()).acknowledged);
    expect([...hard.keys()].sort()).toEqual(["CT.APIGATEWAY.PR.5", "CT.CLOUDWATCH.PR.3", "CT.LAMBDA.PR.3"]);
    expect(hard.get("CT.APIGATEWAY.PR.5")).toHaveLength(everyApi.length);
    expect(hard.get("CT.CLOUDWATCH.PR.3")!.every((f) => /lives in the data stack/.test(f.reason!))).toBe(true);
  });

  it("fail the synth on a finding nobody acknowledged, even when others in the same app are acknowledged", () => {
    const outdir = mkdtempSync(join(tmpdir(), "order-tools-controls-"));
    try {
      const app = new App({ outdir });
      const stack = new Stack(app, "Probe");
      const excused = new LogGroup(stack, "Excused", { retention: RetentionDays.ONE_DAY, removalPolicy: RemovalPolicy.DESTROY });
      acknowledgeLogGroupControls(excused, "operational", RetentionDays.ONE_DAY, undefined);
      new LogGroup(stack, "Unexplained", { retention: RetentionDays.ONE_DAY, removalPolicy: RemovalPolicy.DESTROY });
      addControlTowerChecks(app);
      expect(() => app.synth()).toThrow(/CT\.CLOUDWATCH\.PR\.2[\s\S]*Probe\/Unexplained/);
      const report = JSON.parse(readFileSync(join(outdir, "validation-report.json"), "utf8"));
      const suppressed = report.pluginReports[0].suppressedViolations.flatMap((v: any) =>
        v.violatingConstructs.map((c: any) => c.constructPath),
      );
      expect(suppressed).toEqual(expect.arrayContaining(["Probe/Excused/Resource"]));
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 60_000);

  it("keep no acknowledgement that covers nothing: each one recorded in the construct tree silences at least one finding", () => {
    for (const synth of [asGiven(), hardened()]) {
      const acknowledged = reportOf(synth).acknowledged;
      const recorded = acknowledgementsOf(synth).filter((a) => a.id.startsWith(`${controlTowerPlugin}::`));
      expect(recorded.length).toBeGreaterThan(0);
      for (const { path, id } of recorded) {
        const control = (Object.keys(controls) as ControlId[]).find((c) => acknowledgementId(c) === id);
        expect(control, id).toBeDefined();
        expect(
          acknowledged.some((f) => f.acknowledgedAt === path && f.control === control),
          `${id} at ${path}`,
        ).toBe(true);
      }
    }
  });
});
