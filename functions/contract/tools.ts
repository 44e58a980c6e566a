import type { ZodMiniType } from "zod/mini";
import * as schemas from "#contract/schemas";
import * as compoundSchemas from "#contract/compound-schemas";
import * as readSchemas from "#contract/read-schemas";
import type { changeRules } from "#core/eligibility";
import { type Scope, scopes } from "#core/principal";

/**
 * The route every tool answers on (contract §2), `POST /v1/tools/<name>`: the controller calls it, and the
 * deployment manifest (functions/deploy/tool-functions.ts) routes it to the tool's function.
 */
export const toolPath = (name: string): string => `/v1/tools/${name}`;

/**
 * What a tool is to its callers, written once: the catalogue, OpenAPI and MCP publish it, handlers and the
 * controller validate with it. Where it runs (its function, routes and grants) is the deployment manifest's
 * (functions/deploy/tool-functions.ts).
 */
export interface ToolDefinition {
  name: string;
  description: string;
  kind: "read" | "change";
  /**
   * A changing tool's action as a sentence names it: "I can't {verb} order SU-12345 now". Only a change has one;
   * the check below the registry holds each entry to its kind.
   */
  verb?: string;
  /**
   * A changing tool's same-change key: the input fields whose values make two requests the same change (a list
   * compared as a set), so a change proposed again is the same intent, not a second one.
   */
  sameChange?: readonly string[];
  scope: Scope;
  input: ZodMiniType;
  output: ZodMiniType;
  /**
   * MCP tool annotations, all four written out: clients gate confirmations and replays on them, and MCP's defaults
   * for a hint left out are its unsafe reading (not read-only, destructive, not idempotent, open-world). In MCP's
   * words: readOnly, the tool does not modify its environment; destructive, its updates may be other than additive;
   * idempotent, calling it again with the same arguments has no additional effect (a change's arguments include its
   * operationId); openWorld, it may reach an open world of external entities. Every tool acts only on this
   * service's own orders, so none is open-world.
   */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
}

export const tools = [
  {
    name: "search_orders",
    description:
      "Find which order someone means from what they remember: their e-mail address, the order id or any 3+ consecutive digits of it, and/or a range of days (at most 92) on which it was placed or delivered. Criteria combine. Use it when the order's full id is not known. Returns up to 20 orders newest first, each with status, dates, seller, the first item titles and the total, and says when more matched. Customers find only their own orders, sellers only the orders they sold (by id digits or days, not e-mail); a caller acting for any customer must give an e-mail or id digits.",
    kind: "read",
    scope: scopes.read,
    input: readSchemas.searchOrdersInput,
    output: readSchemas.searchOrdersOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "get_order",
    description:
      "Returns everything on one order in a single call: status and version, items (descriptions marked with who wrote them), every charge as charged, the seller and its status, the return policy that applies with the last day a return may start, delivery with carrier tracking and the customer's note, returns started, and which changing tools the caller could use on it now. Text the seller or customer wrote is returned as data inside a wrapper naming its origin. Use it before any change, for the version and the allowed changes, and to answer what is on an order.",
    kind: "read",
    scope: scopes.read,
    input: readSchemas.getOrderInput,
    output: readSchemas.getOrderOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "cancel_order",
    description:
      "Cancel an order that has not shipped (status placed, processing or dispatching). Send a new operationId per intended cancellation and the same one when retrying it; expectedVersion is optional, since eligibility is checked when the cancellation is written. A shipped order cannot be cancelled: start_return applies once it is delivered. Use it when an order is no longer wanted before it ships. Returns the order's new version and status.",
    kind: "change",
    verb: "cancel",
    sameChange: ["orderId"],
    scope: scopes.write,
    input: schemas.cancelOrderInput,
    output: schemas.cancelOrderOutput,
    // Destructive: a cancelled order stays cancelled; no tool restores it.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "add_delivery_note",
    description:
      "Give the carrier delivery instructions for an order that has not started dispatch (placed or processing). The note replaces any earlier one and is stored verbatim as text the customer wrote. Needs the order's current version from get_order. Use it when the carrier needs instructions to deliver. Returns the note as stored and the order's new version.",
    kind: "change",
    verb: "set the delivery note on",
    sameChange: ["orderId", "deliveryNote"],
    scope: scopes.write,
    input: schemas.addDeliveryNoteInput,
    output: schemas.addDeliveryNoteOutput,
    // Destructive: the note replaces any earlier one, which is gone.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "start_return",
    description:
      "Start a return of delivered items in one step: checks that the order is delivered, that today is within the seller's return window and that each item is on the order and not yet returned; issues a return label; books a carrier pickup on pickupDate (or the earliest day from tomorrow on), taking the next day with capacity when that one is full; and notes the return on the order's activity. All or nothing. Allowed for suspended sellers. expectedVersion is optional: eligibility is checked when the return is written. Use it when delivered items go back, for any reason. Returns the return's id, its label and the booked pickup day and window.",
    kind: "change",
    verb: "start a return on",
    sameChange: ["orderId", "itemIds"],
    scope: scopes.write,
    input: compoundSchemas.startReturnInput,
    output: compoundSchemas.startReturnOutput,
    // Additive: a return, its label, a pickup booking and an activity entry are added; nothing is overwritten.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "offer_replacement",
    description:
      "Replace a delivered item that arrived damaged, was missing or was the wrong one, in one step: reserves stock of the same product and adds a replacement line (at no charge) to the order. Allowed on delivered orders within the seller's return window, once per item, and not for an item being returned. A suspended seller cannot send replacements; start_return still works then. Needs the order's current version from get_order. Use it when the same product should be sent again rather than returned. Returns the new replacement line and the stock-keeping unit reserved.",
    kind: "change",
    verb: "send a replacement for an item on",
    sameChange: ["orderId", "itemId"],
    scope: scopes.write,
    input: compoundSchemas.offerReplacementInput,
    output: compoundSchemas.offerReplacementOutput,
    // Additive: a replacement line and a stock reservation are added; nothing is overwritten.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "get_operation_status",
    description:
      "Returns what became of a change you requested, by its operationId: completed (with the original result), rejected (with the original error), pending (still running), or not found (not recorded yet: resend the identical request with the same operationId; it takes effect at most once). Use it when the answer to a change was lost or unclear.",
    kind: "read",
    scope: scopes.read,
    input: schemas.operationStatusInput,
    output: schemas.operationStatusOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
] as const satisfies readonly ToolDefinition[];

export type ToolName = (typeof tools)[number]["name"];

export function toolNamed(name: ToolName): ToolDefinition {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`No tool ${name} in the registry`);
  return tool;
}

