/**
 * The sample events in `events/` (written by `npm run events`, local/generate-events.ts): for every tool, API Gateway HTTP API payload v2.0 events as the deployed
 * function receives them (authorizer claims included, every claim a string), built with the one event builder
 * (local/lambda-context.ts) and aimed at the demo data (local/demo-shop.ts). The events test checks that the
 * committed files are what this module makes, and runs every event through its handler expecting the status
 * listed here.
 *
 * Cases run in this order against fresh demo data: the get_operation_status events look up the operation
 * that cancel_order.valid.json records, so invoke that one first.
 *
 * Beside them, `bedrock-*.json`: the action-group events Bedrock Agents sends functions/service/bedrock-agent.ts.
 */
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { toolJsonSchema } from "#contract/json-schema";
import type { ToolName } from "#contract/tools";
import { deployedToolNamed, deployedTools as tools } from "#deploy/tool-functions";
import { apiGatewayEvent } from "#local/lambda-context";
import { apiGatewayClaims, defaultScopes, devAudience, devIssuer, principalClaims } from "#local/dev-auth";
import { routeKey } from "#local/routes";
import { repoRoot } from "#local/stack";
import { type BedrockAgentEvent, type BedrockAgentProperty, sessionAttributeNames } from "#service/bedrock-agent";
import type { HttpEvent } from "#runtime/http";

export const eventsDir = join(repoRoot, "events");

/** This module, where the cases are written: the README and the generator's messages send a reader here. */
export const eventCasesFile = relative(repoRoot, fileURLToPath(import.meta.url))
  .split(sep)
  .join("/");

export interface EventCase {
  /** File name in events/: <tool>.<case>.json. */
  file: string;
  tool: ToolName;
  /** valid: the arguments pass the tool's schema; invalid: they do not (400 INVALID_INPUT). */
  kind: "valid" | "invalid";
  /** What the handler answers on fresh demo data, with the cases before it applied. */
  expect: { status: number; code?: string };
  /** One line for events/README.md. */
  note: string;
  event: HttpEvent;
}

type Caller = { customer: string } | { support: string } | { seller: string };

interface CaseInput {
  name: string;
  tool: ToolName;
  kind: EventCase["kind"];
  caller: Caller;
  /** Tool arguments for POST routes; for the GET route, the path parameters. */
  body?: unknown;
  get?: { operationId: string };
  expect: EventCase["expect"];
  note: string;
}

// Customers of the demo data; their changes are spread so none reaches the hourly cap.
const ana = { customer: "C-1001" };
const ben = { customer: "C-2002" };
const chloe = { customer: "C-3003" };
/** Ashcombe Furniture, a marketplace seller of the demo shop. */
const ashcombe = { seller: "SLR-2210" };

