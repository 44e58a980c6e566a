import type { OrderFacts, TurnOutcome } from "#controller/gate/outcomes";
import { type Mention, months, type Token } from "#controller/gate/mentions";
import { numberWords, type Topic, topicTool } from "#controller/gate/vocabulary";

/**
 * What the turn's record lets a reply say, for the claim check (claim-check.ts): the facts a record or read holds
 * (dates, times, items, codes, amounts, counts), which outcome each mention is judged by, and the judgement itself.
 */

export interface ClaimContext {
  /** The turn's outcomes, composed (one per tool and order). Empty: a turn that changed nothing. */
  outcomes: readonly TurnOutcome[];
  /** What reads showed of the orders in play: statuses, dates, items, the actions allowed. */
  orders: readonly OrderFacts[];
  /** Today (UTC), to read "tomorrow" and weekdays. */
  today: string;
}

/** Everything a record or read lets a reply name: dates, times, item ids, codes. */
export interface Facts {
  dates: Set<string>;
  times: Set<string>;
  items: Set<string>;
  codes: Set<string>;
  amounts: Set<string>;
  /** Counts a reply may state: days from today to a date on record, minutes to wait, items in a change. */
  counts: { days: Set<number>; minutes: Set<number>; items: Set<number> };
}

export function factsOf(context: ClaimContext): Facts {
  const facts: Facts = {
    dates: new Set(),
    times: new Set(),
    items: new Set(),
    codes: new Set(),
    amounts: new Set(),
    counts: { days: new Set(), minutes: new Set(), items: new Set() },
  };
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      if (/^\d{4}-\d{2}-\d{2}/.test(value)) facts.dates.add(value.slice(0, 10));
      if (/^\d{1,2}:\d{2}-\d{1,2}:\d{2}$/.test(value)) {
        facts.times.add(value);
        for (const part of value.split("-")) facts.times.add(part);
      }
      if (/^ITM-\d+$/.test(value)) facts.items.add(value);
      if (/^[A-Z0-9]+(?:-[A-Z0-9]+)+$/.test(value) && /[A-Z]/.test(value) && /\d/.test(value)) facts.codes.add(value);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  for (const outcome of context.outcomes) {
    if (outcome.kind !== "completed" && outcome.kind !== "rejected") continue;
    visit(outcome.body);
    const body = outcome.body as { return?: { itemIds?: unknown }; error?: { retryAfterSeconds?: unknown } };
    if (Array.isArray(body.return?.itemIds)) facts.counts.items.add(body.return.itemIds.length);
    const seconds = body.error?.retryAfterSeconds;
    if (typeof seconds === "number") facts.counts.minutes.add(Math.max(1, Math.ceil(seconds / 60)));
  }
  for (const order of context.orders) {
    visit([order.placedAt, order.deliveredAt, order.returnableUntil]);
    for (const item of order.items ?? []) facts.items.add(item.itemId);
    for (const cents of order.amounts ?? []) for (const text of moneyTexts(cents)) facts.amounts.add(text);
  }
  const today = Date.parse(`${context.today}T00:00:00Z`);
  for (const date of facts.dates) facts.counts.days.add(Math.abs(Math.round((Date.parse(`${date}T00:00:00Z`) - today) / 86_400_000)));
  // Times on record are told as written or by the hour ("8am", "12 pm").
  for (const time of [...facts.times]) {
    const [hours, minutes] = time.split(":");
    if (minutes === "00") facts.times.add(`${Number(hours) % 12 === 0 ? 12 : Number(hours) % 12}${Number(hours) < 12 ? "am" : "pm"}`);
    facts.times.add(`${Number(hours)}:${minutes}`);
  }
  return facts;
}

function moneyTexts(cents: number): string[] {
  const units = (cents / 100).toFixed(2);
  return [units, units.replace(/\.00$/, "")];
}

/** What one outcome lets a reply say, mention by mention. */
export interface Allowance {
  outcome?: TurnOutcome;
  order?: OrderFacts;
}

/** Statuses a read showed, by the topic that would claim them. */
const statusTopics: Record<string, Topic[]> = {
  cancelled: ["cancel"],
  shipped: ["shipping"],
  dispatching: ["shipping"],
  delivered: ["delivery", "shipping"],
};

