import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, type Environment } from "aws-cdk-lib";
import { Annotations, Template } from "aws-cdk-lib/assertions";
import { serviceFunctions } from "#deploy/service-functions";
import type { DeployedTool } from "#deploy/tool-functions";
import { type OrderToolsStacks, buildOrderTools } from "#lib/app";
import { withoutBundlingProgress } from "#lib/bundling-progress";

/**
 * The deployment as the infra tests see it, synthesized once per test file and option set.
 *
 * Synthesis is what costs: real bundling runs esbuild once per function (about a second each), and CDK's
 * built-in CloudFormation validation about five seconds, the Control Tower checks (cfn-guard over both templates)
 * about as long. Template assertions need none of them, so by default bundling is skipped
 * (`aws:cdk:bundling-stacks: []`) and both validations are off; `npx cdk synth` runs them all. The bundle-budget
 * test asks for `bundle: true` and gets the real assets, the controls test for `controlTowerChecks: true`.
 */
export interface Synthesized extends OrderToolsStacks {
  app: App;
  outdir: string;
  dataTemplate: Template;
  apiTemplate: Template;
  dataAnnotations: Annotations;
  apiAnnotations: Annotations;
}

export interface SynthOptions {
  context?: Record<string, unknown>;
  bundle?: boolean;
  tools?: readonly DeployedTool[];
  /** Run the Control Tower checks during synth (their report is `<outdir>/validation-report.json`). */
  controlTowerChecks?: boolean;
  /** Synthesize for this account and region, as `cdk deploy` with credentials does; otherwise environment-agnostic. */
  env?: Environment;
}

const outdirs: string[] = [];

/** Removes every assembly this file synthesized; call from the test file's `afterAll`. */
export function removeSynthesizedOutput(): void {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  shared.clear();
}

