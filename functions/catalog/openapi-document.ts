import * as z from "zod/mini";
import { type JsonSchema, jsonSchemaDialect, serviceInfo, toolCatalogSchema, toolJsonSchema } from "#catalog/json-schema";
import { isDocumented, serviceFunctions } from "#catalog/service-functions";
import { type ToolDefinition, type ToolName, type ToolRoute, tools as registry } from "#catalog/tools";
import {
  type ErrorCode,
  ForbiddenError,
  IdempotencyKeyReusedError,
  InternalError,
  InvalidInputError,
  NoPickupSlotError,
  NotEligibleError,
  notEligibleReasons,
  OperationInProgressError,
  OperationNotFoundError,
  OrderNotFoundError,
  OrderTooLargeError,
  OutOfStockError,
  RateLimitedError,
  SellerSuspendedError,
  type ToolError,
  UnauthenticatedError,
  recordedRejectionCodes,
  VersionConflictError,
} from "#core/errors";
import { type Scope, scopes } from "#core/principal";

/**
 * The OpenAPI 3.1 document of contract §2, built from the tool registry: every tool route with its input schema as
 * the request body and its output schema as the 200 body, the contract §3 errors it can answer with one shared
 * Error schema, and an OAuth 2.0 security scheme that declares the scopes each route requires; then the
 * operation-status GET, the catalogue, this document and the MCP endpoint. Redocly's and Spectral's OpenAPI
 * rulesets accept it without a warning (test/unit/openapi-lint.test.ts).
 */

/**
 * Every error code with the class that makes it, so its HTTP status is read from the error hierarchy rather than
 * restated, and what it means for a caller. `satisfies` makes a new code a compile error here until described.
 */
const errorCodes = {
  INVALID_INPUT: {
    make: () => new InvalidInputError([{ path: "", message: "" }]),
    when: "the arguments fail the tool's schema (unknown, missing or malformed field, a body that is not JSON or is over 16 KiB); `issues` lists each problem",
  },
  UNAUTHENTICATED: { make: () => new UnauthenticatedError(""), when: "no, bad or expired bearer token" },
  FORBIDDEN: {
    make: () => new ForbiddenError(""),
    when: "the token lacks the route's scope, names no principal (or two), or names one who may not use this tool; `requiredScope` says which scope, `allowedPrincipals` who may use the tool",
  },
  ORDER_NOT_FOUND: {
    make: () => new OrderNotFoundError(""),
    when: "no such order, or one the caller may not access (the two are indistinguishable)",
  },
  OPERATION_NOT_FOUND: {
    make: () => new OperationNotFoundError(""),
    when: "this caller's operationId is not recorded yet: resend the identical request with the same operationId",
  },
  VERSION_CONFLICT: {
    make: () => new VersionConflictError("", 1, 2),
    when: "expectedVersion is stale; `currentVersion` says what it is now",
  },
  NOT_ELIGIBLE: {
    make: () => new NotEligibleError("", "ALREADY_SHIPPED", ""),
    when: "the order's state forbids the change; `reason` and `orderStatus` say why",
  },
  SELLER_SUSPENDED: {
    make: () => new SellerSuspendedError(""),
    when: "the seller is suspended and cannot send a replacement; start_return still works",
  },
  OUT_OF_STOCK: { make: () => new OutOfStockError(""), when: "no stock to reserve for the replacement; `sku` names the product" },
  NO_PICKUP_SLOT: {
    make: () => new NoPickupSlotError(""),
    when: "no carrier pickup capacity on or after the date; `availableDates` lists days that have some",
  },
  OPERATION_IN_PROGRESS: {
    make: () => new OperationInProgressError("", 1),
    when: "the same operation is executing right now; retry after `retryAfterSeconds`",
  },
  IDEMPOTENCY_KEY_REUSED: {
    make: () => new IdempotencyKeyReusedError("", "", undefined),
    when: "the operationId was used before with another tool or other arguments",
  },
  RATE_LIMITED: {
    make: () => new RateLimitedError("", { retryAfterSeconds: 1 }, "request_budget"),
    when: "the caller's request budget per minute, the customer's hourly cap on cancellations, returns and replacements, or a support actor's hourly cap on changes is reached; retry after `retryAfterSeconds`",
  },
  ORDER_TOO_LARGE: {
    make: () => new OrderTooLargeError(""),
    when: "the order has reached the size limit of one stored order, so no further change fits on it; nothing was changed, and a person must handle it",
  },
  INTERNAL: {
    make: () => new InternalError(""),
    when: "anything unexpected; for a changing tool the outcome is unknown: ask get_operation_status with the same operationId",
  },
} satisfies Record<ErrorCode, { make: () => ToolError; when: string }>;

export const errorCodeList = Object.keys(errorCodes) as ErrorCode[];

export function httpStatusOf(code: ErrorCode): number {
  return errorCodes[code].make().httpStatus;
}

