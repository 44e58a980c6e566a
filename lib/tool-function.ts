import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Duration, type RemovalPolicy } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IKey } from "aws-cdk-lib/aws-kms";
import { Architecture, Runtime, Tracing } from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, LogLevel as EsbuildLogLevel, NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import type { DynamoAction, KeyedWrites, WriteAction } from "#deploy/access";
import type { TracerSetting } from "#lib/config";
import { acknowledgeControl, acknowledgeLogGroupControls, controlReasons, type LogKind } from "#lib/controls";

/** The repository root: entries, the lock file and esbuild's working directory are all relative to it. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * How every function is bundled, locally with the project's esbuild (there is no Docker fallback to rely on).
 * - ESM, minified, with external source maps that `--enable-source-maps` applies to stack traces.
 * - `@aws-sdk/*` stays external: the nodejs22.x runtime ships SDK v3, and bundling it would triple each
 *   bundle (about 330 KB more) and slow cold starts. Powertools and zod are bundled.
 * - The banner gives CommonJS dependencies inside an ESM bundle a `require` to call.
 */
export const bundling: BundlingOptions = {
  format: OutputFormat.ESM,
  target: "node22",
  mainFields: ["module", "main"],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  externalModules: ["@aws-sdk/*"],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  logLevel: EsbuildLogLevel.WARNING,
};

/**
 * The bundling of a function with the tracer setting given: functions/runtime/tracing.ts reads
 * `process.env.ORDER_TOOLS_TRACER`, which esbuild replaces with the setting, so without the Tracer its import is
 * dead code and leaves the bundle.
 */
export function bundlingFor(tracer: TracerSetting): BundlingOptions {
  return { ...bundling, define: { "process.env.ORDER_TOOLS_TRACER": JSON.stringify(tracer) } };
}

export interface ToolFunctionProps {
  /** The handler module relative to the repository root; it exports `handler`. */
  entry: string;
  description: string;
  logLevel: string;
  logRetention: RetentionDays;
  /** What the log lines are for, which decides the reason given for a retention under a year (default operational). */
  logKind?: LogKind;
  /** What happens to the log group when the stack goes: RETAIN in production, DESTROY for throw-away stages. */
  logRemovalPolicy: RemovalPolicy;
  /** The customer-managed key of the log group, if the stage has one; otherwise CloudWatch Logs' own encryption. */
  logEncryptionKey?: IKey;
  /** POWERTOOLS_SERVICE_NAME: the `service` of its log lines and the `service` dimension of its metrics. */
  serviceName?: string;
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  /** Lambda's active tracing is always on; this says whether the Powertools Tracer is built in (default `lambda`: not). */
  tracer?: TracerSetting;
}

/**
 * One Lambda function of this service with the defaults they all share: nodejs22.x on arm64, source maps,
 * its own log group with retention, the Powertools environment, X-Ray active tracing, and a role of its own that
 * starts with nothing but writing to that log group and its trace segments. DynamoDB access is added with
 * `grantTable`, action by action.
 */
export class ToolFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ToolFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, "Logs", {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
      ...(props.logEncryptionKey ? { encryptionKey: props.logEncryptionKey } : {}),
    });
    acknowledgeLogGroupControls(this.logGroup, props.logKind ?? "operational", props.logRetention, props.logEncryptionKey);

    // An explicit role instead of AWSLambdaBasicExecutionRole: that managed policy may write to any log group.
    this.role = new Role(this, "Role", {
      assumedBy: new ServicePrincipal("lambda.amazonaws.com"),
      description: `${props.description}: its own log group and the DynamoDB actions it calls`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, "Function", {
      entry: join(repoRoot, props.entry),
      handler: "handler",
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, "package-lock.json"),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      // A tool makes at most a read, one transaction and Powertools' writes; 10 s is generous and still
      // well inside API Gateway's 30 s integration timeout, so a stuck call ends as a 5xx we alarm on.
      timeout: props.timeout ?? Duration.seconds(10),
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      // Every function: a trace starts here, since HTTP APIs trace nothing in X-Ray (docs/operations.md, "Traces").
      // CDK grants the role X-Ray's two write actions for it.
      tracing: Tracing.ACTIVE,
      bundling: bundlingFor(props.tracer ?? "lambda"),
      environment: {
        NODE_OPTIONS: "--enable-source-maps",
        POWERTOOLS_SERVICE_NAME: props.serviceName ?? "order-tools",
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        ...props.environment,
      },
    });
    // The role's policy must exist before the function can be invoked successfully.
    this.function.node.addDependency(this.role);

    acknowledgeControl(this.function, "CT.LAMBDA.PR.3", controlReasons.noVpc);
    // Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords on "*" to the role's policy.
    NagSuppressions.addResourceSuppressions(
      this.role,
      [{ id: "AwsSolutions-IAM5", reason: controlReasons.xrayWrites, appliesTo: ["Resource::*"] }],
      true,
    );
    NagSuppressions.addResourceSuppressions(this.function, [
      {
        id: "AwsSolutions-L1",
        reason:
          "nodejs22.x is the runtime this service is specified, built and tested for (Node 22 features, Powertools 2.x support); moving to a newer runtime is a deliberate upgrade with its own test run, not a synth-time default.",
      },
    ]);
  }

  /**
   * Allows exactly what `grant` lists on exactly this table: `actions` on the table's ARN with no key condition,
   * each action of `keyedWrites` on the table's ARN only for items whose partition key matches one of its patterns
   * (`ForAllValues:StringLike` on `dynamodb:LeadingKeys`), and Query on exactly the named indexes' ARNs. Nothing is
   * widened: no wildcard action, no Scan, no `index/*`, and an index grant does not imply Query on the table.
   */
  grantTable(table: ITable, grant: { actions?: readonly DynamoAction[]; keyedWrites?: KeyedWrites; indexes?: readonly string[] }): void {
    const actions = [...new Set(grant.actions ?? [])];
    if (actions.length > 0) {
      this.role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [table.tableArn] }));
    }
    for (const [action, patterns] of Object.entries(grant.keyedWrites ?? {}) as [WriteAction, readonly string[]][]) {
      if (patterns.length === 0) continue;
      if (actions.includes(action))
        throw new Error(
          `${this.node.path}: ${action} is granted both with and without a key condition; the unconditioned grant would void the condition.`,
        );
      this.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [action],
          resources: [table.tableArn],
          conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": [...new Set(patterns)] } },
        }),
      );
    }
    const indexes = grant.indexes ?? [];
    if (indexes.length > 0) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ["dynamodb:Query"], resources: indexes.map((name) => `${table.tableArn}/index/${name}`) }),
      );
    }
  }
}