export function synthesize(options: SynthOptions = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), "order-tools-cdk-"));
  outdirs.push(outdir);
  const app = new App({
    outdir,
    builtinCloudFormationValidation: false,
    context: {
      ...(options.bundle ? {} : { "aws:cdk:bundling-stacks": [] }),
      controlTowerChecks: options.controlTowerChecks ?? false,
      ...options.context,
    },
  });
  const stacks = withoutBundlingProgress(() => {
    const built = buildOrderTools(app, {
      ...(options.tools ? { tools: options.tools } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    app.synth();
    return built;
  });
  // Annotations.fromStack synthesizes the whole app again (force: true), validation plugins included: with the
  // Control Tower checks on, each call ran cfn-guard over both templates once more. So they are read when a test
  // first asks for them, not for every synth; Template.fromStack reuses the assembly just made.
  let dataAnnotations: Annotations | undefined;
  let apiAnnotations: Annotations | undefined;
  return {
    ...stacks,
    app,
    outdir,
    dataTemplate: Template.fromStack(stacks.data),
    apiTemplate: Template.fromStack(stacks.api),
    get dataAnnotations() {
      dataAnnotations ??= Annotations.fromStack(stacks.data);
      return dataAnnotations;
    },
    get apiAnnotations() {
      apiAnnotations ??= Annotations.fromStack(stacks.api);
      return apiAnnotations;
    },
  };
}

const shared = new Map<string, Synthesized>();

/** The same synthesized app for every test in a file that asks with the same options. */
export function synthesized(options: Omit<SynthOptions, "tools"> = {}): Synthesized {
  const key = JSON.stringify(options);
  let result = shared.get(key);
  if (!result) {
    result = synthesize(options);
    shared.set(key, result);
  }
  return result;
}

type Resources = Record<string, { Type: string; Properties: Record<string, any>; DeletionPolicy?: string }>;

export function resourcesOf(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/** A function's logical id → the tool it serves, from the description the stack gives it. */
export function toolFunctions(template: Template): Map<string, { logicalId: string; properties: Record<string, any> }> {
  const byTool = new Map<string, { logicalId: string; properties: Record<string, any> }>();
  for (const [logicalId, resource] of Object.entries(resourcesOf(template, "AWS::Lambda::Function"))) {
    const match = /^order-tools ([a-z_]+)$/.exec(String(resource.Properties.Description ?? ""));
    if (match?.[1]) byTool.set(match[1], { logicalId, properties: resource.Properties });
  }
  return byTool;
}

/** The catalogue, OpenAPI and MCP functions by name, found by the description the stack gives them. */
export function serviceFunctionsOf(template: Template): Map<string, { logicalId: string; properties: Record<string, any> }> {
  const byName = new Map<string, { logicalId: string; properties: Record<string, any> }>();
  for (const [logicalId, resource] of Object.entries(resourcesOf(template, "AWS::Lambda::Function"))) {
    const service = serviceFunctions.find((f) => f.description === resource.Properties.Description);
    if (service) byName.set(service.name, { logicalId, properties: resource.Properties });
  }
  return byName;
}

/** Every policy statement attached to the role with this logical id. */
export function statementsOfRole(
  template: Template,
  roleLogicalId: string,
): Array<{ Action: string | string[]; Resource: unknown; Effect: string }> {
  return Object.values(resourcesOf(template, "AWS::IAM::Policy"))
    .filter((policy) => (policy.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleLogicalId })))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

export const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

export interface SynthesizedApi {
  logicalId: string;
  authorizerId: string;
  authorizer: Record<string, any>;
  routes: Array<Record<string, any>>;
  stage: Record<string, any>;
}

/** Each HTTP API of a template with its authorizer, routes and stage, found through their ApiId references. */
export function httpApisOf(template: Template): SynthesizedApi[] {
  const ofApi = (type: string, apiId: string) =>
    Object.entries(resourcesOf(template, type)).filter(([, r]) => JSON.stringify(r.Properties.ApiId) === JSON.stringify({ Ref: apiId }));
  return Object.keys(resourcesOf(template, "AWS::ApiGatewayV2::Api")).map((logicalId) => {
    const authorizers = ofApi("AWS::ApiGatewayV2::Authorizer", logicalId);
    const stages = ofApi("AWS::ApiGatewayV2::Stage", logicalId);
    if (authorizers.length !== 1 || stages.length !== 1) throw new Error(`${logicalId}: expected one authorizer and one stage`);
    const [authorizerId, authorizer] = authorizers[0]!;
    return {
      logicalId,
      authorizerId,
      authorizer: authorizer.Properties,
      routes: ofApi("AWS::ApiGatewayV2::Route", logicalId).map(([, r]) => r.Properties),
      stage: stages[0]![1].Properties,
    };
  });
}

/** A DynamoDB grant as the tests compare them: resource, action, and the leading-key patterns if conditioned. */
export interface DynamoGrant {
  resource: string;
  action: string;
  leadingKeys?: string[];
}

/**
 * Every DynamoDB grant of a role, one per resource and action, with resources named by `names` (resolved ARN
 * JSON → name). A statement with any condition other than ForAllValues:StringLike on dynamodb:LeadingKeys, or an
 * unknown resource, throws: the tests would otherwise judge a policy they do not understand.
 */
export function dynamoGrantsOf(template: Template, roleLogicalId: string, names: Map<string, string>): DynamoGrant[] {
  return statementsOfRole(template, roleLogicalId)
    .filter((s) => asList(s.Action).some((a) => a.startsWith("dynamodb:")))
    .flatMap((statement) => {
      const condition = (statement as { Condition?: Record<string, Record<string, unknown>> }).Condition;
      let leadingKeys: string[] | undefined;
      if (condition) {
        const keys = Object.keys(condition);
        const like = condition["ForAllValues:StringLike"];
        if (keys.length !== 1 || !like || Object.keys(like).join() !== "dynamodb:LeadingKeys") {
          throw new Error(`Unexpected condition ${JSON.stringify(condition)}`);
        }
        leadingKeys = asList(like["dynamodb:LeadingKeys"] as string | string[]);
      }
      return asList(statement.Resource).flatMap((resource) => {
        const name = names.get(JSON.stringify(resource));
        if (!name) throw new Error(`Unknown resource ${JSON.stringify(resource)}`);
        return asList(statement.Action).map((action) => ({ resource: name, action, ...(leadingKeys ? { leadingKeys } : {}) }));
      });
    });
}

/** Resolved ARN JSON → `orders`, `idempotency` or `orders/index/<name>`, for `dynamoGrantsOf`. */
export function tableArnNames(stacks: OrderToolsStacks, indexNames: readonly string[]): Map<string, string> {
  const { api, data } = stacks;
  const orders = api.resolve(data.ordersTable.tableArn);
  return new Map([
    [JSON.stringify(orders), "orders"],
    [JSON.stringify(api.resolve(data.idempotencyTable.tableArn)), "idempotency"],
    ...indexNames.map(
      (name) => [JSON.stringify({ "Fn::Join": ["", [orders, `/index/${name}`]] }), `orders/index/${name}`] as [string, string],
    ),
  ]);
}