// Every tool call counts against the caller's request budget, so any of them may be RATE_LIMITED.
const alwaysPossible: ErrorCode[] = ["INVALID_INPUT", "UNAUTHENTICATED", "FORBIDDEN", "RATE_LIMITED", "INTERNAL"];
const everyChange: ErrorCode[] = [
  ...alwaysPossible,
  "ORDER_NOT_FOUND",
  "VERSION_CONFLICT",
  "NOT_ELIGIBLE",
  "OPERATION_IN_PROGRESS",
  "IDEMPOTENCY_KEY_REUSED",
  "ORDER_TOO_LARGE",
];

/**
 * Which contract §3 errors each tool can answer with (contract §4–5). Keyed by the registry's tool names, so a tool added
 * there does not compile until its errors are listed here.
 */
export const toolErrors: Record<ToolName, readonly ErrorCode[]> = {
  search_orders: alwaysPossible,
  get_order: [...alwaysPossible, "ORDER_NOT_FOUND"],
  get_operation_status: [...alwaysPossible, "OPERATION_NOT_FOUND"],
  cancel_order: everyChange,
  add_delivery_note: everyChange,
  start_return: [...everyChange, "NO_PICKUP_SLOT"],
  offer_replacement: [...everyChange, "SELLER_SUSPENDED", "OUT_OF_STOCK"],
};

const replayedHeader = { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } };
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Inside the document `jsonSchemaDialect` says which dialect applies, so the schemas need not repeat it. */
function embedded(schema: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = schema;
  return rest;
}

const errorSchema: JsonSchema = {
  type: "object",
  description:
    'Every failure. A business rejection of a changing tool, which is recorded and replayed for its operationId, also carries operationId, status "rejected" and orderId at the top level.',
  required: ["error"],
  properties: {
    error: {
      type: "object",
      description: "What went wrong and what would be right: the message alone is enough to make the next call succeed.",
      required: ["code", "message", "retryable"],
      properties: {
        code: { type: "string", enum: errorCodeList, description: "The stable error code." },
        message: { type: "string", description: "What was wrong and what would be right." },
        retryable: { type: "boolean", description: "True when repeating the identical request later can succeed." },
        issues: {
          type: "array",
          description: "INVALID_INPUT: every problem with the arguments; never empty.",
          items: {
            type: "object",
            required: ["path", "message"],
            properties: {
              path: { type: "string", description: "The field, e.g. itemIds[0]; empty for the body as a whole." },
              message: { type: "string", description: "What is wrong with it and what would be right." },
            },
          },
        },
        requiredScope: { type: "string", description: "FORBIDDEN: the scope the token needs." },
        allowedPrincipals: {
          type: "array",
          items: { type: "string", enum: ["customer", "seller", "support"] },
          description:
            "FORBIDDEN: who may use this tool, when the caller's kind of principal may not (a seller's cancel or note: customer and support).",
        },
        expectedVersion: { type: "integer", description: "VERSION_CONFLICT: the version the request expected." },
        currentVersion: { type: "integer", description: "VERSION_CONFLICT: the order's version now." },
        reason: {
          type: "string",
          description: `NOT_ELIGIBLE: ${notEligibleReasons.slice(0, -1).join(", ")} or ${notEligibleReasons.at(-1)}.`,
        },
        orderStatus: { type: "string", description: "NOT_ELIGIBLE: the order's status when the change was refused." },
        sellerId: { type: "string", description: "SELLER_SUSPENDED: the suspended seller." },
        sku: { type: "string", description: "OUT_OF_STOCK: the product without stock." },
        availableDates: {
          type: "array",
          items: { type: "string" },
          description: "NO_PICKUP_SLOT: days (YYYY-MM-DD) that still have pickup capacity.",
        },
        retryAfterSeconds: { type: "integer", description: "OPERATION_IN_PROGRESS, RATE_LIMITED: when to try again." },
        originalTool: { type: "string", description: "IDEMPOTENCY_KEY_REUSED: the tool the operationId was first used with." },
        operationId: { type: "string", description: "The operation the error is about." },
        orderId: { type: "string", description: "ORDER_NOT_FOUND: the id asked for." },
      },
    },
    operationId: { type: "string", description: "A recorded rejection: the operation it is final for." },
    status: { type: "string", const: "rejected", description: "A recorded rejection: repeating the request returns this same body." },
    orderId: { type: "string", description: "A recorded rejection: the order it concerns." },
  },
};

const operationNotFoundSchema: JsonSchema = {
  type: "object",
  description:
    "get_operation_status: this operationId is not recorded yet for the caller; the request may not have arrived, or may still be on its way. Resend the identical request with the same operationId; it takes effect at most once.",
  required: ["operationId", "status", "error"],
  properties: {
    operationId: { type: "string", description: "The operation asked about." },
    status: {
      type: "string",
      const: "not_found",
      description: "Not recorded yet: resend the identical request with the same operationId.",
    },
    error: { ...(errorSchema.properties as { error: JsonSchema }).error, description: "OPERATION_NOT_FOUND, with what to do next." },
  },
};

