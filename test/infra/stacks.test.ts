import { App } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAccess } from "#deploy/access";
import { cognitoAuthorizationServerRoutes, type ServiceRoute, serviceFunctions, toolFunctionEnv } from "#deploy/service-functions";
import { type DeployedTool, deployedToolNamed, deployedTools as tools } from "#deploy/tool-functions";
import { shopSetsFrom } from "#core/order";
import { hourlyCapFromEnv, sellerHourlyCapFromEnv, supportHourlyCapFromEnv } from "#store/hourly-cap";
import { requestBudgetFromEnv } from "#store/request-budget";
import { orderIndexStepFromEnv } from "#runtime/deps";
import {
  type IndexDesign,
  maxProjectedAttributes,
  orderIndexAt,
  orderIndexStepEnv,
  orderIndexSteps,
  ordersTable,
  ordersTableAt,
  previousOrderIndexes,
  projectedAttributes,
  tableDesigns,
} from "#store/table-design";
import { handler as openApiHandler, publicUrlEnv } from "#service/openapi";
import { buildOrderTools } from "#lib/app";
import { DataStack } from "#lib/data-stack";
import {
  asList,
  type DynamoGrant,
  dynamoGrantsOf,
  httpApisOf,
  removeSynthesizedOutput,
  resourcesOf,
  type Synthesized,
  serviceFunctionsOf,
  statementsOfRole,
  synthesize,
  synthesized,
  tableArnNames,
  toolFunctions,
} from "#test/infra/synthesized-app";

const withCognito = () => synthesized();
const withExistingIdp = () =>
  synthesized({
    context: {
      jwtIssuer: "https://idp.example.com/",
      jwtAudience: "order-tools-api,order-tools-agent",
      hourlyCap: "0",
      deletionProtection: "false",
      alarmTopicArn: "arn:aws:sns:eu-west-1:111122223333:ops",
    },
  });

/** The options an operator adds for a production-like stage: its own key, alarm mail, browser origins, custom domains. */
const withOptions = () =>
  synthesized({
    context: {
      customerManagedKey: "true",
      alarmEmail: "ops@example.com, oncall@example.com",
      mcpAllowedOrigins: "https://app.example.com,http://localhost:5173",
      publicUrl: "https://api.example.com/",
      staffPublicUrl: "https://support-api.example.com/orders",
      sellerPublicUrl: "https://sellers-api.example.com",
    },
  });

// Synthesized once for the file, outside any single test's timeout.
beforeAll(() => {
  withCognito();
  withExistingIdp();
  withOptions();
}, 180_000);
afterAll(removeSynthesizedOutput);

const routeKeys = (owner: { routes: readonly Pick<ServiceRoute, "method" | "path">[] }) => owner.routes.map((r) => `${r.method} ${r.path}`);
const roleOf = (fn: { properties: Record<string, any> }) => fn.properties.Role["Fn::GetAtt"][0] as string;
// The indexes as designed, and the previous layout's, which a function deployed at a step of the index move may query.
const indexNames = [...ordersTable.indexes, ...previousOrderIndexes].map((index) => index.indexName);
const grantsOf = (synth: Synthesized, fn: { properties: Record<string, any> }) =>
  dynamoGrantsOf(synth.apiTemplate, roleOf(fn), tableArnNames(synth, indexNames));
const byKey = (grants: DynamoGrant[]) =>
  [...grants]
    .map((g) => ({ ...g, ...(g.leadingKeys ? { leadingKeys: [...g.leadingKeys].sort() } : {}) }))
    .sort((a, b) => `${a.resource} ${a.action}`.localeCompare(`${b.resource} ${b.action}`));

/** The user pools by kind, told apart by their trigger's ORDER_TOOLS_USER_POOL. */
function userPoolsOf(
  synth: Synthesized,
): Record<"customers" | "staff" | "sellers", { logicalId: string; properties: Record<string, any>; triggerEnv: Record<string, string> }> {
  const functions = resourcesOf(synth.apiTemplate, "AWS::Lambda::Function");
  const pools = Object.entries(resourcesOf(synth.apiTemplate, "AWS::Cognito::UserPool")).map(([logicalId, pool]) => {
    const triggerId = pool.Properties.LambdaConfig.PreTokenGenerationConfig.LambdaArn["Fn::GetAtt"][0] as string;
    return {
      logicalId,
      properties: pool.Properties,
      triggerEnv: functions[triggerId]!.Properties.Environment.Variables as Record<string, string>,
    };
  });
  const find = (kind: string) => {
    const found = pools.filter((p) => p.triggerEnv.ORDER_TOOLS_USER_POOL === kind);
    expect(found, kind).toHaveLength(1);
    return found[0]!;
  };
  expect(pools).toHaveLength(3);
  return { customers: find("customers"), staff: find("staff"), sellers: find("sellers") };
}

const ofPool = (synth: Synthesized, type: string, poolId: string) =>
  Object.entries(resourcesOf(synth.apiTemplate, type)).filter(
    ([, r]) => JSON.stringify(r.Properties.UserPoolId) === JSON.stringify({ Ref: poolId }),
  );

/** The API whose authorizer trusts this pool. */
function apiTrusting(synth: Synthesized, poolId: string) {
  const apis = httpApisOf(synth.apiTemplate).filter(
    (a) => JSON.stringify(a.authorizer.JwtConfiguration.Issuer) === JSON.stringify({ "Fn::GetAtt": [poolId, "ProviderURL"] }),
  );
  expect(apis, poolId).toHaveLength(1);
  return apis[0]!;
}