/** Facts a rejection states, by code and reason: the topics a reply may assert while explaining it. */
function rejectionFacts(outcome: Extract<TurnOutcome, { kind: "rejected" }>): { claims: Topic[]; denials: Topic[]; possible: string[] } {
  const { code, reason, tool } = outcome;
  if (code === "NOT_ELIGIBLE") {
    switch (reason) {
      case "ALREADY_SHIPPED":
        return { claims: ["shipping"], denials: [], possible: ["start_return"] };
      case "DISPATCH_STARTED":
        return { claims: ["shipping"], denials: [], possible: [] };
      case "ALREADY_CANCELLED":
        return { claims: ["cancel"], denials: [], possible: [] };
      case "NOT_DELIVERED":
        return { claims: [], denials: ["delivery"], possible: [tool] };
      case "RETURN_WINDOW_CLOSED":
        return { claims: ["window"], denials: [], possible: [] };
      case "ITEM_ALREADY_RETURNED":
        return { claims: ["return"], denials: [], possible: [] };
      case "ITEM_ALREADY_REPLACED":
        return { claims: ["replacement"], denials: [], possible: ["start_return"] };
      default:
        return { claims: [], denials: [], possible: [] };
    }
  }
  switch (code) {
    case "SELLER_SUSPENDED":
      return { claims: ["suspension"], denials: [], possible: ["start_return"] };
    case "OUT_OF_STOCK":
      return { claims: ["stock"], denials: ["stock"], possible: ["start_return"] };
    case "NO_PICKUP_SLOT":
      return { claims: [], denials: [], possible: ["start_return"] };
    case "VERSION_CONFLICT":
      return { claims: ["version"], denials: [], possible: [tool] };
    case "RATE_LIMITED":
      return { claims: [], denials: [], possible: [tool] };
    default:
      return { claims: [], denials: [], possible: [] };
  }
}

/** Why a mention is not supported, or undefined when it is. */
export function judgeMention(mention: Mention, at: Allowance, amountsRead = false, aboutOrder = true): string | undefined {
  const { topic, mode } = mention;
  const quoted = JSON.stringify(mention.text);
  const outcome = at.outcome;
  if (topic === "refund") return `speaks of a refund or credit (${quoted}), which no recorded outcome carries`;
  if (topic === "charge") {
    // What was charged, as a read showed it, may be told when nothing changed; nothing else about money.
    return outcome === undefined && mode === "claim" && amountsRead
      ? undefined
      : `speaks of money (${quoted}), which no recorded outcome carries`;
  }
  if (topic === "hold")
    return mode === "denial" && outcome?.kind !== "unknown" ? undefined : `speaks of a hold (${quoted}), which no tool makes`;
  if (mode === "offer") return undefined;
  // No change this turn on this order: the read facts decide.
  return outcome === undefined ? judgeWithoutChange(mention, at.order, aboutOrder) : judgeAgainst(mention, outcome);
}

/** A mention of an order no change of this turn is about: what the reads showed of it decides. */
function judgeWithoutChange(mention: Mention, order: OrderFacts | undefined, aboutOrder: boolean): string | undefined {
  const { topic, mode } = mention;
  const quoted = JSON.stringify(mention.text);
  const tool = topicTool[topic];
  const allowed = new Set(order?.allowedActions ?? []);
  if (mode === "question") return undefined;
  if (tool) {
    if (mode === "possibility")
      return allowed.has(tool) ? undefined : `says ${quoted} is possible, which the order's allowed actions do not say`;
    if (mode === "denial")
      return order?.status === "cancelled" && topic === "cancel" ? `denies ${quoted}, but the order is cancelled` : undefined;
    if (order?.status && statusTopics[order.status]?.includes(topic)) return undefined;
    if (mention.earlier && order?.status && statusTopics[order.status]?.includes(topic)) return undefined;
    return `claims ${quoted}, but no change was made this turn`;
  }
  switch (topic) {
    case "shipping":
    case "delivery":
      if (mode === "possibility") return `says ${quoted} may happen, which no record says`;
      if (mode === "denial")
        return order?.status === "delivered" || (topic === "shipping" && order?.status === "shipped")
          ? `denies ${quoted}, but the order is ${order?.status}`
          : undefined;
      // A status is the order's: "your order has shipped", not "a second bench has been dispatched".
      if (!aboutOrder) return `claims ${quoted} of something other than the order`;
      return order?.status && statusTopics[order.status]?.includes(topic)
        ? undefined
        : `claims ${quoted}, which the order's status (${order?.status ?? "unread"}) does not say`;
    case "window":
      return allowed.has("start_return") ? `says the return window is over (${quoted}), but a return is still allowed` : undefined;
    case "unchanged":
    case "refusal":
      return undefined;
    case "stock":
    case "suspension":
    case "version":
      return mode === "claim" ? `claims ${quoted}, which no read or record says` : undefined;
    case "completion":
      return mode === "denial" ? undefined : `claims something was done (${quoted}), but no change was made this turn`;
    case "doubt":
      return `speaks of an outcome not yet known (${quoted}), but no change was attempted this turn`;
  }
  return `cannot place ${quoted}`;
}