/**
 * Deployed, API Gateway answers some requests before any function runs, with its own small body: its JWT
 * authorizer's refusals (401, 403) and the stage's throttling (429).
 */
const gatewayRefusalSchema: JsonSchema = {
  type: "object",
  description: "A refusal by the API gateway itself, before the tool runs: its token check or the stage's throttling.",
  required: ["message"],
  properties: { message: { type: "string", description: "Unauthorized, Forbidden or Too Many Requests." } },
};

/** API Gateway's stage throttling answers any route, public ones included, before a function runs. */
const gatewayThrottled: JsonSchema = {
  description:
    "The API's request rate limit was reached (API Gateway's stage throttling, before any function runs); retry after a short wait.",
  content: { "application/json": { schema: ref("GatewayRefusal") } },
};

const jsonRpcRequestSchema: JsonSchema = {
  type: "object",
  description: "One JSON-RPC 2.0 message of MCP (batches are not accepted): a request (with id) or a notification (without).",
  required: ["jsonrpc", "method"],
  properties: {
    jsonrpc: { type: "string", const: "2.0", description: "JSON-RPC version." },
    id: { type: ["string", "integer"], description: "The request's id, echoed in the response; absent for a notification." },
    method: {
      type: "string",
      description: "initialize, ping, tools/list, tools/call, or a notification such as notifications/initialized.",
    },
    params: { type: "object", description: "The method's parameters, as MCP defines them.", additionalProperties: true },
  },
};

const jsonRpcResponseSchema: JsonSchema = {
  type: "object",
  description: "The JSON-RPC 2.0 response: result, or error for a protocol failure. A tool's own refusal is a result with isError true.",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { type: "string", const: "2.0", description: "JSON-RPC version." },
    id: {
      type: ["string", "integer", "null"],
      description: "The request's id; when the message could not be read, null (2025 revisions) or left out (2026-07-28).",
    },
    result: { type: "object", description: "The method's result, as MCP defines it.", additionalProperties: true },
    error: {
      type: "object",
      description: "A protocol error.",
      required: ["code", "message"],
      properties: {
        code: {
          type: "integer",
          description:
            "-32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params, a malformed _meta envelope or unknown tool, -32603 internal error, -32020 headers that disagree with the body, -32022 unsupported protocol version, -32000 transport error (2025 revisions).",
        },
        message: { type: "string", description: "What went wrong." },
        data: { description: "More detail, when there is some." },
      },
    },
  },
};

function errorResponse(codes: readonly ErrorCode[], schemaName: "Error" | "OperationNotFound", headers?: JsonSchema): JsonSchema {
  const status = httpStatusOf(codes[0] as ErrorCode);
  // 401 and 403 come from the authorizer too, and 429 from the stage's throttling, each with its own body.
  const byGateway = status === 401 || status === 403 || status === 429;
  const body: JsonSchema = {
    allOf: [ref(schemaName), { type: "object", properties: { error: { type: "object", properties: { code: { enum: [...codes] } } } } }],
  };
  return {
    description: codes.map((code) => `${code}: ${errorCodes[code].when}.`).join(" "),
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: byGateway ? { oneOf: [body, ref("GatewayRefusal")] } : body } },
  };
}

function errorResponses(tool: ToolDefinition): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of toolErrors[tool.name as ToolName] ?? alwaysPossible) {
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  // A recorded rejection is replayed like a success, with the header saying so.
  const replayed = (codes: ErrorCode[]) =>
    tool.kind === "change" && codes.some((c) => recordedRejectionCodes.has(c)) ? replayedHeader : undefined;
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        errorResponse(codes, codes.includes("OPERATION_NOT_FOUND") ? "OperationNotFound" : "Error", replayed(codes)),
      ]),
  );
}

/** The summary line: the description's first sentence. */
function summaryOf(description: string): string {
  return /^.*?[.:](?=\s|$)/.exec(description)?.[0].replace(/:$/, ".") ?? description;
}

function toolOperation(tool: ToolDefinition, route: ToolRoute, index: number, input: JsonSchema): JsonSchema {
  const name = pascal(tool.name);
  const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, param]) => {
    const schema = (input.properties as Record<string, JsonSchema> | undefined)?.[param as string] ?? { type: "string" };
    const { description, ...rest } = schema;
    return { name: param, in: "path", required: true, description, schema: rest };
  });
  const replayed = tool.kind === "change" ? { headers: replayedHeader } : {};
  return {
    operationId: index === 0 ? tool.name : `${tool.name}_by_path`,
    summary: summaryOf(tool.description),
    description: tool.description,
    tags: ["tools"],
    "x-order-tools-tool": tool.name,
    "x-order-tools-annotations": tool.annotations,
    security: [{ [securitySchemeName]: [tool.scope] }],
    ...(parameters.length ? { parameters } : {}),
    ...(route.method === "POST"
      ? {
          requestBody: {
            required: true,
            description: "The tool's arguments: a JSON object of at most 16 KiB.",
            content: { "application/json": { schema: ref(`${name}Input`) } },
          },
        }
      : {}),
    responses: {
      "200": { description: "The tool's result.", ...replayed, content: { "application/json": { schema: ref(`${name}Output`) } } },
      ...errorResponses(tool),
    },
  };
}

