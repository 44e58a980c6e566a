import type { ChangeToolName } from "#contract/tools";
import type { OrderFacts } from "#controller/gate/outcomes";
import type { ConfirmationKey } from "#controller/i18n/confirmation-messages";

/**
 * What the controller knows per changing tool, in one entry per tool: the words of a message that asks for it
 * (guard/words.ts), how its values trace to the principal (guard/values.ts, contract §8.5), and the items and
 * question of its confirmation (guard/confirmation.ts).
 * Typed over the contract's changing tools, so a new one does not compile until its entry is written here; no
 * reader falls back to a default for a tool it does not know.
 *
 * This module sits below the modules that read it: it imports types only, and the value checks get the tracing
 * helpers they call as a parameter, so no import runs back up to words, values or confirmation.
 */

/** The values a held change shows the principal, beside the confirm and decline buttons. */
export interface ConfirmationValues {
  items?: { itemId: string; title?: string }[];
  reason?: string;
  pickupDate?: string;
  /** A note's text, only when it is the principal's own words (otherwise it is never shown). */
  deliveryNote?: string;
}

/**
 * The value checks' view of one proposed change: its request, and the tracing helpers of guard/values.ts already
 * bound to the turn's messages, order and day.
 */
export interface ValueTrace {
  request: Record<string, unknown>;
  /** Names a value that does not trace to the principal. */
  untraced(why: string): void;
  /** Marks free text as not the principal's words: never quoted back, and a yes does not send it. */
  unquotable(): void;
  /** Each item that is neither named by the principal nor the order's only item, named as untraced. */
  checkItems(itemIds: readonly string[]): void;
  /** A reason the principal's words do not give, named as untraced. */
  checkReason(reason: unknown): void;
  /** The data (e-mail, ids, numbers, links) of a text that are not in this turn's message. */
  foreignData(text: string): string[];
  /** The words and data of a text that are not the principal's. */
  foreignWords(text: string): string[];
  /** The negations and numbers of the message's clauses that a text leaves out. */
  droppedNegationsAndNumbers(text: string): string[];
  /** Every day the principal's messages name. */
  datesSaid(): Set<string>;
}

type Say = (key: ConfirmationKey, values?: Record<string, string | number>) => string;

/** What a changing tool's question is made of: its order, its values, and the sentences of the catalogue. */
export interface Question {
  tool: ChangeToolName;
  request: Record<string, unknown>;
  order: OrderFacts | undefined;
  orderId: string;
  values: ConfirmationValues;
  /** The items, listed in the locale's words, with their titles. */
  items: string;
  reason: { hasReason: string; reason: string };
  quoteNote: boolean;
  say: Say;
  /** An item's or order's title as a question names it (guard/confirmation.ts `shortTitle`). */
  shortTitle: (title: string) => string;
}

export interface ControllerChangeTool {
  /** The change's words in a message that asks for it (its own words, not negated); global, read with `test`. */
  asks: RegExp;
  /** Its values, checked in the order its confirmation names them. */
  checkValues: (trace: ValueTrace) => void;
  /** The items a held change names (none for a change that names no item). */
  heldItems: (request: Record<string, unknown>) => string[] | undefined;
  /** Its confirmation question (`question.<tool>` in every locale of i18n/confirmation-messages.ts). */
  question: (q: Question) => string;
}

export const changeTools: Record<ChangeToolName, ControllerChangeTool> = {
  cancel_order: {
    asks: /\b(?:cancel\w*|cancle\w*|cancl\w*|canel\w*|cansel\w*|call(?:ing)? (?:it |this |them )?off|(?:don't|do not|no longer) (?:want|need) (?:it|this|them|that|the order|my order)|stop (?:it|them|this|that|the order|my order|the delivery))/g,
    checkValues: ({ request, foreignData, untraced, unquotable }) => {
      if (typeof request.reason !== "string") return;
      // A cancellation's reason is one line the seller reads: it may be the model's summary, but it never carries
      // data (an e-mail, an id, a number, a link) the principal did not write in this message.
      const foreign = foreignData(request.reason);
      if (foreign.length > 0) {
        untraced(`the cancellation reason carries data the principal did not write (${foreign.slice(0, 6).join(", ")})`);
        unquotable();
      }
    },
    heldItems: () => undefined,
    question: ({ order, orderId, say, shortTitle }) => {
      const titles = (order?.itemTitles?.slice(0, 2) ?? []).map(shortTitle);
      return say("question.cancel_order", { orderId, hasTitles: titles.length > 0 ? "yes" : "no", titles: titles.join(", ") });
    },
  },
  add_delivery_note: {
    asks: /\b(?:note|notes|instruction\w*|tell the (?:driver|courier|carrier)|let the (?:driver|courier|carrier) know|leave (?:it|the parcel|the package|them)|deliver (?:it |them )?to|ring|knock|doorbell|buzzer|neighbou?r|porch|safe place|gate code|delivery)\b/g,
    checkValues: ({ request, foreignWords, droppedNegationsAndNumbers, untraced, unquotable }) => {
      if (typeof request.deliveryNote !== "string") return;
      const note = request.deliveryNote;
      const foreign = foreignWords(note);
      if (foreign.length > 0) {
        untraced(`the note has words or data the principal did not write (${foreign.slice(0, 6).join(", ")})`);
        unquotable();
      } else {
        const dropped = droppedNegationsAndNumbers(note);
        if (dropped.length > 0) {
          untraced(`the note leaves out what the principal wrote: ${dropped.join(", ")}`);
          unquotable();
        }
      }
    },
    heldItems: () => undefined,
    question: ({ request, orderId, quoteNote, say }) =>
      quoteNote ? say("question.add_delivery_note", { orderId, note: String(request.deliveryNote) }) : say("noteUnquoted", { orderId }),
  },
  start_return: {
    asks: /\b(?:return\w*|send\b[^.?!]{0,30}\bback|take\b[^.?!]{0,20}\bback|refund\w*|money back|collect\w*|pick(?:ed)?[ -]?up)/g,
    checkValues: ({ request, checkItems, checkReason, datesSaid, untraced }) => {
      checkItems(Array.isArray(request.itemIds) ? request.itemIds.map(String) : []);
      checkReason(request.reason);
      if (typeof request.pickupDate === "string" && !datesSaid().has(request.pickupDate))
        untraced(`the pickup date ${request.pickupDate} is not one the principal gave`);
    },
    heldItems: (request) => (Array.isArray(request.itemIds) ? request.itemIds.map((id) => String(id)) : undefined),
    question: ({ orderId, items, reason, values, say }) =>
      say("question.start_return", {
        orderId,
        items,
        ...reason,
        hasDate: values.pickupDate ? "yes" : "no",
        date: values.pickupDate ?? "",
      }),
  },
  offer_replacement: {
    asks: /\b(?:replace\w*|another one|new one|send (?:me |us |them |the customer |the buyer )?(?:another|(?:the )?(?:right|correct|new|replacement)\b)|exchange\w*|swap\w*|resend\w*)/g,
    checkValues: ({ request, checkItems, checkReason }) => {
      checkItems(typeof request.itemId === "string" ? [request.itemId] : []);
      checkReason(request.reason);
    },
    heldItems: (request) => (typeof request.itemId === "string" ? [request.itemId] : undefined),
    question: ({ orderId, items, reason, say }) => say("question.offer_replacement", { orderId, items, ...reason }),
  },
};