const cases: CaseInput[] = [
  {
    name: "valid",
    tool: "search_orders",
    kind: "valid",
    caller: ana,
    body: { orderId: "884" },
    expect: { status: 200 },
    note: "Ana looks for the order with 884 in its id (finds SU-88421).",
  },
  {
    name: "short-fragment",
    tool: "search_orders",
    kind: "invalid",
    caller: ana,
    body: { orderId: "88" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "Two digits are too few to search by.",
  },
  {
    name: "unknown-field",
    tool: "search_orders",
    kind: "invalid",
    caller: ana,
    body: { email: "ben@example.com", customerId: "C-2002" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "Who is asking comes from the token, never from an argument.",
  },

  {
    name: "valid",
    tool: "get_order",
    kind: "valid",
    caller: ana,
    body: { orderId: "SU-88421" },
    expect: { status: 200 },
    note: "Ana reads SU-88421: seller, 14-day policy, the delivery charged twice.",
  },
  {
    name: "malformed-id",
    tool: "get_order",
    kind: "invalid",
    caller: ana,
    body: { orderId: "SU-9941" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "Four digits: the message says order ids have five.",
  },
  {
    name: "other-customer",
    tool: "get_order",
    kind: "invalid",
    caller: ana,
    body: { orderId: "SU-20417" },
    expect: { status: 404, code: "ORDER_NOT_FOUND" },
    note: "Ben's order, asked for by Ana: the same 404 as an id that does not exist.",
  },
  {
    name: "other-seller",
    tool: "get_order",
    kind: "invalid",
    caller: ashcombe,
    body: { orderId: "SU-10452" },
    expect: { status: 404, code: "ORDER_NOT_FOUND" },
    note: "Kettle & Crumb's order, asked for by the seller Ashcombe Furniture (seller_id SLR-2210): the same 404 as an id that does not exist.",
  },

  {
    name: "valid",
    tool: "cancel_order",
    kind: "valid",
    caller: ben,
    body: { operationId: "op-event-cancel-0001", orderId: "SU-20533", reason: "Found it cheaper elsewhere" },
    expect: { status: 200 },
    note: "Ben cancels his processing order SU-20533 (invoke it twice: the second answer is the replay).",
  },
  {
    name: "unknown-field",
    tool: "cancel_order",
    kind: "invalid",
    caller: ben,
    body: { operationId: "op-event-cancel-0002", orderId: "SU-20533", customerId: "C-1001" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "customerId is not an argument: the caller comes from the token.",
  },
  {
    name: "shipped",
    tool: "cancel_order",
    kind: "invalid",
    caller: ben,
    body: { operationId: "op-event-cancel-0003", orderId: "SU-20702" },
    expect: { status: 409, code: "NOT_ELIGIBLE" },
    note: "SU-20702 has shipped: NOT_ELIGIBLE ALREADY_SHIPPED, recorded and replayed.",
  },
  {
    name: "seller-forbidden",
    tool: "cancel_order",
    kind: "invalid",
    caller: ashcombe,
    body: { operationId: "op-event-cancel-0004", orderId: "SU-20417" },
    expect: { status: 403, code: "FORBIDDEN" },
    note: "Ashcombe Furniture may not cancel even its own order: 403 with allowedPrincipals customer and support, nothing recorded.",
  },

  {
    name: "valid",
    tool: "add_delivery_note",
    kind: "valid",
    caller: chloe,
    body: {
      operationId: "op-event-note-0001",
      orderId: "SU-30390",
      expectedVersion: 2,
      deliveryNote: "Code du portail : 4821.\nLaissez le colis chez la gardienne.",
    },
    expect: { status: 200 },
    note: "Chloé replaces the note on her placed order SU-30390 (version 2).",
  },
  {
    name: "bidi-override",
    tool: "add_delivery_note",
    kind: "invalid",
    caller: chloe,
    body: {
      operationId: "op-event-note-0002",
      orderId: "SU-30390",
      expectedVersion: 2,
      deliveryNote: "Leave it with the \u202Eroobnext\u202C neighbour",
    },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "A bidi override in the note is refused, with its position named.",
  },

  {
    name: "valid",
    tool: "start_return",
    kind: "valid",
    caller: chloe,
    body: { operationId: "op-event-return-0001", orderId: "SU-30121", itemIds: ["ITM-1"], reason: "no_longer_needed" },
    expect: { status: 200 },
    note: "Chloé returns the kettle from SU-30121, delivered two days ago; pickup on the first day with room.",
  },
  {
    name: "bad-reason",
    tool: "start_return",
    kind: "invalid",
    caller: chloe,
    body: { operationId: "op-event-return-0002", orderId: "SU-30121", itemIds: ["ITM-2"], reason: "changed_mind" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "reason must be one of the listed values.",
  },

  {
    name: "valid",
    tool: "offer_replacement",
    kind: "valid",
    caller: ben,
    body: { operationId: "op-event-replace-0001", orderId: "SU-20688", expectedVersion: 3, itemId: "ITM-2", reason: "damaged" },
    expect: { status: 200 },
    note: "Ben gets a new wool throw for the damaged one on SU-20688 (stock is reserved).",
  },
  {
    name: "missing-version",
    tool: "offer_replacement",
    kind: "invalid",
    caller: ben,
    body: { operationId: "op-event-replace-0002", orderId: "SU-20688", itemId: "ITM-1", reason: "missing" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "expectedVersion is required for a replacement.",
  },

  {
    name: "valid",
    tool: "get_operation_status",
    kind: "valid",
    caller: ben,
    body: { operationId: "op-event-cancel-0001" },
    expect: { status: 200 },
    note: "Ben asks what became of op-event-cancel-0001 (run cancel_order.valid.json first; before it, 404 not_found).",
  },
  {
    name: "by-path",
    tool: "get_operation_status",
    kind: "valid",
    caller: ben,
    get: { operationId: "op-event-cancel-0001" },
    expect: { status: 200 },
    note: "The same question as GET /v1/operations/{operationId}.",
  },
  {
    name: "short-operation-id",
    tool: "get_operation_status",
    kind: "invalid",
    caller: ben,
    body: { operationId: "op-1" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "operationIds are 8–128 characters.",
  },
];

/** Fixed times, so regenerating changes nothing: 2026-01-01T00:00:00Z, and a token that expires in 2036. */
const issuedAt = 1_767_225_600;
const expiresAt = 2_082_758_400;

/** Every case with its event, in the order they are meant to run. */
export function eventCases(): EventCase[] {
  return cases.map((c) => {
    const tool = deployedToolNamed(c.tool);
    const route = c.get ? tool.routes.find((r) => r.method === "GET") : tool.routes.find((r) => r.method === "POST");
    if (!route) throw new Error(`${c.tool} has no ${c.get ? "GET" : "POST"} route for the case ${c.name}`);
    const payload = {
      iss: devIssuer,
      aud: devAudience,
      iat: issuedAt,
      nbf: issuedAt,
      exp: expiresAt,
      jti: `event-${c.tool}-${c.name}`,
      ...principalClaims(
        c.caller,
        "customer" in c.caller ? defaultScopes.customer : "seller" in c.caller ? defaultScopes.seller : defaultScopes.support,
      ),
    };
    const claims = apiGatewayClaims(payload);
    const body = c.body === undefined ? undefined : JSON.stringify(c.body);
    const path = c.get ? route.path.replace("{operationId}", encodeURIComponent(c.get.operationId)) : route.path;
    const event = apiGatewayEvent({
      method: route.method,
      path,
      routeKey: routeKey(route),
      ...(c.get ? { pathParameters: { operationId: c.get.operationId } } : {}),
      headers: {
        accept: "*/*",
        ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)), "content-type": "application/json" } : {}),
        host: "api.order-tools.example",
        "user-agent": "curl/8.5.0",
        "x-amzn-trace-id": `Root=1-69560000-${c.tool.replace(/_/g, "").slice(0, 12).padEnd(24, "0")}`,
        "x-forwarded-for": "203.0.113.10",
        "x-forwarded-port": "443",
        "x-forwarded-proto": "https",
      },
      ...(body !== undefined ? { body } : {}),
      claims,
      scopes: (claims.scope ?? "").split(" ").filter(Boolean),
    });
    // What varies per build (request id, time) is fixed, so the committed files only change when a case does.
    event.requestContext.requestId = `local-${c.tool}-${c.name}`;
    event.requestContext.time = "01/Jan/2026:00:00:00 +0000";
    event.requestContext.timeEpoch = issuedAt * 1000;
    event.requestContext.domainName = "api.order-tools.example";
    event.requestContext.domainPrefix = "api";
    event.requestContext.http.sourceIp = "203.0.113.10";
    event.requestContext.http.userAgent = "curl/8.5.0";
    return { file: `${c.tool}.${c.name}.json`, tool: c.tool, kind: c.kind, expect: c.expect, note: c.note, event };
  });
}

/** The file contents this script writes: one JSON file per case, and a README that lists them. */
export function renderEvents(list = eventCases(), bedrock = bedrockEventCases()): Map<string, string> {
  const files = new Map(list.map((c) => [c.file, `${JSON.stringify(c.event, null, 2)}\n`]));
  for (const c of bedrock) files.set(c.file, `${JSON.stringify(c.event, null, 2)}\n`);
  const row = (c: { file: string; expect: { status: number; code?: string }; note: string }) =>
    `| \`${c.file}\` | ${c.expect.status}${c.expect.code ? ` ${c.expect.code}` : ""} | ${c.note} |`;
  files.set(
    "README.md",
    [
      "# Sample events",
      "",
      "API Gateway HTTP API payload v2.0 events, as each tool's function receives them behind the JWT authorizer",
      "(claims as strings under `requestContext.authorizer.jwt.claims`). Generated by `npm run events` from the cases in",
      `\`${eventCasesFile}\`; do not edit by hand. Run one against the local stack of \`npm start\`:`,
      "",
      "```sh",
      "npm run invoke -- cancel_order events/cancel_order.valid.json",
      "```",
      "",
      "The status is what fresh demo data answers when the events run in this order (test/integration/events.test.ts does).",
      "",
      "| event | status | what it shows |",
      "|---|---|---|",
      ...list.map(row),
      "",
      "## Bedrock Agents action-group events",
      "",
      "`bedrock-*.json` are the events Bedrock Agents sends the action-group function (`functions/service/bedrock-agent.ts`)",
      "when an agent's model calls an operation of the `bedrock-action-group` export: messageVersion 1.0, every value a",
      `string, the caller in the session attributes the application set (\`${sessionAttributeNames.sub}\`, \`${sessionAttributeNames.customerId}\`,`,
      `\`${sessionAttributeNames.scope}\`). test/integration/bedrock-agent-events.test.ts runs them, in this order, through that function on`,
      "fresh demo data; the status is the response's `httpStatusCode`, the code that of its body.",
      "",
      "| event | status | what it shows |",
      "|---|---|---|",
      ...bedrock.map(row),
      "",
    ].join("\n"),
  );
  return files;
}

// ——— Bedrock Agents ———

export interface BedrockEventCase {
  /** File name in events/: bedrock-<tool>.<case>.json. */
  file: string;
  /** The registry tool the operation is, or undefined for an operation the action group does not have. */
  tool?: ToolName;
  /** The response's httpStatusCode and its body's error code, on fresh demo data with the cases before it applied. */
  expect: { status: number; code?: string };
  note: string;
  event: BedrockAgentEvent;
}

interface BedrockCaseInput {
  name: string;
  tool: ToolName | "refund_order";
  /** Who the application says the session's user is; omitted: it set nothing. */
  caller?: { customer: string };
  sessionId: string;
  inputText: string;
  /** Request-body properties, every value a string as Bedrock sends it. */
  body: Record<string, string>;
  expect: BedrockEventCase["expect"];
  note: string;
}

const bedrockCases: BedrockCaseInput[] = [
  {
    name: "valid",
    tool: "search_orders",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "Which of my orders has 884 in its number?",
    body: { orderId: "884", limit: "5" },
    expect: { status: 200 },
    note: 'Ana\'s session finds SU-88421; limit arrives as the string "5" and is read as the integer the schema says.',
  },
  {
    name: "valid",
    tool: "get_order",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "What is on order SU-88421?",
    body: { orderId: "SU-88421" },
    expect: { status: 200 },
    note: "Ana's session reads SU-88421.",
  },
  {
    name: "other-customer",
    tool: "get_order",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "Show me order SU-20417.",
    body: { orderId: "SU-20417" },
    expect: { status: 404, code: "ORDER_NOT_FOUND" },
    note: "Ben's order, asked for in Ana's session: the same 404 as an id that does not exist.",
  },
  {
    name: "valid",
    tool: "cancel_order",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "Please cancel SU-10234, I ordered the wrong kettle.",
    body: { orderId: "SU-10234", reason: "Ordered the wrong kettle" },
    expect: { status: 200 },
    note: "Ana's session cancels SU-10234; the operationId is derived from the session, so invoking the event again (Bedrock's retry) replays the outcome.",
  },
  {
    name: "new-session",
    tool: "cancel_order",
    caller: ana,
    sessionId: "session-ana-0002",
    inputText: "Please cancel SU-10234, I ordered the wrong kettle.",
    body: { orderId: "SU-10234", reason: "Ordered the wrong kettle" },
    expect: { status: 409, code: "NOT_ELIGIBLE" },
    note: "The same words in another session are another operation: SU-10234 is already cancelled (ALREADY_CANCELLED).",
  },
  {
    name: "valid",
    tool: "start_return",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "The lamp and the bulbs from SU-77310 arrived broken, I want to send them back.",
    body: { orderId: "SU-77310", itemIds: "[ITM-1, ITM-2]", reason: "damaged" },
    expect: { status: 200 },
    note: "Ana returns both lines of SU-77310; the array arrives as Bedrock renders it, `[ITM-1, ITM-2]`.",
  },
  {
    name: "stale-version",
    tool: "add_delivery_note",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "Tell the courier to leave SU-10387 with the concierge.",
    body: { orderId: "SU-10387", expectedVersion: "1", deliveryNote: "Leave it with the concierge." },
    expect: { status: 409, code: "VERSION_CONFLICT" },
    note: "expectedVersion 1, but SU-10387 is at version 2: nothing changes, and the body names the current version.",
  },
  {
    name: "no-session-user",
    tool: "cancel_order",
    sessionId: "session-anon-0001",
    inputText: "Cancel SU-10387.",
    body: { orderId: "SU-10387" },
    expect: { status: 401, code: "UNAUTHENTICATED" },
    note: "The application set no session attributes: no caller, nothing invoked.",
  },
  {
    name: "operation-id-from-model",
    tool: "cancel_order",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "Cancel SU-10387.",
    body: { orderId: "SU-10387", operationId: "op-chosen-by-model" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "An operationId in the request is refused: it is never the model's to choose.",
  },
  {
    name: "unknown-operation",
    tool: "refund_order",
    caller: ana,
    sessionId: "session-ana-0001",
    inputText: "Refund SU-88421.",
    body: { orderId: "SU-88421" },
    expect: { status: 400, code: "INVALID_INPUT" },
    note: "An apiPath the action group does not have: the message lists the operations it does.",
  },
];

/** The name/type/value triple Bedrock sends for a body property, typed as the tool's schema declares it. */
function bedrockProperty(tool: ToolName | "refund_order", name: string, value: string): BedrockAgentProperty {
  const declared = tools.find((t) => t.name === tool);
  const type = declared
    ? ((toolJsonSchema(declared.input, "input").properties as Record<string, { type?: string }> | undefined)?.[name]?.type ?? "string")
    : "string";
  return { name, type, value };
}

/** Every Bedrock case with its event, in the order they are meant to run. */
export function bedrockEventCases(): BedrockEventCase[] {
  return bedrockCases.map((c) => {
    const claims = c.caller ? principalClaims(c.caller) : undefined;
    const event: BedrockAgentEvent = {
      messageVersion: "1.0",
      agent: { name: "orders-agent", id: "AGENT12345", alias: "TSTALIASID", version: "DRAFT" },
      inputText: c.inputText,
      sessionId: c.sessionId,
      actionGroup: "order-tools",
      apiPath: `/v1/tools/${c.tool}`,
      httpMethod: "POST",
      parameters: [],
      requestBody: {
        content: {
          "application/json": { properties: Object.entries(c.body).map(([name, value]) => bedrockProperty(c.tool, name, value)) },
        },
      },
      sessionAttributes: claims
        ? {
            [sessionAttributeNames.sub]: String(claims.sub),
            [sessionAttributeNames.customerId]: String(claims.customer_id),
            [sessionAttributeNames.scope]: String(claims.scope),
          }
        : {},
      promptSessionAttributes: {},
    };
    const tool = tools.some((t) => t.name === c.tool) ? (c.tool as ToolName) : undefined;
    return { file: `bedrock-${c.tool}.${c.name}.json`, ...(tool ? { tool } : {}), expect: c.expect, note: c.note, event };
  });
}

/** What `npm run events` says when `toolsMissingEvents` names any: which tools, and where to add their cases. */
export function missingEventsMessage(missing: readonly string[]): string {
  return `No valid and invalid event yet for: ${missing.join(", ")} (add cases in ${eventCasesFile}).`;
}

/** Tools in the registry without a valid and an invalid case: the events test fails on these. */
export function toolsMissingEvents(list = eventCases()): string[] {
  return tools
    .map((t) => t.name)
    .filter(
      (name) => !(list.some((c) => c.tool === name && c.kind === "valid") && list.some((c) => c.tool === name && c.kind === "invalid")),
    );
}
