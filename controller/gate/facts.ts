import { type ChangeToolName, isChangeTool } from "#contract/tools";
import { currencyMinorDigits, isCurrency } from "#core/currency";
import { carrierScanHistoryDays } from "#core/get-order";
import { composeOutcomes, type OrderFacts, type TurnOutcome } from "#controller/outcomes";
import { templateFor } from "#controller/gate/templates";
import { type Writer, wordsOf } from "#contract/their-words";
import { formatMessage, type MessageValues } from "#controller/i18n/format";
import { type GateMessageKey, gateMessages } from "#controller/i18n/gate-messages";
import type { Locale } from "#controller/i18n/locale";

/**
 * The facts a reply tells about an order (contract §8.2), rendered by the application from the records the turn
 * read or changed — never from what the model wrote — in the principal's language. Each fact is data (for a card
 * in the application's UI) and a sentence (for the reply's text).
 *
 * Where each comes from:
 * - `outcome`: a change this turn, as the service recorded it (the status sentence, gate/templates.ts);
 * - `status`: the order status a completed change returned, else a read of this turn — on an order a change of
 *   this turn touched, only a status no order leaves (shipped, delivered, cancelled): any other may be stale;
 * - `placed`, `tracking`, `items`, `amounts`, `returnWindow`, `return`, `note`: a get_order or search_orders of this
 *   turn (a search gives a status, dates, titles and the total);
 * - `possible`: get_order's `allowedActions`, only for an order no change of this turn touched.
 * Someone else's words — titles, a seller's name, the note, the carrier and its tracking id — reach a sentence only
 * through the one renderer (contract/their-words.ts), inside the catalogue's quotation marks or in a place that says
 * what they are, and each fact keeps them (`theirWordsIn`), so no model sentence that copies them is the fact.
 */

export type FactKind = "outcome" | "status" | "placed" | "tracking" | "items" | "amounts" | "returnWindow" | "return" | "note" | "possible";

interface FactBase {
  orderId: string;
  /** The fact's sentence in the principal's language. */
  text: string;
  /** Whether the reply's text tells it (the application may show every fact of the turn as a card either way). */
  shown: boolean;
}

export type OrderFact = FactBase &
  (
    | { kind: "outcome"; tool: string; outcome: TurnOutcome["kind"]; code?: string; reason?: string }
    | { kind: "status"; status: string; deliveredOn?: string }
    | { kind: "placed"; placedOn: string }
    | {
        kind: "tracking";
        carrier: string;
        trackingId: string | null;
        tracking?: { status: string; lastScanOn?: string } | { expired: true };
      }
    | {
        kind: "items";
        items: { itemId?: string; title: string; quantity?: number }[];
        moreItems: number;
        seller?: { name: string; marketplace: boolean };
        /** The titles (and the seller's name) are the seller's own words. */
        sellersWords: boolean;
      }
    | { kind: "amounts"; totalCents: number; currency: string; charges: { kind: string; cents: number }[] }
    | { kind: "returnWindow"; returnableUntil: string | null; returnWindowDays?: number; open: boolean }
    | { kind: "return"; itemIds: string[]; labelRef: string; pickup: { date: string; window: string } }
    | { kind: "note"; note: string }
    | { kind: "possible"; actions: ChangeToolName[] }
  );

/** A fact before it is placed on its order: each kind's own fields, and how to render its sentence. */
type FactOf<F> = F extends OrderFact ? Omit<F, "orderId" | "shown" | "text"> & { text: () => string } : never;
type NewFact = FactOf<OrderFact>;

/**
 * A fact placed on its order, its sentence rendered the first time it is read: a turn's facts are mostly only
 * compared with the model's sentences about their order, or carried as data a card may never show, so most are
 * rendered late or never. As JSON (`toJSON`) it is the plain fact, sentence included.
 */
class PlacedFact {
  readonly #render: () => string;
  #text: string | undefined;
  constructor(fields: object, render: () => string) {
    Object.assign(this, fields);
    this.#render = render;
  }
  get text(): string {
    this.#text ??= this.#render();
    return this.#text;
  }
  toJSON(): object {
    return { ...this, text: this.text };
  }
}

