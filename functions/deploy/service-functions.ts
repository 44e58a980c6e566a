import type { ToolRoute } from "#deploy/tool-functions";

/**
 * The functions behind the routes of contract §2 that are not tools: they publish the registry (the catalogue, the
 * OpenAPI document) or serve it over MCP. The CDK stack, the local gateway and the OpenAPI document take their
 * routes from here, as they take the tools' routes from the registry.
 */
/**
 * A route of a service function. `documented: false` leaves it out of the OpenAPI document: GET /v1/mcp only
 * ever answers 405 (see the MCP entry), and an operation with no success to describe is not one an OpenAPI
 * client can call; the POST operation's description says what a GET gets.
 */
export interface ServiceRoute extends Omit<ToolRoute, "method"> {
  method: ToolRoute["method"] | "DELETE";
  documented?: false;
}

export const isDocumented = (route: ServiceRoute): boolean => route.documented !== false;

export interface ServiceFunction {
  name: "catalog" | "openapi" | "mcp" | "oauth-metadata";
  /** The function's description in AWS. */
  description: string;
  /** The handler module, relative to the repository root; it exports `handler`. */
  entry: string;
  /**
   * The module the local gateway serves instead, when it differs: locally MCP runs the tools' handlers in-process
   * rather than invoking their functions.
   */
  localEntry?: string;
  routes: readonly ServiceRoute[];
  /**
   * public: no token, since they only describe the API. self: no authorizer in front of it, because the function
   * verifies the bearer token itself — MCP does, so that a refusal can carry the challenge that says where to get
   * a token, which an HTTP API's JWT authorizer cannot add; each tool's scope is then checked in code.
   */
  access: "public" | "self";
}

export const serviceFunctions = [
  {
    name: "catalog",
    description: "order-tools tool catalogue, GET /v1/tools",
    entry: "functions/service/catalog.ts",
    routes: [{ method: "GET", path: "/v1/tools" }],
    access: "public",
  },
  {
    name: "openapi",
    description: "order-tools OpenAPI document, GET /v1/openapi.json",
    entry: "functions/service/openapi.ts",
    routes: [{ method: "GET", path: "/v1/openapi.json" }],
    access: "public",
  },
  {
    name: "mcp",
    description: "order-tools MCP endpoint, POST /v1/mcp",
    entry: "functions/service/mcp.ts",
    localEntry: "local/mcp-endpoint.ts",
    // GET and DELETE answer 405: Streamable HTTP says so of a server that offers no stream to GET and keeps no
    // session to DELETE. Routed to the function so that the answer is MCP's, not the gateway's 404.
    routes: [
      { method: "POST", path: "/v1/mcp" },
      { method: "GET", path: "/v1/mcp", documented: false },
      { method: "DELETE", path: "/v1/mcp", documented: false },
    ],
    access: "self",
  },
  {
    name: "oauth-metadata",
    description: "order-tools OAuth protected-resource metadata of the MCP endpoint (RFC 9728)",
    entry: "functions/service/oauth-metadata.ts",
    localEntry: "local/mcp-resource.ts",
    // The path-aware form for POST /v1/mcp, and the root form some clients try first; the same document.
    routes: [
      { method: "GET", path: "/.well-known/oauth-protected-resource/v1/mcp" },
      { method: "GET", path: "/.well-known/oauth-protected-resource", documented: false },
    ],
    access: "public",
  },
] as const satisfies readonly ServiceFunction[];

/**
 * The routes the deployed stack adds to the metadata function when it creates Cognito user pools: the RFC 8414
 * metadata of the user pool, whose issuer is the API's own origin, and the authorization endpoint it names, which
 * sends the browser on to the pool's hosted sign-in (functions/service/oauth-metadata.ts says why). Locally the
 * authorization server is a real one of its own and serves these paths itself (local/authorization-server.ts).
 */
export const cognitoAuthorizationServerRoutes = [
  { method: "GET", path: "/.well-known/oauth-authorization-server" },
  { method: "GET", path: "/oauth2/authorize" },
] as const satisfies readonly ServiceRoute[];

/**
 * The Bedrock Agents action-group function (functions/service/bedrock-agent.ts). It has no route: Bedrock invokes
 * it directly, under a resource-based permission for bedrock.amazonaws.com (see `bedrockAgentArnFrom`). Like MCP
 * it touches no table and may invoke exactly the tools' own functions, named by `toolFunctionEnv`.
 */
export const bedrockAgentFunction = {
  name: "bedrock-agent",
  description: "order-tools Bedrock Agents action group",
  entry: "functions/service/bedrock-agent.ts",
} as const;

/**
 * The environment variable that names a tool's Lambda function for the functions that invoke tools (MCP and the
 * Bedrock action group); the CDK stack sets one per tool.
 */
export const toolFunctionEnv = (toolName: string) => `TOOL_FUNCTION_${toolName.toUpperCase()}`;

/**
 * The environment variable that tells the OpenAPI function who issues each API's tokens: a JSON object from API
 * Gateway API id to an `AuthorizationServer` (functions/service/openapi-document.ts). One function serves every API of
 * the stack, and the customers' and staff APIs trust different user pools, so the document names the pool of
 * the API it was fetched through.
 */
export const authorizationServersEnv = "ORDER_TOOLS_AUTHORIZATION_SERVERS";

/** The CDK context key naming the Bedrock agent allowed to invoke the action-group function. */
export const bedrockAgentArnContext = "bedrockAgentArn";

/**
 * The agent ARN from context, checked: the resource-based permission then names it as the only source allowed
 * (`AWS:SourceArn`). Without it, any Bedrock agent of the account in the stack's Region may invoke the function
 * (`agent/*`), and so act for whichever user its session attributes name: production stages should set it.
 */
export function bedrockAgentArnFrom(value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value === "string" && /^arn:aws(-[a-z]+)*:bedrock:[a-z0-9-]+:\d{12}:agent\/[0-9A-Za-z]{10}$/.test(value)) return value;
  throw new Error(
    `Context ${bedrockAgentArnContext} must be the ARN of the Bedrock agent whose action group calls order-tools, like arn:aws:bedrock:eu-west-1:111122223333:agent/AB12CD34EF (its id is 10 letters and digits), not ${JSON.stringify(value)}.`,
  );
}