/**
 * Who issues the tokens that the API's JWT authorizer accepts, as the security scheme names it: an OAuth 2.0
 * authorization server (the Cognito user pool's hosted domain: its authorization-code flow, and client
 * credentials where the pool has a service client), or an existing provider's OpenID Connect discovery document.
 */
export type AuthorizationServer =
  | { authorizationUrl: string; tokenUrl: string; clientCredentials?: boolean }
  | { openIdConnectUrl: string };

export interface OpenApiOptions {
  tools?: readonly ToolDefinition[];
  /** Where the API is served, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com; omitted when unknown. */
  serverUrl?: string;
  /** The deployment's token issuer (set by the CDK stack); without it the scheme says none is configured. */
  authorization?: AuthorizationServer;
}

/** The one security scheme: a route's requirement lists the scopes its token needs. */
export const securitySchemeName = "token";

/** Every scope a route may require, as the identity provider's resource server defines it. */
const scopeDescriptions: Record<Scope, string> = {
  [scopes.read]: "Use the reading tools: search orders, read one, look up an operation's outcome.",
  [scopes.write]: "Use the changing tools: cancel, delivery note, return, replacement.",
  [scopes.support]: "Act on any customer's order as support staff (issued only to the staff identity pool).",
};

/**
 * Where nothing says who issues tokens (the local stack, whose tokens come from `npm run token`), the flow names
 * the reserved .invalid domain (RFC 2606) rather than a URL that would look real and lead nowhere.
 */
const unconfigured = "https://authorization-server.invalid";

function securityScheme(server: AuthorizationServer | undefined): JsonSchema {
  const who =
    "A customer's token carries a customer_id claim; a marketplace seller's a seller_id claim (the orders it sold: search, read, returns, replacements, its own operations); a support token the orders:support scope. Reading tools need orders:read, changing tools orders:write; each operation lists its scope, and the tools check it again in code. Send the access token as `Authorization: Bearer <token>`.";
  if (server && "openIdConnectUrl" in server) {
    return {
      type: "openIdConnect",
      openIdConnectUrl: server.openIdConnectUrl,
      description: `Access tokens (JWT) from the identity provider that the API's JWT authorizer trusts. ${who}`,
    };
  }
  const scopeMap = { ...scopeDescriptions };
  const urls = server ?? { authorizationUrl: `${unconfigured}/oauth2/authorize`, tokenUrl: `${unconfigured}/oauth2/token` };
  return {
    type: "oauth2",
    description: server
      ? `Access tokens (JWT) from the user pool that the API's JWT authorizer trusts. ${who}`
      : `No authorization server is configured for this deployment (the CDK stack names its user pool's), so the flow's URLs are placeholders. With the local stack, get a token with \`npm run --silent token -- --customer C-1001\`. ${who}`,
    flows: {
      authorizationCode: { authorizationUrl: urls.authorizationUrl, tokenUrl: urls.tokenUrl, scopes: scopeMap },
      ...(server?.clientCredentials ? { clientCredentials: { tokenUrl: urls.tokenUrl, scopes: scopeMap } } : {}),
    },
  };
}

