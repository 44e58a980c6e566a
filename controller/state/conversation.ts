import { sellerTextLimits } from "#core/order";
import type { OrderFacts } from "#controller/outcomes";
import type { PrincipalMessage } from "#controller/guard/message";
import type { Locale } from "#controller/i18n/locale";
import { finalStates, type Intent } from "#controller/intents/intent";
import type { ChatMessage } from "#controller/model/types";
import { orderIdsIn } from "#controller/guard/targets";

/**
 * What the controller remembers of a conversation between turns: the messages the model sees, the orders in
 * play with what reads showed of them, and which final outcomes the model has been told. Plain JSON, so an
 * application can keep it wherever it keeps its sessions and hand it back after a restart.
 */
export interface ConversationState {
  conversationId: string;
  turns: number;
  messages: ChatMessage[];
  /** Orders in play — named by the principal, or returned to them by a read — in the order they came up. */
  orders: OrderFacts[];
  /** Orders a change completed on in this conversation. */
  completedOrders: string[];
  /** operationIds whose final outcome has been given to the model. */
  reported: string[];
  /** A search came back truncated: the orders in play may not be all the principal has. */
  incomplete?: boolean;
  /** Fragments of ids the principal wrote that a search resolved, to the orders it returned. */
  resolvedFragments?: Record<string, string[]>;
  /**
   * The held changes (operationIds) whose questions the last reply showed, in its order: a typed answer settles
   * only one of these (contract §8.5).
   */
  asked?: string[];
  /**
   * The changes whose outcome that same reply reported beside its questions: a typed answer after such a reply
   * confirms only if it restates the change it answers (contract §8.5).
   */
  askedBeside?: { tool: string; orderId: string }[];
  /** The last turn ended asking which order: the change asked for then, and the message that asked. */
  askedWhichOrder?: { tool: string; message: string; turn: number };
  /** The principal's language (contract §8.1); absent: en. */
  locale?: Locale;
  /** The principal's time zone (IANA name, contract §8.5): relative days are read in it. Absent: UTC. */
  timeZone?: string;
  /**
   * What the model's context holds that the principal did not write (contract §8.5), as "<tool> <order>: <field>".
   * Once set it stays for the conversation: the model reads its whole history every turn, and what it wrote after
   * reading foreign text may carry it on.
   */
  taint?: string[];
}

export function newConversationState(conversationId: string): ConversationState {
  return { conversationId, turns: 0, messages: [], orders: [], completedOrders: [], reported: [] };
}

export function noteOrder(state: ConversationState, facts: OrderFacts): void {
  const known = state.orders.find((o) => o.orderId === facts.orderId);
  if (!known) {
    state.orders.push({ ...facts });
    return;
  }
  for (const [key, value] of Object.entries(facts)) if (value !== undefined) (known as unknown as Record<string, unknown>)[key] = value;
}

/** Orders the principal's own message names by full id. */
export function noteOrdersIn(state: ConversationState, message: PrincipalMessage): void {
  for (const orderId of message.orderIds) noteOrder(state, { orderId, named: true });
}

const isSellerType = (value: unknown): value is "sundry" | "marketplace" => value === "sundry" || value === "marketplace";
const day = (value: unknown) => (typeof value === "string" && value.length >= 10 ? value.slice(0, 10) : undefined);

/**
 * Orders a read result shows (search_orders' list, get_order's order) with what it says of them. `principalText`
 * is what the principal wrote, to know whether a search's id fragment was theirs.
 */
