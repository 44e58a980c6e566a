import { orderIdsMentioned } from "#controller/ambiguity";
import type { OrderFacts } from "#controller/gate/outcomes";
import type { ChatMessage } from "#controller/model/types";

/**
 * What the controller remembers of a conversation between turns: the messages the model sees, the orders in
 * play with what was read about them, and which final outcomes the model has been told. Plain JSON, so an
 * application can keep it wherever it keeps its sessions and hand it back after a restart.
 */
export interface ConversationState {
  conversationId: string;
  turns: number;
  messages: ChatMessage[];
  /** Orders in play, in the order they came up. */
  orders: OrderFacts[];
  /** Orders a change completed on in this conversation. */
  completedOrders: string[];
  /** operationIds whose final outcome has been given to the model. */
  reported: string[];
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

export function noteOrdersIn(state: ConversationState, text: string): void {
  for (const orderId of orderIdsMentioned(text)) noteOrder(state, { orderId });
}

/** Orders a read result shows: search_orders' list, get_order's order. */
export function noteReadResult(state: ConversationState, tool: string, body: unknown): void {
  if (body === null || typeof body !== "object") return;
  const result = body as Record<string, unknown>;
  if (tool === "search_orders" && Array.isArray(result.orders)) {
    for (const order of result.orders as Record<string, unknown>[]) {
      if (typeof order.orderId !== "string") continue;
      noteOrder(state, {
        orderId: order.orderId,
        ...(typeof order.status === "string" ? { status: order.status } : {}),
        ...(Array.isArray(order.itemTitles) ? { itemTitles: order.itemTitles as string[] } : {}),
        ...(typeof order.placedAt === "string" ? { placedAt: order.placedAt } : {}),
      });
    }
  }
  if (tool === "get_order" && typeof result.orderId === "string") {
    const items = Array.isArray(result.items) ? (result.items as Record<string, unknown>[]).map((i) => String(i.title)) : undefined;
    noteOrder(state, {
      orderId: result.orderId,
      ...(typeof result.status === "string" ? { status: result.status } : {}),
      ...(items ? { itemTitles: items } : {}),
      ...(typeof result.placedAt === "string" ? { placedAt: result.placedAt } : {}),
    });
  }
}