/** A tool's entry as its kind requires: a change names its verb and its same-change key, a read neither. */
type EntryOfKind<Entry> = Entry extends { kind: "change"; input: ZodMiniType<infer Input> }
  ? { kind: "change"; verb: string; sameChange: readonly [keyof Input & string, ...(keyof Input & string)[]] }
  : { kind: "read"; verb?: never; sameChange?: never };
type EntriesOfKind<Entries extends readonly unknown[]> = { readonly [K in keyof Entries]: EntryOfKind<Entries[K]> };
// Fails to compile, naming the entry, when a change lacks its verb or key, a key is not an input field, or a read has either.
tools satisfies EntriesOfKind<typeof tools>;

/** The changing tools' entries, in the registry's order. */
export type ChangeTool = Extract<(typeof tools)[number], { kind: "change" }>;
export type ChangeToolName = ChangeTool["name"];

export const changeTools: readonly ChangeTool[] = tools.filter((tool): tool is ChangeTool => tool.kind === "change");
export const changeToolNames = changeTools.map((tool) => tool.name) as [ChangeToolName, ...ChangeToolName[]];

export function isToolName(name: string): name is ToolName {
  return tools.some((tool) => tool.name === name);
}

export function isChangeTool(name: string): name is ChangeToolName {
  return changeTools.some((tool) => tool.name === name);
}

export function changeToolNamed(name: ChangeToolName): ChangeTool {
  const tool = changeTools.find((t) => t.name === name);
  if (!tool) throw new Error(`No changing tool ${name} in the registry`);
  return tool;
}

/**
 * Core keeps its own table of changing tools (`changeRules`: which order states each accepts), since core sits
 * below the contract. Both must list the same tools: one added on either side fails here, naming the tool the
 * other side lacks.
 */
type CoreChangeToolName = keyof typeof changeRules;
const missingFromCore: [Exclude<ChangeToolName, CoreChangeToolName>] extends [never] ? true : Exclude<ChangeToolName, CoreChangeToolName> =
  true;
const missingFromContract: [Exclude<CoreChangeToolName, ChangeToolName>] extends [never]
  ? true
  : Exclude<CoreChangeToolName, ChangeToolName> = true;
void missingFromCore;
void missingFromContract;
