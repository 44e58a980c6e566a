import { createHash } from "node:crypto";
import type { Context } from "aws-lambda";
import { type JsonSchema, toolJsonSchema } from "#contract/json-schema";
import { httpStatusOf } from "#contract/error-codes";
import { type DeployedTool, deployedTools as registry } from "#deploy/tool-functions";
import {
  type ErrorCode,
  InternalError,
  InvalidInputError,
  type InputIssue,
  OperationInProgressError,
  ToolError,
  UnauthenticatedError,
} from "#core/errors";
import { admitToTool, principalFromClaims } from "#core/principal";
import { apiGatewayEvent } from "#runtime/api-event";
import { errorResponse, type HttpEvent, type HttpResult } from "#runtime/http";
import type { ToolInvoker } from "#runtime/invoker";
import { lambdaInvoker, toolFunctionsFromEnv } from "#runtime/invoker-lambda";
import { logger } from "#runtime/logger";
import { principalHash } from "#runtime/observability";

/**
 * The Lambda function behind a Bedrock Agents action group defined with an OpenAPI schema (the
 * `bedrock-action-group` export): Bedrock invokes it directly, with the action-group input event, for each
 * operation the agent's model decides to call. It turns that event into the tool call the tool's own POST route
 * would get and invokes the tool's function (as the MCP function does: it touches no table itself), then turns
 * the tool's HTTP result, errors included, into the action-group response.
 *
 * Who is calling comes from the session attributes, which only the application that calls InvokeAgent (and
 * Lambda functions of the agent's action groups) can set; the model can neither read them into arguments nor
 * change them. The application must set them from its own signed-in user: it is trusted as an identity
 * provider would be (docs/agent-platforms.md, "Bedrock Agents").
 *
 * A changing tool's operationId is never the model's: it is derived from the agent, the session, the turn and
 * the call's canonical arguments, so Bedrock's own retry of an invocation replays the first outcome instead of
 * applying the change twice (see `derivedOperationId`).
 *
 * Formats: "Configure Lambda functions to send information that an Amazon Bedrock agent elicits from the user"
 * (docs.aws.amazon.com/bedrock/latest/userguide/agents-lambda.html), messageVersion 1.0.
 */

/** One name/type/value triple of the event: values always arrive as strings, whatever the schema's type. */
export interface BedrockAgentProperty {
  name: string;
  type: string;
  value: string;
}

/** The action-group input event, for an action group defined with an API schema. */
export interface BedrockAgentEvent {
  messageVersion: string;
  agent: { name: string; id: string; alias: string; version: string };
  inputText: string;
  sessionId: string;
  actionGroup: string;
  apiPath: string;
  httpMethod: string;
  parameters?: BedrockAgentProperty[];
  requestBody?: { content: Record<string, { properties: BedrockAgentProperty[] }> };
  sessionAttributes?: Record<string, string>;
  promptSessionAttributes?: Record<string, string>;
}

/** The action-group response: the tool's JSON body as a string, under its content type, with its HTTP status. */
export interface BedrockAgentResponse {
  messageVersion: "1.0";
  response: {
    actionGroup: string;
    apiPath: string;
    httpMethod: string;
    httpStatusCode: number;
    responseBody: { "application/json": { body: string } };
  };
  sessionAttributes?: Record<string, string>;
  promptSessionAttributes?: Record<string, string>;
}

export type BedrockAgentHandler = (event: BedrockAgentEvent, context: Context) => Promise<BedrockAgentResponse>;

/**
 * The session attributes the application sets on InvokeAgent (`sessionState.sessionAttributes`) for its
 * signed-in user; they become the claims a token for that user would carry (contract §1).
 */
export const sessionAttributeNames = {
  /** The user's stable id, as a token's `sub`: operation ids, caps and budgets are scoped to it. Required. */
  sub: "orderToolsSub",
  /** A customer's id (C- and digits), as a token's `customer_id`: the session acts only on that customer's orders. */
  customerId: "orderToolsCustomerId",
  /**
   * A marketplace seller's id (SLR- and digits), as a token's `seller_id`: the session acts only on the orders that
   * seller sold. Never together with orderToolsCustomerId (such a session is refused, as such a token would be).
   */
  sellerId: "orderToolsSellerId",
  /** Space-separated scopes, as a token's `scope`: orders:read, orders:write, and orders:support for staff. */
  scope: "orderToolsScope",
} as const;

