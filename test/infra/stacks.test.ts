import { App } from "aws-cdk-lib";
import { Match } from "aws-cdk-lib/assertions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceFunctions, toolFunctionEnv } from "#catalog/service-functions";
import { type ToolDefinition, type ToolRoute, toolNamed, tools } from "#catalog/tools";
import { type IndexDesign, tableDesigns } from "#store/table-design";
import { buildOrderTools } from "#lib/app";
import { asList, removeSynthesizedOutput, resourcesOf, serviceFunctionsOf, statementsOfRole, synthesize, synthesized, toolFunctions } from "#test/infra/app";

const withCognito = () => synthesized();
const withExistingIdp = () =>
  synthesized({ context: { jwtIssuer: "https://idp.example.com/", jwtAudience: "order-tools-api,order-tools-agent", hourlyCap: "0", deletionProtection: "false", alarmTopicArn: "arn:aws:sns:eu-west-1:111122223333:ops" } });

// Synthesized once for the file, outside any single test's timeout.
beforeAll(() => {
  withCognito();
  withExistingIdp();
}, 120_000);
afterAll(removeSynthesizedOutput);

const routeKeys = (owner: { routes: readonly ToolRoute[] }) => owner.routes.map((r) => `${r.method} ${r.path}`);

describe("the functions come from the tool registry", () => {
  it("makes exactly one function per registry tool, one each for the catalogue, OpenAPI and MCP, plus the token trigger when it creates the user pool", () => {
    const { apiTemplate } = withCognito();
    expect([...toolFunctions(apiTemplate).keys()].sort()).toEqual(tools.map((t) => t.name).sort());
    expect([...serviceFunctionsOf(apiTemplate).keys()].sort()).toEqual(["catalog", "mcp", "openapi"]);
    apiTemplate.resourceCountIs("AWS::Lambda::Function", tools.length + serviceFunctions.length + 1);

    withExistingIdp().apiTemplate.resourceCountIs("AWS::Lambda::Function", tools.length + serviceFunctions.length);
  });

  it("gives every function the shared defaults: nodejs22.x on arm64, 10 s, 512 MB, source maps, Powertools and table environment", () => {
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
        POWERTOOLS_SERVICE_NAME: "order-tools",
        POWERTOOLS_LOG_LEVEL: "INFO",
        ORDER_TOOLS_HOURLY_CAP: "10",
      });
      expect(Object.keys(env)).toEqual(expect.arrayContaining(["ORDERS_TABLE", "IDEMPOTENCY_TABLE"]));
    }
  });

  it("passes hourlyCap and logLevel from context to every function", () => {
    const quiet = synthesize({ context: { hourlyCap: "0", logLevel: "warn" } });
    for (const fn of toolFunctions(quiet.apiTemplate).values()) {
      expect(fn.properties.Environment.Variables).toMatchObject({ ORDER_TOOLS_HOURLY_CAP: "0", POWERTOOLS_LOG_LEVEL: "WARN" });
    }
  });

  it("adds a function, its routes, scope and index grant when a tool is appended to the registry, with no other edit", () => {
    const lookup: ToolDefinition = {
      ...toolNamed("get_operation_status"),
      name: "lookup_by_customer",
      scope: "orders:read",
      routes: [{ method: "GET", path: "/v1/customers/{customerId}/orders" }],
      access: { orders: ["dynamodb:Query"], ordersIndexes: ["byCustomer"], idempotency: [] },
    } as ToolDefinition;
    const grown = synthesize({ tools: [...tools, lookup] });
    const fn = toolFunctions(grown.apiTemplate).get("lookup_by_customer");
    expect(fn).toBeDefined();
    grown.apiTemplate.hasResourceProperties("AWS::ApiGatewayV2::Route", {
      RouteKey: "GET /v1/customers/{customerId}/orders",
      AuthorizationType: "JWT",
      AuthorizationScopes: ["orders:read"],
    });
    const roleId = fn!.properties.Role["Fn::GetAtt"][0] as string;
    const dynamo = statementsOfRole(grown.apiTemplate, roleId).filter((s) => asList(s.Action).some((a) => a.startsWith("dynamodb:")));
    expect(dynamo.map((s) => asList(s.Action))).toEqual([["dynamodb:Query"], ["dynamodb:Query"]]);
    expect(JSON.stringify(dynamo[1]!.Resource)).toContain("/index/byCustomer");
  });

  it("refuses a tool that queries an index the orders table does not have", () => {
    const broken = { ...toolNamed("get_operation_status"), name: "broken", access: { orders: ["dynamodb:Query"], ordersIndexes: ["byNothing"], idempotency: [] } } as ToolDefinition;
    expect(() => synthesize({ tools: [broken] })).toThrow(/byNothing/);
  });
});

