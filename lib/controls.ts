import { arch, platform } from "node:os";
import { CfnPermission } from "aws-cdk-lib/aws-lambda";
import {
  Annotations,
  type App,
  type IAspect,
  type IPolicyValidationContext,
  type IPolicyValidationPlugin,
  type PolicyValidationPluginReport,
  Stack,
  Validations,
} from "aws-cdk-lib";
import { CfnGuardValidator } from "@cdklabs/cdk-validator-cfnguard";
import type { IConstruct } from "constructs";

/**
 * AWS Control Tower's proactive controls, as `@cdklabs/cdk-validator-cfnguard` ships them (the cfn-guard binary
 * and the rules are in the npm package; nothing is downloaded), run over every synthesized template as a CDK
 * policy-validation plugin. A finding fails the synth unless the construct that made the resource acknowledges
 * it here with its reason, the way cdk-nag findings are suppressed. CDK records each acknowledgement in the
 * cloud assembly and lists the acknowledged findings, with their reasons, in `cdk.out/validation-report.json`.
 */
export const controlTowerPlugin = "cdk-validator-cfnguard";

/** The controls this app meets only in part, by id, with the cfn-guard rule that checks each. */
export const controls = {
  "CT.APIGATEWAY.PR.5": "api_gw_v2_authorization_type_configured_check",
  "CT.CLOUDWATCH.PR.2": "cloudwatch_log_group_retention_period_check",
  "CT.CLOUDWATCH.PR.3": "cloudwatch_log_group_encrypted_check",
  "CT.DYNAMODB.PR.2": "dynamodb_table_encrypted_kms_check",
  "CT.LAMBDA.PR.2": "lambda_function_public_access_prohibited_check",
  "CT.LAMBDA.PR.3": "lambda_inside_vpc_check",
} as const;
export type ControlId = keyof typeof controls;

/** The id CDK's `Validations.acknowledge` takes for a control: the plugin's namespace and the guard rule. */
export const acknowledgementId = (control: ControlId) => `${controlTowerPlugin}::${controls[control]}`;

/** Why a finding is accepted rather than fixed; recorded at the construct whose resources it covers (and theirs). */
export function acknowledgeControl(scope: IConstruct, control: ControlId, reason: string): void {
  Validations.of(scope).acknowledge({ id: acknowledgementId(control), reason: `[${control}] ${reason}` });
}

/** The reasons, written once: each names what the control guards against and why that does not apply or costs too much here. */
export const controlReasons = {
  noVpc:
    "This function reaches only AWS APIs (DynamoDB, Lambda Invoke, CloudWatch Logs) over TLS, each authorized by its own role's IAM policy; it reaches no private network resource. A VPC would protect nothing IAM does not, and would add NAT or interface endpoints (Lambda's about $7.30 a month per AZ; DynamoDB's gateway endpoint is free) and ENI management to every function.",
  publicCatalogueRoute:
    "GET /v1/tools and GET /v1/openapi.json publish the API's own contract, generated from the tool registry: no order or caller data and no data access at all. Agent platforms read them before they hold a token; the stage throttle applies.",
  publicOAuthMetadataRoute:
    "The OAuth metadata of the MCP endpoint (RFC 9728) and of its user pool (RFC 8414), and the authorization endpoint that sends a browser on to the pool's hosted sign-in: public by definition, since an MCP client reads them before it holds a token. They hold no order or caller data and touch no table; the stage throttle applies.",
  mcpVerifiesItsOwnToken:
    "POST, GET and DELETE /v1/mcp verify the bearer token in the MCP function itself (aws-jwt-verify: signature, issuer, expiry, the deployment's app clients and the MCP URL as audience), because MCP clients need a 401 whose WWW-Authenticate names the resource metadata, which the HTTP API's JWT authorizer cannot add. Every tool call is then checked against its tool's scope, in the MCP function and again in the tool's own function.",
  unresolvedAccount:
    "SourceAccount is the stack's account, but this template is environment-agnostic, so it is the AWS::AccountId pseudo-parameter, which the rule cannot read, and so is the SourceArn (an Fn::Join naming the calling API or agent of this account). Synthesized for an account (cdk deploy sets CDK_DEFAULT_ACCOUNT), the rule passes without this acknowledgement.",
  awsEncryptedLogs:
    "CloudWatch Logs encrypts every log group at rest with keys it manages. A customer-managed key (context customerManagedKey=true) adds key-level access control, audit of each use and crypto-shredding, at $1 a month per key plus KMS requests; the lines here hold no order contents, notes or tokens (principals are hashed).",
  crossStackKey:
    "Encrypted with the stage's customer-managed key, which lives in the data stack beside the data it protects; the rule reads KmsKeyId only as a string or a reference within the template, not as the Fn::ImportValue a cross-stack reference is.",
  operationalRetention:
    "Day-to-day debugging logs (reads, MCP, catalogue, OpenAPI, token triggers): a month covers an investigation; the changes themselves are kept a year in the changing tools' logs and indefinitely as activity entries in the orders table. Raise with context logRetentionDays (365 or more passes this control).",
  accessLogRetention:
    "API access logs hold every caller's IP address, personal data to keep no longer than an investigation of refused or abusive requests needs: three months. Raise with context accessLogRetentionDays (365 or more passes this control).",
  changeLogRetention:
    "Shortened by context changeLogRetentionDays below the year this stack keeps by default; the change records in the orders table are unaffected.",
  xrayWrites:
    'X-Ray active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so X-Ray accepts them only on "*". They write trace data; they read nothing.',
} as const;