/** The whole document. Pure: the same registry and server URL give the same document. */
export function openApiDocument(options: OpenApiOptions = {}): JsonSchema {
  const tools = options.tools ?? registry;
  const schemas: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const addPath = (path: string, method: string, operation: JsonSchema) => {
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation };
  };

  for (const tool of tools) {
    const input = embedded(toolJsonSchema(tool.input, "input"));
    schemas[`${pascal(tool.name)}Input`] = input;
    schemas[`${pascal(tool.name)}Output`] = embedded(toolJsonSchema(tool.output, "output"));
    for (const [index, route] of tool.routes.entries()) addPath(route.path, route.method, toolOperation(tool, route, index, input));
  }
  schemas.Error = errorSchema;
  schemas.OperationNotFound = operationNotFoundSchema;
  schemas.GatewayRefusal = gatewayRefusalSchema;
  schemas.ToolCatalog = embedded(z.toJSONSchema(toolCatalogSchema, { target: "draft-2020-12" }) as JsonSchema);
  schemas.JsonRpcMessage = jsonRpcRequestSchema;
  schemas.JsonRpcResponse = jsonRpcResponseSchema;

  const serviceOperations: Record<string, JsonSchema> = {};
  serviceOperations["catalog GET"] = {
    operationId: "list_tools",
    summary: "The tool catalogue.",
    description:
      "Every tool with its description, JSON Schemas (draft 2020-12) of its arguments and result, and its annotations. No token needed.",
    tags: ["catalogue"],
    security: [],
    responses: {
      "200": { description: "The catalogue.", content: { "application/json": { schema: ref("ToolCatalog") } } },
      "429": gatewayThrottled,
    },
  };
  serviceOperations["openapi GET"] = {
    operationId: "get_openapi_document",
    summary: "This OpenAPI 3.1 document.",
    description: "The HTTP surface of order-tools, generated from the same tool registry as the catalogue and MCP. No token needed.",
    tags: ["catalogue"],
    security: [],
    responses: {
      "200": {
        description: "The document.",
        content: { "application/json": { schema: { type: "object", description: "An OpenAPI 3.1 document." } } },
      },
      "429": gatewayThrottled,
    },
  };
  const mcpError = (description: string) => ({ description, content: { "application/json": { schema: ref("JsonRpcResponse") } } });
  const challenge = {
    "WWW-Authenticate": {
      description:
        'Bearer, with resource_metadata (the protected-resource metadata URL) and scope (every scope the endpoint\'s tools need); error="invalid_token" or error="insufficient_scope" when a token came and was refused.',
      schema: { type: "string" },
    },
  };
  serviceOperations["mcp POST"] = {
    operationId: "mcp",
    summary: "MCP endpoint (Streamable HTTP, stateless), revisions 2026-07-28 and 2025-03-26 to 2025-11-25.",
    description:
      "The Model Context Protocol over Streamable HTTP, without sessions: each POST carries one JSON-RPC message and is answered on its own with a JSON body. A request whose params._meta names 2026-07-28 (with its clientCapabilities) is served by that revision: server/discover, tools/list and tools/call, each result with resultType, the lists with ttlMs and cacheScope; the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers must agree with the body (-32020 otherwise), and a method it does not offer is 404 with -32601. A request without that envelope is served by the 2025 revisions: initialize, ping, tools/list and tools/call. Both publish the same tools as this document; tools/call runs the tool exactly as its route does, for the caller the token names, and checks that tool's scope. A tool's refusal is a result with isError true whose text is the tool's error body. The endpoint checks the bearer token itself: without a valid one it answers 401 with a WWW-Authenticate challenge naming its OAuth protected-resource metadata (GET /.well-known/oauth-protected-resource/v1/mcp). The server sends nothing unasked and keeps no sessions, so a GET of this path (a server-to-client stream) or a DELETE (ending a session) is answered 405 Method Not Allowed with `Allow: POST`, as Streamable HTTP asks of such a server.",
    tags: ["mcp"],
    // Any valid token with orders:read: each tools/call is checked against that tool's scope.
    security: [{ [securitySchemeName]: [] }],
    parameters: [
      {
        name: "MCP-Protocol-Version",
        in: "header",
        required: false,
        description:
          "2026-07-28, as in params._meta; on the 2025 revisions the version agreed in initialize, and without it 2025-03-26 is assumed.",
        schema: { type: "string", examples: ["2026-07-28", "2025-11-25"] },
      },
      {
        name: "Mcp-Method",
        in: "header",
        required: false,
        description: "2026-07-28: the body's method, required.",
        schema: { type: "string", examples: ["tools/call"] },
      },
      {
        name: "Mcp-Name",
        in: "header",
        required: false,
        description: "2026-07-28: the tool's name on tools/call, required (as sent, or =?base64?…?=).",
        schema: { type: "string", examples: ["get_order"] },
      },
      {
        name: "Accept",
        in: "header",
        required: true,
        description: "application/json and text/event-stream, as MCP clients send.",
        schema: { type: "string" },
      },
    ],
    requestBody: { required: true, content: { "application/json": { schema: ref("JsonRpcMessage") } } },
    responses: {
      "200": {
        description: "The response to a request.",
        content: {
          "application/json": { schema: ref("JsonRpcResponse") },
          "text/event-stream": {
            schema: {
              type: "string",
              description: "One `message` event carrying the JSON-RPC response, for a client that accepts only text/event-stream.",
            },
          },
        },
      },
      "202": { description: "A notification or response was accepted; no body." },
      "400": mcpError(
        "The message is not JSON (-32700) or not one JSON-RPC message (-32600); on 2026-07-28 its _meta envelope is missing or malformed (-32602) or its headers disagree with it (-32020); or it names a protocol version this server does not speak (-32022, with the versions it does).",
      ),
      "401": {
        description: "No, bad or expired bearer token, or one issued for another resource: the UNAUTHENTICATED error, with the challenge.",
        headers: challenge,
        content: { "application/json": { schema: ref("Error") } },
      },
      "403": {
        description:
          "The token lacks orders:read (FORBIDDEN, with the insufficient_scope challenge), or the request's Origin or Host is not allowed (a JSON-RPC error).",
        headers: challenge,
        content: { "application/json": { schema: { anyOf: [ref("Error"), ref("JsonRpcResponse")] } } },
      },
      "404": mcpError("2026-07-28: a method this server does not offer (-32601), the 2025 ones (initialize, ping) included."),
      "406": mcpError("The Accept header allows neither application/json nor text/event-stream."),
      "413": {
        description: "The body is over 16 KiB.",
        content: { "application/json": { schema: { anyOf: [ref("JsonRpcResponse"), ref("Error")] } } },
      },
      "415": mcpError("The body is not application/json."),
      "429": gatewayThrottled,
    },
  };
  serviceOperations["oauth-metadata GET"] = {
    operationId: "get_mcp_resource_metadata",
    summary: "OAuth protected-resource metadata of the MCP endpoint (RFC 9728).",
    description:
      "Where an MCP client learns how to get a token for POST /v1/mcp: the endpoint's URL (resource), the authorization server(s) to sign in with, the scopes to ask for and how to send the token. The 401 challenge of POST /v1/mcp points here. Also served at /.well-known/oauth-protected-resource. No token needed.",
    tags: ["mcp"],
    security: [],
    responses: {
      "200": {
        description: "The metadata.",
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["resource", "authorization_servers", "scopes_supported", "bearer_methods_supported"],
              properties: {
                resource: {
                  type: "string",
                  format: "uri",
                  description: "The MCP endpoint's URL: the audience a token must be issued for.",
                },
                authorization_servers: {
                  type: "array",
                  items: { type: "string", format: "uri" },
                  description: "Issuer identifiers; each publishes RFC 8414 metadata.",
                },
                scopes_supported: {
                  type: "array",
                  items: { type: "string" },
                  description: "The scopes to ask for: orders:read and orders:write (and orders:support on the staff API).",
                },
                bearer_methods_supported: { type: "array", items: { const: "header" } },
                resource_name: { type: "string" },
              },
            },
          },
        },
      },
      "429": gatewayThrottled,
    },
  };
  for (const fn of serviceFunctions) {
    for (const route of fn.routes) {
      if (!isDocumented(route)) continue;
      const operation = serviceOperations[`${fn.name} ${route.method}`];
      if (!operation) throw new Error(`The OpenAPI document does not describe ${route.method} ${route.path} (${fn.name})`);
      addPath(route.path, route.method, operation);
    }
  }

  return {
    openapi: "3.1.1",
    jsonSchemaDialect,
    info: {
      title: serviceInfo.name,
      version: serviceInfo.version,
      summary: "The safe action boundary between AI agents and an order system.",
      // The package is private and names no licence: the API is not offered under an open one. A custom
      // licence has no SPDX id of its own; SPDX's LicenseRef- form is how an expression names one.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "order-tools maintainers" },
      description:
        "Domain-shaped tools over orders: find an order, read everything on it, and change it (cancel, delivery note, return, replacement) with the caller's identity from the token, access checked on every order, eligibility checked atomically with the write, optimistic concurrency on the order's version, and idempotent operations keyed by a caller-created operationId, with get_operation_status to reconcile a lost response. The same tools are published as a catalogue (GET /v1/tools) and over MCP (POST /v1/mcp).",
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [
      { name: "tools", description: "One route per tool; the body is the tool's arguments, a success is 200 with its result." },
      { name: "catalogue", description: "What this service publishes, for agent platforms." },
      { name: "mcp", description: "The Model Context Protocol endpoint." },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: { [securitySchemeName]: securityScheme(options.authorization) },
      headers: {
        IdempotentReplayed: {
          description:
            "true when this is the recorded outcome of an earlier request with the same operationId, replayed; nothing changed this time.",
          schema: { type: "string", const: "true" },
        },
      },
    },
  };
}