/** The rendered words of someone else each fact's sentence holds. */
const theirs = new WeakMap<object, readonly string[]>();

/** The words of someone else a fact's sentence holds, as rendered in it (none for a fact of the record's values only). */
export function theirWordsIn(fact: OrderFact): readonly string[] {
  return theirs.get(fact) ?? [];
}

function placed(fact: NewFact, orderId: string, words: readonly string[] = []): OrderFact {
  const { text, ...fields } = fact;
  const made = new PlacedFact({ ...fields, orderId, shown: false }, text);
  if (words.length > 0) theirs.set(made, words);
  return made as unknown as OrderFact;
}

export interface FactsInput {
  outcomes: readonly TurnOutcome[];
  orders: readonly OrderFacts[];
  /** The turn whose reads count (`OrderFacts.readTurn`); absent: only the turn's changes. */
  turn?: number;
  today: string;
  locale: Locale;
}

/** Outcomes whose change was sent or decided this turn, on an order (a clarification names none yet). */
const onOrder = (o: TurnOutcome) => o.kind !== "clarification" && o.kind !== "awaiting_confirmation";

/**
 * Every fact of the orders this turn read or changed, by order (the changed ones first, then the read ones in the
 * order they came up), each order's in this order: outcome, status, placed, tracking, items, amounts, returnWindow, return, note, possible. None is marked shown: the gate decides that.
 */
export function turnFacts(input: FactsInput): OrderFact[] {
  const outcomes = composeOutcomes(input.outcomes).filter(onOrder);
  const read = input.turn === undefined ? [] : input.orders.filter((o) => o.read && o.readTurn === input.turn);
  const ids = [...new Set([...outcomes.map((o) => o.orderId), ...read.map((o) => o.orderId)])];
  const say = (key: GateMessageKey, values: MessageValues) => formatMessage(gateMessages, input.locale, key, values);
  const facts: OrderFact[] = [];
  for (const orderId of ids) {
    const own = outcomes.filter((o) => o.orderId === orderId);
    for (const o of own)
      facts.push(
        placed(
          {
            kind: "outcome",
            tool: o.tool,
            outcome: o.kind,
            ...(o.kind === "rejected" ? { code: o.code, ...(o.reason ? { reason: o.reason } : {}) } : {}),
            text: () => templateFor(o, input.locale),
          },
          orderId,
        ),
      );
    const order = read.find((o) => o.orderId === orderId);
    facts.push(...orderFacts(orderId, order, own, input, say));
  }
  return facts;
}

type Say = (key: GateMessageKey, values: MessageValues) => string;