/** A mention held against the recorded outcome of its order and tool. */
function judgeAgainst(mention: Mention, outcome: TurnOutcome): string | undefined {
  const { topic, mode } = mention;
  const quoted = JSON.stringify(mention.text);
  const tool = topicTool[topic];
  switch (outcome.kind) {
    case "completed": {
      if (tool) {
        if (tool !== outcome.tool)
          return mode === "denial" ? undefined : `speaks of ${quoted}, but the change that completed is ${outcome.tool}`;
        return mode === "claim" ? undefined : `${mode === "denial" ? "denies" : "doubts"} ${quoted}, which completed`;
      }
      if (topic === "completion")
        return mode === "claim" ? undefined : `${mode === "denial" ? "denies" : "doubts"} that the change was done (${quoted})`;
      if (topic === "delivery" || topic === "shipping") return `claims ${quoted}, which the completed ${outcome.tool} does not say`;
      if (topic === "stock" && outcome.tool === "offer_replacement" && mode === "claim") return undefined;
      return `says ${quoted}, which contradicts or goes beyond the completed ${outcome.tool}`;
    }
    case "rejected":
      return judgeAgainstRejection(mention, outcome);
    case "unknown":
    case "mismatch": {
      if (topic === "doubt") return undefined;
      if ((tool === outcome.tool || topic === "completion") && mode === "question") return undefined;
      if (tool && tool !== outcome.tool && mode === "denial") return undefined;
      return `says ${quoted} while the outcome of ${outcome.tool} on ${outcome.orderId} is not known`;
    }
    case "declined":
    case "expired":
    case "clarification":
    case "awaiting_confirmation": {
      if (mode === "denial" || mode === "question") return undefined;
      if (topic === "unchanged" || topic === "refusal") return undefined;
      return `claims ${quoted}, but nothing was sent`;
    }
  }
}

/** A mention held against a rejection: what its code and reason state, and what they leave possible. */
function judgeAgainstRejection(mention: Mention, outcome: Extract<TurnOutcome, { kind: "rejected" }>): string | undefined {
  const { topic, mode } = mention;
  const quoted = JSON.stringify(mention.text);
  const tool = topicTool[topic];
  const facts = rejectionFacts(outcome);
  if (tool) {
    if (mode === "denial") return undefined;
    if (mode === "possibility")
      return facts.possible.includes(tool) ? undefined : `says ${quoted} is still possible, which the rejection does not say`;
    if (
      mode === "claim" &&
      facts.claims.includes(topic) &&
      (mention.earlier || topic !== "cancel" || outcome.reason === "ALREADY_CANCELLED")
    )
      return undefined;
    return `claims ${quoted}, but ${outcome.tool} was rejected (${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""})`;
  }
  if (topic === "refusal" || topic === "unchanged") return undefined;
  if (mode === "denial" && topic !== "doubt")
    return facts.denials.includes(topic) || topic === "completion" || topic === "version"
      ? undefined
      : facts.claims.includes(topic)
        ? `denies ${quoted}, which the rejection states`
        : undefined;
  if (mode === "claim" && facts.claims.includes(topic)) return undefined;
  if (mode === "question" && topic !== "doubt") return undefined;
  // "Once it arrives, you can start a return": a delivery still to come is what a refusal leaves open.
  if (mode === "possibility" && (topic === "delivery" || topic === "shipping")) return undefined;
  return `says ${quoted}, which the rejection (${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""}) does not support`;
}