// ——— Agent platforms: Bedrock Agents action groups and AgentCore Gateway targets ———

/**
 * What the platform documents are built from: a tool as a model is given it (the controller's `ModelTool`: the
 * registry's name and description, and its input schema without operationId, which the platform's function
 * derives). Only the name, description and input schema are read; the output schema comes from the registry.
 */
export interface PlatformTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * Bedrock Agents' documented limits on an action group defined with an OpenAPI schema, as the export keeps them:
 * - `openapi: "3.0.0"`, no `enum` (describe the allowed values instead), every operation with an `operationId`
 *   of letters and digits separated by `-` or `_`, a description and responses; no request body on GET
 *   ("Define OpenAPI schemas for your agent's action groups", docs.aws.amazon.com/bedrock/latest/userguide/agents-api-schema.html);
 * - at most 11 API operations per action group (agents-lambda.html);
 * - at most 5 parameters per function, the account's default `parameters-per-function` quota, which
 *   CreateAgentActionGroup enforces; parameter types string, number, integer, boolean or array; a parameter's
 *   description at most 500 characters, a function's 1,200; names `([0-9a-zA-Z][_-]?){1,100}` (the API
 *   reference's ParameterDetail and Function). An action group's request body is its function's parameters, so
 *   the body is held to them.
 */
