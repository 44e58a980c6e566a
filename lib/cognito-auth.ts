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
import type { IKey } from "aws-cdk-lib/aws-kms";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import {
  customerIdAttribute,
  resourceServerIdentifier,
  sellerIdAttribute,
  supportGroup,
  type UserPoolKind,
  userPoolEnv,
} from "../functions/service/pre-token-generation";
import type { McpClientConfig } from "#lib/config";
import { ToolFunction } from "#lib/tool-function";

export interface CognitoAuthProps {
  /**
   * customers: shoppers, MFA optional, tokens never carry orders:support. staff: MFA required of every user, the
   * only pool whose tokens may carry orders:support. sellers: marketplace sellers' users, MFA required, tokens
   * carry seller_id from an attribute only administrators write, and never orders:support or customer_id.
   */
  kind: UserPoolKind;
  stage: string;
  callbackUrls: string[];
  domainPrefix: string;
  /** Staff pool only: also create a confidential client-credentials client (Cognito bills M2M clients per month and per token). */
  supportServiceClient?: boolean;
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  logLevel: string;
  logRetention: RetentionDays;
  logEncryptionKey?: IKey;
  /** POWERTOOLS_SERVICE_NAME of the trigger. */
  serviceName?: string;
  /** MCP clients to pre-register an app client for (Cognito has no dynamic client registration). */
  mcpClients?: readonly McpClientConfig[];
}

/**
 * One of the identity providers `cdk deploy` creates when no `jwtIssuer`/`jwtAudience` is given: a user pool on
 * the Essentials plan (the lowest that lets a trigger customize access tokens), the resource server `orders`, an
 * app client, a hosted sign-in domain, and a pre-token-generation trigger of its own that turns the customer or
 * seller attribute, or the support group, into the `customer_id` / `seller_id` claim and `orders:*` scopes the
 * API expects (see functions/service/pre-token-generation.ts). The API stack makes one of each kind and gives each
 * its own API, because a JWT authorizer trusts one issuer and a route has one authorizer.
 */
export class CognitoAuth extends Construct {
  readonly kind: UserPoolKind;
  readonly userPool: UserPool;
  readonly appClient: UserPoolClient;
  readonly serviceClient?: UserPoolClient;
  readonly trigger: ToolFunction;
  /** Token issuer and accepted audiences (client ids), for the API's JWT authorizer. */
  readonly issuer: string;
  readonly audience: string[];
  /** The app clients pre-registered for MCP clients, by the name given in context. */
  readonly mcpClients = new Map<string, UserPoolClient>();
  /** Every app client whose access tokens POST /v1/mcp accepts: the app's, the service client's and the MCP clients'. */
  readonly mcpAudience: string[];
  /** The hosted sign-in domain: Cognito's authorization and token endpoints are under it. */
  readonly domainUrl: string;
  readonly userPoolId: string;

  constructor(scope: Construct, id: string, props: CognitoAuthProps) {
    super(scope, id);
    const staff = props.kind === "staff";
    const sellers = props.kind === "sellers";
    // Staff act on any order, a seller's users on many buyers' orders: both pools require a second factor.
    const mfaRequired = staff || sellers;
    this.kind = props.kind;
    if (props.supportServiceClient && !staff)
      throw new Error("The support service client belongs in the staff pool, the only one that may issue orders:support.");

    this.trigger = new ToolFunction(this, "PreTokenGeneration", {
      entry: "functions/service/pre-token-generation.ts",
      description: `order-tools Cognito pre-token-generation trigger (${props.kind} pool)`,
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      logRemovalPolicy: props.removalPolicy,
      ...(props.logEncryptionKey ? { logEncryptionKey: props.logEncryptionKey } : {}),
      ...(props.serviceName ? { serviceName: props.serviceName } : {}),
      memorySize: 256,
      timeout: Duration.seconds(5),
      environment: { [userPoolEnv]: props.kind },
    });
    const trigger = this.trigger;

    this.userPool = new UserPool(this, "UserPool", {
      featurePlan: FeaturePlan.ESSENTIALS,
      // Customers are provisioned by the order system (who else knows their customer id?), staff and sellers' users by admins.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      // The attribute that decides whose orders a token reaches: the customer's id, or the seller's. Staff have none.
      ...(staff
        ? {}
        : sellers
          ? {
              customAttributes: {
                [sellerIdAttribute.replace(/^custom:/, "")]: new StringAttribute({ minLen: 5, maxLen: 16, mutable: true }),
              },
            }
          : {
              customAttributes: {
                [customerIdAttribute.replace(/^custom:/, "")]: new StringAttribute({ minLen: 3, maxLen: 20, mutable: true }),
              },
            }),
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // Staff and sellers: every sign-in needs a TOTP code (a user without one must set it up before any token is
      // issued). With no self sign-up there is no sign-up confirmation, the one case Cognito lets stand in for MFA.
      mfa: mfaRequired ? Mfa.REQUIRED : Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: props.deletionProtection,
      removalPolicy: props.removalPolicy,
    });
    this.userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, trigger.function, LambdaVersion.V3_0);
    if (staff) {
      this.userPool.addGroup("SupportGroup", {
        groupName: supportGroup,
        description: "Support staff: tokens may carry orders:support and act on any order.",
      });
    }