/**
 * A prompt session attribute (`sessionState.promptSessionAttributes`, kept for one turn) the application may set
 * to a fresh id per InvokeAgent call. Without it the turn is told apart by the user's words (`inputText`).
 */
export const turnIdAttribute = "orderToolsTurnId";

/**
 * The tools an action group offers: every tool with a POST route but get_operation_status, whose only argument is
 * an operationId — which here the model never has, since this function derives it and reconciles itself.
 */
export function actionGroupTools(tools: readonly DeployedTool[] = registry): DeployedTool[] {
  return tools.filter((tool) => tool.name !== "get_operation_status" && tool.routes.some((r) => r.method === "POST"));
}

/** The route an action-group operation has: the tool's own POST path (the export uses the same). */
export function actionGroupPath(tool: DeployedTool): string {
  const route = tool.routes.find((r) => r.method === "POST");
  if (!route) throw new Error(`${tool.name} has no POST route to offer in an action group`);
  return route.path;
}

const operationIdPrefix = "bedrock:";

/**
 * The operationId of a changing call: `bedrock:` and a SHA-256 (base64url) of the agent id, the session id, the
 * turn (the application's turn id, or else the user's input text), the tool and its arguments with keys sorted.
 *
 * - Bedrock retrying an invocation (a timeout, a throttled or failed invoke) sends the same event: every input
 *   is the same, so the id is the same and the tool replays the first outcome instead of applying it twice.
 * - Two distinct changes in one session differ in the tool or its arguments (another order, item, reason or
 *   expected version), or fall in different turns: different ids, each applied once.
 * - The same change proposed again in the same turn is the same intent and gets the first outcome. Proposed in a
 *   later turn with the same words (e.g. "yes" twice, without a turn id) it replays too; a request the domain
 *   refuses the second time anyway (already cancelled, already returned, a stale version) loses nothing by it.
 *
 * 8 + 43 characters of [A-Za-z0-9_:-], inside contract §4's 8–128 of [A-Za-z0-9._:-]. The agent id keeps two agents
 * whose applications reuse session ids apart; the id is scoped to the session's principal by the tool as always.
 */
export function derivedOperationId(
  event: Pick<BedrockAgentEvent, "agent" | "sessionId" | "inputText" | "promptSessionAttributes">,
  tool: string,
  args: Record<string, unknown>,
): string {
  const turnId = event.promptSessionAttributes?.[turnIdAttribute];
  const turn = typeof turnId === "string" && turnId !== "" ? `turn:${turnId}` : `input:${event.inputText ?? ""}`;
  const material = JSON.stringify([
    "order-tools/bedrock-agent/1",
    event.agent?.id ?? "",
    event.sessionId ?? "",
    turn,
    tool,
    canonical(args),
  ]);
  return `${operationIdPrefix}${createHash("sha256").update(material, "utf8").digest("base64url")}`;
}

/** JSON with every object's keys sorted, so the same arguments in any order give the same id. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/**
 * A property's value as the tool's JSON Schema types it. Bedrock sends every value as a string and renders an
 * array or object either as JSON or as Java's toString (`[ITM-1, ITM-2]`, `{dateField=placed, from=…}`).
 * A value that does not read as its type is passed on as sent, so the tool refuses it with its own message.
 */
export function typedValue(raw: string, schema: JsonSchema | undefined): unknown {
  const type = schema?.type;
  if (type === "integer" || type === "number") {
    const n = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
    return Number.isFinite(n) ? n : raw;
  }
  if (type === "boolean") return raw.trim() === "true" ? true : raw.trim() === "false" ? false : raw;
  if (type === "array") {
    const parsed = jsonOf(raw);
    if (Array.isArray(parsed)) return parsed;
    const listed = /^\s*\[(.*)\]\s*$/s.exec(raw);
    if (!listed) return raw;
    const inner = (listed[1] ?? "").trim();
    const items = inner === "" ? [] : inner.split(",").map((item) => item.trim().replace(/^"(.*)"$/s, "$1"));
    const itemSchema = schema?.items as JsonSchema | undefined;
    return items.map((item) => typedValue(item, itemSchema));
  }
  if (type === "object") {
    const parsed = jsonOf(raw);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    const mapped = /^\s*\{(.*)\}\s*$/s.exec(raw);
    if (!mapped) return raw;
    const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const entries = (mapped[1] ?? "")
      .split(",")
      .map((pair) => pair.trim())
      .filter(Boolean);
    const object: Record<string, unknown> = {};
    for (const entry of entries) {
      const at = entry.indexOf("=");
      if (at <= 0) return raw;
      const key = entry.slice(0, at).trim();
      object[key] = typedValue(entry.slice(at + 1).trim(), properties[key]);
    }
    return object;
  }
  return raw;
}