const monthWords = new Set([...months, "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]);

/**
 * A number is a fact: a count of days, weeks, minutes, hours or items, or an hour of the clock, must equal one the
 * record holds; a day of a month is a date (datesIn); any other number is one no record holds.
 */
export function numberProblem(words: readonly string[], i: number, token: Token, facts: Facts): string | undefined {
  const unit = words[i + 1] === "working" || words[i + 1] === "business" ? words[i + 2] : words[i + 1];
  let n: number;
  if (token.kind === "number") n = Number.parseInt(token.text, 10);
  else if (
    token.kind === "word" &&
    numberWords[token.text] !== undefined &&
    unit !== undefined &&
    /^(?:days?|weeks?|minutes?|hours?|items?)$/.test(unit)
  )
    n = numberWords[token.text] as number;
  else return undefined;
  if (token.kind === "number" && [words[i - 1], words[i + 1], words[i + 2]].some((w) => w !== undefined && monthWords.has(w)))
    return undefined;
  const said = `${token.text}${unit ? ` ${unit}` : ""}`;
  switch (unit) {
    case "am":
    case "pm":
      return facts.times.has(`${n}${unit}`) ? undefined : `names the time ${JSON.stringify(said)}, which no record holds`;
    case "day":
    case "days":
      return facts.counts.days.has(n) ? undefined : `names ${JSON.stringify(said)}, which no date on record is from today`;
    case "week":
    case "weeks":
      return facts.counts.days.has(n * 7) ? undefined : `names ${JSON.stringify(said)}, which no date on record is from today`;
    case "minute":
    case "minutes":
    case "hour":
    case "hours":
      return facts.counts.minutes.has(unit.startsWith("hour") ? n * 60 : n)
        ? undefined
        : `names a wait of ${JSON.stringify(said)}, which no record holds`;
    case "item":
    case "items":
      return facts.counts.items.has(n) ? undefined : `names ${JSON.stringify(said)}, which no record holds`;
    default:
      return `names the number ${JSON.stringify(token.text)}, which no record holds`;
  }
}

/** The orders a sentence that names none is about: the turn's own, else the only order in play. */
export function defaultOrders(context: ClaimContext): string[] {
  const own = [...new Set(context.outcomes.filter((o) => o.kind !== "clarification").map((o) => o.orderId))];
  if (own.length > 0) return own;
  return context.orders.length === 1 ? [context.orders[0]?.orderId as string] : [];
}

export function allowanceFor(
  mention: Mention,
  orderId: string | undefined,
  context: ClaimContext,
  orders: Map<string, OrderFacts>,
): Allowance | "ambiguous" {
  const order = orderId ? orders.get(orderId) : undefined;
  const onOrder = context.outcomes.filter((o) => orderId === undefined || o.orderId === orderId || o.kind === "clarification");
  const tool = topicTool[mention.topic];
  if (tool) {
    const own = onOrder.find((o) => o.tool === tool);
    if (own) return { outcome: own, ...(order ? { order } : {}) };
    // An action no outcome of this order is about: judged by the order's only outcome (a claim of it is then
    // a claim beyond the record), or as a turn without change when there is none.
    if (onOrder.length === 1) return { outcome: onOrder[0] as TurnOutcome, ...(order ? { order } : {}) };
    if (onOrder.length === 0) return order ? { order } : {};
    return { outcome: onOrder[0] as TurnOutcome, ...(order ? { order } : {}) };
  }
  if (onOrder.length === 0) return order ? { order } : {};
  if (onOrder.length === 1) return { outcome: onOrder[0] as TurnOutcome, ...(order ? { order } : {}) };
  // Several outcomes on one order and a mention that names no tool ("done"): fine only if every outcome allows it.
  const verdicts = onOrder.map((o) => judgeMention(mention, { outcome: o }));
  if (verdicts.every((v) => v === undefined)) return { outcome: onOrder[0] as TurnOutcome };
  return "ambiguous";
}