export const bedrockActionGroupRules = {
  openapi: "3.0.0",
  operationsPerGroup: 11,
  propertiesPerBody: 5,
  propertyTypes: ["string", "number", "integer", "boolean", "array"],
  operationDescriptionCharacters: 1200,
  propertyDescriptionCharacters: 500,
  namePattern: /^([0-9a-zA-Z][_-]?){1,100}$/,
} as const;

export interface BedrockActionGroup {
  actionGroupName: string;
  description: string;
  /** The OpenAPI 3.0.0 document to give as the action group's API schema (inline payload, or in S3). */
  apiSchema: JsonSchema;
}

/** "One of: a, b." for the values an `enum` or `const` allowed, which neither platform's schema may carry. */
function allowedValues(node: JsonSchema): string | undefined {
  const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : undefined;
  if (!values) return undefined;
  const shown = values.filter((v) => v !== null).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return shown.length === 1 ? `Always ${shown[0]}.` : `One of: ${shown.join(", ")}.`;
}

const withSentence = (description: unknown, sentence: string | undefined) =>
  sentence === undefined
    ? description
    : [typeof description === "string" ? description.replace(/\s*$/, "") : "", sentence].filter(Boolean).join(" ");

/**
 * A JSON Schema (draft 2020-12, as the registry writes it) in the OpenAPI 3.0 dialect and without `enum`:
 * `const`/`enum` become a sentence of the description, `type: [T, "null"]` and `anyOf: [S, null]` become
 * `nullable`, `examples` the first `example`, and a union of objects says `type: object`.
 */
export function openApi30Schema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApi30Schema);
  if (node === null || typeof node !== "object") return node;
  const source = node as JsonSchema;
  const branches = (source.anyOf ?? source.oneOf) as JsonSchema[] | undefined;
  if (branches?.length === 2 && branches.some((b) => b.type === "null")) {
    const [kept] = branches.filter((b) => b.type !== "null") as [JsonSchema];
    const { anyOf: _a, oneOf: _o, ...rest } = source;
    return { ...(openApi30Schema({ ...kept, ...rest }) as JsonSchema), nullable: true };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "$schema" || key === "enum" || key === "const" || key === "propertyNames") continue;
    if (key === "examples") {
      if (Array.isArray(value) && value.length > 0) out.example = value[0];
      continue;
    }
    if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      out.type = types[0];
      if (types.length < value.length) out.nullable = true;
      continue;
    }
    if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, schema]) => [name, openApi30Schema(schema)]),
      );
      continue;
    }
    out[key] = openApi30Schema(value);
  }
  const values = allowedValues(source);
  if (values) {
    out.description = withSentence(out.description, values);
    if (out.type === undefined)
      out.type = typeof (Array.isArray(source.enum) ? source.enum[0] : source.const) === "boolean" ? "boolean" : "string";
  }
  if (out.type === undefined && branches?.every((b) => b.type === "object")) out.type = "object";
  return out;
}

/**
 * A request-body property as Bedrock takes a function's parameter: one of its five types, the allowed values in
 * the description. An object (search_orders' dateRange) is a string holding its JSON, its fields described in
 * words; the action-group function reads it back as the object the tool's schema asks for.
 */
function bedrockProperty(schema: JsonSchema): JsonSchema {
  const converted = openApi30Schema(schema) as JsonSchema;
  if (converted.type !== "object") return converted;
  const fields = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, field]) => {
    const values = allowedValues(field);
    const said = String(field.description ?? "")
      .replace(/\.$/, "")
      .replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
    return `${name}${values ? ` (${values.replace(/^One of: /, "").replace(/\.$/, "")})` : ""}: ${said}`;
  });
  const example = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, field]) => [
      name,
      (field.examples as unknown[] | undefined)?.[0] ?? (field.enum as unknown[] | undefined)?.[0] ?? "…",
    ]),
  );
  return {
    type: "string",
    description: `${String(schema.description ?? "").replace(/\s*$/, "")} Give it as a JSON object with ${fields.join("; ")}. For example ${JSON.stringify(example)}.`,
  };
}

/** The error body every operation may answer with (contract §3), without the details that vary by code. */
const platformErrorSchema: JsonSchema = {
  type: "object",
  description: "The tool refused or failed; nothing about the order changed unless a recorded outcome says so.",
  properties: {
    error: {
      type: "object",
      description: "What went wrong and what would be right: the message alone is enough to make the next call succeed.",
      properties: {
        code: { type: "string", description: `The stable error code. One of: ${errorCodeList.join(", ")}.` },
        message: { type: "string", description: "What was wrong and what would be right." },
        retryable: { type: "boolean", description: "True when repeating the identical request later can succeed." },
      },
    },
  },
};

