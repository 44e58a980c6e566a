import * as z from "zod/mini";
import { alwaysPossible, errorCodeList, errorMeaning, httpStatusOf, toolErrors } from "#contract/error-codes";
import {
  embedded,
  type JsonSchema,
  jsonSchemaDialect,
  serviceInfo,
  summaryOf,
  toolCatalogSchema,
  toolJsonSchema,
} from "#contract/json-schema";
import { isDocumented, serviceFunctions } from "#deploy/service-functions";
import type { ToolName } from "#contract/tools";
import { type DeployedTool, type ToolRoute, deployedTools as registry } from "#deploy/tool-functions";
import { type ErrorCode, notEligibleReasons, recordedRejectionCodes } from "#core/errors";
import { type Scope, scopes } from "#core/principal";

/**
 * The OpenAPI 3.1 document of contract §2, built from the tool registry: every tool route with its input schema as
 * the request body and its output schema as the 200 body, the contract §3 errors it can answer with one shared
 * Error schema, and an OAuth 2.0 security scheme that declares the scopes each route requires; then the
 * operation-status GET, the catalogue, this document and the MCP endpoint. Redocly's and Spectral's OpenAPI
 * rulesets accept it without a warning (test/unit/openapi-lint.test.ts).
 */

const replayedHeader = { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } };
const retryAfterHeader = { "Retry-After": { $ref: "#/components/headers/RetryAfter" } };
/** The refusals whose body says `retryAfterSeconds`, and whose response says it in Retry-After too. */
const saysWhenToRetry: readonly ErrorCode[] = ["RATE_LIMITED", "OPERATION_IN_PROGRESS"];
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

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
    description: codes.map((code) => `${code}: ${errorMeaning(code)}.`).join(" "),
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: byGateway ? { oneOf: [body, ref("GatewayRefusal")] } : body } },
  };
}

function errorResponses(tool: DeployedTool): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of toolErrors[tool.name as ToolName] ?? alwaysPossible) {
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  // A recorded rejection is replayed like a success, with the header saying so; a refusal that says when to try
  // again says it in Retry-After as well.
  const headers = (codes: ErrorCode[]) => {
    const all = {
      ...(tool.kind === "change" && codes.some((c) => recordedRejectionCodes.has(c)) ? replayedHeader : {}),
      ...(codes.some((c) => saysWhenToRetry.includes(c)) ? retryAfterHeader : {}),
    };
    return Object.keys(all).length ? all : undefined;
  };
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        errorResponse(codes, codes.includes("OPERATION_NOT_FOUND") ? "OperationNotFound" : "Error", headers(codes)),
      ]),
  );
}

/** The summary line: the description's first sentence. */

function toolOperation(tool: DeployedTool, route: ToolRoute, index: number): JsonSchema {
  const name = pascal(tool.name);
  const input = toolInputSchema(tool);
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
  tools?: readonly DeployedTool[];
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

/** The whole document. Pure: the same registry and options give the same document, and each call a new one. */
export function openApiDocument(options: OpenApiOptions = {}): JsonSchema {
  const tools = options.tools ?? registry;
  const paths: Paths = {};
  const addPath = (path: string, method: string, operation: JsonSchema) => {
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation };
  };
  for (const tool of tools) {
    for (const [index, route] of tool.routes.entries()) addPath(route.path, route.method, toolOperation(tool, route, index));
  }
  for (const fn of serviceFunctions) {
    for (const route of fn.routes) {
      if (!isDocumented(route)) continue;
      const operation = serviceOperations[`${fn.name} ${route.method}`];
      if (!operation) throw new Error(`The OpenAPI document does not describe ${route.method} ${route.path} (${fn.name})`);
      addPath(route.path, route.method, operation);
    }
  }
  // A fresh copy each call: the parts above are shared module constants, and a caller (a linter, a bundler) may
  // change the document it was given.
  return structuredClone(documentFrame(paths, componentSchemas(tools), options));
}

type Paths = Record<string, Record<string, JsonSchema>>;

/** Each tool's input and output, then the shared bodies: errors, the catalogue, MCP's JSON-RPC messages. */
function componentSchemas(tools: readonly DeployedTool[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const tool of tools) {
    schemas[`${pascal(tool.name)}Input`] = toolInputSchema(tool);
    schemas[`${pascal(tool.name)}Output`] = embedded(toolJsonSchema(tool.output, "output"));
  }
  schemas.Error = errorSchema;
  schemas.OperationNotFound = operationNotFoundSchema;
  schemas.GatewayRefusal = gatewayRefusalSchema;
  schemas.ToolCatalog = embedded(z.toJSONSchema(toolCatalogSchema, { target: "draft-2020-12" }) as JsonSchema);
  schemas.JsonRpcMessage = jsonRpcRequestSchema;
  schemas.JsonRpcResponse = jsonRpcResponseSchema;
  return schemas;
}

function toolInputSchema(tool: DeployedTool): JsonSchema {
  return embedded(toolJsonSchema(tool.input, "input"));
}

const mcpError = (description: string) => ({ description, content: { "application/json": { schema: ref("JsonRpcResponse") } } });
const challenge = {
  "WWW-Authenticate": {
    description:
      'Bearer, with resource_metadata (the protected-resource metadata URL) and scope (every scope the endpoint\'s tools need); error="invalid_token" or error="insufficient_scope" when a token came and was refused.',
    schema: { type: "string" },
  },
};

/**
 * The routes that are not tools, by service function and method: the catalogue, this document, MCP and its OAuth
 * metadata. Every documented route of a service function must have its entry here (openApiDocument checks).
 */
const serviceOperations: Record<string, JsonSchema> = {
  "catalog GET": {
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
  },
  "openapi GET": {
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
  },
  "mcp POST": {
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
  },
  "oauth-metadata GET": {
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
  },
};

/** The document around its paths and schemas: info, servers, tags, the security scheme and the shared header. */
function documentFrame(paths: Paths, schemas: Record<string, JsonSchema>, options: OpenApiOptions): JsonSchema {
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
        RetryAfter: {
          description:
            "Seconds to wait before sending the request again (RFC 9110), the same number as the body's error.retryAfterSeconds: on RATE_LIMITED, and on a 409 when it is OPERATION_IN_PROGRESS. API Gateway's own throttling 429 does not carry it.",
          schema: { type: "integer", minimum: 0 },
        },
      },
    },
  };
}