    const scopeOf = (scopeName: string, scopeDescription: string) => new ResourceServerScope({ scopeName, scopeDescription });
    const scopes = [
      scopeOf("read", "Read orders and operation outcomes"),
      scopeOf("write", "Change orders through the changing tools"),
      ...(staff ? [scopeOf("support", "Act on any order as support staff (support group only)")] : []),
    ];
    const server = this.userPool.addResourceServer("OrdersResourceServer", { identifier: resourceServerIdentifier, scopes });
    const ordersScopes = scopes.map((s) => OAuthScope.resourceServer(server, s));

    const domain = this.userPool.addDomain("Domain", { cognitoDomain: { domainPrefix: props.domainPrefix } });

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
      // The customer or seller id decides whose orders a token reaches: only administrators may set it.
      readAttributes: staff
        ? new ClientAttributes().withStandardAttributes({ email: true, emailVerified: true })
        : new ClientAttributes()
            .withStandardAttributes({ email: true, emailVerified: true })
            .withCustomAttributes(sellers ? "seller_id" : "customer_id"),
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      // A refresh needs no second factor, so staff and sellers' users sign in again (with MFA) at least twice a day.
      refreshTokenValidity: mfaRequired ? Duration.hours(12) : Duration.days(30),
    });

    if (props.supportServiceClient) {
      this.serviceClient = this.userPool.addClient("SupportServiceClient", {
        generateSecret: true,
        authFlows: {},
        oAuth: { flows: { clientCredentials: true }, scopes: ordersScopes },
        accessTokenValidity: Duration.hours(1),
      });
    }

    // One app client per MCP client named in context: a public client (PKCE) unless it keeps a secret, allowed the
    // authorization code grant only, to the pool's orders scopes, returning only to the redirect URLs given.
    for (const client of props.mcpClients ?? []) {
      const id = `McpClient${client.name.replace(/[^A-Za-z0-9]/g, "")}`;
      const appClient = this.userPool.addClient(id, {
        userPoolClientName: `${props.stage}-mcp-${client.name.replace(/[^A-Za-z0-9._-]/g, "-")}`,
        generateSecret: client.confidential,
        authFlows: {},
        oAuth: { flows: { authorizationCodeGrant: true }, scopes: [OAuthScope.OPENID, ...ordersScopes], callbackUrls: client.redirectUrls },
        preventUserExistenceErrors: true,
        readAttributes: new ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }),
        writeAttributes: new ClientAttributes(),
        accessTokenValidity: Duration.hours(1),
        idTokenValidity: Duration.hours(1),
        refreshTokenValidity: staff ? Duration.hours(12) : Duration.days(30),
        enableTokenRevocation: true,
      });
      this.mcpClients.set(client.name, appClient);
      new CfnOutput(this, `${id}Id`, {
        key: `${staff ? "Staff" : sellers ? "Seller" : ""}${id}ClientId`,
        value: appClient.userPoolClientId,
        description: `App client for the MCP client ${client.name} (${props.kind} pool)`,
      });
    }

    this.issuer = this.userPool.userPoolProviderUrl;
    this.audience = [this.appClient.userPoolClientId, ...(this.serviceClient ? [this.serviceClient.userPoolClientId] : [])];
    this.mcpAudience = [...this.audience, ...[...this.mcpClients.values()].map((c) => c.userPoolClientId)];
    this.domainUrl = domain.baseUrl();
    this.userPoolId = this.userPool.userPoolId;

    const output = staff ? (name: string) => `Staff${name}` : sellers ? (name: string) => `Seller${name}` : (name: string) => name;
    new CfnOutput(this, "UserPoolId", { key: output("UserPoolId"), value: this.userPool.userPoolId });
    new CfnOutput(this, "UserPoolClientId", { key: output("UserPoolClientId"), value: this.appClient.userPoolClientId });
    new CfnOutput(this, "AuthDomainUrl", { key: output("AuthDomainUrl"), value: domain.baseUrl() });
    if (this.serviceClient) {
      new CfnOutput(this, "SupportServiceClientId", { key: "SupportServiceClientId", value: this.serviceClient.userPoolClientId });
    }

    NagSuppressions.addResourceSuppressions(this.userPool, [
      ...(mfaRequired
        ? []
        : [
            {
              id: "AwsSolutions-COG2",
              reason:
                "This pool holds customers only and cannot issue orders:support: its resource server has no support scope, it has no support group, and its token trigger grants at most orders:read and orders:write. MFA (TOTP) is offered but not required of shoppers, a product decision. Support staff sign in through the separate staff pool, which requires MFA.",
            },
          ]),
      {
        id: "AwsSolutions-COG8",
        reason:
          "Essentials is the plan this pool needs (access-token customization). Plus adds threat protection at a higher per-MAU price; enable it in the console or override featurePlan when the user base warrants it.",
      },
    ]);
  }
}

/** The hosted sign-in domain prefix of each pool: the customers' as given (or derived), the staff and sellers' pools' beside it. */
export function domainPrefixes(stage: string, given?: string): Record<UserPoolKind, string> {
  const customers = given ?? `order-tools-${stage}-${Aws.ACCOUNT_ID}`;
  return {
    customers,
    staff: given ? `${given}-staff` : `order-tools-${stage}-staff-${Aws.ACCOUNT_ID}`,
    sellers: given ? `${given}-sellers` : `order-tools-${stage}-sellers-${Aws.ACCOUNT_ID}`,
  };
}
