import { IntlMessageFormat } from "intl-messageformat";
import { wordsOf } from "#contract/their-words";
import { type GateMessageKey, gateMessages } from "#controller/i18n/gate-messages";
import type { Locale } from "#controller/i18n/locale";
import { at, str } from "#eval/change-tools";
import type { RecordedOutcome } from "#eval/judges/status-sentences";

/**
 * The facts a reply may tell about an order (contract §8.2), as the judge renders them itself: from what the
 * service answered this turn's reads (the harness's tap) and the operation records, never from the controller's
 * state or code. The sentences' words are the catalogue's (the translators', shared on purpose, as for the
 * localized status sentences); which fact is true, and with what values, is decided here:
 * - a status: the order status a completed change returned, or what a read said — when a change of the turn
 *   touched the order, only a status no order leaves (shipped, delivered, cancelled);
 * - what can still be done: a read's allowed actions, only for an order no change of the turn touched;
 * - placed day, tracking, items, charges, return window, returns and the delivery note: a read of the turn.
 * Someone else's words (a title, a seller's name, a note, a carrier's) are shown the way the contract states, by its one renderer.
 */

export interface FactContext {
  /** The bodies of this turn's successful reads (get_order, search_orders), in the order they came. */
  reads: readonly unknown[];
  /** The turn's change records, one per change. */
  records: readonly RecordedOutcome[];
  today: string;
  locale: Locale;
}

const patterns = new Map<string, IntlMessageFormat>();
const render = (locale: Locale, key: GateMessageKey, values: Record<string, string | number> = {}): string => {
  const id = `${locale} ${key}`;
  let pattern = patterns.get(id);
  if (!pattern) {
    pattern = new IntlMessageFormat(gateMessages[locale][key], locale, undefined, { ignoreTag: true });
    patterns.set(id, pattern);
  }
  const rendered = pattern.format(values);
  if (typeof rendered !== "string") throw new TypeError(`${key} (${locale}) did not render to text`);
  return rendered;
};
const lists = new Map<Locale, Intl.ListFormat>();
const listIn = (locale: Locale, parts: string[]) => {
  let format = lists.get(locale);
  if (!format) {
    format = new Intl.ListFormat(locale, { type: "conjunction" });
    lists.set(locale, format);
  }
  return format.format(parts);
};
const amounts = new Map<string, Intl.NumberFormat>();
const moneyIn = (locale: Locale, currency: string, cents: number) => {
  let format = amounts.get(`${locale} ${currency}`);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency });
    amounts.set(`${locale} ${currency}`, format);
  }
  // The amount is in the currency's minor units: as many digits as the runtime's currency data gives it (JPY none).
  return format.format(cents / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
};

type Read = Record<string, unknown>;

/** What this turn's reads said of each order: a search's summary, completed by a get_order's whole order. */
function ordersRead(reads: readonly unknown[]): Map<string, Read> {
  const orders = new Map<string, Read>();
  const take = (order: Read) => {
    const id = str(order.orderId);
    if (id) orders.set(id, { ...(orders.get(id) ?? {}), ...order });
  };
  for (const body of reads) {
    if (body === null || typeof body !== "object") continue;
    const read = body as Read;
    if (Array.isArray(read.orders)) for (const o of read.orders as Read[]) take(o);
    else take(read);
  }
  return orders;
}

const dayOf = (value: unknown) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : "");

/** Every fact sentence the judge holds true for the turn. */
export function factSentences(context: FactContext): string[] {
  const { locale } = context;
  const orders = ordersRead(context.reads);
  const say = (key: GateMessageKey, values: Record<string, string | number>) => render(locale, key, values);
  const out: string[] = [];
  const changed = new Set(context.records.map((r) => r.orderId));
  for (const record of context.records) {
    const status = str(at(record.result, "orderStatus"));
    if (record.status === "completed" && status)
      out.push(say("fact.status", { orderId: record.orderId, status, deliveredKnown: "no", deliveredOn: "" }));
  }
  const cancelled = new Set(
    context.records.filter((r) => r.status === "completed" && str(at(r.result, "orderStatus")) === "cancelled").map((r) => r.orderId),
  );
  for (const [orderId, order] of orders) {
    const status = str(order.status);
    const untouched = !changed.has(orderId);
    const gone = status === "cancelled" || cancelled.has(orderId);
    // A read before a change is still true after it only for a status no order leaves.
    if (status && (untouched || status === "shipped" || status === "delivered" || status === "cancelled")) {
      const deliveredOn = status === "delivered" ? dayOf(order.deliveredAt) : "";
      out.push(say("fact.status", { orderId, status, deliveredKnown: deliveredOn ? "yes" : "no", deliveredOn }));
    }
    const placedOn = dayOf(order.placedAt);
    if (placedOn) out.push(say("fact.placed", { orderId, placedOn }));
    if (!gone) out.push(...tracking(orderId, order, say));
    out.push(...items(orderId, order, locale, say));
    out.push(...charges(orderId, order, locale, say));
    if (!gone) out.push(...returnWindow(orderId, order, context.today, say));
    for (const r of (order.returns ?? []) as Read[])
      out.push(
        say("fact.return", {
          orderId,
          items: listIn(locale, ((r.itemIds ?? []) as unknown[]).map(String)),
          date: str(at(r, "pickup", "date")),
          window: str(at(r, "pickup", "window")),
          label: str(r.labelRef),
        }),
      );
    const note = str(at(order, "delivery", "note", "text"));
    const by = str(at(order, "delivery", "note", "origin"));
    if (note)
      out.push(
        say("fact.note", {
          orderId,
          note: wordsOf(note, by === "support" ? "support" : "customer", "note"),
          by: by === "customer" || by === "support" ? by : "other",
        }),
      );
    if (untouched && Array.isArray(order.allowedActions)) {
      const actions = (order.allowedActions as string[]).map((a) => say(`possible.${a}` as GateMessageKey, {}));
      out.push(say("fact.possible", { orderId, count: actions.length, actions: listIn(locale, actions) }));
    }
  }
  // The orders a reply that changed nothing counts rather than tells: all it read but three.
  if (orders.size > 3) out.push(say("fact.more", { count: orders.size - 3 }));
  return out;
}