/**
 * The action groups for Bedrock Agents (`npm run export-tools -- --format bedrock-action-group`): OpenAPI 3.0.0
 * documents of the tools' own POST routes, at most 11 operations each, which functions/service/bedrock-agent.ts
 * serves. Held to `bedrockActionGroupRules` (test/unit/platform-exports.test.ts checks every rule).
 */
export function bedrockActionGroups(tools: readonly PlatformTool[], name = serviceInfo.name): BedrockActionGroup[] {
  const groups: BedrockActionGroup[] = [];
  for (let start = 0; start < tools.length; start += bedrockActionGroupRules.operationsPerGroup) {
    const part = tools.slice(start, start + bedrockActionGroupRules.operationsPerGroup);
    const paths: Record<string, JsonSchema> = {};
    for (const tool of part) {
      const registered = registry.find((t) => t.name === tool.name);
      const path = registered?.routes.find((r) => r.method === "POST")?.path ?? `/v1/tools/${tool.name}`;
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
      const body: JsonSchema = {
        type: "object",
        description: String(tool.inputSchema.description ?? `The arguments of ${tool.name}.`),
        properties: Object.fromEntries(Object.entries(properties).map(([field, schema]) => [field, bedrockProperty(schema)])),
        ...(Array.isArray(tool.inputSchema.required) && tool.inputSchema.required.length > 0
          ? { required: tool.inputSchema.required }
          : {}),
      };
      paths[path] = {
        post: {
          operationId: tool.name,
          summary: summaryOf(tool.description),
          description: tool.description,
          requestBody: { required: true, description: "The tool's arguments.", content: { "application/json": { schema: body } } },
          responses: {
            "200": {
              description: "The tool's result.",
              content: {
                "application/json": {
                  schema: registered
                    ? openApi30Schema(embedded(toolJsonSchema(registered.output, "output")))
                    : { type: "object", description: "The tool's result." },
                },
              },
            },
            default: {
              description: "A refusal or failure, with what would be right.",
              content: { "application/json": { schema: platformErrorSchema } },
            },
          },
        },
      };
    }
    const suffix = groups.length === 0 ? "" : `-${groups.length + 1}`;
    groups.push({
      actionGroupName: `${name}${suffix}`,
      description: "Orders: find one, read everything on it, and change it (cancel, delivery note, return, replacement).",
      apiSchema: {
        openapi: bedrockActionGroupRules.openapi,
        info: {
          title: `${serviceInfo.name}${suffix}`,
          version: serviceInfo.version,
          description:
            "Tools over orders, for one agent session's user, who comes from the session attributes the application sets; a change is made at most once however often Bedrock retries it.",
        },
        paths,
      },
    });
  }
  return groups;
}

/** The only keywords an AgentCore Gateway target's tool schema takes (SchemaDefinition). */
export const agentCoreSchemaKeywords = ["type", "properties", "required", "items", "description"] as const;

export interface AgentCoreToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * A schema in AgentCore's SchemaDefinition: only type, properties, required, items and description (a Gateway
 * Lambda target's tool schema, docs.aws.amazon.com/bedrock-agentcore/latest/devguide/gateway-add-target-lambda.html).
 * What cannot be said there — allowed values, a nullable type — is said in the description; the tool's own
 * validation still holds every rule.
 */
export function agentCoreSchema(node: JsonSchema): JsonSchema {
  const rawType = node.type;
  const nullable = Array.isArray(rawType) && rawType.includes("null");
  const type = Array.isArray(rawType) ? rawType.find((t) => t !== "null") : rawType;
  if (typeof type !== "string")
    throw new Error(`AgentCore's schema needs a type, and this one has none: ${JSON.stringify(node).slice(0, 200)}`);
  const description = withSentence(withSentence(node.description, allowedValues(node)), nullable ? "May be null." : undefined);
  return {
    type,
    ...(typeof description === "string" && description !== "" ? { description } : {}),
    ...(node.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(node.properties as Record<string, JsonSchema>).map(([name, schema]) => [name, agentCoreSchema(schema)]),
          ),
        }
      : {}),
    ...(Array.isArray(node.required) && node.required.length > 0 ? { required: [...node.required] } : {}),
    ...(node.items && typeof node.items === "object" ? { items: agentCoreSchema(node.items as JsonSchema) } : {}),
  };
}

/** The tool definitions of an AgentCore Gateway Lambda target (`--format agentcore`): name, description, inputSchema. */
export function agentCoreToolDefinitions(tools: readonly PlatformTool[]): AgentCoreToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: agentCoreSchema({ ...tool.inputSchema, type: "object" }),
  }));
}
