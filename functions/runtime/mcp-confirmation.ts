import { createHash } from "node:crypto";
import { type Locale, localeOf, negotiatedLocale } from "#contract/locale";
import { formatMessage, type MessageValues } from "#contract/message-format";
import { type McpConfirmationKey, mcpConfirmationMessages } from "#contract/mcp-confirmation-messages";
import type { ChangeToolName, ToolName } from "#contract/tools";
import { parseArguments } from "#contract/validate";
import { wordsOf, wordShapes } from "#contract/their-words";
import type { AddDeliveryNoteInput } from "#core/add-delivery-note";
import type { CancelOrderInput } from "#core/cancel-order";
import type { DeclineAnswer } from "#core/declined";
import type { GetOrderOutput } from "#core/get-order";
import type { OfferReplacementInput } from "#core/offer-replacement";
import { admitToTool, principalFromClaims } from "#core/principal";
import type { StartReturnInput } from "#core/start-return";
import type { DeployedTool } from "#deploy/tool-functions";
import { type HttpResult, jsonResponse } from "#runtime/http";
import { logger } from "#runtime/logger";
import { countUnconfirmedChange } from "#runtime/observability";
import type { Caller } from "#runtime/mcp-checks";
import { metaKeys } from "#runtime/mcp-protocol";
import { principalHash } from "#runtime/principal-hash";
import { argumentsDigest, type OpenedState, openState, type RequestStateKey, sealState } from "#runtime/request-state";
import type { UnconfirmedChanges } from "#runtime/mcp-confirmation-settings";

/**
 * The person's confirmation of a change over MCP 2026-07-28 (contract §2.1). A changing tool called by a client
 * that declares form elicitation is answered first with `input_required`: one form that names the exact change and
 * its values, and a `requestState` bound to the principal, the tool, the arguments and a short expiry. The client
 * asks the person and calls again with their answer and the state; an accepted answer runs the tool once under its
 * operationId, anything else changes nothing and is recorded under it, so the state is answered once. A client that
 * cannot be asked (none declared, or a 2025 revision, which has no way for a stateless server to ask) gets what the
 * deployment says: the change as before, or a refusal.
 *
 * What this guards against is the model: a change it proposes, after reading a seller's text or on its own, needs
 * the person's yes in the client's own form, not the model's word. It trusts the MCP client to relay that yes.
 */

/** The key of the one input request, and of its answer in `inputResponses`. */
export const confirmationInput = "confirm_change";
/** The form's one field: the person ticks it to confirm. */
export const confirmField = "confirm";
/** An optional request `_meta` key naming the person's language (BCP 47); else Accept-Language; else English. */
export const localeMetaKey = "order-tools/locale";
/** How long a question may wait for its answer: long enough to read the form, short enough to be this request's. */
export const confirmationTtlSeconds = 10 * 60;
/** The most of a seller's text a question quotes, in characters as a person counts them. */
export const sellerTextBound = wordShapes.line.graphemes;
/** A cancellation names this many of the order's items, then how many more. */
export const itemsNamedOnCancel = 3;

export interface McpConfirmation {
  key: RequestStateKey;
  unconfirmedChanges: UnconfirmedChanges;
  ttlSeconds: number;
  now(): Date;
}

/** A tools/call, as the confirmation sees it. */
export interface McpToolCall {
  tool: DeployedTool;
  args: unknown;
  /** The revision it came in: 2026-07-28 can be asked; the 2025 revisions cannot. */
  era: { modern: true } | { modern: false; version: string };
  /** The tools/call params: `requestState`, `inputResponses` and `_meta` are read here. */
  params: Record<string, unknown>;
  acceptLanguage: string | undefined;
  caller: Caller;
  /** The MCP request's id, on the log lines. */
  requestId: string;
  /**
   * Runs a tool as this caller and returns its answer (a refusal included, never a throw); with `declined`, a
   * changing tool records the person's no under the operationId instead of making the change.
   */
  run(tool: ToolName, args: unknown, declined?: DeclineAnswer): Promise<HttpResult>;
}

