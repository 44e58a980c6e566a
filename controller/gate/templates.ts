import type { ChangeToolName, ToolName } from "#contract/tools";
import { composeOutcomes, type OrderFacts, type TurnOutcome } from "#controller/outcomes";
import { wordsOf } from "#contract/their-words";
import { quoteIn, shortTitle } from "#controller/guard/confirmation";
import { formatMessage, type MessageValues } from "#controller/i18n/format";
import { type GateMessageKey, gateMessages } from "#controller/i18n/gate-messages";
import { defaultLocale, type Locale } from "#controller/i18n/locale";

/**
 * The fixed replies (contract §8.2): one per tool and outcome, one per rejection code and reason. Each says only
 * what the recorded outcome supports, names the order, and for a rejection says what is still possible.
 */

/** How each tool is named inside another sentence ("I can't {action} it now"): the catalogue lists every tool's. */
const actionKey = (tool: ToolName): GateMessageKey => `action.${tool}`;

/** The completion sentence of each change: only a change is ever recorded as completed (an intent is a change). */
const completedKey = (tool: ChangeToolName): GateMessageKey => `completed.${tool}`;

/** The refusal sentence of each NOT_ELIGIBLE reason (contract §3) and of each other code; others get the generic one. */
const notEligibleKey: Partial<Record<string, GateMessageKey>> = {
  ALREADY_SHIPPED: "rejected.ALREADY_SHIPPED",
  DISPATCH_STARTED: "rejected.DISPATCH_STARTED",
  ALREADY_CANCELLED: "rejected.ALREADY_CANCELLED",
  NOT_DELIVERED: "rejected.NOT_DELIVERED",
  RETURN_WINDOW_CLOSED: "rejected.RETURN_WINDOW_CLOSED",
  ITEM_ALREADY_RETURNED: "rejected.ITEM_ALREADY_RETURNED",
  ITEM_ALREADY_REPLACED: "rejected.ITEM_ALREADY_REPLACED",
  REPLACEMENT_LINE: "rejected.REPLACEMENT_LINE",
  UNKNOWN_ITEM: "rejected.UNKNOWN_ITEM",
};
const codeKey: Partial<Record<string, GateMessageKey>> = {
  ORDER_NOT_FOUND: "rejected.ORDER_NOT_FOUND",
  VERSION_CONFLICT: "rejected.VERSION_CONFLICT",
  SELLER_SUSPENDED: "rejected.SELLER_SUSPENDED",
  OUT_OF_STOCK: "rejected.OUT_OF_STOCK",
  NO_PICKUP_SLOT: "rejected.NO_PICKUP_SLOT",
  RATE_LIMITED: "rejected.RATE_LIMITED",
};

type Body = Record<string, unknown>;
const field = (body: Body, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Body)[k] : undefined), body);
const text = (value: unknown, fallback = ""): string => (typeof value === "string" && value !== "" ? value : fallback);
const itemIdPattern = /^ITM-\d+$/;
/**
 * An id a status sentence names, from the service's answer: as it is when it has the id's shape, else as someone
 * else's words (contract/their-words.ts), never raw.
 */
const closedOr = (value: unknown, pattern: RegExp): string => {
  const given = text(value);
  return given === "" || pattern.test(given) ? given : wordsOf(given, "shop", "value");
};
const known = (value: string) => (value !== "" ? "yes" : "no");
const say = (locale: Locale, key: GateMessageKey, values?: MessageValues) => formatMessage(gateMessages, locale, key, values);
const actionOf = (tool: ToolName, locale: Locale) => say(locale, actionKey(tool));

export function completedTemplate(outcome: Extract<TurnOutcome, { kind: "completed" }>, locale: Locale = defaultLocale): string {
  const { orderId, body } = outcome;
  const items = ((field(body, "return", "itemIds") as unknown[] | undefined) ?? []).map((id) => closedOr(id, itemIdPattern)).join(", ");
  const date = closedOr(field(body, "return", "pickup", "date"), /^\d{4}-\d{2}-\d{2}$/);
  const window = closedOr(field(body, "return", "pickup", "window"), /^\d{2}:\d{2}-\d{2}:\d{2}$/);
  const label = closedOr(field(body, "return", "labelRef"), /^LBL-\d{5}-\d+$/);
  const item = closedOr(field(body, "replacement", "itemId"), itemIdPattern);
  const line = closedOr(field(body, "replacement", "replacementItemId"), itemIdPattern);
  return say(locale, completedKey(outcome.tool), {
    orderId,
    items,
    itemsKnown: known(items),
    date,
    window,
    pickup: date === "" ? "none" : window === "" ? "date" : "window",
    label,
    labelKnown: known(label),
    item,
    itemKnown: known(item),
    line,
    lineKnown: known(line),
  });
}

