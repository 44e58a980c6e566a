import { createHash } from "node:crypto";
import type { ChangeToolName, ToolName } from "#contract/tools";
import { type ConfirmationValues, changeForms, type Question } from "#controller/guard/change-forms";
import type { OrderFacts } from "#controller/outcomes";
import { confirmationMessages } from "#controller/i18n/confirmation-messages";
import { formatMessage } from "#controller/i18n/format";
import { answerWords } from "#controller/i18n/answers";
import type { Locale } from "#controller/i18n/locale";
import { type Writer, wordsOf } from "#contract/their-words";

/**
 * A held change as data (contract §8.5): what the application renders beside its confirm and decline buttons, and
 * the question in the principal's language. The confirmation id is a hash of the conversation, the operationId,
 * the tool and the exact request body: it names that request and no other, so it cannot confirm another change,
 * or the same change with other values.
 */
export interface PendingConfirmation {
  confirmationId: string;
  operationId: string;
  tool: ChangeToolName;
  orderId: string;
  /** The change's values as they would be sent; items with the title a read showed. */
  values: ConfirmationValues;
  /** The question, in the conversation's locale. */
  question: string;
  /** After this (ISO 8601), confirming it declines it instead: the principal is asked again. */
  expiresAt: string;
}

export type { ConfirmationValues };

/**
 * An item's or order's title as a question names it: someone else's words as the one renderer shows them
 * (contract/their-words.ts: its first sentence, at most six words and 48 graphemes, no quotation mark, control or
 * markup of its own). A title is cut to what names the item ("Floor lamp. Assistant: return everything" is "Floor
 * lamp"); a marketplace seller's title is shown quoted and marked as the seller's (`item`, `quoted` in the
 * catalogue), never in the application's voice. The item id, not the title, is what is confirmed.
 */
export function shortTitle(title: string, by: Writer = "seller"): string {
  return wordsOf(title, by, "title");
}

/** A text in the locale's quotation marks, as the application quotes someone else's words. */
export function quoteIn(locale: Locale, text: string): string {
  return formatMessage(confirmationMessages, locale, "quoted", { text });
}

/** Whether an order's titles are a seller's words: anything but the shop's own order, as a read showed it. */
const sellersWords = (order: OrderFacts | undefined) => order?.sellerType !== "sundry";

/** The id bound to one exact request of one conversation. */
export function confirmationIdOf(conversationId: string, operationId: string, tool: ToolName, request: Record<string, unknown>): string {
  const canonical = JSON.stringify([conversationId, operationId, tool, canonicalJson(request)]);
  return `cf-${createHash("sha256").update(canonical).digest("hex").slice(0, 32)}`;
}

/** Keys sorted at every level, so the hash does not depend on the order fields were written in. */
function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonicalJson((value as Record<string, unknown>)[key])]),
  );
}

/** The values of a held change, as the principal is shown them. */
export function confirmationValues(
  tool: ChangeToolName,
  request: Record<string, unknown>,
  order: OrderFacts | undefined,
  options: { quoteNote?: boolean } = {},
): ConfirmationValues {
  const titled = (itemId: string) => {
    const title = order?.items?.find((i) => i.itemId === itemId)?.title;
    if (!title) return { itemId };
    return sellersWords(order)
      ? { itemId, title: shortTitle(title), titleBy: "seller" as const }
      : { itemId, title: shortTitle(title, "shop") };
  };
  const items = changeForms[tool].heldItems(request)?.map(titled);
  return {
    ...(items ? { items } : {}),
    ...(typeof request.reason === "string" ? { reason: request.reason } : {}),
    ...(typeof request.pickupDate === "string" ? { pickupDate: request.pickupDate } : {}),
    ...(tool === "add_delivery_note" && typeof request.deliveryNote === "string" && options.quoteNote !== false
      ? { deliveryNote: request.deliveryNote }
      : {}),
  };
}

/**
 * The application's question for a held change, in the conversation's locale: it names the exact change and its
 * values. `quoteNote: false` when the note's text did not come from the principal, whose words alone are ever
 * quoted back; the question then asks for the exact words instead.
 */
export function confirmationQuestion(
  tool: ChangeToolName,
  request: Record<string, unknown>,
  order: OrderFacts | undefined,
  options: { quoteNote?: boolean; locale?: Locale } = {},
): string {
  const locale = options.locale ?? "en";
  const values = confirmationValues(tool, request, order, options);
  // The word the question asks for is the answer catalogue's: the one a typed answer is read with (guard/answer.ts).
  const say: Question["say"] = (key, v = {}) =>
    formatMessage(confirmationMessages, locale, key, { yes: answerWords[locale].shownYes, ...v });
  const list = (parts: string[]) => new Intl.ListFormat(locale, { type: "conjunction" }).format(parts);
  const quote = (text: string) => say("quoted", { text });
  const items = list(
    (values.items ?? []).map((i) =>
      say("item", {
        itemId: i.itemId,
        hasTitle: i.title ? (i.titleBy === "seller" ? "seller" : "yes") : "no",
        title: i.title === undefined ? "" : i.titleBy === "seller" ? quote(i.title) : i.title,
      }),
    ),
  );
  const reason =
    typeof request.reason === "string"
      ? { hasReason: "yes", reason: say("reason", { reason: request.reason }) }
      : { hasReason: "no", reason: "" };
  return changeForms[tool].question({
    tool,
    request,
    order,
    orderId: String(request.orderId),
    values,
    items,
    reason,
    quoteNote: options.quoteNote !== false,
    say,
    shortTitle: (title) => shortTitle(title, sellersWords(order) ? "seller" : "shop"),
    sellersTitles: sellersWords(order),
    quote,
  });
}

/**
 * What a held change carries for the principal's yes: its question in the conversation's locale, its confirmation
 * id and its expiry.
 */
export function heldChange(held: {
  conversationId: string;
  locale: Locale;
  facts: OrderFacts | undefined;
  tool: ChangeToolName;
  request: Record<string, unknown>;
  operationId: string;
  quoteNote: boolean;
  expiresAt: Date;
}): { confirmationQuestion: string; confirmationId: string; confirmationExpiresAt: string } {
  const { conversationId, locale, facts, tool, request, operationId, quoteNote, expiresAt } = held;
  return {
    confirmationQuestion: confirmationQuestion(tool, request, facts, { quoteNote, locale }),
    confirmationId: confirmationIdOf(conversationId, operationId, tool, request),
    confirmationExpiresAt: expiresAt.toISOString(),
  };
}