describe("the functions come from the tool registry", () => {
  it("makes exactly one function per registry tool, one each for the catalogue, OpenAPI, MCP and its OAuth metadata, plus a token trigger per user pool it creates", () => {
    const { apiTemplate } = withCognito();
    expect([...toolFunctions(apiTemplate).keys()].sort()).toEqual(tools.map((t) => t.name).sort());
    expect([...serviceFunctionsOf(apiTemplate).keys()].sort()).toEqual(["catalog", "mcp", "oauth-metadata", "openapi"]);
    // + 1: the Bedrock Agents action-group function, which has no route (test/infra/bedrock-agent.test.ts).
    apiTemplate.resourceCountIs("AWS::Lambda::Function", tools.length + serviceFunctions.length + 1 + 3);

    withExistingIdp().apiTemplate.resourceCountIs("AWS::Lambda::Function", tools.length + serviceFunctions.length + 1);
  });

  it("gives every function the shared defaults: nodejs22.x on arm64, 10 s, 512 MB, source maps, Powertools, table names and request budget; changing tools the caps too", () => {
    const { apiTemplate } = withCognito();
    for (const [name, fn] of toolFunctions(apiTemplate)) {
      expect(fn.properties, name).toMatchObject({
        Runtime: "nodejs22.x",
        Architectures: ["arm64"],
        Handler: "index.handler",
        Timeout: 10,
        MemorySize: 512,
      });
      const env = fn.properties.Environment.Variables;
      expect(env).toMatchObject({
        NODE_OPTIONS: "--enable-source-maps",
        POWERTOOLS_SERVICE_NAME: "order-tools-dev",
        POWERTOOLS_LOG_LEVEL: "INFO",
        ORDER_TOOLS_REQUEST_BUDGET: "120",
      });
      expect(Object.keys(env)).toEqual(expect.arrayContaining(["ORDERS_TABLE", "IDEMPOTENCY_TABLE"]));
      const caps = {
        ORDER_TOOLS_HOURLY_CAP: env.ORDER_TOOLS_HOURLY_CAP,
        ORDER_TOOLS_SUPPORT_HOURLY_CAP: env.ORDER_TOOLS_SUPPORT_HOURLY_CAP,
        ORDER_TOOLS_SELLER_HOURLY_CAP: env.ORDER_TOOLS_SELLER_HOURLY_CAP,
      };
      expect(caps, name).toEqual(
        deployedToolNamed(name as never).kind === "change"
          ? { ORDER_TOOLS_HOURLY_CAP: "10", ORDER_TOOLS_SUPPORT_HOURLY_CAP: "60", ORDER_TOOLS_SELLER_HOURLY_CAP: "60" }
          : {},
      );
    }
  });

  it("passes hourlyCap, supportHourlyCap, sellerHourlyCap, requestBudget and logLevel from context, under the names the functions read", () => {
    const tuned = synthesize({
      context: { hourlyCap: "3", supportHourlyCap: "7", sellerHourlyCap: "5", requestBudget: "11", logLevel: "warn" },
    });
    const changing = new Set<string>(tools.filter((t) => t.kind === "change").map((t) => t.name));
    expect(changing.size).toBeGreaterThan(0);
    for (const [name, fn] of toolFunctions(tuned.apiTemplate)) {
      const env = fn.properties.Environment.Variables as NodeJS.ProcessEnv;
      expect(env.POWERTOOLS_LOG_LEVEL, name).toBe("WARN");
      // The runtime's own readers, so a renamed variable on either side fails here.
      expect(requestBudgetFromEnv(env), name).toBe(11);
      if (changing.has(name)) {
        expect(hourlyCapFromEnv(env), name).toBe(3);
        expect(supportHourlyCapFromEnv(env), name).toBe(7);
        expect(sellerHourlyCapFromEnv(env), name).toBe(5);
      }
    }
    const off = synthesize({ context: { hourlyCap: "0", supportHourlyCap: "0", sellerHourlyCap: "0", requestBudget: "0" } });
    for (const [name, fn] of toolFunctions(off.apiTemplate)) {
      const env = fn.properties.Environment.Variables as NodeJS.ProcessEnv;
      expect(requestBudgetFromEnv(env), name).toBe(0);
      if (changing.has(name))
        expect([hourlyCapFromEnv(env), supportHourlyCapFromEnv(env), sellerHourlyCapFromEnv(env)], name).toEqual([0, 0, 0]);
    }
  });

  it("passes the shop's carriers and charge kinds from context as the functions and the seeder read them, and none by default", () => {
    const shop = synthesize({ context: { carriers: "Parcelline, Blue Heron Freight", chargeKinds: ["item", "delivery", "gift_wrap"] } });
    for (const [name, fn] of toolFunctions(shop.apiTemplate)) {
      const env = fn.properties.Environment.Variables as NodeJS.ProcessEnv;
      expect(shopSetsFrom(env), name).toEqual({
        carriers: ["Parcelline", "Blue Heron Freight"],
        chargeKinds: ["item", "delivery", "gift_wrap"],
      });
    }
    for (const [name, fn] of toolFunctions(synthesize().apiTemplate)) {
      const env = fn.properties.Environment.Variables as NodeJS.ProcessEnv;
      expect([env.ORDER_TOOLS_CARRIERS, env.ORDER_TOOLS_CHARGE_KINDS], name).toEqual([undefined, undefined]);
    }
    expect(() => synthesize({ context: { carriers: `Parcelline,${"x".repeat(101)}` } })).toThrow(
      /Context carriers: ORDER_TOOLS_CARRIERS is names separated by commas, each 1–100 characters/,
    );
  });

  it("adds a function, its routes on every API, its scope and index grant when a tool is appended to the registry, with no other edit", () => {
    const lookup: DeployedTool = {
      ...(deployedToolNamed("get_operation_status") as unknown as DeployedTool),
      name: "lookup_by_customer",
      scope: "orders:read",
      routes: [{ method: "GET", path: "/v1/customers/{customerId}/orders" }],
      access: readAccess({ orders: [], ordersIndexes: ["byCustomerSummary"] }),
    };
    const grown = synthesize({ tools: [...tools, lookup] });
    const fn = toolFunctions(grown.apiTemplate).get("lookup_by_customer");
    expect(fn).toBeDefined();
    const apis = httpApisOf(grown.apiTemplate);
    expect(apis).toHaveLength(3);
    for (const api of apis) {
      expect(
        api.routes.find((r) => r.RouteKey === "GET /v1/customers/{customerId}/orders"),
        api.logicalId,
      ).toMatchObject({
        AuthorizationType: "JWT",
        AuthorizerId: { Ref: api.authorizerId },
        AuthorizationScopes: ["orders:read"],
      });
    }
    // Query on the index only, not the table; and the request budget's counter.
    expect(byKey(grantsOf(grown, fn!))).toEqual([
      { resource: "orders", action: "dynamodb:UpdateItem", leadingKeys: ["BUDGET#*"] },
      { resource: "orders/index/byCustomerSummary", action: "dynamodb:Query" },
    ]);
  });

  it("refuses a tool that queries an index the orders table does not have", () => {
    const broken = {
      ...(deployedToolNamed("get_operation_status") as unknown as DeployedTool),
      name: "broken",
      access: readAccess({ orders: [], ordersIndexes: ["byNothing"] }),
    };
    expect(() => synthesize({ tools: [broken] })).toThrow(/byNothing/);
  });
});

