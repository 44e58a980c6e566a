import { type App, Aspects, type Environment, Tags } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import type { DeployedTool } from "#deploy/tool-functions";
import { ApiStack } from "#lib/api-stack";
import { type OrderToolsConfig, readConfig } from "#lib/config";
import { addControlTowerChecks, SourceAccountOnServicePermissions } from "#lib/controls";
import { DataStack } from "#lib/data-stack";

const crossStackReferences = "@aws-cdk/core:defaultCrossStackReferences";

export interface OrderToolsStacks {
  config: OrderToolsConfig;
  data: DataStack;
  api: ApiStack;
}

/**
 * The whole deployment, as `bin/order-tools.ts` and the infra tests both build it: the stateful data stack,
 * the stateless API stack that uses its tables, cdk-nag's AwsSolutions checks over both, and AWS Control Tower's
 * proactive controls over both templates (unless `controlTowerChecks=false`).
 * Stacks are environment-agnostic unless the CLI knows the account (CDK_DEFAULT_ACCOUNT), so `cdk synth` needs no
 * account lookups.
 */
export function buildOrderTools(app: App, options: { tools?: readonly DeployedTool[]; env?: Environment } = {}): OrderToolsStacks {
  const config = readConfig(app.node);
  // The API stack imports the tables' names and ARNs. Strong references (exports) are what we want: the data
  // stack cannot be deleted, nor a table replaced, while the API still uses it. Said explicitly, so CDK does not warn.
  if (app.node.tryGetContext(crossStackReferences) === undefined) app.node.setContext(crossStackReferences, "strong");
  const prefix = `OrderTools-${config.stage}`;
  const env = options.env
    ? { env: options.env }
    : process.env.CDK_DEFAULT_ACCOUNT
      ? { env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION } }
      : {};

  const data = new DataStack(app, `${prefix}-Data`, {
    ...env,
    description: `order-tools (${config.stage}) stateful: orders and idempotency tables, alarm topic`,
    deletionProtection: config.deletionProtection,
    ...(config.orderIndexStep !== undefined ? { orderIndexStep: config.orderIndexStep } : {}),
    ...(config.alarmTopicArn ? { alarmTopicArn: config.alarmTopicArn } : {}),
    alarmEmails: config.alarmEmails,
    customerManagedKey: config.customerManagedKey,
  });
  const api = new ApiStack(app, `${prefix}-Api`, {
    ...env,
    description: `order-tools (${config.stage}) stateless: HTTP API, one function per tool, identity`,
    tables: { orders: data.ordersTable, idempotency: data.idempotencyTable },
    alarmTopic: data.alarmTopic,
    ...(data.encryptionKey ? { encryptionKey: data.encryptionKey } : {}),
    config,
    ...(options.tools ? { tools: options.tools } : {}),
  });

  Tags.of(app).add("service", "order-tools");
  Tags.of(app).add("stage", config.stage);
  Aspects.of(app).add(new SourceAccountOnServicePermissions());
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  if (config.controlTowerChecks) addControlTowerChecks(app);
  return { config, data, api };
}
