import { type PrincipalKind, datamark } from "#contract/model-context";
import { errorCodeList } from "#contract/error-codes";
import { changeToolNames, tools } from "#contract/tools";
import { trackingStatuses } from "#core/get-order";
import { notEligibleReasons } from "#core/errors";
import { replacementReasons } from "#core/offer-replacement";
import { carriers, chargeKinds, noteAuthors, orderStatuses, sellerTypes, trackingIdPattern } from "#core/order";
import { sellerStatuses } from "#core/policy";
import { returnReasons } from "#core/start-return";
import { errorNoteFor } from "#controller/context/model-notes";
import { escapeFrames } from "#controller/context/frames";

/**
 * Taint is everything the principal did not write (contract §8.5). Every string of everything the model reads from
 * the service — a read's result, a change's result, an error body, and the same bodies inside the controller's own
 * notes — is placed by one function, `forModel`, as one of:
 * - **closed**: a value the service generates from a closed set and that is checked as such here (ids, statuses,
 *   enums, dates, amounts, codes, the carrier, a tracking id): it carries no words;
 * - **the shop's**: text the shop itself wrote and vouched for — an item's title and the seller's name on an order the
 *   shop sells itself, a description marked `origin: "sundry"` and `reviewed: true`;
 * - **the principal's own**: a note marked as written by this kind of principal (a customer's own note);
 * - **the application's**: a service `message` beside a `code` the controller knows, which the model never sees: the
 *   controller's own sentence for that code stands in its place (context/model-notes.ts);
 * - **foreign**: everything else, by default — a seller's words, a note someone else wrote, an unreviewed
 *   description, a search summary's titles and seller name (a summary does not say whose they are), a value under
 *   a closed key that does not check. Foreign text taints the conversation and reaches the model datamarked.
 * Every string, whatever its place, reaches the model with any imitation of the application's frames broken.
 */

/** A string the principal did not write, where it sits in a result. */
export interface ForeignText {
  /** Where it sits in the result: "items[0].description.text", "orders[1].sellerName". */
  path: string;
  /** Who wrote it, as far as the result says: a seller, a customer, support, or unknown. */
  origin: string;
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
  status: oneOf([...orderStatuses, ...trackingStatuses, ...sellerStatuses, "completed", "rejected", "pending", "not_found"]),
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
  kind: oneOf(chargeKinds),
  carrier: oneOf(carriers),
  trackingId: matches(trackingIdPattern),
  id: matches(/^SLR-\d+$/),
  sellerId: matches(/^SLR-\d+$/),
  ref: matches(/^(?:seller-supp\/SLR-\d+|sundry\/standard|marketplace\/default)$/),
  returnId: matches(/^RET-\d{5}-\d+$/),
  labelRef: matches(/^LBL-\d{5}-\d+$/),
  sku: matches(/^[A-Z0-9][A-Z0-9-]{0,63}$/),
  tool: oneOf(tools.map((t) => t.name)),
  originalTool: oneOf(tools.map((t) => t.name)),
  allowedActions: oneOf(changeToolNames),
  requiredScope: oneOf(["orders:read", "orders:write", "orders:support"]),
  path: matches(/^[A-Za-z0-9_.[\]]{0,200}$/),
  allowedPrincipals: oneOf(["customer", "seller", "support"]),
};

/** Keys whose strings are text, each placed by who wrote it (see above); any other key's string is foreign. */
export const textKeys = ["title", "name", "text", "message", "sellerName", "itemTitles"] as const;

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
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k, path ? `${path}.${k}` : k, inner)]));
  };
  return { body: walk(body, "", "", { shopOrder: false, holder: {} }), foreign };
}

function originOf(key: string, { holder }: Around): string {
  if (key === "text" && typeof holder.origin === "string") return holder.origin;
  if (key === "title" || key === "name" || key === "sellerName" || key === "itemTitles") return "seller";
  return "unknown";
}

/** The mark between every word of a text; the mark itself removed from it first, so it cannot be forged. */
export function datamarked(text: string): string {
  return text.replaceAll(datamark, "").trim().split(/\s+/u).join(datamark);
}

/** The foreign texts of a tool result: empty when everything in it is closed, the shop's or the principal's own. */
export function foreignTexts(body: unknown, principal: PrincipalKind): ForeignText[] {
  return forModel(body, principal).foreign;
}

/** The foreign texts themselves, as written (the datamark removed): what a principal may quote back. */
export function foreignStrings(body: unknown, principal: PrincipalKind): string[] {
  const found: string[] = [];
  const { foreign } = forModel(body, principal);
  for (const { path } of foreign) {
    const value = valueAt(body, path);
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
