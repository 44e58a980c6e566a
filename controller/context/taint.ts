import { type PrincipalKind, datamark } from "#contract/model-context";
import { errorCodeList } from "#contract/error-codes";
import { changeToolNames, tools } from "#contract/tools";
import { trackingStatuses } from "#core/get-order";
import { notEligibleReasons } from "#core/errors";
import { replacementReasons } from "#core/offer-replacement";
import { toolCatalog } from "#contract/json-schema";
import { carriers, chargeKinds, noteAuthors, orderStatuses, sellerTypes } from "#core/order";
import { sellerStatuses } from "#core/policy";
import { returnReasons } from "#core/start-return";
import { errorNoteFor } from "#controller/context/model-notes";
import { escapeFrames } from "#controller/context/frames";

/**
 * Taint is everything the principal did not write (contract §8.5). Every string of everything the model reads from
 * the service — a read's result, a change's result, an error body, and the same bodies inside the controller's own
 * notes — is placed by one function, `forModel`, as one of:
 * - **closed**: a value the service generates and that is checked as such here (ids, statuses, enums, dates,
 *   amounts, codes; a carrier and a charge kind only when one the contract lists): it carries no words. A value a
 *   carrier or a seller writes is never closed, whatever its shape: a tracking id and a SKU are foreign;
 * - **the shop's**: text the shop itself wrote and vouched for — an item's title and the seller's name on an order the
 *   shop sells itself, a description marked `origin: "sundry"` and `reviewed: true`;
 * - **the principal's own**: a note marked as written by this kind of principal (a customer's own note);
 * - **the application's**: a service `message` beside a `code` the controller knows, which the model never sees: the
 *   controller's own sentence for that code stands in its place (context/model-notes.ts);
 * - **foreign**: everything else, by default — a seller's words, a note someone else wrote, an unreviewed
 *   description, a search summary's titles and seller name (a summary does not say whose they are), a value under
 *   a closed key that does not check. Foreign text taints the conversation and reaches the model datamarked.
 * Every string, whatever its place, reaches the model with any imitation of the application's frames broken. Keys are
 * walked as values are: a key no result schema of the contract names is foreign, datamarked and tainting.
 */