export function rejectedTemplate(outcome: Extract<TurnOutcome, { kind: "rejected" }>, locale: Locale = defaultLocale): string {
  const { orderId, tool, code, reason, body } = outcome;
  const key = code === "NOT_ELIGIBLE" ? (notEligibleKey[reason ?? ""] ?? "rejected.NOT_ELIGIBLE") : (codeKey[code] ?? "rejected.other");
  const dates = ((field(body, "error", "availableDates") as unknown[] | undefined) ?? [])
    .slice(0, 5)
    .map((d) => closedOr(d, /^\d{4}-\d{2}-\d{2}$/))
    .join(", ");
  const seconds = field(body, "error", "retryAfterSeconds");
  const minutes = typeof seconds === "number" ? Math.max(1, Math.ceil(seconds / 60)) : undefined;
  return say(locale, key, {
    orderId,
    action: actionOf(tool, locale),
    dates,
    datesKnown: known(dates),
    wait: minutes === undefined ? "unknown" : "known",
    count: minutes ?? 0,
    // As a string, so the figure is written as the record's number is, not regrouped by the locale.
    minutes: String(minutes ?? ""),
  });
}

export function unknownTemplate(outcome: { tool: ToolName; orderId: string }, locale: Locale = defaultLocale): string {
  return say(locale, "unknown", { orderId: outcome.orderId, action: actionOf(outcome.tool, locale) });
}

export function mismatchTemplate(outcome: { tool: ToolName; orderId: string }, locale: Locale = defaultLocale): string {
  return say(locale, "mismatch", { orderId: outcome.orderId, action: actionOf(outcome.tool, locale) });
}

/**
 * A candidate order as the clarification names it. Its titles go through the one renderer (`shortTitle`); a marketplace seller's — and any
 * a read did not say whose — are quoted and marked as the seller's, never said in the application's voice.
 */
export function describeOrder(order: OrderFacts, locale: Locale = defaultLocale): string {
  const by = order.sellerType === "sundry" ? "shop" : "seller";
  const titles = (order.itemTitles ?? []).slice(0, 2).map((title) => shortTitle(title, by));
  const named =
    titles.length === 0
      ? undefined
      : order.sellerType === "sundry"
        ? titles.join(", ")
        : say(locale, "sellerTitles", { titles: titles.map((t) => quoteIn(locale, t)).join(", ") });
  const details = [named, order.status].filter((d): d is string => d !== undefined && d !== "");
  return details.length > 0 ? `${order.orderId} (${details.join(", ")})` : order.orderId;
}

export function clarificationTemplate(candidates: readonly OrderFacts[], locale: Locale = defaultLocale): string {
  const names = candidates.map((c) => describeOrder(c, locale));
  const last = names.at(-1) ?? "";
  const list = names.length <= 1 ? last : say(locale, "list.and", { first: names.slice(0, -1).join(", "), last });
  return say(locale, "clarification", { list });
}

export function declinedTemplate(outcome: { tool: ToolName; orderId: string }, locale: Locale = defaultLocale): string {
  return say(locale, "declined", { orderId: outcome.orderId });
}

export function templateFor(outcome: TurnOutcome, locale: Locale = defaultLocale): string {
  switch (outcome.kind) {
    case "completed":
      return completedTemplate(outcome, locale);
    case "rejected":
      return rejectedTemplate(outcome, locale);
    case "unknown":
      return unknownTemplate(outcome, locale);
    case "mismatch":
      return mismatchTemplate(outcome, locale);
    case "clarification":
      return clarificationTemplate(outcome.candidates, locale);
    case "awaiting_confirmation":
      return outcome.question;
    case "declined":
      return declinedTemplate(outcome, locale);
    case "expired":
      return say(locale, "expired", { orderId: outcome.orderId });
  }
}

/** A turn that changed nothing, when the model's reply cannot be shown. */
export const noChangeTemplate = noChangeFor(defaultLocale);
export function noChangeFor(locale: Locale): string {
  return say(locale, "noChange");
}

/** A turn whose model failed: what happened, then what changed (or that nothing did). */
export function modelFailedTemplate(opening: string, locale: Locale = defaultLocale): string {
  return opening !== "" ? opening : [say(locale, "modelFailed"), noChangeFor(locale)].join(" ");
}

/**
 * The opening of a turn's reply: one sentence per change, rendered from its recorded outcome (composed: the
 * last outcome of each tool on each order), in the order the changes came up.
 */
export function openingFor(outcomes: readonly TurnOutcome[], locale: Locale = defaultLocale): string {
  return composeOutcomes(outcomes)
    .map((o) => templateFor(o, locale))
    .join(" ");
}

/** The honest progress reply when a turn hits its bound (contract §8.1 loop bounds). */
export function boundTemplate(
  limit: { kind: "tool_calls" | "time"; value: number },
  outcomes: readonly TurnOutcome[],
  locale: Locale = defaultLocale,
): string {
  const stopped = say(locale, "bound", { limit: limit.kind, value: String(limit.value) });
  return [stopped, outcomes.length > 0 ? openingFor(outcomes, locale) : noChangeFor(locale)].join(" ");
}