function jsonOf(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

const inputProperties = new WeakMap<DeployedTool, Record<string, JsonSchema>>();

/** The call's arguments from the event's parameters and JSON request body, typed by the tool's input schema. */
export function argumentsOf(event: BedrockAgentEvent, tool: DeployedTool): Record<string, unknown> {
  let properties = inputProperties.get(tool);
  if (!properties) {
    properties = (toolJsonSchema(tool.input, "input").properties ?? {}) as Record<string, JsonSchema>;
    inputProperties.set(tool, properties);
  }
  const body = event.requestBody?.content?.["application/json"]?.properties ?? [];
  const issues: InputIssue[] = [];
  const args: Record<string, unknown> = {};
  for (const property of [...(event.parameters ?? []), ...body]) {
    if (property === null || typeof property !== "object" || typeof property.name !== "string") {
      issues.push({
        path: "",
        message: "Each parameter and request-body property must be a {name, type, value} object, as Bedrock sends them.",
      });
      continue;
    }
    if (property.name === "operationId") {
      issues.push({
        path: "operationId",
        message: `operationId is not an argument of ${tool.name} in this action group: it is made for each change from the session, so that a retry takes effect at most once. Leave it out.`,
      });
      continue;
    }
    if (Object.hasOwn(args, property.name)) {
      issues.push({ path: property.name, message: `${property.name} is given twice; give each argument once.` });
      continue;
    }
    args[property.name] = typeof property.value === "string" ? typedValue(property.value, properties?.[property.name]) : property.value;
  }
  const [first, ...rest] = issues;
  if (first) throw new InvalidInputError([first, ...rest]);
  return args;
}

/** Who the session is, as a verified token would say it. */
interface SessionIdentity {
  claims: Record<string, string>;
  scopes: string[];
}

/** The claims a token for the session's user would carry, from the session attributes the application set. */
export function sessionClaims(attributes: Record<string, string> | undefined): SessionIdentity {
  const attribute = (name: string) => (typeof attributes?.[name] === "string" && attributes[name] !== "" ? attributes[name] : undefined);
  const sub = attribute(sessionAttributeNames.sub);
  if (sub === undefined) {
    throw new UnauthenticatedError(
      `This agent session names no caller: the application that calls InvokeAgent must set the session attribute ${sessionAttributeNames.sub} to its signed-in user's id (with ${sessionAttributeNames.customerId} for a customer, ${sessionAttributeNames.sellerId} for a seller, and ${sessionAttributeNames.scope} for the scopes). Nothing the model says can stand in for it.`,
    );
  }
  // Passed on as a token would carry them: the tool refuses a malformed id, or both at once, as it refuses such a token.
  const customerId = attribute(sessionAttributeNames.customerId);
  const sellerId = attribute(sessionAttributeNames.sellerId);
  const scope = attribute(sessionAttributeNames.scope) ?? "";
  return {
    claims: {
      sub,
      ...(customerId !== undefined ? { customer_id: customerId } : {}),
      ...(sellerId !== undefined ? { seller_id: sellerId } : {}),
      scope,
    },
    scopes: scope.split(" ").filter(Boolean),
  };
}

/** The event the tool's own POST route would get from API Gateway for the session's user, with `args` as the body. */
function toolEvent(bedrock: BedrockAgentEvent, tool: DeployedTool, args: unknown, identity: SessionIdentity, context: Context): HttpEvent {
  const path = actionGroupPath(tool);
  const event = apiGatewayEvent({
    method: "POST",
    path,
    routeKey: `POST ${path}`,
    headers: { "user-agent": `bedrock-agent/${bedrock.agent?.id ?? "unknown"}`, "x-order-tools-via": "bedrock-agent" },
    body: JSON.stringify(args),
    claims: identity.claims,
    scopes: identity.scopes,
  });
  // No API Gateway in between: the ids say where the call came from, for the tool's log line.
  event.requestContext.requestId = context.awsRequestId;
  event.requestContext.apiId = "bedrock-agent";
  event.requestContext.domainName = "bedrock-agent";
  event.requestContext.domainPrefix = "bedrock-agent";
  return event;
}

const unknownOutcome = (tool: string) =>
  `Something went wrong while ${tool} ran, and its outcome is not known yet. Repeating the identical request in this conversation is safe: it takes effect at most once, and if it already has, it returns what happened.`;

export interface BedrockAgentOptions {
  tools?: readonly DeployedTool[];
}

/** What the handler offers and how it reaches the tools. */
interface ActionGroup {
  invoker: ToolInvoker;
  /** The offered tools by their action-group path. */
  byPath: Map<string, DeployedTool>;
  /** For reconciling a change whose outcome was not seen. */
  statusTool: DeployedTool | undefined;
}

/** One action-group call: the event, who the session is, and the Lambda context it runs in. */
interface AgentCall {
  event: BedrockAgentEvent;
  identity: SessionIdentity;
  context: Context;
}

export function createBedrockAgentHandler(invoker: ToolInvoker, options: BedrockAgentOptions = {}): BedrockAgentHandler {
  const tools = options.tools ?? registry;
  const group: ActionGroup = {
    invoker,
    byPath: new Map(actionGroupTools(tools).map((tool) => [actionGroupPath(tool), tool])),
    statusTool: tools.find((tool) => tool.name === "get_operation_status"),
  };

  return async (event, context) => {
    const tool = group.byPath.get(String(event?.apiPath ?? ""));
    const seen: { sub?: string; operationId?: string } = {};
    let result: HttpResult;
    try {
      result = await runCall(group, event, context, seen);
    } catch (error) {
      result = errorResponse(error, tool?.name ?? "bedrock-agent", false);
    }
    logger.info("bedrock agent call", {
      tool: tool?.name ?? null,
      agentId: event?.agent?.id,
      actionGroup: event?.actionGroup,
      ...(seen.sub ? { principal: principalHash(seen.sub) } : {}),
      ...(seen.operationId ? { operationId: seen.operationId } : {}),
      status: result.statusCode,
      replayed: result.headers?.["idempotent-replayed"] === "true",
    });
    return agentResponse(event, result);
  };
}

/** The tool's HTTP answer in the shape Bedrock reads back, with the session attributes exactly as they came. */
function agentResponse(event: BedrockAgentEvent, result: HttpResult): BedrockAgentResponse {
  return {
    messageVersion: "1.0",
    response: {
      actionGroup: String(event?.actionGroup ?? ""),
      apiPath: String(event?.apiPath ?? ""),
      httpMethod: String(event?.httpMethod ?? ""),
      httpStatusCode: result.statusCode ?? 500,
      responseBody: { "application/json": { body: result.body ?? "" } },
    },
    // Returned exactly as they came: nothing here may change who the session is.
    ...(event?.sessionAttributes ? { sessionAttributes: event.sessionAttributes } : {}),
    ...(event?.promptSessionAttributes ? { promptSessionAttributes: event.promptSessionAttributes } : {}),
  };
}

/** The tool an event asks for; an event of another version, or for an operation not offered, is refused. */
function offeredTool(group: ActionGroup, event: BedrockAgentEvent): DeployedTool {
  if (event?.messageVersion !== "1.0") {
    throw new InvalidInputError([
      {
        path: "messageVersion",
        message: `messageVersion is ${JSON.stringify(event?.messageVersion)}; this function reads Bedrock Agents' action-group events of version 1.0.`,
      },
    ]);
  }
  const tool = group.byPath.get(String(event.apiPath ?? ""));
  if (!tool || String(event.httpMethod).toUpperCase() !== "POST") {
    throw new InvalidInputError([
      {
        path: "apiPath",
        message: `There is no operation ${String(event.httpMethod).toUpperCase()} ${event.apiPath} in this action group. Its operations are POST ${[...group.byPath.keys()].join(", POST ")}; update the action group's schema from \`npm run export-tools -- --format bedrock-action-group\`.`,
      },
    ]);
  }
  return tool;
}

/** Checks the call, names the session's caller, and runs the tool for them; `seen` gets what the log line names. */
async function runCall(
  group: ActionGroup,
  event: BedrockAgentEvent,
  context: Context,
  seen: { sub?: string; operationId?: string },
): Promise<HttpResult> {
  const tool = offeredTool(group, event);
  const call: AgentCall = { event, identity: sessionClaims(event.sessionAttributes), context };
  seen.sub = call.identity.claims.sub;
  // The tool checks all of this again; refusing here spares an invocation and answers with the same body.
  admitToTool(principalFromClaims(call.identity.claims, call.identity.scopes, tool.scope), tool.name);
  const args = argumentsOf(event, tool);
  if (tool.kind === "change") {
    seen.operationId = derivedOperationId(event, tool.name, args);
    args.operationId = seen.operationId;
  }
  return invokeOrReconcile(group, tool, call, args, seen.operationId);
}

/**
 * Runs the tool. When a change's outcome is unknown (the invocation failed, or the tool answered 5xx), asks
 * get_operation_status once with the derived id and answers with what was recorded, as the original request
 * would have been answered; the model has no operationId to ask with, so this function does it.
 */
async function invokeOrReconcile(
  group: ActionGroup,
  tool: DeployedTool,
  call: AgentCall,
  args: Record<string, unknown>,
  operationId: string | undefined,
): Promise<HttpResult> {
  try {
    const result = await group.invoker.invoke(tool, toolEvent(call.event, tool, args, call.identity, call.context), call.context);
    if (tool.kind !== "change" || (result.statusCode ?? 500) < 500) return result;
  } catch (error) {
    if (tool.kind !== "change") throw error;
    logger.error("bedrock agent: tool invocation failed", { tool: tool.name, operationId, error: error as Error });
  }
  const recorded = operationId && group.statusTool ? await recordedOutcome(group.invoker, group.statusTool, operationId, call) : undefined;
  if (recorded) return recorded;
  const internal = new InternalError(unknownOutcome(tool.name));
  return { statusCode: internal.httpStatus, headers: { "content-type": "application/json" }, body: JSON.stringify(internal.toJSON()) };
}

/** What get_operation_status has recorded for the operation, as the original request would have been answered. */
async function recordedOutcome(
  invoker: ToolInvoker,
  statusTool: DeployedTool,
  operationId: string,
  { event, identity, context }: AgentCall,
): Promise<HttpResult | undefined> {
  try {
    const lookup = await invoker.invoke(statusTool, toolEvent(event, statusTool, { operationId }, identity, context), context);
    if (lookup.statusCode !== 200) return undefined;
    const status = JSON.parse(lookup.body ?? "null") as {
      status?: string;
      result?: unknown;
      orderId?: string;
      retryAfterSeconds?: number;
      error?: { code?: ErrorCode };
    };
    const json = (statusCode: number, body: unknown): HttpResult => ({
      statusCode,
      headers: { "content-type": "application/json", "idempotent-replayed": "true" },
      body: JSON.stringify(body),
    });
    if (status.status === "completed") return json(200, status.result);
    if (status.status === "rejected" && status.error?.code) {
      // The error as the original request returned it: the recorded rejection's own body and status.
      const original = status.error as Record<string, unknown>;
      return json(httpStatusOf(status.error.code), { error: original, operationId, status: "rejected", orderId: status.orderId });
    }
    if (status.status === "pending") {
      // What the tool itself answers a duplicate of a running operation; repeating the request is safe.
      const busy = new OperationInProgressError(operationId, status.retryAfterSeconds ?? 1);
      return { statusCode: busy.httpStatus, headers: { "content-type": "application/json" }, body: JSON.stringify(busy.toJSON()) };
    }
    return undefined;
  } catch (error) {
    logger.error("bedrock agent: reconciliation failed", {
      operationId,
      error: error instanceof ToolError ? error.toJSON() : (error as Error),
    });
    return undefined;
  }
}

/** The deployed handler: each tool runs in its own function, named in the environment by the CDK stack. */
let deployed: BedrockAgentHandler | undefined;
export const handler: BedrockAgentHandler = (event, context) => {
  deployed ??= createBedrockAgentHandler(lambdaInvoker(toolFunctionsFromEnv(registry)));
  return deployed(event, context);
};