describe("routes and the JWT authorizer", () => {
  it("routes exactly SPEC §2's tool routes, each through the JWT authorizer with exactly its tool's scope", () => {
    for (const { apiTemplate } of [withCognito(), withExistingIdp()]) {
      const authorizers = resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Authorizer");
      expect(Object.keys(authorizers)).toHaveLength(1);
      const [authorizerId] = Object.keys(authorizers);

      const routes = Object.values(resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Route")).map((r) => r.Properties);
      expect(routes.map((r) => r.RouteKey).sort()).toEqual([...tools, ...serviceFunctions].flatMap(routeKeys).sort());
      for (const tool of tools) {
        for (const key of routeKeys(tool)) {
          const route = routes.find((r) => r.RouteKey === key)!;
          expect(route, key).toMatchObject({ AuthorizationType: "JWT", AuthorizerId: { Ref: authorizerId } });
          expect(route.AuthorizationScopes, key).toEqual([tool.scope]);
        }
      }
    }
  });

  it("leaves exactly the catalogue and the OpenAPI document public, with the reason cdk-nag is told, and sends MCP through the authorizer with no route scope", () => {
    const { apiTemplate } = withCognito();
    const [authorizerId] = Object.keys(resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Authorizer"));
    const routes = Object.values(resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Route"));
    const publicRoutes = routes.filter((r) => r.Properties.AuthorizationType !== "JWT");
    expect(publicRoutes.map((r) => r.Properties.RouteKey).sort()).toEqual(["GET /v1/openapi.json", "GET /v1/tools"]);
    for (const route of publicRoutes) {
      expect(route.Properties.AuthorizerId).toBeUndefined();
      const suppressions = (route as { Metadata?: { cdk_nag?: { rules_to_suppress?: Array<{ id: string; reason: string }> } } }).Metadata?.cdk_nag?.rules_to_suppress ?? [];
      expect(suppressions).toEqual([expect.objectContaining({ id: "AwsSolutions-APIG4", reason: expect.stringMatching(/no order or caller data/) })]);
    }
    for (const key of ["POST /v1/mcp", "GET /v1/mcp"]) {
      const route = routes.find((r) => r.Properties.RouteKey === key)!.Properties;
      expect(route, key).toMatchObject({ AuthorizationType: "JWT", AuthorizerId: { Ref: authorizerId } });
      expect(route.AuthorizationScopes, key).toBeUndefined();
    }
    // Each route reaches its own function.
    const services = serviceFunctionsOf(apiTemplate);
    for (const service of serviceFunctions) {
      const integrations = resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Integration");
      for (const key of routeKeys(service)) {
        const route = routes.find((r) => r.Properties.RouteKey === key)!.Properties;
        const integrationId = String(route.Target["Fn::Join"][1][1].Ref);
        expect(JSON.stringify(integrations[integrationId]!.Properties.IntegrationUri), key).toContain(services.get(service.name)!.logicalId);
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

  it("without an identity provider, trusts the user pool it creates and that pool's app client", () => {
    const { apiTemplate } = withCognito();
    const [poolId] = Object.keys(resourcesOf(apiTemplate, "AWS::Cognito::UserPool"));
    const [clientId] = Object.keys(resourcesOf(apiTemplate, "AWS::Cognito::UserPoolClient"));
    apiTemplate.hasResourceProperties("AWS::ApiGatewayV2::Authorizer", {
      JwtConfiguration: { Issuer: { "Fn::GetAtt": [poolId, "ProviderURL"] }, Audience: [{ Ref: clientId }] },
    });
  });

  it("throttles the default stage and writes JSON access logs to a log group of its own", () => {
    const { apiTemplate } = withCognito();
    const stage = Object.values(resourcesOf(apiTemplate, "AWS::ApiGatewayV2::Stage"))[0]!.Properties;
    expect(stage).toMatchObject({ StageName: "$default", AutoDeploy: true, DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 } });
    const destination = stage.AccessLogSettings.DestinationArn["Fn::GetAtt"][0];
    expect(resourcesOf(apiTemplate, "AWS::Logs::LogGroup")[destination]).toBeDefined();
    const format = JSON.parse(stage.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: "$context.requestId", status: "$context.status", routeKey: "$context.routeKey" });
  });
});

describe("least privilege", () => {
  it("lets each function call exactly its registry actions on exactly its tables and indexes, and write only its own log group", () => {
    const { apiTemplate, api, data } = withCognito();
    const ordersArn = api.resolve(data.ordersTable.tableArn);
    const arnOf = {
      orders: JSON.stringify(ordersArn),
      idempotency: JSON.stringify(api.resolve(data.idempotencyTable.tableArn)),
      index: (name: string) => JSON.stringify({ "Fn::Join": ["", [ordersArn, `/index/${name}`]] }),
    };
    const functions = toolFunctions(apiTemplate);
    for (const tool of tools as readonly ToolDefinition[]) {
      const fn = functions.get(tool.name)!;
      const roleId = fn.properties.Role["Fn::GetAtt"][0] as string;
      const indexes = tool.access.ordersIndexes ?? [];
      const granted = new Map<string, Set<string>>();
      for (const statement of statementsOfRole(apiTemplate, roleId)) {
        expect(statement.Effect).toBe("Allow");
        const actions = asList(statement.Action);
        const resources = asList(statement.Resource).map((r) => JSON.stringify(r));
        for (const action of actions) expect(action, tool.name).not.toMatch(/\*|Scan/);
        if (actions.every((a) => a.startsWith("logs:"))) {
          expect(actions.sort()).toEqual(["logs:CreateLogStream", "logs:PutLogEvents"]);
          expect(resources).toEqual([JSON.stringify({ "Fn::GetAtt": [fn.properties.LoggingConfig.LogGroup.Ref, "Arn"] })]);
          continue;
        }
        for (const resource of resources) {
          const set = granted.get(resource) ?? new Set<string>();
          for (const action of actions) set.add(action);
          granted.set(resource, set);
        }
      }
      const expected = new Map<string, string[]>();
      if (tool.access.orders.length) expected.set(arnOf.orders, [...tool.access.orders].sort());
      if (tool.access.idempotency.length) expected.set(arnOf.idempotency, [...tool.access.idempotency].sort());
      for (const index of indexes) expected.set(arnOf.index(index), ["dynamodb:Query"]);
      expect(new Map([...granted].map(([arn, set]) => [arn, [...set].sort()])), tool.name).toEqual(expected);
    }
  });

  it("lets the MCP function invoke exactly the tool functions, named in its environment, and touch no table; the catalogue and OpenAPI functions only log", () => {
    const { apiTemplate } = withCognito();
    const tools_ = toolFunctions(apiTemplate);
    const services = serviceFunctionsOf(apiTemplate);
    const roleOf = (fn: { properties: Record<string, any> }) => fn.properties.Role["Fn::GetAtt"][0] as string;
    const nonLogging = (fn: { properties: Record<string, any> }) =>
      statementsOfRole(apiTemplate, roleOf(fn)).filter((s) => !asList(s.Action).every((a) => a.startsWith("logs:")));

    const mcp = services.get("mcp")!;
    const statements = nonLogging(mcp);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: "Allow", Action: "lambda:InvokeFunction" });
    const arns = asList(statements[0]!.Resource as unknown[]).map((r) => JSON.stringify(r)).sort();
    expect(arns).toEqual([...tools_.values()].map((fn) => JSON.stringify({ "Fn::GetAtt": [fn.logicalId, "Arn"] })).sort());

    const env = mcp.properties.Environment.Variables;
    for (const [name, fn] of tools_) expect(env[toolFunctionEnv(name)], name).toEqual({ Ref: fn.logicalId });
    expect(Object.keys(env).filter((k) => /TABLE/.test(k))).toEqual([]);
    expect(mcp.properties.Timeout).toBeGreaterThan(10);

    for (const name of ["catalog", "openapi"]) {
      expect(nonLogging(services.get(name)!), name).toEqual([]);
      expect(Object.keys(services.get(name)!.properties.Environment.Variables).filter((k) => /TABLE|TOOL_FUNCTION/.test(k)), name).toEqual([]);
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

  it("drops deletion protection and retention when deletionProtection=false, for throw-away stages", () => {
    const { dataTemplate, apiTemplate } = withExistingIdp();
    for (const table of Object.values(resourcesOf(dataTemplate, "AWS::DynamoDB::Table"))) {
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
      expect(table.DeletionPolicy).toBe("Delete");
    }
    for (const group of Object.values(resourcesOf(apiTemplate, "AWS::Logs::LogGroup"))) expect(group.DeletionPolicy).toBe("Delete");
  });
});

describe("logs and alarms", () => {
  it("gives every function a log group of its own, and every log group a retention", () => {
    const { apiTemplate } = withCognito();
    const groups = resourcesOf(apiTemplate, "AWS::Logs::LogGroup");
    for (const group of Object.values(groups)) expect(group.Properties.RetentionInDays).toBe(30);
    const used = Object.values(resourcesOf(apiTemplate, "AWS::Lambda::Function")).map((f) => f.Properties.LoggingConfig.LogGroup.Ref as string);
    expect(new Set(used).size).toBe(used.length);
    for (const id of used) expect(groups[id]).toBeDefined();
    expect(synthesize({ context: { logRetentionDays: "90" } }).apiTemplate.findResources("AWS::Logs::LogGroup", { Properties: { RetentionInDays: 30 } })).toEqual({});
  });

  it("alarms on every function's errors and throttles, the API's 5xx rate and each table's system errors", () => {
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
    const rate = alarms.find((a) => a.Metrics?.some((m: { Expression?: string }) => m.Expression?.includes("100 * errors / requests")));
    expect(rate).toMatchObject({ Threshold: 5, ComparisonOperator: "GreaterThanOrEqualToThreshold" });
    expect(JSON.stringify(rate!.Metrics)).toContain('"MetricName":"5xx"');

    const tableAlarms = Object.values(resourcesOf(dataTemplate, "AWS::CloudWatch::Alarm")).map((a) => a.Properties);
    expect(tableAlarms).toHaveLength(tableDesigns.length);
    for (const alarm of tableAlarms) expect(JSON.stringify(alarm.Metrics)).toContain('"MetricName":"SystemErrors"');
  });

  it("sends every alarm to the topic given as alarmTopicArn", () => {
    const { apiTemplate, dataTemplate } = withExistingIdp();
    for (const template of [apiTemplate, dataTemplate]) {
      for (const alarm of Object.values(resourcesOf(template, "AWS::CloudWatch::Alarm"))) {
        expect(alarm.Properties.AlarmActions).toEqual(["arn:aws:sns:eu-west-1:111122223333:ops"]);
      }
    }
  });
});

describe("the user pool created when no identity provider is given", () => {
  it("customizes access tokens with a V3 pre-token trigger on the Essentials plan, with admin-only sign-up", () => {
    const { apiTemplate } = withCognito();
    const [triggerId] = [...Object.entries(resourcesOf(apiTemplate, "AWS::Lambda::Function"))].find(([, f]) => String(f.Properties.Description).includes("pre-token"))!;
    apiTemplate.hasResourceProperties("AWS::Cognito::UserPool", {
      UserPoolTier: "ESSENTIALS",
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      LambdaConfig: { PreTokenGenerationConfig: { LambdaArn: { "Fn::GetAtt": [triggerId, "Arn"] }, LambdaVersion: "V3_0" } },
      Schema: Match.arrayWith([Match.objectLike({ Name: "customer_id", AttributeDataType: "String" })]),
    });
    apiTemplate.hasResourceProperties("AWS::Cognito::UserPoolResourceServer", {
      Identifier: "orders",
      Scopes: [Match.objectLike({ ScopeName: "read" }), Match.objectLike({ ScopeName: "write" }), Match.objectLike({ ScopeName: "support" })],
    });
    apiTemplate.hasResourceProperties("AWS::Cognito::UserPoolGroup", { GroupName: "support" });
  });

  it("lets no app client write the customer id, which decides whose orders a token reaches", () => {
    for (const client of Object.values(resourcesOf(withCognito().apiTemplate, "AWS::Cognito::UserPoolClient"))) {
      expect(client.Properties.WriteAttributes).toBeDefined();
      expect(client.Properties.WriteAttributes).not.toContain("custom:customer_id");
    }
  });

  it("creates the client-credentials client only when asked", () => {
    withCognito().apiTemplate.resourceCountIs("AWS::Cognito::UserPoolClient", 1);
    const m2m = synthesize({ context: { supportServiceClient: "true" } }).apiTemplate;
    m2m.resourceCountIs("AWS::Cognito::UserPoolClient", 2);
    m2m.hasResourceProperties("AWS::Cognito::UserPoolClient", { AllowedOAuthFlows: ["client_credentials"], GenerateSecret: true });
  });

  it("outputs the API URL and the user pool ids", () => {
    const outputs = Object.keys(withCognito().apiTemplate.findOutputs("*"));
    expect(outputs).toEqual(expect.arrayContaining(["ApiUrl", "UserPoolId", "UserPoolClientId"]));
    expect(Object.keys(withExistingIdp().apiTemplate.findOutputs("*"))).toEqual(["ApiUrl"]);
  });
});

describe("cdk-nag AwsSolutions", () => {
  it("finds no unsuppressed error or warning in either stack, with or without the created user pool", () => {
    for (const synth of [withCognito(), withExistingIdp()]) {
      for (const annotations of [synth.dataAnnotations, synth.apiAnnotations]) {
        expect(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*"))).toEqual([]);
        expect(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"))).toEqual([]);
      }
    }
  });
});

describe("context", () => {
  const bad = (context: Record<string, unknown>) => () => buildOrderTools(new App({ context }));

  it("refuses half an identity provider, a negative cap, an unknown log level and an odd retention", () => {
    expect(bad({ jwtIssuer: "https://idp.example.com/" })).toThrow(/both jwtIssuer and jwtAudience/);
    expect(bad({ hourlyCap: "-1" })).toThrow(/hourlyCap/);
    expect(bad({ logLevel: "LOUD" })).toThrow(/logLevel/);
    expect(bad({ logRetentionDays: "31" })).toThrow(/logRetentionDays/);
    expect(bad({ deletionProtection: "no" })).toThrow(/deletionProtection/);
  });
});