function orderFacts(orderId: string, order: OrderFacts | undefined, own: readonly TurnOutcome[], input: FactsInput, say: Say): OrderFact[] {
  const facts: OrderFact[] = [];
  const add = (fact: NewFact, words: readonly string[] = []) => facts.push(placed(fact, orderId, words));
  // Only what is settled about the order's state: a completed change's own status, else a read no change followed.
  const changedStatus = own.flatMap((o) =>
    o.kind === "completed" && typeof o.body.orderStatus === "string" ? [o.body.orderStatus] : [],
  )[0];
  // A change declined, or whose question expired unanswered, was never sent: the read still stands.
  const untouched = own.every((o) => o.kind === "declined" || o.kind === "expired");
  // A change tried this turn may have met another state than the read showed; only a status no order leaves
  // (shipped stays shipped once it has, delivered and cancelled are final) is still true after it.
  const settled = order?.status !== undefined && ["shipped", "delivered", "cancelled"].includes(order.status);
  const status = changedStatus ?? (untouched || settled ? order?.status : undefined);
  if (status !== undefined) {
    const deliveredOn = status === "delivered" ? day(order?.deliveredAt) : undefined;
    add({
      kind: "status",
      status,
      ...(deliveredOn ? { deliveredOn } : {}),
      text: () => say("fact.status", { orderId, status, deliveredKnown: deliveredOn ? "yes" : "no", deliveredOn: deliveredOn ?? "" }),
    });
  }
  if (!order) return facts;
  const placedOn = day(order.placedAt);
  if (placedOn) add({ kind: "placed", placedOn, text: () => say("fact.placed", { orderId, placedOn }) });
  if (order.delivery && (status ?? order.status) !== "cancelled") {
    const { carrier, trackingId } = order.delivery;
    add(
      trackingFact(orderId, order.delivery, say),
      [carrier, trackingId ?? ""].filter((w) => w !== "").map((w) => wordsOf(w, "carrier", "value")),
    );
  }
  const items = itemsFact(orderId, order, input.locale, say);
  if (items) add(items, [...items.items.map((i) => i.title), ...(items.seller ? [items.seller.name] : [])]);
  if (order.totalCents !== undefined && order.currency) add(amountsFact(orderId, order, input.locale, say));
  // The policy's window does not move with a change; an order cancelled (by the read, or this turn) has none.
  const window = (status ?? order.status) === "cancelled" ? undefined : returnWindowFact(orderId, order, input.today, say);
  if (window) add(window);
  for (const r of order.returns ?? [])
    add({
      kind: "return",
      itemIds: r.itemIds,
      labelRef: r.labelRef,
      pickup: r.pickup,
      text: () =>
        say("fact.return", {
          orderId,
          items: list(r.itemIds, input.locale),
          date: r.pickup.date,
          window: r.pickup.window,
          label: r.labelRef,
        }),
    });
  const note = order.delivery?.note;
  if (note) {
    const by = order.delivery?.noteBy === "support" ? "support" : order.delivery?.noteBy === "customer" ? "customer" : "other";
    const shown = wordsOf(note, by === "support" ? "support" : "customer", "note");
    add({ kind: "note", note, text: () => say("fact.note", { orderId, note: shown, by }) }, [shown]);
  }
  if (own.length === 0 && order.allowedActions) {
    const actions = order.allowedActions.filter((a): a is ChangeToolName => isChangeTool(a));
    add({
      kind: "possible",
      actions,
      text: () =>
        say("fact.possible", {
          orderId,
          count: actions.length,
          actions: list(
            actions.map((a) => say(`possible.${a}`, {})),
            input.locale,
          ),
        }),
    });
  }
  return facts;
}

function trackingFact(orderId: string, delivery: NonNullable<OrderFacts["delivery"]>, say: Say): NewFact {
  const { carrier, trackingId, tracking } = delivery;
  // The carrier's name and its tracking id are the carrier's words, as the renderer shows them.
  const shown = {
    carrier: wordsOf(carrier, "carrier", "value"),
    trackingId: trackingId === null ? "" : wordsOf(trackingId, "carrier", "value"),
  };
  if (trackingId === null)
    return { kind: "tracking", carrier, trackingId, text: () => say("fact.tracking", { state: "none", orderId, carrier: shown.carrier }) };
  if (tracking?.available === false)
    return {
      kind: "tracking",
      carrier,
      trackingId,
      tracking: { expired: true },
      text: () => say("fact.tracking", { state: "expired", orderId, ...shown, days: carrierScanHistoryDays }),
    };
  const lastScanOn = tracking?.available ? day(tracking.lastScanAt) : undefined;
  const scan = tracking?.available ? tracking.status : "unknown";
  return {
    kind: "tracking",
    carrier,
    trackingId,
    ...(tracking?.available ? { tracking: { status: tracking.status, ...(lastScanOn ? { lastScanOn } : {}) } } : {}),
    text: () =>
      say("fact.tracking", {
        state: "number",
        orderId,
        ...shown,
        scan,
        scanKnown: lastScanOn ? "yes" : "no",
        scanOn: lastScanOn ?? "",
      }),
  };
}

/** How many items the sentence names; the rest are counted. */
const namedItems = 3;

