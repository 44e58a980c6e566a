import { Aws, CfnOutput, Duration, type RemovalPolicy } from "aws-cdk-lib";
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  LambdaVersion,
  Mfa,
  OAuthScope,
  ResourceServerScope,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolOperation,
} from "aws-cdk-lib/aws-cognito";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { customerIdAttribute, resourceServerIdentifier, supportGroup } from "../functions/auth/pre-token-generation";
import { ToolFunction } from "#lib/tool-function";

export interface CognitoAuthProps {
  stage: string;
  callbackUrls: string[];
  domainPrefix?: string;
  /** Also create a confidential client-credentials client (Cognito bills M2M clients per month and per token). */
  supportServiceClient: boolean;
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  logLevel: string;
  logRetention: RetentionDays;
}

/**
 * The identity provider `cdk deploy` creates when no `jwtIssuer`/`jwtAudience` is given: a user pool on the
 * Essentials plan (the lowest that lets a trigger customize access tokens), the resource server `orders`
 * with scopes read/write/support, a `support` group, and a pre-token-generation trigger that turns the
 * customer attribute and group into the `customer_id` claim and `orders:*` scopes the API expects
 * (see functions/auth/pre-token-generation.ts).
 */
export class CognitoAuth extends Construct {
  readonly userPool: UserPool;
  readonly appClient: UserPoolClient;
  readonly serviceClient?: UserPoolClient;
  readonly trigger: ToolFunction;
  /** Token issuer and accepted audiences (client ids), for the API's JWT authorizer. */
  readonly issuer: string;
  readonly audience: string[];

  constructor(scope: Construct, id: string, props: CognitoAuthProps) {
    super(scope, id);

    const trigger = (this.trigger = new ToolFunction(this, "PreTokenGeneration", {
      entry: "functions/auth/pre-token-generation.ts",
      description: "order-tools Cognito pre-token-generation trigger",
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      logRemovalPolicy: props.removalPolicy,
      memorySize: 256,
      timeout: Duration.seconds(5),
    }));

    this.userPool = new UserPool(this, "UserPool", {
      featurePlan: FeaturePlan.ESSENTIALS,
      // Customers are provisioned by the order system (who else knows their customer id?), staff by admins.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: {
        [customerIdAttribute.replace(/^custom:/, "")]: new StringAttribute({ minLen: 3, maxLen: 20, mutable: true }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: props.deletionProtection,
      removalPolicy: props.removalPolicy,
    });
    this.userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, trigger.function, LambdaVersion.V3_0);
    this.userPool.addGroup("SupportGroup", {
      groupName: supportGroup,
      description: "Support staff: tokens may carry orders:support and act on any order.",
    });

    const scopeOf = (scopeName: string, scopeDescription: string) => new ResourceServerScope({ scopeName, scopeDescription });
    const read = scopeOf("read", "Read orders and operation outcomes");
    const write = scopeOf("write", "Change orders through the changing tools");
    const support = scopeOf("support", "Act on any order as support staff (support group only)");
    const server = this.userPool.addResourceServer("OrdersResourceServer", {
      identifier: resourceServerIdentifier,
      scopes: [read, write, support],
    });
    const ordersScopes = [read, write, support].map((s) => OAuthScope.resourceServer(server, s));

    const domain = this.userPool.addDomain("Domain", {
      cognitoDomain: { domainPrefix: props.domainPrefix ?? `order-tools-${props.stage}-${Aws.ACCOUNT_ID}` },
    });

    this.appClient = this.userPool.addClient("AppClient", {
      generateSecret: false,
      // SRP for apps; admin password auth for operators holding IAM credentials (the smoke test in docs/deploy.md).
      authFlows: { userSrp: true, adminUserPassword: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, ...ordersScopes],
        callbackUrls: props.callbackUrls,
      },
      preventUserExistenceErrors: true,
      // The customer id decides whose orders a token reaches: only administrators may set it.
      readAttributes: new ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }).withCustomAttributes("customer_id"),
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    if (props.supportServiceClient) {
      this.serviceClient = this.userPool.addClient("SupportServiceClient", {
        generateSecret: true,
        authFlows: {},
        oAuth: { flows: { clientCredentials: true }, scopes: ordersScopes },
        accessTokenValidity: Duration.hours(1),
      });
    }

    this.issuer = this.userPool.userPoolProviderUrl;
    this.audience = [this.appClient.userPoolClientId, ...(this.serviceClient ? [this.serviceClient.userPoolClientId] : [])];

    new CfnOutput(this, "UserPoolId", { key: "UserPoolId", value: this.userPool.userPoolId });
    new CfnOutput(this, "UserPoolClientId", { key: "UserPoolClientId", value: this.appClient.userPoolClientId });
    new CfnOutput(this, "AuthDomainUrl", { key: "AuthDomainUrl", value: domain.baseUrl() });
    if (this.serviceClient) {
      new CfnOutput(this, "SupportServiceClientId", { key: "SupportServiceClientId", value: this.serviceClient.userPoolClientId });
    }

    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: "AwsSolutions-COG2",
        reason:
          "MFA is offered (TOTP) but not required: requiring it of every shopper is a product decision. Staff who need enforced MFA should come from the workforce identity provider via jwtIssuer/jwtAudience.",
      },
      {
        id: "AwsSolutions-COG8",
        reason:
          "Essentials is the plan this pool needs (access-token customization). Plus adds threat protection at a higher per-MAU price; enable it in the console or override featurePlan when the user base warrants it.",
      },
    ]);
  }
}