/** What to do with the call. */
export type ConfirmationStep =
  /** Run the tool as asked: it was confirmed, cannot change anything, or the deployment allows it unasked. */
  | { kind: "run" }
  /** Answer with this tool-shaped result (a refusal, or the declined answer); the tool is not run. */
  | { kind: "answer"; result: HttpResult }
  /** Ask the person: an `input_required` result. */
  | { kind: "ask"; inputRequests: Record<string, unknown>; requestState: string }
  /** A JSON-RPC -32602 error: the request's confirmation fields cannot be taken. */
  | { kind: "refuse"; message: string; data: Record<string, unknown> };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Whether a 2026-07-28 request's client capabilities let the server send a form: `elicitation` declared with `form`,
 * or with neither mode (which the specification reads as form).
 */
export function canElicitForm(meta: unknown): boolean {
  const capabilities = isObject(meta) ? meta[metaKeys.clientCapabilities] : undefined;
  const elicitation = isObject(capabilities) ? capabilities.elicitation : undefined;
  if (!isObject(elicitation)) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** A digest of who the token says is calling (issuer, kind, sub and customer or seller), for a state to name. */
export function principalBinding(caller: Caller, tool: DeployedTool): string {
  const principal = principalFromClaims(caller.claims, caller.scopes, tool.scope);
  const id = principal.kind === "customer" ? principal.customerId : principal.kind === "seller" ? principal.sellerId : "";
  return createHash("sha256")
    .update(["order-tools/mcp-confirmation", caller.claims.iss ?? "", principal.kind, principal.sub, id].join("\n"))
    .digest("base64url");
}

/**
 * The confirmation step of a tools/call. A reading tool runs as asked; a `requestState` sent with one is checked
 * like any other and refused, since none is ever issued for a read.
 */
export async function confirmationStep(settings: McpConfirmation, call: McpToolCall): Promise<ConfirmationStep> {
  const { tool, params } = call;
  if (tool.kind === "read") return call.era.modern && params.requestState !== undefined ? answered(settings, call) : { kind: "run" };
  if (!call.era.modern) {
    return settings.unconfirmedChanges === "allow"
      ? unconfirmed(call, `revision ${call.era.version}`)
      : { kind: "answer", result: required(call, call.era.version) };
  }
  if (params.requestState !== undefined) return answered(settings, call);
  if (params.inputResponses !== undefined)
    return refuse(
      `Invalid params: inputResponses came without the requestState the question was asked with. Send the answer back with the exact requestState of the input_required result, or send the ${tool.name} call again without either to be asked.`,
      { inputResponses: "without_request_state" },
    );
  if (!canElicitForm(params._meta)) {
    return settings.unconfirmedChanges === "allow" ? unconfirmed(call, "no form elicitation") : { kind: "answer", result: required(call) };
  }
  return ask(settings, call);
}

/**
 * A change run with no person's confirmation, as the deployment allows for a client that cannot be asked: its log
 * line says so (`step: "unconfirmed"`, and why), and the UnconfirmedChange metric counts it, so an operator can tell
 * it from a confirmed one.
 */
function unconfirmed(call: McpToolCall, client: string): ConfirmationStep {
  log(call, identifiers(call.args), { step: "unconfirmed", by: "deployment", client, setting: "unconfirmedChanges=allow" });
  countUnconfirmedChange(call.tool.name);
  return { kind: "run" };
}

/**
 * Asks, unless the call cannot change anything whatever the person says: a principal the tool is not for, arguments
 * the tool refuses, an operationId whose outcome is already recorded (its replay, or IDEMPOTENCY_KEY_REUSED). The
 * tool then answers as it always does. The order is read (as the caller, so another's order is not found) to name
 * its items; if it cannot be read, that refusal is the answer and nothing is sent.
 */
async function ask(settings: McpConfirmation, call: McpToolCall): Promise<ConfirmationStep> {
  const { tool, caller } = call;
  const name = tool.name as ChangeToolName;
  const locale = requestedLocale(call);
  if (typeof locale !== "string") return locale;
  try {
    admitToTool(principalFromClaims(caller.claims, caller.scopes, tool.scope), name);
  } catch {
    return { kind: "run" };
  }
  let input: ChangeInput;
  try {
    input = parseArguments(tool.input, name, call.args) as ChangeInput;
  } catch {
    return { kind: "run" };
  }
  const recorded = await call.run("get_operation_status", { operationId: input.operationId });
  if (recorded.statusCode === 200 && /^(completed|rejected|declined)$/.test(String(bodyOf(recorded).status))) return { kind: "run" };
  const read = await call.run("get_order", { orderId: input.orderId });
  if (read.statusCode !== 200) return { kind: "answer", result: read };

  const question = confirmationQuestion(name, input, bodyOf(read) as unknown as GetOrderOutput, locale);
  const { state, id, expiresAt } = await sealState(settings.key, bindingOf(call), { now: settings.now(), ttlSeconds: settings.ttlSeconds });
  log(call, input, { step: "asked", requestState: id, expiresAt: expiresAt.toISOString(), locale });
  return {
    kind: "ask",
    inputRequests: { [confirmationInput]: { method: "elicitation/create", params: { mode: "form", ...question } } },
    requestState: state,
  };
}

/** The retry: the state must verify for this principal, tool and arguments; then the person's answer decides. */
async function answered(settings: McpConfirmation, call: McpToolCall): Promise<ConfirmationStep> {
  const { params, tool } = call;
  const keys = identifiers(call.args);
  if (typeof params.requestState !== "string")
    return refuse("Invalid params: requestState must be the string the input_required result carried, echoed exactly.", {
      requestState: "not_a_string",
    });
  const opened = await openState(settings.key, params.requestState, bindingOf(call), settings.now());
  if (!opened.ok) {
    log(call, keys, { step: "refused", reason: opened.reason, ...("id" in opened ? { requestState: opened.id } : {}) });
    return refuse(stateRefusal(opened, tool.name, settings.ttlSeconds), { requestState: opened.reason });
  }
  if (tool.kind === "read") return { kind: "run" };
  const responses = params.inputResponses;
  const answer = isObject(responses) ? responses[confirmationInput] : undefined;
  // An answer missing is asked for again, as multi round-trip requests have it; a malformed one is refused.
  if (answer === undefined) return canElicitForm(params._meta) ? ask(settings, call) : { kind: "answer", result: required(call) };
  const action = isObject(answer) ? answer.action : undefined;
  const confirmed = isObject(answer) && isObject(answer.content) ? answer.content[confirmField] : undefined;
  if (!(action === "decline" || action === "cancel" || (action === "accept" && typeof confirmed === "boolean")))
    return refuse(
      `Invalid params: inputResponses.${confirmationInput} must be the form's result: {"action": "accept", "content": {"${confirmField}": true or false}}, or {"action": "decline"} or {"action": "cancel"}.`,
      { inputResponses: "malformed" },
    );
  if (action === "accept" && confirmed === true) {
    log(call, keys, { step: "confirmed", by: "mcp-client", requestState: opened.id });
    return { kind: "run" };
  }
  const how = action === "accept" ? "unticked" : action;
  log(call, keys, { step: "declined", by: "mcp-client", answer: how, requestState: opened.id });
  // Recorded under the operationId (by the tool's own function, which holds the grants), so that this question is
  // answered once: a later yes with the same state finds the no and is refused. A yes already made stands instead.
  return { kind: "answer", result: await call.run(tool.name as ToolName, call.args, how) };
}

function bindingOf(call: McpToolCall) {
  return { principal: principalBinding(call.caller, call.tool), tool: call.tool.name, arguments: argumentsDigest(call.args) };
}

/** The locale the question is asked in: the request's `_meta` key (refused if it is not one we speak), or Accept-Language. */
function requestedLocale(call: McpToolCall): Locale | ConfirmationStep {
  const meta = call.params._meta;
  const asked = isObject(meta) ? meta[localeMetaKey] : undefined;
  if (asked === undefined) return negotiatedLocale(call.acceptLanguage);
  try {
    if (typeof asked !== "string") throw new RangeError(`params._meta["${localeMetaKey}"] must be a string`);
    return localeOf(asked);
  } catch (error) {
    return refuse(`Invalid params: params._meta["${localeMetaKey}"]: ${(error as Error).message}`, { locale: "unsupported" });
  }
}

const refuse = (message: string, data: Record<string, unknown>): ConfirmationStep => ({ kind: "refuse", message, data });

const retryHint = "Nothing was changed. Send the tools/call again without requestState and inputResponses, and the person is asked again.";

function stateRefusal(opened: Exclude<OpenedState, { ok: true }>, tool: string, ttlSeconds: number): string {
  switch (opened.reason) {
    case "tampered":
      return `Invalid params: requestState does not verify: it is not one this server issued, or it was changed. ${retryHint}`;
    case "expired":
      return `Invalid params: requestState expired at ${opened.expiresAt.toISOString()} (a question is good for ${ttlSeconds / 60} minutes after it is asked). ${retryHint}`;
    case "other_principal":
      return `Invalid params: requestState was issued to another signed-in principal, and a confirmation counts only for the person who was asked. ${retryHint}`;
    case "other_request":
      return `Invalid params: requestState was issued for ${opened.tool === tool ? `${tool} with other arguments` : opened.tool}; a retry must repeat the original call's name and arguments exactly, operationId included. ${retryHint}`;
  }
}

/** The operationId and orderId of arguments, for the log and the answers, whatever else is in them. */
function identifiers(args: unknown): { operationId?: string; orderId?: string } {
  const pick = (field: string) => (isObject(args) && typeof args[field] === "string" ? { [field]: args[field] as string } : {});
  return { ...pick("operationId"), ...pick("orderId") };
}

function log(call: McpToolCall, keys: { operationId?: string; orderId?: string }, confirmation: Record<string, unknown>): void {
  const sub = call.caller.claims.sub;
  logger.info("mcp confirmation", {
    tool: call.tool.name,
    requestId: call.requestId,
    ...(sub ? { principal: principalHash(sub) } : {}),
    ...(keys.operationId ? { operationId: keys.operationId } : {}),
    ...(keys.orderId ? { orderId: keys.orderId } : {}),
    confirmation,
  });
}

function bodyOf(result: HttpResult): Record<string, unknown> {
  try {
    const body = JSON.parse(result.body ?? "") as unknown;
    return isObject(body) ? body : {};
  } catch {
    return {};
  }
}

/** The answer to a client that cannot be asked, on a deployment that makes no change unasked. */
function required(call: McpToolCall, legacyVersion?: string): HttpResult {
  const { operationId, orderId } = identifiers(call.args);
  const why =
    legacyVersion === undefined
      ? `this MCP client declared no form elicitation (params._meta["${metaKeys.clientCapabilities}"].elicitation), so it cannot be asked`
      : `this client speaks MCP ${legacyVersion}, in which a stateless server cannot ask; asking needs MCP 2026-07-28 with form elicitation`;
  return jsonResponse(403, {
    operationId,
    orderId,
    error: {
      code: "CONFIRMATION_REQUIRED",
      message: `This server makes a ${call.tool.name} only after the person confirms it in a form their MCP client shows, and ${why}. Nothing was changed and nothing is recorded under operationId ${operationId}. Use a client that supports form elicitation on MCP 2026-07-28, or the application's own confirmation.`,
      retryable: false,
    },
  });
}

type ChangeInput = CancelOrderInput | AddDeliveryNoteInput | StartReturnInput | OfferReplacementInput;

/** The form: its message (one line per part, see below) and its one checkbox. */
export interface ConfirmationQuestion {
  message: string;
  requestedSchema: {
    type: "object";
    properties: Record<string, { type: "boolean"; title: string; description: string; default: false }>;
    required: string[];
  };
}

/**
 * The question for a change, in the person's language: what it does to which order, its items (a seller's title
 * quoted and marked as the seller's, cut to `sellerTextBound`), the reason, the pickup date, and the note or a
 * cancellation's reason as marked lines of their own, exactly as they will be stored.
 */
export function confirmationQuestion(
  tool: ChangeToolName,
  input: ChangeInput,
  order: GetOrderOutput,
  locale: Locale,
): ConfirmationQuestion {
  const say = (key: McpConfirmationKey, values: MessageValues = {}) => formatMessage(mcpConfirmationMessages, locale, key, values);
  const reason = (value: string) => say("reason", { reason: value });
  const item = (itemId: string) => itemLine(say, order, itemId);
  let lines: string[];
  switch (tool) {
    case "cancel_order": {
      const { reason: given } = input as CancelOrderInput;
      const named = order.items.slice(0, itemsNamedOnCancel).map((i) => item(i.itemId));
      const more = order.items.length - named.length;
      lines = [
        say("question.cancel_order", { orderId: order.orderId }),
        say("itemsOnOrder"),
        ...named,
        ...(more > 0 ? [say("moreItems", { count: more })] : []),
        ...(given ? [say("reasonGiven"), ...quotedLines(given)] : []),
      ];
      break;
    }
    case "add_delivery_note": {
      const { deliveryNote } = input as AddDeliveryNoteInput;
      const noteLines = quotedLines(deliveryNote);
      lines = [
        say("question.add_delivery_note", {
          orderId: order.orderId,
          lines: noteLines.length,
          replaces: order.delivery.note ? "yes" : "no",
        }),
        ...noteLines,
      ];
      break;
    }
    case "start_return": {
      const { itemIds, reason: why, pickupDate } = input as StartReturnInput;
      lines = [
        say("question.start_return", {
          orderId: order.orderId,
          count: itemIds.length,
          reason: reason(why),
          hasDate: pickupDate ? "yes" : "no",
          date: pickupDate ?? "",
        }),
        ...itemIds.map(item),
      ];
      break;
    }
    case "offer_replacement": {
      const { itemId, reason: why } = input as OfferReplacementInput;
      lines = [say("question.offer_replacement", { orderId: order.orderId, reason: reason(why) }), item(itemId)];
      break;
    }
    default:
      // A changing tool added to the registry needs its question here and in the catalogue.
      return tool satisfies never;
  }
  return {
    message: [...lines, say("footer")].join("\n"),
    requestedSchema: {
      type: "object",
      properties: {
        [confirmField]: { type: "boolean", title: say("confirmTitle"), description: say("confirmDescription"), default: false },
      },
      required: [confirmField],
    },
  };
}

/** One item's line: its id, its title quoted (marked as the seller's when a marketplace seller wrote it), or that it is not on the order. */
function itemLine(say: (key: "item", values: MessageValues) => string, order: GetOrderOutput, itemId: string): string {
  const found = order.items.find((i) => i.itemId === itemId);
  const title = found ? boundedSellerText(found.title) : "";
  return say("item", {
    itemId,
    hasTitle: title ? "yes" : "no",
    title,
    bySeller: title && order.seller.type === "marketplace" ? "yes" : "no",
    known: found ? "yes" : "no",
  });
}

/** Free text shown as it will be stored, each of its lines marked, so none of it can pass for the question's own. */
function quotedLines(text: string): string[] {
  return text.split("\n").map((line) => `│ ${line}`);
}

/**
 * Seller text as a question may quote it: someone else's words as the one renderer shows them
 * (contract/their-words.ts, shape `line`): on one line, without invisible characters, quotation marks or markup of
 * its own, at most `sellerTextBound` graphemes, ending in "…" when cut.
 */
export function boundedSellerText(text: string): string {
  return wordsOf(text, "seller", "line");
}