describe("routes and the JWT authorizers", () => {
  it("routes exactly contract §2's tool routes on every API, each through that API's JWT authorizer with exactly its tool's scope", () => {
    for (const [synth, count] of [
      [withCognito(), 3],
      [withExistingIdp(), 1],
    ] as const) {
      const apis = httpApisOf(synth.apiTemplate);
      expect(apis).toHaveLength(count);
      synth.apiTemplate.resourceCountIs("AWS::ApiGatewayV2::Authorizer", count);
      for (const api of apis) {
        // With the user pools the stack creates, also their RFC 8414 metadata and authorization endpoint.
        const poolRoutes = count === 3 ? routeKeys({ routes: cognitoAuthorizationServerRoutes }) : [];
        expect(api.routes.map((r) => r.RouteKey).sort()).toEqual(
          [...[...tools, ...serviceFunctions].flatMap(routeKeys), ...poolRoutes].sort(),
        );
        for (const tool of tools) {
          for (const key of routeKeys(tool)) {
            const route = api.routes.find((r) => r.RouteKey === key)!;
            expect(route, key).toMatchObject({ AuthorizationType: "JWT", AuthorizerId: { Ref: api.authorizerId } });
            expect(route.AuthorizationScopes, key).toEqual([tool.scope]);
          }
        }
      }
    }
  });

  it("leaves the catalogue, the OpenAPI document and the OAuth metadata public, and MCP to its function's own token check, each with the reason cdk-nag is told, on every API", () => {
    const { apiTemplate } = withCognito();
    const routeResources = Object.values(resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Route"));
    const integrations = resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Integration");
    const services = serviceFunctionsOf(apiTemplate);
    const suppressionsOf = (route: unknown) =>
      (route as { Metadata?: { cdk_nag?: { rules_to_suppress?: Array<{ id: string; reason: string }> } } }).Metadata?.cdk_nag
        ?.rules_to_suppress ?? [];
    for (const api of httpApisOf(apiTemplate)) {
      const routes = routeResources.filter((r) => JSON.stringify(r.Properties.ApiId) === JSON.stringify({ Ref: api.logicalId }));
      const withoutAuthorizer = routes.filter((r) => r.Properties.AuthorizationType !== "JWT");
      expect(withoutAuthorizer.map((r) => r.Properties.RouteKey).sort()).toEqual(
        [
          "GET /v1/openapi.json",
          "GET /v1/tools",
          "GET /.well-known/oauth-protected-resource/v1/mcp",
          "GET /.well-known/oauth-protected-resource",
          "GET /.well-known/oauth-authorization-server",
          "GET /oauth2/authorize",
          "POST /v1/mcp",
          "GET /v1/mcp",
          "DELETE /v1/mcp",
        ].sort(),
      );
      for (const route of withoutAuthorizer) {
        const key = String(route.Properties.RouteKey);
        expect(route.Properties.AuthorizerId, key).toBeUndefined();
        const reason =
          key.endsWith("/v1/mcp") && !key.includes("well-known")
            ? /verify the bearer token in the MCP function itself/
            : key.startsWith("GET /v1/")
              ? /no order or caller data/
              : /reads them before it holds a token/;
        expect(suppressionsOf(route), key).toEqual([
          expect.objectContaining({ id: "AwsSolutions-APIG4", reason: expect.stringMatching(reason) }),
        ]);
      }
      // Each route reaches its own function, through an integration of this API.
      for (const service of serviceFunctions) {
        for (const key of routeKeys(service)) {
          const route = routes.find((r) => r.Properties.RouteKey === key)!.Properties;
          const integration = integrations[String(route.Target["Fn::Join"][1][1].Ref)]!.Properties;
          expect(integration.ApiId, key).toEqual({ Ref: api.logicalId });
          expect(JSON.stringify(integration.IntegrationUri), key).toContain(services.get(service.name)!.logicalId);
        }
      }
    }
  });

  it("checks tokens against the issuer and audience given in context", () => {
    withExistingIdp().apiTemplate.hasResourceProperties("AWS::ApiGatewayV2::Authorizer", {
      AuthorizerType: "JWT",
      IdentitySource: ["$request.header.Authorization"],
      JwtConfiguration: { Issuer: "https://idp.example.com/", Audience: ["order-tools-api", "order-tools-agent"] },
    });
    withExistingIdp().apiTemplate.resourceCountIs("AWS::Cognito::UserPool", 0);
  });

  it("without an identity provider, gives each user pool an API of its own that trusts exactly that pool and its app client", () => {
    const synth = withCognito();
    const pools = userPoolsOf(synth);
    const apiIds = new Set<string>();
    for (const pool of Object.values(pools)) {
      const api = apiTrusting(synth, pool.logicalId);
      apiIds.add(api.logicalId);
      const clients = ofPool(synth, "AWS::Cognito::UserPoolClient", pool.logicalId);
      expect(clients).toHaveLength(1);
      expect(api.authorizer.JwtConfiguration.Audience).toEqual([{ Ref: clients[0]![0] }]);
    }
    expect(apiIds.size).toBe(3);
  });

  it("throttles each API's default stage and writes JSON access logs to a log group of its own", () => {
    const { apiTemplate } = withCognito();
    const destinations = new Set<string>();
    for (const { stage } of httpApisOf(apiTemplate)) {
      expect(stage).toMatchObject({
        StageName: "$default",
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      });
      const destination = stage.AccessLogSettings.DestinationArn["Fn::GetAtt"][0];
      expect(resourcesOf(apiTemplate, "AWS::Logs::LogGroup")[destination]).toBeDefined();
      destinations.add(destination);
      const format = JSON.parse(stage.AccessLogSettings.Format);
      expect(format).toMatchObject({ requestId: "$context.requestId", status: "$context.status", routeKey: "$context.routeKey" });
    }
    expect(destinations.size).toBe(3);
  });
});

/** The key prefixes each tool may write, written out here rather than derived from access.ts. */
const budget = { resource: "orders", action: "dynamodb:UpdateItem", leadingKeys: ["BUDGET#*"] };
const expectedWrites: Record<string, DynamoGrant[]> = {
  search_orders: [budget],
  get_order: [budget],
  get_operation_status: [budget],
  // A change puts no item under the order's key: its history entry is its operation record.
  cancel_order: [
    { resource: "orders", action: "dynamodb:UpdateItem", leadingKeys: ["BUDGET#*", "ORDER#*"] },
    { resource: "orders", action: "dynamodb:PutItem", leadingKeys: ["OPERATION#*#*", "RATE#*"] },
    { resource: "orders", action: "dynamodb:ConditionCheckItem", leadingKeys: ["ORDER#*"] },
  ],
  // Customers' notes are not capped: only support's cap item.
  add_delivery_note: [
    { resource: "orders", action: "dynamodb:UpdateItem", leadingKeys: ["BUDGET#*", "ORDER#*"] },
    { resource: "orders", action: "dynamodb:PutItem", leadingKeys: ["OPERATION#*#*", "RATE#SUPPORT#*"] },
    { resource: "orders", action: "dynamodb:ConditionCheckItem", leadingKeys: ["ORDER#*"] },
  ],
  start_return: [
    { resource: "orders", action: "dynamodb:UpdateItem", leadingKeys: ["BUDGET#*", "ORDER#*", "PICKUP"] },
    { resource: "orders", action: "dynamodb:PutItem", leadingKeys: ["OPERATION#*#*", "RATE#*"] },
    { resource: "orders", action: "dynamodb:ConditionCheckItem", leadingKeys: ["ORDER#*"] },
  ],
  offer_replacement: [
    { resource: "orders", action: "dynamodb:UpdateItem", leadingKeys: ["BUDGET#*", "ORDER#*", "STOCK#*"] },
    { resource: "orders", action: "dynamodb:PutItem", leadingKeys: ["OPERATION#*#*", "RATE#*"] },
    { resource: "orders", action: "dynamodb:ConditionCheckItem", leadingKeys: ["ORDER#*", "SELLER#*"] },
  ],
};

describe("least privilege", () => {
  it("lets each function call exactly its registry actions on exactly its tables and indexes, and write only its own log group", () => {
    const synth = withCognito();
    const functions = toolFunctions(synth.apiTemplate);
    for (const tool of tools as readonly DeployedTool[]) {
      const fn = functions.get(tool.name)!;
      for (const statement of statementsOfRole(synth.apiTemplate, roleOf(fn))) {
        expect(statement.Effect).toBe("Allow");
        const actions = asList(statement.Action);
        for (const action of actions) expect(action, tool.name).not.toMatch(/\*|Scan/);
        if (actions.every((a) => a.startsWith("logs:"))) {
          expect(actions.sort()).toEqual(["logs:CreateLogStream", "logs:PutLogEvents"]);
          expect(asList(statement.Resource).map((r) => JSON.stringify(r))).toEqual([
            JSON.stringify({ "Fn::GetAtt": [fn.properties.LoggingConfig.LogGroup.Ref, "Arn"] }),
          ]);
        }
      }
      const expected: DynamoGrant[] = [
        ...tool.access.orders.map((action) => ({ resource: "orders", action })),
        ...Object.entries(tool.access.ordersWrites).map(([action, leadingKeys]) => ({
          resource: "orders",
          action,
          leadingKeys: [...leadingKeys!],
        })),
        ...(tool.access.ordersIndexes ?? []).map((index) => ({ resource: `orders/index/${index}`, action: "dynamodb:Query" })),
        ...tool.access.idempotency.map((action) => ({ resource: "idempotency", action })),
      ];
      expect(byKey(grantsOf(synth, fn)), tool.name).toEqual(byKey(expected));
    }
  });

  it("lets each function put, update or check only the key prefixes it writes, and never write the orders table without a key condition", () => {
    const synth = withCognito();
    const writes = new Set([
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:DeleteItem",
      "dynamodb:ConditionCheckItem",
      "dynamodb:BatchWriteItem",
    ]);
    expect(Object.keys(expectedWrites).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const [name, fn] of toolFunctions(synth.apiTemplate)) {
      const ordersWrites = grantsOf(synth, fn).filter((g) => g.resource.startsWith("orders") && writes.has(g.action));
      for (const grant of ordersWrites) expect(grant.leadingKeys, `${name} ${grant.action}`).toBeDefined();
      expect(byKey(ordersWrites), name).toEqual(byKey(expectedWrites[name]!));
    }
  });

  it("drops Query on the orders table from search_orders, which queries only indexes", () => {
    const synth = withCognito();
    const grants = grantsOf(synth, toolFunctions(synth.apiTemplate).get("search_orders")!);
    expect(
      grants
        .filter((g) => g.action === "dynamodb:Query")
        .map((g) => g.resource)
        .sort(),
    ).toEqual(
      [
        "byCustomerSummary",
        "byEmail",
        "byIdDigits1to3Summary",
        "byIdDigits2to4Summary",
        "byIdDigits3to5Summary",
        "bySellerDeliveredSummary",
        "bySellerPlacedSummary",
      ].map((i) => `orders/index/${i}`),
    );
  });

  it("lets the MCP function invoke exactly the tool functions, named in its environment, and sign with its confirmation key, and touch no table; the catalogue and OpenAPI functions only log (and write their trace segments)", () => {
    const { apiTemplate } = withCognito();
    const tools_ = toolFunctions(apiTemplate);
    const services = serviceFunctionsOf(apiTemplate);
    // Every role may write its own logs and its X-Ray segments (tracing.test.ts); what else each may do is the point here.
    const nonLogging = (fn: { properties: Record<string, any> }) =>
      statementsOfRole(apiTemplate, roleOf(fn)).filter((s) => !asList(s.Action).every((a) => /^(logs|xray):/.test(a)));

    const mcp = services.get("mcp")!;
    const statements = nonLogging(mcp);
    expect(statements).toHaveLength(2);
    const [key] = Object.keys(resourcesOf(apiTemplate, "AWS::KMS::Key"));
    expect(statements[1]).toEqual({
      Effect: "Allow",
      Action: ["kms:GenerateMac", "kms:VerifyMac"],
      Resource: { "Fn::GetAtt": [key, "Arn"] },
    });
    expect(statements[0]).toMatchObject({ Effect: "Allow", Action: "lambda:InvokeFunction" });
    const arns = asList(statements[0]!.Resource as unknown[])
      .map((r) => JSON.stringify(r))
      .sort();
    expect(arns).toEqual([...tools_.values()].map((fn) => JSON.stringify({ "Fn::GetAtt": [fn.logicalId, "Arn"] })).sort());

    const env = mcp.properties.Environment.Variables;
    for (const [name, fn] of tools_) expect(env[toolFunctionEnv(name)], name).toEqual({ Ref: fn.logicalId });
    expect(Object.keys(env).filter((k) => /TABLE/.test(k))).toEqual([]);
    expect(mcp.properties.Timeout).toBeGreaterThan(10);

    for (const name of ["catalog", "openapi"]) {
      expect(nonLogging(services.get(name)!), name).toEqual([]);
      expect(
        Object.keys(services.get(name)!.properties.Environment.Variables).filter((k) => /TABLE|TOOL_FUNCTION/.test(k)),
        name,
      ).toEqual([]);
    }
  });

  it("uses no AWS managed policy on any role", () => {
    for (const role of Object.values(resourcesOf(withCognito().apiTemplate, "AWS::IAM::Role"))) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe("tables", () => {
  it("builds both tables from the table design: keys, indexes, on-demand, point-in-time recovery, TTL, deletion protection", () => {
    const { dataTemplate } = withCognito();
    dataTemplate.resourceCountIs("AWS::DynamoDB::Table", tableDesigns.length);
    const keys = (design: { partitionKey: string; sortKey?: string }) => [
      { AttributeName: design.partitionKey, KeyType: "HASH" },
      ...(design.sortKey ? [{ AttributeName: design.sortKey, KeyType: "RANGE" }] : []),
    ];
    const projection = (p: "ALL" | "KEYS_ONLY" | readonly string[]) =>
      typeof p === "string" ? { ProjectionType: p } : { ProjectionType: "INCLUDE", NonKeyAttributes: [...p] };
    for (const design of tableDesigns) {
      const indexes: readonly IndexDesign[] = design.indexes;
      dataTemplate.hasResource("AWS::DynamoDB::Table", {
        DeletionPolicy: "Retain",
        Properties: {
          KeySchema: keys(design),
          BillingMode: "PAY_PER_REQUEST",
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          TimeToLiveSpecification: { AttributeName: design.timeToLiveAttribute, Enabled: true },
          DeletionProtectionEnabled: true,
          GlobalSecondaryIndexes: indexes.length
            ? indexes.map((index) => ({ IndexName: index.indexName, KeySchema: keys(index), Projection: projection(index.projection) }))
            : Match.absent(),
        },
      });
    }
  });

  it("orderIndexStep moves a deployed orders table from the previous order indexes to the summary ones, one GSI per update, within DynamoDB's projection limit", () => {
    // CloudFormation creates or deletes one GSI per table update: each step differs from the one before by exactly one.
    const steps = Array.from(
      { length: orderIndexSteps + 1 },
      (_, step) => new Map(ordersTableAt(step).indexes.map((i) => [i.indexName, i])),
    );
    expect([...steps[0]!.keys()].sort()).toEqual(["byEmail", ...previousOrderIndexes.map((i) => i.indexName)].sort());
    expect([...steps[orderIndexSteps]!.values()]).toEqual(expect.arrayContaining([...ordersTable.indexes]));
    expect(steps[orderIndexSteps]!.size).toBe(ordersTable.indexes.length);
    for (let step = 1; step <= orderIndexSteps; step++) {
      const [before, after] = [steps[step - 1]!, steps[step]!];
      const added = [...after.keys()].filter((name) => !before.has(name));
      const removed = [...before.keys()].filter((name) => !after.has(name));
      expect(added.length + removed.length, `step ${step}`).toBe(1);
      // An index kept from one step to the next is left exactly as it was.
      for (const [name, index] of after) if (before.has(name)) expect(index, `${name} at step ${step}`).toEqual(before.get(name));
    }
    // DynamoDB counts an attribute once per index projecting it, 100 at most; all twelve order indexes at once would be 132.
    for (let step = 0; step <= orderIndexSteps; step++)
      expect(projectedAttributes(ordersTableAt(step)), `step ${step}`).toBeLessThanOrEqual(maxProjectedAttributes);
    expect(projectedAttributes({ ...ordersTable, indexes: [...ordersTable.indexes, ...previousOrderIndexes] })).toBeGreaterThan(
      maxProjectedAttributes,
    );
    expect(() => ordersTableAt(orderIndexSteps + 1)).toThrow(/from 0 to 12/);

    // A deploy updates the data stack before the API stack: every index a search queries at a step is in the table at
    // that step and at the next, whose table update lands while the functions still query the step before's.
    const searched = ordersTable.indexes.map((i) => i.indexName).filter((name) => name !== "byEmail");
    for (let step = 0; step <= orderIndexSteps; step++)
      for (const name of searched) {
        const queried = orderIndexAt(name, step).indexName;
        expect(steps[step]!.has(queried), `${queried} at step ${step}`).toBe(true);
        if (step < orderIndexSteps) expect(steps[step + 1]!.has(queried), `${queried} at step ${step + 1}`).toBe(true);
      }
    expect(searched.map((name) => orderIndexAt(name, 0).indexName)).toEqual(previousOrderIndexes.map((i) => i.indexName));
    expect(searched.map((name) => orderIndexAt(name, orderIndexSteps).indexName)).toEqual(searched);
    expect(searched.map((name) => orderIndexAt(name, undefined).indexName)).toEqual(searched);

    // The data stack builds the step's indexes, and by default the table as designed.
    const gsis = (template: Template) =>
      Object.values(resourcesOf(template, "AWS::DynamoDB::Table"))
        .flatMap((t) => t.Properties.GlobalSecondaryIndexes ?? [])
        .map((i: { IndexName: string }) => i.IndexName)
        .sort();
    const data = new DataStack(new App(), "Data", { deletionProtection: true, orderIndexStep: 7 });
    expect(gsis(Template.fromStack(data))).toEqual([...steps[7]!.keys()].sort());
    expect(gsis(withCognito().dataTemplate)).toEqual([...steps[orderIndexSteps]!.keys()].sort());
  });

  it("deploys search_orders at a step of the index move told the step and allowed the indexes its searches have then; other functions untold", () => {
    const at = (synth: Synthesized) => {
      const functions = toolFunctions(synth.apiTemplate);
      const search = functions.get("search_orders")!;
      const queried = grantsOf(synth, search)
        .filter((g) => g.action === "dynamodb:Query")
        .map((g) => g.resource.replace("orders/index/", ""))
        .sort();
      const told = [...functions].filter(([, fn]) => fn.properties.Environment.Variables[orderIndexStepEnv] !== undefined);
      return { queried, told: told.map(([name, fn]) => [name, fn.properties.Environment.Variables[orderIndexStepEnv]]) };
    };
    expect(at(synthesized({ context: { orderIndexStep: "3" } }))).toEqual({
      // Steps 1 and 3 added the customer's and the first id-digits summary indexes; the rest are still the previous ones.
      queried: [
        "byCustomerSummary",
        "byEmail",
        "byIdDigits1to3Summary",
        "byIdDigits2to4",
        "byIdDigits3to5",
        "bySellerDelivered",
        "bySellerPlaced",
      ],
      told: [["search_orders", "3"]],
    });
    expect(at(withCognito()).told).toEqual([]);
    expect(() => synthesize({ context: { orderIndexStep: "13" } })).toThrow(/orderIndexStep must be a whole number from 0 to 12/);
    // The function reads the step as it was deployed; unset, the table as designed; anything else stops it at start.
    expect(orderIndexStepFromEnv({ [orderIndexStepEnv]: "3" })).toBe(3);
    expect(orderIndexStepFromEnv({})).toBeUndefined();
    for (const bad of ["13", "-1", "2.5", "three"])
      expect(() => orderIndexStepFromEnv({ [orderIndexStepEnv]: bad }), bad).toThrow(
        `ORDER_TOOLS_ORDER_INDEX_STEP is a whole number from 0 to 12 (the stack's context orderIndexStep), not "${bad}".`,
      );
  });

  it("drops deletion protection and retention when deletionProtection=false, for throw-away stages", () => {
    const { dataTemplate, apiTemplate } = withExistingIdp();
    for (const table of Object.values(resourcesOf(dataTemplate, "AWS::DynamoDB::Table"))) {
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
      expect(table.DeletionPolicy).toBe("Delete");
    }
    for (const group of Object.values(resourcesOf(apiTemplate, "AWS::Logs::LogGroup"))) expect(group.DeletionPolicy).toBe("Delete");
  });
});

/** Every log group's retention, by what it logs: a tool's name, a service function's, a trigger's, or an API's access log. */
function retentionByLogGroup(synth: Synthesized): Map<string, number> {
  const groups = resourcesOf(synth.apiTemplate, "AWS::Logs::LogGroup");
  const byGroup = new Map<string, number>();
  for (const [logicalId, fn] of Object.entries(resourcesOf(synth.apiTemplate, "AWS::Lambda::Function"))) {
    const group = fn.Properties.LoggingConfig.LogGroup.Ref as string;
    const tool = /^order-tools ([a-z_]+)$/.exec(String(fn.Properties.Description))?.[1];
    const service = serviceFunctions.find((f) => f.description === fn.Properties.Description)?.name;
    const name = tool ?? (service ? `${service} ${logicalId}` : `trigger ${logicalId}`);
    byGroup.set(name, groups[group]!.Properties.RetentionInDays);
  }
  for (const { stage } of httpApisOf(synth.apiTemplate)) {
    const group = stage.AccessLogSettings.DestinationArn["Fn::GetAtt"][0] as string;
    byGroup.set(`access ${group}`, groups[group]!.Properties.RetentionInDays);
  }
  expect(byGroup.size, "every log group is a function's or an API's").toBe(Object.keys(groups).length);
  return byGroup;
}

describe("logs and alarms", () => {
  it("gives every function a log group of its own, and chooses each log group's retention by what it holds: changes a year, access logs a quarter, the rest a month", () => {
    const synth = withCognito();
    const used = Object.values(resourcesOf(synth.apiTemplate, "AWS::Lambda::Function")).map(
      (f) => f.Properties.LoggingConfig.LogGroup.Ref as string,
    );
    expect(new Set(used).size).toBe(used.length);
    const changing = new Set<string>(tools.filter((t) => t.kind === "change").map((t) => t.name));
    const expected = (name: string) => (changing.has(name) ? 365 : name.startsWith("access ") ? 90 : 30);
    const retention = retentionByLogGroup(synth);
    expect([...retention.keys()].filter((n) => changing.has(n))).toHaveLength(changing.size);
    for (const [name, days] of retention) expect(days, name).toBe(expected(name));

    const longer = retentionByLogGroup(
      synthesize({ context: { logRetentionDays: "400", changeLogRetentionDays: "731", accessLogRetentionDays: "365" } }),
    );
    for (const [name, days] of longer) expect(days, name).toBe(changing.has(name) ? 731 : name.startsWith("access ") ? 365 : 400);
  });

  it("alarms on every function's errors and throttles, each API's 5xx rate and each table's system errors", () => {
    const { apiTemplate, dataTemplate } = withCognito();
    const alarms = Object.values(resourcesOf(apiTemplate, "AWS::CloudWatch::Alarm")).map((a) => a.Properties);
    for (const fnId of Object.keys(resourcesOf(apiTemplate, "AWS::Lambda::Function"))) {
      for (const metric of ["Errors", "Throttles"]) {
        expect(
          alarms.some((a) => a.MetricName === metric && a.Namespace === "AWS/Lambda" && JSON.stringify(a.Dimensions).includes(fnId)),
          `${metric} alarm for ${fnId}`,
        ).toBe(true);
      }
    }
    // One 5xx-rate alarm per API, each reading that API's own metrics.
    const rates = alarms.filter((a) => a.Metrics?.some((m: { Expression?: string }) => m.Expression?.includes("100 * errors / requests")));
    const apis = httpApisOf(apiTemplate);
    expect(rates).toHaveLength(apis.length);
    for (const api of apis) {
      const rate = rates.find((a) => JSON.stringify(a.Metrics).includes(`{"Name":"ApiId","Value":{"Ref":"${api.logicalId}"}}`));
      expect(rate, api.logicalId).toMatchObject({ Threshold: 5, ComparisonOperator: "GreaterThanOrEqualToThreshold" });
      expect(JSON.stringify(rate!.Metrics)).toContain('"MetricName":"5xx"');
    }

    const tableAlarms = Object.values(resourcesOf(dataTemplate, "AWS::CloudWatch::Alarm")).map((a) => a.Properties);
    expect(tableAlarms).toHaveLength(tableDesigns.length);
    for (const alarm of tableAlarms) expect(JSON.stringify(alarm.Metrics)).toContain('"MetricName":"SystemErrors"');
  });

  it("creates a topic in the data stack that every alarm of both stacks notifies, publishable over TLS only", () => {
    const { apiTemplate, dataTemplate } = withCognito();
    const topics = Object.keys(resourcesOf(dataTemplate, "AWS::SNS::Topic"));
    expect(topics).toHaveLength(1);
    apiTemplate.resourceCountIs("AWS::SNS::Topic", 0);
    const exported = Object.values(dataTemplate.findOutputs("*")).find(
      (o) => JSON.stringify(o.Value) === JSON.stringify({ Ref: topics[0] }),
    );
    expect(exported?.Export?.Name).toBeDefined();
    const alarms = [
      ...Object.values(resourcesOf(dataTemplate, "AWS::CloudWatch::Alarm")),
      ...Object.values(resourcesOf(apiTemplate, "AWS::CloudWatch::Alarm")),
    ];
    expect(alarms.length).toBeGreaterThan(tableDesigns.length);
    for (const alarm of Object.values(resourcesOf(dataTemplate, "AWS::CloudWatch::Alarm")))
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topics[0] }]);
    for (const alarm of Object.values(resourcesOf(apiTemplate, "AWS::CloudWatch::Alarm")))
      expect(alarm.Properties.AlarmActions).toEqual([{ "Fn::ImportValue": exported!.Export.Name }]);
    dataTemplate.hasResourceProperties("AWS::SNS::TopicPolicy", {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } })]),
      },
    });
    // Nobody is subscribed unless told whom to tell (a production stage refuses to synthesize without it).
    dataTemplate.resourceCountIs("AWS::SNS::Subscription", 0);
  });

  it("subscribes each address given as alarmEmail to that topic", () => {
    const { dataTemplate } = withOptions();
    const [topic] = Object.keys(resourcesOf(dataTemplate, "AWS::SNS::Topic"));
    const subscriptions = Object.values(resourcesOf(dataTemplate, "AWS::SNS::Subscription")).map((r) => r.Properties);
    expect(subscriptions.map((p) => [p.Protocol, p.Endpoint, p.TopicArn]).sort()).toEqual([
      ["email", "oncall@example.com", { Ref: topic }],
      ["email", "ops@example.com", { Ref: topic }],
    ]);
  });

  it("sends every alarm to the topic given as alarmTopicArn, and then creates none", () => {
    withExistingIdp().dataTemplate.resourceCountIs("AWS::SNS::Topic", 0);
    const { apiTemplate, dataTemplate } = withExistingIdp();
    for (const template of [apiTemplate, dataTemplate]) {
      for (const alarm of Object.values(resourcesOf(template, "AWS::CloudWatch::Alarm"))) {
        expect(alarm.Properties.AlarmActions).toEqual(["arn:aws:sns:eu-west-1:111122223333:ops"]);
      }
    }
  });
});