export function noteReadResult(
  state: ConversationState,
  tool: string,
  input: Record<string, unknown>,
  body: unknown,
  principalText: PrincipalMessage,
): void {
  if (body === null || typeof body !== "object") return;
  const result = body as Record<string, unknown>;
  if (tool === "search_orders" && Array.isArray(result.orders)) {
    const found: string[] = [];
    for (const order of result.orders as Record<string, unknown>[]) {
      if (typeof order.orderId !== "string") continue;
      found.push(order.orderId);
      noteOrder(state, {
        orderId: order.orderId,
        read: true,
        readTurn: state.turns,
        ...(typeof order.status === "string" ? { status: order.status } : {}),
        ...(Array.isArray(order.itemTitles) ? { itemTitles: order.itemTitles.map((t) => bounded(t)) } : {}),
        ...(typeof order.placedAt === "string" ? { placedAt: order.placedAt } : {}),
        ...(order.deliveredAt !== undefined ? { deliveredAt: order.deliveredAt as string | null } : {}),
        ...(typeof order.totalCents === "number" ? { totalCents: order.totalCents } : {}),
        ...(typeof order.currency === "string" ? { currency: order.currency } : {}),
      });
    }
    if (result.truncated === true) state.incomplete = true;
    const fragment = typeof input.orderId === "string" ? input.orderId.replace(/^SU-?/i, "") : undefined;
    const theirs = fragment !== undefined && principalText.orderReferences.some((r) => r.ref === fragment || r.ref === `SU-${fragment}`);
    if (fragment && theirs && result.truncated !== true) {
      state.resolvedFragments ??= {};
      state.resolvedFragments[fragment] = found;
    }
  }
  if (tool === "get_order" && typeof result.orderId === "string") {
    const items = Array.isArray(result.items) ? (result.items as Record<string, unknown>[]) : [];
    const charges = Array.isArray(result.charges) ? (result.charges as Record<string, unknown>[]) : [];
    const policy = (result.policy ?? {}) as Record<string, unknown>;
    const seller = (result.seller ?? {}) as Record<string, unknown>;
    noteOrder(state, {
      orderId: result.orderId,
      read: true,
      readTurn: state.turns,
      openedTurn: state.turns,
      ...(typeof result.status === "string" ? { status: result.status } : {}),
      itemTitles: items.map((i) => bounded(i.title)),
      items: items
        .filter((i) => typeof i.itemId === "string")
        .map((i) => ({
          itemId: String(i.itemId),
          title: bounded(i.title),
          ...(typeof i.quantity === "number" ? { quantity: i.quantity } : {}),
        })),
      ...(typeof result.placedAt === "string" ? { placedAt: result.placedAt } : {}),
      ...(result.deliveredAt !== undefined ? { deliveredAt: day(result.deliveredAt) ?? null } : {}),
      ...(policy.returnableUntil !== undefined ? { returnableUntil: day(policy.returnableUntil) ?? null } : {}),
      ...(typeof policy.returnWindowDays === "number" ? { returnWindowDays: policy.returnWindowDays } : {}),
      ...(Array.isArray(result.allowedActions) ? { allowedActions: result.allowedActions.map(String) } : {}),
      ...(isSellerType((result.seller as Record<string, unknown> | undefined)?.type)
        ? { sellerType: (result.seller as { type: "sundry" | "marketplace" }).type }
        : {}),
      ...(typeof seller.name === "string"
        ? { seller: { name: bounded(seller.name, sellerTextLimits.sellerName), marketplace: seller.type !== "sundry" } }
        : {}),
      ...(typeof result.totalCents === "number" ? { totalCents: result.totalCents } : {}),
      ...(typeof result.currency === "string" ? { currency: result.currency } : {}),
      charges: charges
        .filter((c) => typeof c.kind === "string" && Number.isFinite(Number(c.cents)))
        .map((c) => ({ kind: String(c.kind), cents: Number(c.cents) })),
      ...deliveryOf(result.delivery),
      ...returnsOf(result.returns),
    });
  }
}

/**
 * A string a read returned, cut to the bound of a seller's text (contract §6) should a service send a longer one:
 * what the controller keeps, and the gate reads, stays bounded whatever the service sent.
 */