/** A string the principal did not write, where it sits in a result. */
export interface ForeignText {
  /** Where it sits in the result: "items[0].description.text", "orders[1].sellerName". */
  path: string;
  /** Who wrote it, as far as the result says: a seller, a customer, support, or unknown. */
  origin: string;
  /** Set when the foreign text is a key (one no result schema names): the key itself. */
  key?: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = (values: readonly string[]) => {
  const set = new Set(values);
  return (value: string) => set.has(value);
};
const matches = (pattern: RegExp) => (value: string) => pattern.test(value);

/**
 * The closed values, by the key they sit under (an array's strings by the array's key): a string under one of these
 * keys is closed only when it checks; any other string under it is foreign. `test/controller/taint.test.ts` walks
 * every field of every result schema and holds each string field to this table or to a text rule below.
 */
export const closedValues: Readonly<Record<string, (value: string) => boolean>> = {
  orderId: matches(/^SU-\d{5}$/),
  itemId: matches(/^ITM-\d+$/),
  itemIds: matches(/^ITM-\d+$/),
  replacementItemId: matches(/^ITM-\d+$/),
  operationId: matches(/^[A-Za-z0-9._:-]{8,128}$/),
  status: oneOf([...orderStatuses, ...trackingStatuses, ...sellerStatuses, "completed", "rejected", "declined", "pending", "not_found"]),
  orderStatus: oneOf(orderStatuses),
  placedAt: matches(isoTimestamp),
  deliveredAt: matches(isoTimestamp),
  lastScanAt: matches(isoTimestamp),
  createdAt: matches(isoTimestamp),
  returnableUntil: matches(isoDay),
  date: matches(isoDay),
  pickupDate: matches(isoDay),
  availableDates: matches(isoDay),
  window: matches(/^\d{2}:\d{2}-\d{2}:\d{2}$/),
  currency: matches(/^[A-Z]{3}$/),
  type: oneOf(sellerTypes),
  origin: oneOf(["seller", "sundry", ...noteAuthors]),
  code: oneOf([...errorCodeList, "TRACKING_EXPIRED"]),
  reason: oneOf([...returnReasons, ...replacementReasons, ...notEligibleReasons]),
  // The contract's lists only: a deployment's other carriers and charge kinds are the order system's text.
  kind: oneOf(chargeKinds),
  carrier: oneOf(carriers),
  id: matches(/^SLR-\d+$/),
  sellerId: matches(/^SLR-\d+$/),
  ref: matches(/^(?:seller-supp\/SLR-\d+|sundry\/standard|marketplace\/default)$/),
  returnId: matches(/^RET-\d{5}-\d+$/),
  labelRef: matches(/^LBL-\d{5}-\d+$/),
  tool: oneOf(tools.map((t) => t.name)),
  originalTool: oneOf(tools.map((t) => t.name)),
  allowedActions: oneOf(changeToolNames),
  requiredScope: oneOf(["orders:read", "orders:write", "orders:support"]),
  path: matches(/^[A-Za-z0-9_.[\]]{0,200}$/),
  allowedPrincipals: oneOf(["customer", "seller", "support"]),
};

/** Keys whose strings are text, each placed by who wrote it (see above); any other key's string is foreign. */
export const textKeys = ["title", "name", "text", "message", "sellerName", "itemTitles", "trackingId", "sku"] as const;

/** The keys of an error body (the service's one error schema), beside those of the tools' outputs. */
const errorBodyKeys = [
  "error",
  "code",
  "message",
  "retryable",
  "issues",
  "path",
  "requiredScope",
  "allowedPrincipals",
  "expectedVersion",
  "currentVersion",
  "reason",
  "orderStatus",
  "sellerId",
  "sku",
  "availableDates",
  "retryAfterSeconds",
  "originalTool",
  "operationId",
  "orderId",
  "status",
];

let knownKeys: ReadonlySet<string> | undefined;
/**
 * Every key a result of the service may carry: the property names of every tool's published output schema and of
 * the error body. `test/controller/taint.test.ts` holds this to the published document.
 */
export function resultKeys(): ReadonlySet<string> {
  if (knownKeys) return knownKeys;
  const keys = new Set<string>(errorBodyKeys);
  const walk = (schema: unknown): void => {
    if (Array.isArray(schema)) for (const part of schema) walk(part);
    else if (isObject(schema)) {
      if (isObject(schema.properties)) for (const key of Object.keys(schema.properties)) keys.add(key);
      for (const part of Object.values(schema)) walk(part);
    }
  };
  for (const tool of toolCatalog().tools) walk(tool.outputSchema);
  knownKeys = keys;
  return keys;
}

/** Where a string stands, as `forModel` places it. */
export type Placement = "closed" | "shop" | "own" | "application" | "foreign";

/** What the walk knows of the objects around a string. */
interface Around {
  /** The order the string belongs to is one the shop sells itself (its `seller.type` is `sundry`). */
  shopOrder: boolean;
  /** The object that holds the string. */
  holder: Json;
}

/** Whose words a string is, by its key and the objects around it. */
function placement(key: string, value: string, around: Around, principal: PrincipalKind): Placement {
  const check = closedValues[key];
  if (check) return check(value) ? "closed" : "foreign";
  const { holder, shopOrder } = around;
  switch (key) {
    case "text":
      if (holder.origin === "sundry" && holder.reviewed === true) return "shop";
      if (holder.origin === principal && principal === "customer") return "own";
      return "foreign";
    case "title":
    case "name":
      return shopOrder ? "shop" : "foreign";
    case "message":
      return typeof holder.code === "string" && errorNoteFor(holder.code) !== undefined ? "application" : "foreign";
    default:
      return "foreign";
  }
}

/**
 * A body from the service as the model may read it, and the foreign texts in it: every foreign string datamarked,
 * every service message with a known code replaced by the controller's own sentence, every string's frame
 * imitations broken. The body given is not changed.
 */
export function forModel(body: unknown, principal: PrincipalKind): { body: unknown; foreign: ForeignText[] } {
  const foreign: ForeignText[] = [];
  const walk = (value: unknown, key: string, path: string, around: Around): unknown => {
    if (typeof value === "string") {
      const placed = placement(key, value, around, principal);
      if (placed === "application") return errorNoteFor(String(around.holder.code));
      if (placed !== "foreign") return escapeFrames(value);
      foreign.push({ path, origin: originOf(key, around) });
      return datamarked(escapeFrames(value));
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, key, `${path}[${i}]`, around));
    if (!isObject(value)) return value;
    const seller = isObject(value.seller) ? value.seller : undefined;
    const inner: Around = { shopOrder: seller ? seller.type === "sundry" : around.shopOrder, holder: value };
    const known = resultKeys();
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const at = path ? `${path}.${k}` : k;
        if (known.has(k)) return [k, walk(v, k, at, inner)];
        // A key no result schema names is someone's words, like a value.
        foreign.push({ path: `${at} (key)`, origin: "unknown", key: k });
        return [datamarked(escapeFrames(k)), walk(v, k, at, inner)];
      }),
    );
  };
  return { body: walk(body, "", "", { shopOrder: false, holder: {} }), foreign };
}

function originOf(key: string, { holder }: Around): string {
  if (key === "text" && typeof holder.origin === "string") return holder.origin;
  if (key === "trackingId" || key === "carrier") return "carrier";
  if (key === "sku") return "seller";
  if (key === "title" || key === "name" || key === "sellerName" || key === "itemTitles") return "seller";
  return "unknown";
}

/**
 * The mark between every word of a text, and around a text of one word (a tracking id, a SKU: text without spaces
 * is marked too); the mark itself removed from it first, so it cannot be forged.
 */
export function datamarked(text: string): string {
  const words = text.replaceAll(datamark, "").trim().split(/\s+/u);
  if (words.length === 1) return words[0] === "" ? "" : `${datamark}${words[0]}${datamark}`;
  return words.join(datamark);
}

/** The foreign texts of a tool result: empty when everything in it is closed, the shop's or the principal's own. */
export function foreignTexts(body: unknown, principal: PrincipalKind): ForeignText[] {
  return forModel(body, principal).foreign;
}

/** The foreign texts themselves, as written (the datamark removed): what a principal may quote back. */
export function foreignStrings(body: unknown, principal: PrincipalKind): string[] {
  const found: string[] = [];
  const { foreign } = forModel(body, principal);
  for (const { path, key } of foreign) {
    const value = key ?? valueAt(body, path);
    if (typeof value === "string") found.push(value.replaceAll(datamark, " "));
  }
  return found;
}

function valueAt(body: unknown, path: string): unknown {
  let value: unknown = body;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