describe("the user pools created when no identity provider is given", () => {
  it("customizes access tokens with a V3 pre-token trigger of each pool's own, on the Essentials plan, with admin-only sign-up", () => {
    const synth = withCognito();
    for (const [kind, pool] of Object.entries(userPoolsOf(synth))) {
      expect(pool.properties, kind).toMatchObject({
        UserPoolTier: "ESSENTIALS",
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        LambdaConfig: { PreTokenGenerationConfig: { LambdaVersion: "V3_0" } },
      });
      expect(pool.triggerEnv.ORDER_TOOLS_USER_POOL).toBe(kind);
    }
  });

  it("requires MFA (TOTP) of every user of the staff pool, the only pool with a support group and a support scope", () => {
    const synth = withCognito();
    const { customers, staff, sellers } = userPoolsOf(synth);
    expect(staff.properties).toMatchObject({ MfaConfiguration: "ON", EnabledMfas: ["SOFTWARE_TOKEN_MFA"] });
    expect(customers.properties).toMatchObject({ MfaConfiguration: "OPTIONAL" });

    const scopesOf = (poolId: string) =>
      ofPool(synth, "AWS::Cognito::UserPoolResourceServer", poolId).map(([, r]) =>
        r.Properties.Scopes.map((s: { ScopeName: string }) => s.ScopeName),
      );
    expect(scopesOf(staff.logicalId)).toEqual([["read", "write", "support"]]);
    expect(scopesOf(customers.logicalId)).toEqual([["read", "write"]]);
    expect(scopesOf(sellers.logicalId)).toEqual([["read", "write"]]);
    const groupsOf = (poolId: string) => ofPool(synth, "AWS::Cognito::UserPoolGroup", poolId).map(([, r]) => r.Properties.GroupName);
    expect(groupsOf(staff.logicalId)).toEqual(["support"]);
    expect(groupsOf(customers.logicalId)).toEqual([]);
    expect(groupsOf(sellers.logicalId)).toEqual([]);
    synth.apiTemplate.resourceCountIs("AWS::Cognito::UserPoolGroup", 1);

    // The customer attribute lives only in the customers' pool; no client of the staff pool may ask for it.
    const attributes = (pool: { properties: Record<string, any> }) => pool.properties.Schema.map((a: { Name: string }) => a.Name);
    expect(attributes(customers)).toContain("customer_id");
    expect(attributes(staff)).not.toContain("customer_id");
    expect(attributes(sellers)).not.toContain("customer_id");
  });

  it("requires MFA (TOTP) of every seller's user, in the only pool whose users carry a seller id, which no app client may write", () => {
    const synth = withCognito();
    const { customers, staff, sellers } = userPoolsOf(synth);
    expect(sellers.properties).toMatchObject({
      MfaConfiguration: "ON",
      EnabledMfas: ["SOFTWARE_TOKEN_MFA"],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    });
    const attributes = (pool: { properties: Record<string, any> }) => pool.properties.Schema.map((a: { Name: string }) => a.Name);
    expect(attributes(sellers)).toContain("seller_id");
    expect(attributes(customers)).not.toContain("seller_id");
    expect(attributes(staff)).not.toContain("seller_id");
    const clients = ofPool(synth, "AWS::Cognito::UserPoolClient", sellers.logicalId);
    expect(clients).toHaveLength(1);
    const [, client] = clients[0]!;
    expect(client.Properties.WriteAttributes).toEqual(["email"]);
    expect(client.Properties.ReadAttributes).toContain("custom:seller_id");
    expect(JSON.stringify(client.Properties.AllowedOAuthScopes)).not.toContain("/support");
    expect([client.Properties.RefreshTokenValidity, client.Properties.TokenValidityUnits.RefreshToken]).toEqual([720, "minutes"]);
    // Its trigger serves the sellers' pool: it is the one that turns the attribute into the seller_id claim.
    expect(sellers.triggerEnv.ORDER_TOOLS_USER_POOL).toBe("sellers");
    // Its own API, trusting only this pool.
    const api = apiTrusting(synth, sellers.logicalId);
    expect(api.authorizer.JwtConfiguration.Audience).toEqual([{ Ref: clients[0]![0] }]);
    expect(
      new Set([api.logicalId, apiTrusting(synth, customers.logicalId).logicalId, apiTrusting(synth, staff.logicalId).logicalId]).size,
    ).toBe(3);
  });

  it("lets only the staff API accept tokens that may carry orders:support: the customers' API trusts a pool without the scope", () => {
    const synth = withCognito();
    const { customers, staff } = userPoolsOf(synth);
    const allowedScopes = (poolId: string) =>
      ofPool(synth, "AWS::Cognito::UserPoolClient", poolId).flatMap(([, c]) =>
        (c.Properties.AllowedOAuthScopes as unknown[]).map((s) => JSON.stringify(s)),
      );
    expect(allowedScopes(customers.logicalId).filter((s) => s.includes("/support"))).toEqual([]);
    expect(allowedScopes(staff.logicalId).filter((s) => s.includes("/support"))).toHaveLength(1);
    expect(apiTrusting(synth, customers.logicalId).logicalId).not.toBe(apiTrusting(synth, staff.logicalId).logicalId);
  });

  it("keeps a staff session to 12 hours of refreshes, so staff sign in again with MFA at least twice a day", () => {
    const synth = withCognito();
    const { customers, staff } = userPoolsOf(synth);
    const refreshMinutes = (poolId: string) =>
      ofPool(synth, "AWS::Cognito::UserPoolClient", poolId).map(([, c]) => [
        c.Properties.RefreshTokenValidity,
        c.Properties.TokenValidityUnits.RefreshToken,
      ]);
    expect(refreshMinutes(staff.logicalId)).toEqual([[720, "minutes"]]);
    expect(refreshMinutes(customers.logicalId)).toEqual([[43_200, "minutes"]]);
  });

  it("lets no app client write the customer id or the seller id, which decide whose orders a token reaches", () => {
    for (const client of Object.values(resourcesOf(withCognito().apiTemplate, "AWS::Cognito::UserPoolClient"))) {
      expect(client.Properties.WriteAttributes).toBeDefined();
      expect(client.Properties.WriteAttributes).not.toContain("custom:customer_id");
      expect(client.Properties.WriteAttributes).not.toContain("custom:seller_id");
    }
  });

  it("creates the client-credentials client only when asked, in the staff pool, and lets the staff API accept its tokens", () => {
    withCognito().apiTemplate.resourceCountIs("AWS::Cognito::UserPoolClient", 3);
    const m2m = synthesize({ context: { supportServiceClient: "true" } });
    m2m.apiTemplate.resourceCountIs("AWS::Cognito::UserPoolClient", 4);
    const { staff, customers } = userPoolsOf(m2m);
    const services = ofPool(m2m, "AWS::Cognito::UserPoolClient", staff.logicalId).filter(([, c]) => c.Properties.GenerateSecret === true);
    expect(services).toHaveLength(1);
    const [serviceId] = services[0]!;
    m2m.apiTemplate.hasResourceProperties("AWS::Cognito::UserPoolClient", {
      AllowedOAuthFlows: ["client_credentials"],
      GenerateSecret: true,
      UserPoolId: { Ref: staff.logicalId },
    });
    expect(apiTrusting(m2m, staff.logicalId).authorizer.JwtConfiguration.Audience).toContainEqual({ Ref: serviceId });
    expect(apiTrusting(m2m, customers.logicalId).authorizer.JwtConfiguration.Audience).not.toContainEqual({ Ref: serviceId });
  });

  it("outputs every API URL and every pool's ids", () => {
    const outputs = Object.keys(withCognito().apiTemplate.findOutputs("*"));
    expect(outputs.sort()).toEqual([
      "ApiUrl",
      "AuthDomainUrl",
      "SellerApiUrl",
      "SellerAuthDomainUrl",
      "SellerUserPoolClientId",
      "SellerUserPoolId",
      "StaffApiUrl",
      "StaffAuthDomainUrl",
      "StaffUserPoolClientId",
      "StaffUserPoolId",
      "UserPoolClientId",
      "UserPoolId",
    ]);
    expect(Object.keys(withExistingIdp().apiTemplate.findOutputs("*"))).toEqual(["ApiUrl"]);
  });

  it("registers the redirect URLs given for each pool's app client", () => {
    const synth = synthesize({
      context: {
        authCallbackUrls: "https://shop.example.com/callback",
        staffAuthCallbackUrls: "https://support.example.com/callback,http://localhost:3000/cb",
        sellerAuthCallbackUrls: "https://sellers.example.com/cb",
      },
    });
    const { customers, staff, sellers } = userPoolsOf(synth);
    const callbacks = (poolId: string) => ofPool(synth, "AWS::Cognito::UserPoolClient", poolId).map(([, c]) => c.Properties.CallbackURLs);
    expect(callbacks(customers.logicalId)).toEqual([["https://shop.example.com/callback"]]);
    expect(callbacks(staff.logicalId)).toEqual([["https://support.example.com/callback", "http://localhost:3000/cb"]]);
    expect(callbacks(sellers.logicalId)).toEqual([["https://sellers.example.com/cb"]]);
  });
});