/** Log groups by what their lines are for; each kind has its own retention and reason. */
export type LogKind = "operational" | "change" | "access";
export const retentionReason: Record<LogKind, string> = {
  operational: controlReasons.operationalRetention,
  change: controlReasons.changeLogRetention,
  access: controlReasons.accessLogRetention,
};

/** CT.CLOUDWATCH.PR.2's minimum. */
export const controlMinimumRetentionDays = 365;

/** What a log group of this kind leaves short of the log controls, acknowledged with the reason. */
export function acknowledgeLogGroupControls(logGroup: IConstruct, kind: LogKind, retentionDays: number, key: IConstruct | undefined): void {
  if (retentionDays < controlMinimumRetentionDays) acknowledgeControl(logGroup, "CT.CLOUDWATCH.PR.2", retentionReason[kind]);
  if (!key) acknowledgeControl(logGroup, "CT.CLOUDWATCH.PR.3", controlReasons.awsEncryptedLogs);
  else if (Stack.of(key) !== Stack.of(logGroup)) acknowledgeControl(logGroup, "CT.CLOUDWATCH.PR.3", controlReasons.crossStackKey);
}

/**
 * CT.LAMBDA.PR.2 asks every permission granted to an AWS service to name its source. API Gateway's integrations
 * set a SourceArn, but as an `Fn::Join` the rule cannot read; SourceAccount, the account that owns the calling
 * resource, is added to every service permission that lacks one (the callers here all live in the stack's
 * account). Where neither can be read — an environment-agnostic synth — the permission is acknowledged, with
 * its reason, on that permission only.
 */
export class SourceAccountOnServicePermissions implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnPermission)) return;
    if (typeof node.principal !== "string" || !node.principal.endsWith(".amazonaws.com")) return;
    const stack = Stack.of(node);
    node.sourceAccount ??= stack.account;
    // The rule reads SourceAccount only as a string, and SourceArn as a string or a reference to a resource of the template.
    const account: unknown = stack.resolve(node.sourceAccount);
    const arn: unknown = stack.resolve(node.sourceArn);
    const arnReadable = typeof arn === "string" || (typeof arn === "object" && arn !== null && ("Ref" in arn || "Fn::GetAtt" in arn));
    if (typeof account !== "string" && !arnReadable) acknowledgeControl(node, "CT.LAMBDA.PR.2", controlReasons.unresolvedAccount);
  }
}

/** The platforms whose cfn-guard binary the package ships. */
export function controlTowerChecksSupported(): boolean {
  return (platform() === "linux" || platform() === "darwin") && (arch() === "x64" || arch() === "arm64");
}

/**
 * The cfn-guard plugin, with each finding marked an error. The plugin leaves `severity` unset, and CDK (2.276)
 * recomputes a report's success after acknowledgements as "no violation whose severity is error": with
 * severity unset, one acknowledgement anywhere would let every unacknowledged finding through.
 */
export class ControlTowerChecks implements IPolicyValidationPlugin {
  private readonly guard = new CfnGuardValidator();
  /** The plugin's own name, which is also the namespace of the acknowledgement ids. */
  readonly name = this.guard.name;
  readonly version = this.guard.version;
  readonly ruleIds = this.guard.ruleIds;

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const report = this.guard.validate(context);
    return { ...report, violations: report.violations.map((v) => ({ ...v, severity: v.severity ?? "error" })) };
  }
}

/** Registers the Control Tower checks on the app; where cfn-guard has no binary, says so instead of failing the synth. */
export function addControlTowerChecks(app: App): void {
  if (!controlTowerChecksSupported()) {
    Annotations.of(app).addWarningV2(
      "order-tools:ControlTowerChecksSkipped",
      `The Control Tower checks need cfn-guard, which @cdklabs/cdk-validator-cfnguard ships for Linux and macOS on x64 and arm64 only, not ${platform()} ${arch()}: they did not run.`,
    );
    return;
  }
  Validations.of(app).addPlugins(new ControlTowerChecks());
}