function bounded(value: unknown, limit: number = sellerTextLimits.itemTitle): string {
  const text = String(value);
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** What get_order said of how the order travels: the carrier, its tracking and the delivery note. */
function deliveryOf(value: unknown): Pick<OrderFacts, "delivery"> {
  if (value === null || typeof value !== "object") return {};
  const delivery = value as Record<string, unknown>;
  if (typeof delivery.carrier !== "string") return {};
  const tracking = (delivery.tracking ?? {}) as Record<string, unknown>;
  const note = (delivery.note ?? null) as { text?: unknown; origin?: unknown } | null;
  return {
    delivery: {
      carrier: bounded(delivery.carrier),
      trackingId: typeof delivery.trackingId === "string" ? delivery.trackingId : null,
      ...(tracking.available === true && typeof tracking.status === "string"
        ? {
            tracking: {
              available: true as const,
              status: tracking.status,
              lastScanAt: typeof tracking.lastScanAt === "string" ? tracking.lastScanAt : null,
            },
          }
        : tracking.available === false
          ? { tracking: { available: false as const } }
          : {}),
      note: typeof note?.text === "string" ? note.text : null,
      ...(typeof note?.origin === "string" ? { noteBy: note.origin } : {}),
    },
  };
}

/** The returns get_order listed on the order. */
function returnsOf(value: unknown): Pick<OrderFacts, "returns"> {
  if (!Array.isArray(value)) return {};
  return {
    returns: (value as Record<string, unknown>[]).flatMap((r) => {
      const pickup = (r.pickup ?? {}) as Record<string, unknown>;
      return Array.isArray(r.itemIds) &&
        typeof r.labelRef === "string" &&
        typeof pickup.date === "string" &&
        typeof pickup.window === "string"
        ? [{ itemIds: r.itemIds.map(String), labelRef: r.labelRef, pickup: { date: pickup.date, window: pickup.window } }]
        : [];
    }),
  };
}

/**
 * Taint (contract §8.5): from here on the model's context holds text the principal did not write. Each source is
 * "<what> <where in the result> (<who wrote it>)"; the list keeps the first twenty.
 */
export function noteForeign(state: ConversationState, what: string, foreign: readonly { path: string; origin: string }[]): string[] {
  if (foreign.length === 0) return [];
  const sources = foreign.map((f) => `${what}: ${f.path} (${f.origin})`);
  state.taint = [...new Set([...(state.taint ?? []), ...sources])].slice(0, 20);
  return sources;
}

/**
 * The orders the application's own text showed the principal: every order id in a reply they saw (the history keeps
 * the gated reply of each turn, whose facts, questions and clarification lists are the application's own; what the
 * model wrote between its tool calls was never shown).
 */
export function shownOrders(state: ConversationState): string[] {
  const shown = state.messages.flatMap((m) => (m.role === "assistant" && m.toolCalls.length === 0 ? orderIdsIn(m.text) : []));
  return [...new Set(shown)];
}

/** The principal's own messages, oldest first. */
export function principalMessages(state: ConversationState): string[] {
  return state.messages.flatMap((m) => (m.role === "customer" ? [m.text] : []));
}

/** The facts this conversation holds of an order, as last read or changed. */
export function factsOf(state: ConversationState, orderId: string): OrderFacts | undefined {
  return state.orders.find((o) => o.orderId === orderId);
}

/**
 * A change this turn settled or reported, in the conversation's books: the orders a change completed on (with the
 * status it left), and the outcomes the model has been told.
 */
export function noteChangeSettled(state: ConversationState, intent: Intent): void {
  if (intent.state === "completed") {
    if (!state.completedOrders.includes(intent.orderId)) state.completedOrders.push(intent.orderId);
    const status = intent.outcome?.body.orderStatus;
    if (typeof status === "string") noteOrder(state, { orderId: intent.orderId, status });
  }
  if (finalStates.has(intent.state)) state.reported.push(intent.operationId);
}