describe("encryption at rest", () => {
  it("encrypts both tables with the AWS managed DynamoDB key by default, whose every use CloudTrail records, and creates no key", () => {
    const { dataTemplate, apiTemplate } = withCognito();
    for (const table of Object.values(resourcesOf(dataTemplate, "AWS::DynamoDB::Table"))) {
      // SSEEnabled alone is the AWS managed key; absent or false would be the AWS owned key.
      expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true });
    }
    dataTemplate.resourceCountIs("AWS::KMS::Key", 0);
    for (const group of Object.values(resourcesOf(apiTemplate, "AWS::Logs::LogGroup"))) expect(group.Properties.KmsKeyId).toBeUndefined();
  });

  it("with customerManagedKey, encrypts the tables, the alarm topic and every log group with one rotated key of the data stack", () => {
    const { dataTemplate, apiTemplate } = withOptions();
    const keys = Object.entries(resourcesOf(dataTemplate, "AWS::KMS::Key"));
    expect(keys).toHaveLength(1);
    const [keyId, key] = keys[0]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe("Retain");
    const keyArn = { "Fn::GetAtt": [keyId, "Arn"] };
    for (const table of Object.values(resourcesOf(dataTemplate, "AWS::DynamoDB::Table"))) {
      expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: "KMS", KMSMasterKeyId: keyArn });
    }
    dataTemplate.hasResourceProperties("AWS::SNS::Topic", { KmsMasterKeyId: keyArn });
    const exported = Object.values(dataTemplate.findOutputs("*")).find((o) => JSON.stringify(o.Value) === JSON.stringify(keyArn));
    const groups = Object.values(resourcesOf(apiTemplate, "AWS::Logs::LogGroup"));
    expect(groups.length).toBeGreaterThan(tools.length);
    for (const group of groups) expect(group.Properties.KmsKeyId).toEqual({ "Fn::ImportValue": exported!.Export.Name });

    // Who may use it: principals of this account only through DynamoDB, CloudWatch Logs for this account's log
    // groups, CloudWatch alarms for the topic; and no grant that is not for an AWS resource.
    const statements = key.Properties.KeyPolicy.Statement as Array<Record<string, any>>;
    const bySid = (sid: string) => statements.find((st) => st.Sid === sid);
    expect(bySid("UseThroughDynamoDBByThisAccount")?.Condition.StringEquals).toMatchObject({
      "kms:CallerAccount": { Ref: "AWS::AccountId" },
    });
    expect(JSON.stringify(bySid("UseThroughDynamoDBByThisAccount")?.Condition.StringEquals["kms:ViaService"])).toContain("dynamodb.");
    expect(JSON.stringify(bySid("EncryptThisAccountsLogGroups")?.Condition)).toContain(":log-group:*");
    expect(bySid("CloudWatchAlarmsPublishToTheTopic")?.Principal).toEqual({ Service: "cloudwatch.amazonaws.com" });
    expect(bySid("GrantsOnlyForAwsResources")).toMatchObject({
      Effect: "Deny",
      Action: "kms:CreateGrant",
      Condition: { BoolIfExists: { "kms:GrantIsForAWSResource": "false", "aws:PrincipalIsAWSService": "false" } },
    });
  });
});