function itemsFact(orderId: string, order: OrderFacts, locale: Locale, say: Say): Extract<NewFact, { kind: "items" }> | undefined {
  // The shop's own titles are its words; any other (a marketplace seller's, or a search's, which does not say) a seller's.
  const by: Writer = order.seller && !order.seller.marketplace ? "shop" : "seller";
  const sellerWords = (text: string) => wordsOf(text, by, "title");
  const items: { itemId?: string; title: string; quantity?: number }[] =
    order.items && order.items.length > 0
      ? order.items.map((i) => ({
          itemId: i.itemId,
          title: sellerWords(i.title),
          ...(i.quantity !== undefined ? { quantity: i.quantity } : {}),
        }))
      : (order.itemTitles ?? []).map((title) => ({ title: sellerWords(title) }));
  if (items.length === 0) return undefined;
  const seller = order.seller ? { name: sellerWords(order.seller.name), marketplace: order.seller.marketplace } : undefined;
  // A search's summary does not say whose the titles are, so they are taken as the seller's.
  const sellersWords = seller?.marketplace ?? true;
  const named = () => items.slice(0, namedItems).map((i) => say("fact.item", { quantity: i.quantity ?? 1, title: i.title }));
  return {
    kind: "items",
    items,
    moreItems: Math.max(0, items.length - namedItems),
    ...(seller ? { seller } : {}),
    sellersWords,
    text: () =>
      say("fact.items", {
        orderId,
        items: list(named(), locale),
        more: Math.max(0, items.length - namedItems),
        words: seller?.marketplace ? "marketplace" : sellersWords ? "seller" : "shop",
        seller: seller?.name ?? "",
      }),
  };
}

function amountsFact(orderId: string, order: OrderFacts, locale: Locale, say: Say): NewFact {
  const currency = order.currency as string;
  const totalCents = order.totalCents as number;
  const charges = order.charges ?? [];
  const money = (cents: number) => moneyIn(locale, currency, cents);
  return {
    kind: "amounts",
    totalCents,
    currency,
    charges,
    text: () =>
      say("fact.amounts", {
        orderId,
        total: money(totalCents),
        breakdown: charges.length > 1 ? "yes" : "no",
        charges: list(
          charges.map((c) => say("fact.charge", { amount: money(c.cents), kind: c.kind })),
          locale,
        ),
      }),
  };
}

function returnWindowFact(orderId: string, order: OrderFacts, today: string, say: Say): NewFact | undefined {
  const until = day(order.returnableUntil);
  if (until) {
    const open = until >= today;
    return {
      kind: "returnWindow",
      returnableUntil: until,
      ...(order.returnWindowDays !== undefined ? { returnWindowDays: order.returnWindowDays } : {}),
      open,
      text: () => say("fact.returnWindow", { state: open ? "open" : "closed", orderId, until, days: order.returnWindowDays ?? 0 }),
    };
  }
  // Before delivery the window has not started: what the policy gives, once it is delivered.
  const days = order.returnWindowDays;
  if (order.returnableUntil === null && days !== undefined && order.status !== "delivered")
    return {
      kind: "returnWindow",
      returnableUntil: null,
      returnWindowDays: days,
      open: false,
      text: () => say("fact.returnWindow", { state: "pending", orderId, until: "", days }),
    };
  return undefined;
}

const day = (value: string | null | undefined): string | undefined =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;

const listFormats = new Map<Locale, Intl.ListFormat>();
function list(parts: readonly string[], locale: Locale): string {
  let format = listFormats.get(locale);
  if (!format) {
    format = new Intl.ListFormat(locale, { type: "conjunction", style: "long" });
    listFormats.set(locale, format);
  }
  return format.format(parts);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
/**
 * An amount in the locale's way of writing that currency ("£24.00", "24,00 £", "¥150,050", "BHD 12.345"), from a
 * whole number of the currency's minor units (contract §5): the listed currencies' own ISO 4217 digits; any other
 * code, the digits the runtime's currency data gives it.
 */
export function moneyIn(locale: Locale, currency: string, minorUnits: number): string {
  const key = `${locale} ${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = isCurrency(currency) ? currencyMinorDigits[currency] : undefined;
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      ...(digits !== undefined ? { minimumFractionDigits: digits, maximumFractionDigits: digits } : {}),
    });
    moneyFormats.set(key, format);
  }
  return format.format(minorUnits / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