type Say = (key: GateMessageKey, values: Record<string, string | number>) => string;

function tracking(orderId: string, order: Read, say: Say): string[] {
  const delivery = order.delivery as Read | undefined;
  if (!delivery || typeof delivery.carrier !== "string") return [];
  // The carrier's words, as the contract's one renderer shows them.
  const carrier = wordsOf(delivery.carrier, "carrier", "value");
  const trackingId = str(delivery.trackingId) === "" ? "" : wordsOf(str(delivery.trackingId), "carrier", "value");
  if (!trackingId) return [say("fact.tracking", { state: "none", orderId, carrier })];
  const t = (delivery.tracking ?? {}) as Read;
  if (t.available === false) return [say("fact.tracking", { state: "expired", orderId, carrier, trackingId, days: 90 })];
  const scanOn = dayOf(t.lastScanAt);
  return [
    say("fact.tracking", {
      state: "number",
      orderId,
      carrier,
      trackingId,
      scan: str(t.status) || "unknown",
      scanKnown: scanOn ? "yes" : "no",
      scanOn,
    }),
  ];
}

/**
 * A seller's words as a sentence of the application names them: the contract's one renderer of someone else's
 * words (contract/their-words.ts, shape `title`), which the contract states and the controller uses too.
 */
export function cutSellerWords(text: string): string {
  return wordsOf(text, "seller", "title");
}

function items(orderId: string, order: Read, locale: Locale, say: Say): string[] {
  const lines = Array.isArray(order.items)
    ? (order.items as Read[]).map((i) => ({
        title: cutSellerWords(str(i.title)),
        quantity: typeof i.quantity === "number" ? i.quantity : 1,
      }))
    : Array.isArray(order.itemTitles)
      ? (order.itemTitles as unknown[]).map((t) => ({ title: cutSellerWords(String(t)), quantity: 1 }))
      : [];
  if (lines.length === 0) return [];
  const seller = order.seller as Read | undefined;
  const marketplace = seller !== undefined && seller.type !== "sundry";
  const words = marketplace ? "marketplace" : seller ? "shop" : "seller";
  const named = lines.slice(0, 3).map((l) => say("fact.item", { quantity: l.quantity, title: l.title }));
  return [
    say("fact.items", {
      orderId,
      items: listIn(locale, named),
      more: Math.max(0, lines.length - 3),
      words,
      seller: seller ? cutSellerWords(str(seller.name)) : "",
    }),
  ];
}

function charges(orderId: string, order: Read, locale: Locale, say: Say): string[] {
  const currency = str(order.currency);
  if (typeof order.totalCents !== "number" || !/^[A-Z]{3}$/.test(currency)) return [];
  const money = (cents: number) => moneyIn(locale, currency, cents);
  const list = Array.isArray(order.charges) ? (order.charges as Read[]) : [];
  return [
    say("fact.amounts", {
      orderId,
      total: money(order.totalCents),
      breakdown: list.length > 1 ? "yes" : "no",
      charges: listIn(
        locale,
        list.map((c) => say("fact.charge", { amount: money(Number(c.cents)), kind: str(c.kind) })),
      ),
    }),
  ];
}

function returnWindow(orderId: string, order: Read, today: string, say: Say): string[] {
  const policy = order.policy as Read | undefined;
  if (!policy) return [];
  const until = dayOf(policy.returnableUntil);
  const days = typeof policy.returnWindowDays === "number" ? policy.returnWindowDays : undefined;
  if (until) return [say("fact.returnWindow", { state: until >= today ? "open" : "closed", orderId, until, days: days ?? 0 })];
  return order.status !== "delivered" && days !== undefined
    ? [say("fact.returnWindow", { state: "pending", orderId, until: "", days })]
    : [];
}