describe("MCP's browser origins and the OpenAPI document's server", () => {
  const mcpOf = (synth: Synthesized) =>
    serviceFunctionsOf(synth.apiTemplate).get("mcp")!.properties.Environment.Variables as Record<string, unknown>;
  const openApiFunctions = (synth: Synthesized) =>
    Object.entries(resourcesOf(synth.apiTemplate, "AWS::Lambda::Function")).filter(
      ([, f]) => f.Properties.Description === serviceFunctions.find((s) => s.name === "openapi")!.description,
    );

  it("by default allows no browser origin (an Origin header is refused), configures no CORS, and lets the OpenAPI document name the API Gateway domain", () => {
    const synth = withCognito();
    expect(mcpOf(synth).ORDER_TOOLS_MCP_ALLOWED_ORIGINS).toBe("");
    for (const api of Object.values(resourcesOf(synth.apiTemplate, "AWS::ApiGatewayV2::Api")))
      expect(api.Properties.CorsConfiguration).toBeUndefined();
    const openapi = openApiFunctions(synth);
    expect(openapi).toHaveLength(1);
    expect(openapi[0]![1].Properties.Environment.Variables[publicUrlEnv]).toBeUndefined();
  });

  it("passes mcpAllowedOrigins to the MCP function and lets exactly those origins through each API's CORS preflight", () => {
    const synth = withOptions();
    expect(String(mcpOf(synth).ORDER_TOOLS_MCP_ALLOWED_ORIGINS).split(",")).toEqual(["https://app.example.com", "http://localhost:5173"]);
    const apis = Object.values(resourcesOf(synth.apiTemplate, "AWS::ApiGatewayV2::Api"));
    expect(apis).toHaveLength(3);
    for (const api of apis) {
      expect(api.Properties.CorsConfiguration).toMatchObject({
        AllowOrigins: ["https://app.example.com", "http://localhost:5173"],
        AllowMethods: ["POST", "GET"],
      });
      expect(api.Properties.CorsConfiguration.AllowHeaders).toEqual(
        expect.arrayContaining(["authorization", "content-type", "mcp-protocol-version"]),
      );
    }
  });

  it("lets a browser of an allowed origin read the headers a tool's answer carries: Retry-After and Idempotent-Replayed", () => {
    // A browser hides every response header but the CORS-safelisted ones unless the API exposes it: without these, a
    // page could not tell when to retry a 429 or an OPERATION_IN_PROGRESS (contract §3), nor a replay (§4).
    const synth = withOptions();
    for (const api of Object.values(resourcesOf(synth.apiTemplate, "AWS::ApiGatewayV2::Api"))) {
      expect(api.Properties.CorsConfiguration.ExposeHeaders).toEqual(
        expect.arrayContaining(["www-authenticate", "retry-after", "idempotent-replayed"]),
      );
    }
  });

  it("serves each API's OpenAPI document from a function that names that API's public URL, as the OpenAPI handler reads it", async () => {
    const synth = withOptions();
    const openapi = new Map(openApiFunctions(synth));
    expect(openapi.size).toBe(3);
    const served = new Map<string, string>();
    for (const api of httpApisOf(synth.apiTemplate)) {
      const route = api.routes.find((r) => r.RouteKey === "GET /v1/openapi.json")!;
      const integration = resourcesOf(synth.apiTemplate, "AWS::ApiGatewayV2::Integration")[String(route.Target["Fn::Join"][1][1].Ref)]!;
      const fnId = [...openapi.keys()].find((id) => JSON.stringify(integration.Properties.IntegrationUri).includes(id))!;
      const env = openapi.get(fnId)!.Properties.Environment.Variables as Record<string, string>;
      // The handler reads its environment per request, as in Lambda; the event's domain is what it would otherwise use.
      const before = process.env[publicUrlEnv];
      try {
        if (env[publicUrlEnv] === undefined) delete process.env[publicUrlEnv];
        else process.env[publicUrlEnv] = env[publicUrlEnv];
        const reply = await openApiHandler(
          { requestContext: { domainName: "abc123.execute-api.eu-west-1.amazonaws.com", http: { method: "GET" } } } as never,
          {} as never,
        );
        served.set(
          String(api.authorizer.JwtConfiguration.Issuer["Fn::GetAtt"][0]),
          JSON.parse(String((reply as { body: string }).body)).servers[0].url,
        );
      } finally {
        if (before === undefined) delete process.env[publicUrlEnv];
        else process.env[publicUrlEnv] = before;
      }
    }
    const { customers, staff, sellers } = userPoolsOf(synth);
    expect(served.get(customers.logicalId)).toBe("https://api.example.com");
    expect(served.get(staff.logicalId)).toBe("https://support-api.example.com/orders");
    expect(served.get(sellers.logicalId)).toBe("https://sellers-api.example.com");
  });

  it("refuses origins that are not origins, '*', plain http beyond localhost, a non-https public URL, and a staff URL without a staff API", () => {
    const bad = (context: Record<string, unknown>) => () =>
      buildOrderTools(new App({ context: { "aws:cdk:bundling-stacks": [], controlTowerChecks: "false", ...context } }));
    expect(bad({ mcpAllowedOrigins: "https://app.example.com/" })).toThrow(
      /browser origins such as https:\/\/app.example.com \(scheme, host and port only, no path or trailing slash\), not "https:\/\/app.example.com\/"/,
    );
    expect(bad({ mcpAllowedOrigins: "*" })).toThrow(/mcpAllowedOrigins must list browser origins/);
    expect(bad({ mcpAllowedOrigins: "http://app.example.com" })).toThrow(/plain http is allowed only for http:\/\/localhost/);
    expect(
      bad({
        stage: "prod",
        alarmEmail: "ops@example.com",
        authCallbackUrls: "https://a.example.com/cb",
        staffAuthCallbackUrls: "https://s.example.com/cb",
        sellerAuthCallbackUrls: "https://m.example.com/cb",
        mcpAllowedOrigins: "http://localhost:5173",
      }),
    ).toThrow(/a production stage accepts https origins only, not "http:\/\/localhost:5173"/);
    expect(bad({ publicUrl: "http://api.example.com" })).toThrow(/publicUrl must be the API's public https URL/);
    expect(bad({ publicUrl: "https://api.example.com/?x=1" })).toThrow(/no query, fragment or credentials/);
    expect(bad({ jwtIssuer: "https://idp.example.com/", jwtAudience: "api", staffPublicUrl: "https://s.example.com" })).toThrow(
      /staffPublicUrl applies only to the staff API/,
    );
    expect(bad({ jwtIssuer: "https://idp.example.com/", jwtAudience: "api", sellerPublicUrl: "https://m.example.com" })).toThrow(
      /sellerPublicUrl applies only to the sellers' API/,
    );
  });
});

describe("Lambda permissions", () => {
  it("names the source account on every permission an AWS service holds, as the stack's account", () => {
    for (const [synth, account] of [
      [withCognito(), { Ref: "AWS::AccountId" }],
      [synthesize({ env: { account: "111122223333", region: "eu-west-1" } }), "111122223333"],
    ] as const) {
      const permissions = Object.values(resourcesOf(synth.apiTemplate, "AWS::Lambda::Permission"));
      expect(permissions.length).toBeGreaterThan(tools.length * 2);
      for (const permission of permissions) {
        expect(permission.Properties.Principal).toMatch(/\.amazonaws\.com$/);
        expect(permission.Properties.SourceAccount).toEqual(account);
        expect(permission.Properties.SourceArn).toBeDefined();
      }
    }
  });
});

describe("cdk-nag AwsSolutions", () => {
  it("finds no unsuppressed error or warning in either stack, with or without the created user pools, with or without the customer key", () => {
    for (const synth of [withCognito(), withExistingIdp(), withOptions()]) {
      for (const annotations of [synth.dataAnnotations, synth.apiAnnotations]) {
        expect(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*"))).toEqual([]);
        expect(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"))).toEqual([]);
      }
    }
  });

  it("excuses missing MFA only for the customers' pool, which cannot issue orders:support; the staff and sellers' pools need no excuse", () => {
    const synth = withCognito();
    const pools = resourcesOf(synth.apiTemplate, "AWS::Cognito::UserPool") as Record<
      string,
      { Metadata?: { cdk_nag?: { rules_to_suppress?: Array<{ id: string; reason: string }> } } }
    >;
    const suppressed = (id: string) => (pools[id]!.Metadata?.cdk_nag?.rules_to_suppress ?? []).map((r) => r.id);
    const { customers, staff, sellers } = userPoolsOf(synth);
    expect(suppressed(customers.logicalId)).toContain("AwsSolutions-COG2");
    expect(suppressed(staff.logicalId)).not.toContain("AwsSolutions-COG2");
    expect(suppressed(sellers.logicalId)).not.toContain("AwsSolutions-COG2");
  });
});

describe("context", () => {
  // Construction alone checks the context; bundling (which NodejsFunction starts at construction) is skipped.
  const bad = (context: Record<string, unknown>) => () =>
    buildOrderTools(new App({ context: { "aws:cdk:bundling-stacks": [], controlTowerChecks: "false", ...context } }));

  it("refuses a production stage whose alarms would reach nobody, and says how to name someone", () => {
    const prod = {
      stage: "prod",
      authCallbackUrls: "https://a.example.com/cb",
      staffAuthCallbackUrls: "https://s.example.com/cb",
      sellerAuthCallbackUrls: "https://m.example.com/cb",
    };
    expect(bad(prod)).toThrow(
      /The production stage "prod" needs someone to receive its alarms: give -c alarmEmail=ops@example.com .* or -c alarmTopicArn=/,
    );
    expect(bad({ ...prod, alarmEmail: "ops@example.com" })).not.toThrow();
    expect(bad({ ...prod, alarmTopicArn: "arn:aws:sns:eu-west-1:111122223333:ops" })).not.toThrow();
    expect(bad({ alarmEmail: "ops@example.com", alarmTopicArn: "arn:aws:sns:eu-west-1:111122223333:ops" })).toThrow(/not both/);
    expect(bad({ alarmEmail: "ops at example.com" })).toThrow(
      /Context alarmEmail must list email addresses such as ops@example.com, comma-separated, not "ops at example.com"/,
    );
    expect(bad({ alarmTopicArn: "ops" })).toThrow(/alarmTopicArn must be an SNS topic ARN such as arn:aws:sns:eu-west-1:111122223333:ops/);
  });

  it("refuses half an identity provider, negative caps or budget, an unknown log level and an odd retention", () => {
    expect(bad({ jwtIssuer: "https://idp.example.com/" })).toThrow(/both jwtIssuer and jwtAudience/);
    expect(bad({ hourlyCap: "-1" })).toThrow(/hourlyCap/);
    expect(bad({ supportHourlyCap: "-1" })).toThrow(/Context supportHourlyCap must be a whole number of at least 0, not "-1"/);
    expect(bad({ sellerHourlyCap: "sixty" })).toThrow(/Context sellerHourlyCap must be a whole number of at least 0, not "sixty"/);
    expect(bad({ requestBudget: "lots" })).toThrow(/Context requestBudget must be a whole number of at least 0, not "lots"/);
    expect(bad({ logLevel: "LOUD" })).toThrow(/logLevel/);
    expect(bad({ logRetentionDays: "31" })).toThrow(/logRetentionDays/);
    expect(bad({ changeLogRetentionDays: "366" })).toThrow(
      /Context changeLogRetentionDays must be a retention CloudWatch Logs offers \(1, 3, 5, .*\), not 366/,
    );
    expect(bad({ accessLogRetentionDays: "0" })).toThrow(/accessLogRetentionDays must be a whole number of at least 1/);
    expect(bad({ customerManagedKey: "yes" })).toThrow(/customerManagedKey must be true or false/);
    expect(bad({ deletionProtection: "no" })).toThrow(/deletionProtection/);
  });

  it("requires explicit https redirect URLs for every pool on a production stage, and says how to give them", () => {
    expect(bad({ stage: "prod" })).toThrow(
      /Context authCallbackUrls is required for the production stage "prod": .* -c authCallbackUrls=https:\/\/app.example.com\/callback/,
    );
    expect(bad({ stage: "prod-eu", authCallbackUrls: "https://shop.example.com/cb" })).toThrow(
      /Context staffAuthCallbackUrls is required for the production stage "prod-eu"/,
    );
    expect(bad({ stage: "dev", production: "true", authCallbackUrls: "https://shop.example.com/cb" })).toThrow(
      /staffAuthCallbackUrls is required/,
    );
    expect(
      bad({ stage: "prod", authCallbackUrls: "https://shop.example.com/cb", staffAuthCallbackUrls: "https://s.example.com/cb" }),
    ).toThrow(/Context sellerAuthCallbackUrls is required for the production stage "prod"/);
    expect(
      bad({ stage: "production", authCallbackUrls: "http://localhost:8080/callback", staffAuthCallbackUrls: "https://s.example.com/cb" }),
    ).toThrow(/the production stage "production" needs https redirect URLs, not "http:\/\/localhost:8080\/callback"/);
    expect(bad({ authCallbackUrls: "http://shop.example.com/cb" })).toThrow(/plain http is allowed only for http:\/\/localhost/);
    expect(bad({ authCallbackUrls: "not a url" })).toThrow(/must list absolute URLs/);

    const prod = synthesize({
      context: {
        stage: "prod",
        authCallbackUrls: "https://shop.example.com/cb",
        staffAuthCallbackUrls: "https://support.example.com/cb",
        sellerAuthCallbackUrls: "https://sellers.example.com/cb",
        alarmEmail: "ops@example.com",
      },
    });
    expect(prod.config).toMatchObject({
      production: true,
      authCallbackUrls: ["https://shop.example.com/cb"],
      staffAuthCallbackUrls: ["https://support.example.com/cb"],
      sellerAuthCallbackUrls: ["https://sellers.example.com/cb"],
    });
    const callbacks = Object.values(resourcesOf(prod.apiTemplate, "AWS::Cognito::UserPoolClient")).map((c) => c.Properties.CallbackURLs);
    expect(callbacks.flat().sort()).toEqual([
      "https://sellers.example.com/cb",
      "https://shop.example.com/cb",
      "https://support.example.com/cb",
    ]);
  });

  it("keeps the localhost default for development stages and asks nothing of a production stage with its own identity provider", () => {
    expect(withCognito().config).toMatchObject({
      production: false,
      authCallbackUrls: ["http://localhost:8080/callback"],
      staffAuthCallbackUrls: ["http://localhost:8080/callback"],
      sellerAuthCallbackUrls: ["http://localhost:8080/callback"],
    });
    expect(bad({ stage: "prod", production: "false" })).not.toThrow();
    expect(
      bad({
        stage: "prod",
        jwtIssuer: "https://idp.example.com/",
        jwtAudience: "api",
        alarmTopicArn: "arn:aws:sns:eu-west-1:111122223333:ops",
      }),
    ).not.toThrow();
    expect(bad({ stage: "products" })).not.toThrow();
  });
});
