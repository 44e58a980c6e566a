import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import { CorsHttpMethod, HttpApi, HttpMethod, type HttpRoute, HttpStage, LogGroupLogDestination } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpJwtAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { AnyPrincipal, Effect, PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { type IKey, Key, KeySpec, KeyUsage } from "aws-cdk-lib/aws-kms";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import {
  authorizationServersEnv,
  bedrockAgentArnContext,
  bedrockAgentArnFrom,
  bedrockAgentFunction,
  cognitoAuthorizationServerRoutes,
  type ServiceFunction,
  type ServiceRoute,
  serviceFunctions,
  toolFunctionEnv,
} from "#deploy/service-functions";
import { type DeployedTool, deployedTools as registry } from "#deploy/tool-functions";
import { type Scope, scopes as orderScopes } from "#core/principal";
import type { UserPoolKind } from "#service/pre-token-generation";
import { isOrderIndex, orderIndexAt, orderIndexStepEnv, ordersTable, tableEnv } from "#store/table-design";
import { type ApiAuth, endpointScopes, mcpAuthEnv } from "#runtime/oauth-resource";
import { confirmationKeyEnv, unconfirmedChangesEnv } from "#runtime/mcp-confirmation-settings";
import { publicUrlEnv } from "#service/openapi";
import { CognitoAuth, domainPrefixes } from "#lib/cognito-auth";
import { type OrderToolsConfig, shopSetEnvironment } from "#lib/config";
import { acknowledgeControl, acknowledgeLogGroupControls, controlReasons } from "#lib/controls";
import { Operations } from "#lib/monitoring";
import { ToolFunction, type ToolFunctionProps } from "#lib/tool-function";

export interface ApiStackProps extends StackProps {
  tables: { orders: ITable; idempotency: ITable };
  config: OrderToolsConfig;
  /** The data stack's topic, which every alarm notifies. */
  alarmTopic: ITopic;
  /** The stage's customer-managed key (context customerManagedKey), for every log group; otherwise CloudWatch Logs' own encryption. */
  encryptionKey?: IKey;
  /** The tool registry; tests pass a longer one to show that a new entry is all a new tool needs. */
  tools?: readonly DeployedTool[];
}

/** Who may call a route. Every route of this API says so explicitly. */
export type RouteAccess =
  /** A verified token that carries this scope (the tools, contract §2). */
  | { kind: "scope"; scope: Scope }
  /** No authorizer: the function verifies the bearer token itself (POST /v1/mcp); the reason becomes the APIG4 suppression and the CT.APIGATEWAY.PR.5 acknowledgement. */
  | { kind: "self"; reason: string }
  /** Anyone (GET /v1/tools, GET /v1/openapi.json); the reason becomes the cdk-nag APIG4 suppression and the CT.APIGATEWAY.PR.5 acknowledgement. */
  | { kind: "public"; reason: string };

/** cdk-nag AwsSolutions-APIG4 and Control Tower CT.APIGATEWAY.PR.5 ask every route for an authorizer; these two are public on purpose. */
const publicRouteReason = controlReasons.publicCatalogueRoute;

/**
 * The construct-id prefix of an API's resources: none for the customers' API (or the only one), which keeps the
 * ids it had when it was the only API, so an existing deployment updates it in place.
 */
const audiencePrefix = (audience: ToolsHttpApi["audience"]) => (audience === "staff" ? "Staff" : audience === "sellers" ? "Seller" : "");

const pascal = (name: string) => name.replace(/(^|[_-])([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** One HTTP API of the stack: its JWT authorizer, its `$default` stage and the routes added to it. */
export interface ToolsHttpApi {
  /** customers, staff, sellers, or (with an existing identity provider) the one API for everyone. */
  audience: "customers" | "staff" | "sellers" | "all";
  api: HttpApi;
  stage: HttpStage;
  authorizer: HttpJwtAuthorizer;
  /** The user pool that issues this API's tokens, when the stack created it. */
  pool?: CognitoAuth;
}

/** A route of a function: a tool's, or a service function's (which may take DELETE). */
type FunctionRoute = Pick<ServiceRoute, "method" | "path">;

/** What one service function needs beyond the common settings (ApiStack.serviceFunctionSettings). */
interface ServiceSettings {
  /** Its environment, timeout and memory; `publicUrl` is the URL of the API it serves. */
  props: (publicUrl: string | undefined) => Pick<ToolFunctionProps, "environment" | "timeout" | "memorySize">;
  /** Grants beyond logging. */
  grant?: (fn: ToolFunction) => void;
  /** Why its public routes may be public (a Control Tower exemption's reason), when not the catalogue's. */
  publicReason?: string;
  /** APIs that get a function of their own (with their own public URL) instead of sharing this one. */
  perApi?: Array<{ api: ToolsHttpApi; prefix: string; publicUrl: string | undefined; key: string }>;
  /** Routes it serves beyond its registry routes, on every API. */
  extraRoutes?: readonly FunctionRoute[];
}

/**
 * The stateless half: one function per tool in the registry with exactly its grants, and the HTTP API(s) that
 * route to them with a JWT authorizer. Adding a tool to `functions/contract/tools.ts` and its function, routes
 * and grants to `functions/deploy/tool-functions.ts` adds them and its alarms here with no other edit.
 *
 * With an existing identity provider (`jwtIssuer`) there is one API, and MFA for support and sellers is that
 * provider's to enforce. Without one, the stack creates three user pools: Cognito requires MFA per pool, not per
 * group or app client, so support staff get a pool of their own that requires it, and only that pool can issue
 * `orders:support`; marketplace sellers get one too, which requires MFA and is the only pool that can issue
 * `seller_id`. An HTTP API's JWT authorizer trusts one issuer and a route takes one authorizer, so each pool gets
 * an API of its own; all route to the same functions. (One API trusting several issuers would need a Lambda
 * authorizer of our own in front of every tool; three JWT authorizers keep the verification API Gateway's.)
 */
export class ApiStack extends Stack {
  /** The customers' API, or the only API with an existing identity provider. */
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly authorizer: HttpJwtAuthorizer;
  /** Every API of the stack: the customers' (or the only one) first, then the staff and sellers' APIs when there are. */
  readonly apis: ToolsHttpApi[] = [];
  /** The customers' user pool (when created). */
  readonly auth?: CognitoAuth;
  /** The staff user pool (when created), the only one whose tokens may carry orders:support. */
  readonly staffAuth?: CognitoAuth;
  /** The sellers' user pool (when created), the only one whose tokens may carry seller_id. */
  readonly sellerAuth?: CognitoAuth;
  readonly toolFunctions = new Map<string, ToolFunction>();
  /** The catalogue, OpenAPI and MCP functions, by name. */
  readonly serviceFunctions = new Map<string, ToolFunction>();
  /** The dashboard and the alarms on unknown outcomes. */
  readonly operations: Operations;
  /**
   * The HMAC key that signs the requestState of the MCP endpoint's confirmation questions (contract §2.1), so that
   * whichever instance of the function gets the answer can check what another asked. Only the MCP function may use
   * it, and only to make and check a MAC; the key material never leaves KMS.
   */
  readonly confirmationKey: Key;
  private readonly alarmTopic: ITopic;
  private readonly encryptionKey?: IKey;
  private readonly config: OrderToolsConfig;
  private readonly removalPolicy: RemovalPolicy;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config, tables } = props;
    this.config = config;
    this.removalPolicy = config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.alarmTopic = props.alarmTopic;
    if (props.encryptionKey) this.encryptionKey = props.encryptionKey;

    const pools = this.addIdentity();
    if (pools) [this.auth, this.staffAuth, this.sellerAuth] = pools;
    const [main] = this.apis as [ToolsHttpApi];
    this.api = main.api;
    this.stage = main.stage;
    this.authorizer = main.authorizer;

    const tools: readonly DeployedTool[] = props.tools ?? registry;
    for (const tool of tools) this.addToolFunction(tool, tables);
    this.confirmationKey = new Key(this, "McpConfirmationKey", {
      description: `order-tools ${config.stage}: signs the requestState of the MCP endpoint's confirmation questions (HMAC)`,
      keySpec: KeySpec.HMAC_256,
      keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
      // A question is good for ten minutes; losing the key loses at most the questions then open, which are asked
      // again. So it goes with the stack whatever its deletion protection, after KMS's shortest waiting period.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    // The function's role uses it by its own policy; nobody needs a grant on it (Control Tower CT.KMS.PR.3).
    this.confirmationKey.addToResourcePolicy(
      new PolicyStatement({
        sid: "GrantsOnlyForAwsResources",
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ["kms:CreateGrant"],
        resources: ["*"],
        conditions: { BoolIfExists: { "kms:GrantIsForAWSResource": "false", "aws:PrincipalIsAWSService": "false" } },
      }),
    );
    this.addServiceFunctions();
    this.addBedrockAgentFunction();

    for (const api of this.apis) this.alarm5xxRate(api);
    this.operations = new Operations(this, "Operations", {
      stage: config.stage,
      serviceName: config.serviceName,
      alarmTopic: this.alarmTopic,
      tools,
      toolFunctions: this.toolFunctions,
      serviceFunctions: this.serviceFunctions,
      apis: this.apis,
      tables,
      alarms: this.node.findAll().filter((c): c is Alarm => c instanceof Alarm),
    });
    new CfnOutput(this, "ApiUrl", { key: "ApiUrl", value: main.stage.url });
    const staffApi = this.apiFor("staff");
    const sellerApi = this.apiFor("sellers");
    if (staffApi) new CfnOutput(this, "StaffApiUrl", { key: "StaffApiUrl", value: staffApi.stage.url });
    if (sellerApi) new CfnOutput(this, "SellerApiUrl", { key: "SellerApiUrl", value: sellerApi.stage.url });
  }

  /** The settings every function of the stack shares: logging, its retention and key, the service name. */
  private get commonFunctionProps() {
    const { config } = this;
    return {
      logLevel: config.logLevel,
      logRemovalPolicy: this.removalPolicy,
      serviceName: config.serviceName,
      tracer: config.tracer,
      ...(this.encryptionKey ? { logEncryptionKey: this.encryptionKey } : {}),
    };
  }

  private apiFor(audience: ToolsHttpApi["audience"]): ToolsHttpApi | undefined {
    return this.apis.find((a) => a.audience === audience);
  }

  /**
   * Identity: an existing provider from context (one API), or three Cognito user pools made here, an API for
   * each; returns the pools (customers', staff, sellers'), if made.
   */
  private addIdentity(): [CognitoAuth, CognitoAuth, CognitoAuth] | undefined {
    const { config } = this;
    if (config.jwt) {
      this.addApi("all", config.jwt.issuer, config.jwt.audience);
      return undefined;
    }
    const prefixes = domainPrefixes(config.stage, config.authDomainPrefix);
    const pool = (kind: UserPoolKind, id: string, callbackUrls: string[]) =>
      new CognitoAuth(this, id, {
        kind,
        stage: config.stage,
        callbackUrls,
        domainPrefix: prefixes[kind],
        ...(kind === "staff" ? { supportServiceClient: config.supportServiceClient } : {}),
        mcpClients: config.mcpClients,
        removalPolicy: this.removalPolicy,
        deletionProtection: config.deletionProtection,
        logLevel: config.logLevel,
        logRetention: config.logRetention,
        serviceName: config.serviceName,
        ...(this.encryptionKey ? { logEncryptionKey: this.encryptionKey } : {}),
      });
    // The customers' pool and API keep the construct ids they had when there was one pool for everyone.
    const pools = [
      { audience: "customers", auth: pool("customers", "Auth", config.authCallbackUrls), alarmId: "PreTokenGeneration" },
      { audience: "staff", auth: pool("staff", "StaffAuth", config.staffAuthCallbackUrls), alarmId: "StaffPreTokenGeneration" },
      { audience: "sellers", auth: pool("sellers", "SellerAuth", config.sellerAuthCallbackUrls), alarmId: "SellerPreTokenGeneration" },
    ] as const;
    for (const { auth, alarmId } of pools) this.alarmOnFunction(alarmId, auth.trigger);
    for (const { audience, auth } of pools) this.addApi(audience, auth.issuer, auth.audience, auth);
    return [pools[0].auth, pools[1].auth, pools[2].auth];
  }

  /** A tool's own function: its grants exactly its registry entry's, its route behind that tool's scope. */
  private addToolFunction(tool: DeployedTool, tables: ApiStackProps["tables"]): void {
    const { config } = this;
    const indexNames = new Set<string>(ordersTable.indexes.map((i) => i.indexName));
    const unknown = (tool.access.ordersIndexes ?? []).filter((name) => !indexNames.has(name));
    if (unknown.length) throw new Error(`Tool ${tool.name} queries ${unknown.join(", ")}, which the orders table does not have.`);
    // While the orders table's indexes move to the summary ones (context orderIndexStep), the function queries, and
    // may query, the index each of its searches has at that step; it is told the step.
    const step = config.orderIndexStep;
    const indexes = (tool.access.ordersIndexes ?? []).map((name) => (isOrderIndex(name) ? orderIndexAt(name, step).indexName : name));

    const fn = new ToolFunction(this, `Tool${pascal(tool.name)}`, {
      ...this.commonFunctionProps,
      entry: tool.entry,
      description: `order-tools ${tool.name}`,
      // A changing tool's line is the per-call record of a change request: who, which operation, what came of it.
      ...(tool.kind === "change"
        ? { logRetention: config.changeLogRetention, logKind: "change" as const }
        : { logRetention: config.logRetention }),
      environment: {
        [tableEnv.orders]: tables.orders.tableName,
        [tableEnv.idempotency]: tables.idempotency.tableName,
        ...(step !== undefined && indexes.length ? { [orderIndexStepEnv]: String(step) } : {}),
        // Every call counts against the caller's budget, reads too; only changes count against the caps.
        ORDER_TOOLS_REQUEST_BUDGET: String(config.requestBudget),
        ...shopSetEnvironment(config),
        ...(tool.kind === "change"
          ? {
              ORDER_TOOLS_HOURLY_CAP: String(config.hourlyCap),
              ORDER_TOOLS_SUPPORT_HOURLY_CAP: String(config.supportHourlyCap),
              ORDER_TOOLS_SELLER_HOURLY_CAP: String(config.sellerHourlyCap),
            }
          : {}),
      },
    });
    fn.grantTable(tables.orders, {
      actions: tool.access.orders,
      keyedWrites: tool.access.ordersWrites,
      indexes,
    });
    fn.grantTable(tables.idempotency, { actions: tool.access.idempotency });
    this.addFunctionRoutes(pascal(tool.name), fn.function, tool.routes, { kind: "scope", scope: tool.scope });
    this.alarmOnFunction(pascal(tool.name), fn);
    this.toolFunctions.set(tool.name, fn);
  }

  /** The tools' function names, by environment variable, for a function that invokes them (MCP, Bedrock). */
  private toolFunctionNames(): Record<string, string> {
    return Object.fromEntries([...this.toolFunctions].map(([name, tool]) => [toolFunctionEnv(name), tool.function.functionName]));
  }

  /** Lets a function invoke exactly the tools' own functions. */
  private grantInvokeTools(fn: ToolFunction): void {
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ["lambda:InvokeFunction"],
        resources: [...this.toolFunctions.values()].map((tool) => tool.function.functionArn),
      }),
    );
  }

  /**
   * What each service function needs beyond the common settings, by name: keyed by every name, so a service
   * function added to the registry must be given its settings here. MCP and Bedrock touch no table: they invoke
   * the tool's own function, so each tool keeps exactly its own grants.
   */
  private serviceFunctionSettings(): Record<ServiceFunction["name"], ServiceSettings> {
    const { config } = this;
    // How POST /v1/mcp authenticates on each API, and what its OAuth metadata says (functions/runtime/oauth-resource.ts):
    // read by the MCP function and the metadata function, keyed by API id like the OpenAPI function's.
    const mcpAuth = this.toJsonString(Object.fromEntries(this.apis.map((entry) => [entry.api.apiId, this.mcpAuthOf(entry)])));
    const authorizationServers = this.authorizationServers();
    return {
      catalog: { props: () => ({}) },
      openapi: {
        props: (publicUrl) => ({
          environment: { ...(publicUrl ? { [publicUrlEnv]: publicUrl } : {}), [authorizationServersEnv]: authorizationServers },
        }),
        // The document names the URL it is served from: behind custom domains, one function per API.
        perApi: this.openApiPerApi(),
      },
      mcp: {
        props: () => ({
          environment: {
            ...this.toolFunctionNames(),
            // Browser origins whose pages may call MCP; without any, a request with an Origin header is refused.
            ORDER_TOOLS_MCP_ALLOWED_ORIGINS: config.mcpAllowedOrigins.join(","),
            [mcpAuthEnv]: mcpAuth,
            [confirmationKeyEnv]: this.confirmationKey.keyArn,
            [unconfirmedChangesEnv]: config.mcpUnconfirmedChanges,
          },
          // Above a tool's own 10 s, for its cold start and the invocation; still inside API Gateway's 30 s.
          timeout: Duration.seconds(20),
        }),
        grant: (fn) => {
          this.grantInvokeTools(fn);
          this.confirmationKey.grant(fn.role, "kms:GenerateMac", "kms:VerifyMac");
        },
      },
      "oauth-metadata": {
        props: () => ({ environment: { [mcpAuthEnv]: mcpAuth }, memorySize: 256 }),
        publicReason: controlReasons.publicOAuthMetadataRoute,
        // A user pool's RFC 8414 metadata and authorization endpoint, on the APIs whose tokens the stack's pools issue.
        extraRoutes: config.jwt ? [] : cognitoAuthorizationServerRoutes,
      },
    };
  }

  /**
   * Who issues each API's tokens, for the OpenAPI document's security scheme, by API id: the user pool's hosted
   * domain (its OAuth 2.0 endpoints), or an existing provider's OpenID Connect discovery document.
   */
  private authorizationServers(): string {
    const { config } = this;
    return this.toJsonString(
      Object.fromEntries(
        this.apis.map(({ api, audience }) => {
          if (config.jwt)
            return [api.apiId, { openIdConnectUrl: `${config.jwt.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration` }];
          const kind: UserPoolKind = audience === "staff" || audience === "sellers" ? audience : "customers";
          const domain = `https://${domainPrefixes(config.stage, config.authDomainPrefix)[kind]}.auth.${this.region}.amazoncognito.com`;
          return [
            api.apiId,
            {
              authorizationUrl: `${domain}/oauth2/authorize`,
              tokenUrl: `${domain}/oauth2/token`,
              ...(kind === "staff" && config.supportServiceClient ? { clientCredentials: true } : {}),
            },
          ];
        }),
      ),
    );
  }

  /**
   * The routes of contract §2 that are not tools: the catalogue and the OpenAPI document (public, static, no
   * grants: they describe the API from the registry), MCP (a verified token; each tools/call is checked with that
   * tool's scope in code) and the OAuth metadata (public).
   */
  private addServiceFunctions(): void {
    const { config } = this;
    const settings = this.serviceFunctionSettings();
    for (const service of serviceFunctions) {
      const id = `Service${pascal(service.name)}`;
      const own = settings[service.name];
      const make = (constructId: string, publicUrl: string | undefined) => {
        const fn = new ToolFunction(this, constructId, {
          ...this.commonFunctionProps,
          entry: service.entry,
          description: service.description,
          logRetention: config.logRetention,
          ...own.props(publicUrl),
        });
        own.grant?.(fn);
        return fn;
      };
      const fn = make(id, config.publicUrl);
      const access: RouteAccess =
        service.access === "self"
          ? { kind: "self", reason: controlReasons.mcpVerifiesItsOwnToken }
          : { kind: "public", reason: own.publicReason ?? publicRouteReason };
      const perApi = own.perApi ?? [];
      this.addFunctionRoutes(
        id,
        fn.function,
        service.routes,
        access,
        this.apis.filter((a) => !perApi.some((o) => o.api === a)),
      );
      for (const { api, prefix, publicUrl, key } of perApi) {
        const ownFn = make(`${prefix}${id}`, publicUrl);
        this.addFunctionRoutes(id, ownFn.function, service.routes, access, [api]);
        this.alarmOnFunction(`${prefix}${id}`, ownFn);
        this.serviceFunctions.set(key, ownFn);
      }
      if (own.extraRoutes?.length) this.addFunctionRoutes(`${id}Cognito`, fn.function, own.extraRoutes, access);
      this.alarmOnFunction(id, fn);
      this.serviceFunctions.set(service.name, fn);
    }
  }

  /**
   * The OpenAPI document names the URL it is served from. Behind a custom domain that is the public URL given for
   * that API, and each API's URL differs: then the staff and sellers' APIs get an OpenAPI function each of their own.
   */
  private openApiPerApi(): Array<{ api: ToolsHttpApi; prefix: string; publicUrl: string | undefined; key: string }> {
    const { config } = this;
    const staffApi = this.apiFor("staff");
    const sellerApi = this.apiFor("sellers");
    if (!staffApi || !(config.publicUrl || config.staffPublicUrl || config.sellerPublicUrl)) return [];
    return [
      { api: staffApi, prefix: "Staff", publicUrl: config.staffPublicUrl, key: "openapi-staff" },
      ...(sellerApi ? [{ api: sellerApi, prefix: "Seller", publicUrl: config.sellerPublicUrl, key: "openapi-sellers" }] : []),
    ];
  }

  /**
   * Bedrock Agents' action-group function: no route, Bedrock invokes it directly. Like MCP it touches no table
   * and may invoke exactly the tools' own functions (functions/service/bedrock-agent.ts).
   */
  private addBedrockAgentFunction(): void {
    const bedrockAgent = new ToolFunction(this, "BedrockAgent", {
      ...this.commonFunctionProps,
      entry: bedrockAgentFunction.entry,
      description: bedrockAgentFunction.description,
      logRetention: this.config.logRetention,
      environment: this.toolFunctionNames(),
      // A tool's invocation, and get_operation_status once more when a change's outcome was not seen.
      timeout: Duration.seconds(25),
    });
    this.grantInvokeTools(bedrockAgent);
    // Only Bedrock, for this account, and only the agent named in context (else any agent of this account and Region).
    const bedrockAgentArn = bedrockAgentArnFrom(this.node.tryGetContext(bedrockAgentArnContext));
    bedrockAgent.function.addPermission("InvokedByBedrockAgent", {
      principal: new ServicePrincipal("bedrock.amazonaws.com"),
      sourceAccount: this.account,
      sourceArn: bedrockAgentArn ?? this.formatArn({ service: "bedrock", resource: "agent", resourceName: "*" }),
    });
    this.alarmOnFunction("BedrockAgent", bedrockAgent);
    this.serviceFunctions.set(bedrockAgentFunction.name, bedrockAgent);
  }

  /**
   * An HTTP API whose JWT authorizer trusts `issuer` and `audience`, with a throttled `$default` stage writing
   * JSON access logs to a log group of its own. The customers' API (or the only one) keeps the construct ids
   * the single API had, so an existing deployment updates it in place.
   */
  private addApi(audience: ToolsHttpApi["audience"], issuer: string, jwtAudience: string[], pool?: CognitoAuth): ToolsHttpApi {
    const { config } = this;
    const prefix = audiencePrefix(audience);
    const id = (name: string) => `${prefix}${name}`;
    const authorizer = new HttpJwtAuthorizer(`${prefix}Jwt`, issuer, { jwtAudience });
    const api = new HttpApi(this, id("Api"), {
      description:
        audience === "staff"
          ? `order-tools (${config.stage}) for support staff: tokens from the staff user pool, which requires MFA`
          : audience === "sellers"
            ? `order-tools (${config.stage}) for marketplace sellers: tokens from the sellers' user pool, which requires MFA`
            : `order-tools (${config.stage}): domain-shaped order tools for AI agents`,
      // The default stage is made below, where throttling and access logs can be set on it.
      createDefaultStage: false,
      // Only for the browser origins allowed to call MCP (mcpAllowedOrigins): without CORS a browser's preflight for
      // POST /v1/mcp gets a 404 and the page never reaches the function that checks its Origin. CORS is per API,
      // so those origins may also read the tool routes' answers; every route still needs a token.
      ...(config.mcpAllowedOrigins.length
        ? {
            corsPreflight: {
              allowOrigins: config.mcpAllowedOrigins,
              allowMethods: [CorsHttpMethod.POST, CorsHttpMethod.GET],
              allowHeaders: [
                "authorization",
                "content-type",
                "accept",
                "mcp-protocol-version",
                "mcp-method",
                "mcp-name",
                "mcp-session-id",
                "last-event-id",
              ],
              // A browser client must read the 401's challenge to find where to sign in, a refusal's Retry-After to
              // know when to try again (contract §3), and Idempotent-Replayed to tell a replay from a first answer (§4).
              exposeHeaders: ["www-authenticate", "retry-after", "idempotent-replayed"],
              maxAge: Duration.hours(1),
            },
          }
        : {}),
    });
    const accessLogs = new LogGroup(this, id("AccessLogs"), {
      retention: config.accessLogRetention,
      removalPolicy: this.removalPolicy,
      ...(this.encryptionKey ? { encryptionKey: this.encryptionKey } : {}),
    });
    acknowledgeLogGroupControls(accessLogs, "access", config.accessLogRetention, this.encryptionKey);
    const stage = new HttpStage(this, id("DefaultStage"), {
      httpApi: api,
      stageName: "$default",
      autoDeploy: true,
      throttle: config.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: "$context.requestId",
            requestTime: "$context.requestTime",
            sourceIp: "$context.identity.sourceIp",
            routeKey: "$context.routeKey",
            status: "$context.status",
            responseLength: "$context.responseLength",
            responseLatency: "$context.responseLatency",
            integrationLatency: "$context.integrationLatency",
            integrationError: "$context.integrationErrorMessage",
            authorizerError: "$context.authorizer.error",
            sub: "$context.authorizer.claims.sub",
          }),
        ),
      },
    });
    const created: ToolsHttpApi = { audience, api, stage, authorizer, ...(pool ? { pool } : {}) };
    this.apis.push(created);
    return created;
  }

  /**
   * What the MCP and metadata functions need to know of an API: its public URL, the scopes to ask for (the staff
   * API's include orders:support, which its users' tokens need), who issues its tokens and which app clients' tokens
   * are this deployment's (RFC 8707: the pinned clients), and the authorization server its metadata names.
   */
  private mcpAuthOf(entry: ToolsHttpApi): ApiAuth {
    const { config } = this;
    // Each API names its own URL: a client that signs in through one API's metadata gets a token for that API.
    const publicUrl = { all: config.publicUrl, customers: config.publicUrl, staff: config.staffPublicUrl, sellers: config.sellerPublicUrl }[
      entry.audience
    ];
    const scopes = entry.audience === "staff" ? [...endpointScopes, orderScopes.support] : [...endpointScopes];
    const base = { ...(publicUrl ? { publicUrl } : {}), scopes };
    if (!entry.pool) {
      if (!config.jwt) throw new Error(`The ${entry.audience} API has neither a user pool nor an identity provider`);
      return {
        ...base,
        tokens: { issuer: config.jwt.issuer, audience: config.jwt.audience },
        authorizationServer: { issuer: config.jwt.issuer },
      };
    }
    const { pool } = entry;
    return {
      ...base,
      tokens: { userPoolId: pool.userPoolId, clientIds: pool.mcpAudience },
      authorizationServer: { cognitoDomain: pool.domainUrl, userPoolId: pool.userPoolId, region: this.region },
    };
  }

  /** Routes one function at `routes` on every API of the stack (or those given), each with the access given; every call states who may call. */
  addFunctionRoutes(
    id: string,
    fn: IFunction,
    routes: readonly FunctionRoute[],
    access: RouteAccess,
    apis: readonly ToolsHttpApi[] = this.apis,
  ): HttpRoute[] {
    return apis.flatMap(({ api, authorizer, audience }) => {
      // An integration belongs to one API; the staff and sellers' APIs' get ids of their own.
      const integration = new HttpLambdaIntegration(`${audiencePrefix(audience)}${id}Integration`, fn);
      return routes.flatMap((route) => {
        const created = api.addRoutes({
          path: route.path,
          methods: [HttpMethod[route.method]],
          integration,
          ...(access.kind === "scope" ? { authorizer, authorizationScopes: [access.scope] } : {}),
        });
        if (access.kind !== "scope") {
          for (const r of created) {
            NagSuppressions.addResourceSuppressions(r, [{ id: "AwsSolutions-APIG4", reason: access.reason }]);
            acknowledgeControl(r, "CT.APIGATEWAY.PR.5", access.reason);
          }
        }
        return created;
      });
    });
  }

  private alarm(id: string, description: string, metric: IMetric, threshold: number, evaluationPeriods = 1, datapointsToAlarm = 1): Alarm {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold,
      evaluationPeriods,
      datapointsToAlarm,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    return alarm;
  }

  private alarmOnFunction(id: string, fn: ToolFunction): void {
    const period = Duration.minutes(5);
    this.alarm(
      `${id}Errors`,
      `${fn.function.node.path}: invocations failed (uncaught error or timeout). Its log group has the stack trace.`,
      fn.function.metricErrors({ period, statistic: "Sum" }),
      1,
    );
    this.alarm(
      `${id}Throttles`,
      `${fn.function.node.path}: invocations were throttled; the account's concurrency is exhausted.`,
      fn.function.metricThrottles({ period, statistic: "Sum" }),
      1,
    );
  }

  /** 5xx as a share of all requests, so a quiet hour with one failure and a busy one with many read alike. */
  private alarm5xxRate({ api, audience }: ToolsHttpApi): void {
    const period = Duration.minutes(5);
    const rate = new MathExpression({
      expression: "IF(requests > 0, 100 * errors / requests, 0)",
      usingMetrics: {
        errors: api.metricServerError({ period, statistic: "Sum" }),
        requests: api.metricCount({ period, statistic: "Sum" }),
      },
      period,
      label: "5xx rate (%)",
    });
    const which = audience === "staff" ? " staff API" : audience === "sellers" ? " sellers' API" : "";
    this.alarm(
      `${audiencePrefix(audience)}Api5xxRate`,
      `order-tools (${this.config.stage})${which}: at least 5% of requests ended in 5xx in 2 of the last 3 five-minute periods. The access log's integrationError and the functions' Errors alarms say where.`,
      rate,
      5,
      3,
      2,
    );
  }
}
