import { wordsOf } from "#contract/their-words";
import type { ChangeToolName } from "#contract/tools";
import type { OrderFacts } from "#controller/outcomes";
import type { ConfirmationKey } from "#controller/i18n/confirmation-messages";

/**
 * What the controller knows per changing tool, in one entry per tool: how its values are checked against the
 * closed-form request on the fast path and whether its free text may be quoted back when it waits (guard/values.ts,
 * contract §8.5), and the items and question of its confirmation (guard/confirmation.ts). The words a request for it is written in are the closed form's
 * (guard/request-form.ts), and the words an answer restates it with are the answer catalogue's (i18n/answers.ts).
 * Typed over the contract's changing tools, so a new one does not compile until its entry is written here; no
 * reader falls back to a default for a tool it does not know.
 *
 * This module sits below the modules that read it: it imports types only, and the value checks get the tracing
 * helpers they call as a parameter, so no import runs back up to words, values or confirmation.
 */

/** The values a held change shows the principal, beside the confirm and decline buttons. */
export interface ConfirmationValues {
  /** `titleBy: "seller"`: the title is a marketplace seller's words, to be shown quoted and marked as theirs. */
  items?: { itemId: string; title?: string; titleBy?: "seller" }[];
  reason?: string;
  pickupDate?: string;
  /** A note's text, only when it is the principal's own words (otherwise it is never shown). */
  deliveryNote?: string;
}

// ——— the closed form of a request (guard/request-form.ts reads it; each tool's verb phrase is its entry below) ———

export type ReturnReason = "damaged" | "wrong_item" | "not_as_described" | "no_longer_needed" | "missing";

/** One request sentence in the closed form, with what it names. */
export interface FormRequest {
  tool: ChangeToolName;
  /** The order ids it names in full, and the fragments it names with a cue ("order 884"). */
  orderIds: string[];
  fragments: string[];
  /** "it", "my order", "the order": the order is the only one in play, or the one the reason clause named. */
  pronoun: boolean;
  /**
   * "it", "this", "that" — or no word for the order at all ("return it", "send another one"): after a change was made
   * or asked about, such a word names that change, not an order (contract §8.5).
   */
  bare?: boolean;
  /** "the rug order from Monday": the words and the day a description gives, which the order must agree with. */
  description?: { words: string[]; day: string };
  /** What it says of the items of a return or a replacement; absent for a change that names none. */
  items?: ItemReference[];
  /** A return's or a replacement's reason, as the closed reason phrases give it. */
  reason?: ReturnReason;
  /** A return's pickup day (YYYY-MM-DD), when the principal gave one. */
  pickupDate?: string;
  /** A note's exact words as the principal wrote them (quotes around the whole note taken off). */
  note?: string;
}

/** How a request names an item. */
export type ItemReference =
  | { kind: "id"; itemId: string }
  | { kind: "words"; words: string[] }
  /** "it", "them", the order itself: the order's only item — or, for "everything", every item. */
  | { kind: "pronoun" }
  | { kind: "everything" };

/**
 * The pieces each change's verb phrase (its `requestForm` in controller/guard/change-forms.ts) is written with: named groups
 * `target`, `items`, `itemsOrder`, `because`, `day` hold what a request names.
 */
export interface FormPieces {
  /** An order: ids, cued fragments, "it", "my order", a description. */
  target: string;
  /** A word of an item's name. */
  word: string;
  /** Items, perhaps on an order (groups `items`, `itemsOrder`); `second` is the same with groups `items2`, `itemsOrder2`. */
  itemsOn: string;
  itemsOnSecond: string;
  /** A pickup day (group `day`). */
  pickup: string;
  /** The ways a note request names its note, its text standing as a placeholder. */
  noteHeads: readonly string[];
}

/**
 * The fast path's view of one proposed change (guard/values.ts `formValues`): its request, the closed-form request it
 * must be (guard/request-form.ts), and the helpers that read what that request names.
 */
export interface FormTrace {
  request: Record<string, unknown>;
  form: FormRequest;
  /** Names a value that is not what the request says. */
  untraced(why: string): void;
  /** The items the request names on the order, or undefined when its words do not pick them out. */
  namedItems(): string[] | undefined;
  /** Whether two texts are the same words, up to case, punctuation and spacing. */
  sameWords(a: string, b: string): boolean;
  /** The data (e-mail, ids, numbers, links) of a text that are not in the principal's message. */
  foreignData(text: string): string[];
}

/** A held change's free text, for whether it is the principal's own words (guard/values.ts `quotable`). */
export interface QuoteTrace {
  request: Record<string, unknown>;
  /** The data (e-mail, ids, numbers, links) of a text that are not in this turn's message. */
  foreignData(text: string): string[];
  /** The words and data of a text that are not the principal's. */
  foreignWords(text: string): string[];
  /** The negations and numbers of the message's clauses that a text leaves out. */
  droppedNegationsAndNumbers(text: string): string[];
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
  /** The order's titles are a seller's words (anything but the shop's own order): quote them and say whose. */
  sellersTitles: boolean;
  /** A text in the locale's quotation marks. */
  quote: (text: string) => string;
}

export interface ChangeForm {
  /**
   * The verb phrase of a request for it in the closed form (guard/request-form.ts names the forms and why), written
   * with the form's pieces; its named groups hold the order, items, reason, day a request names.
   */
  requestForm: (p: FormPieces) => string;
  /** On the fast path: each argument checked against what the closed-form request says. */
  formValues: (trace: FormTrace) => void;
  /** For a held change: whether its free text may be quoted back as the principal's and sent on their yes. */
  quotable: (trace: QuoteTrace) => boolean;
  /** The items a held change names (none for a change that names no item). */
  heldItems: (request: Record<string, unknown>) => string[] | undefined;
  /**
   * The request a held change keeps: only the values its question shows, since the principal's yes is to what they
   * saw. A value the question does not show is not sent.
   */
  heldRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
  /** Its confirmation question (`question.<tool>` in every locale of i18n/confirmation-messages.ts). */
  question: (q: Question) => string;
}

/** The request a held change keeps, of a proposal: only what its question shows (its tool's `heldRequest`). */
export function heldRequestOf(tool: ChangeToolName, request: Record<string, unknown>): Record<string, unknown> {
  const shown = changeForms[tool].heldRequest;
  return shown ? shown(request) : request;
}

/** The items a return or a replacement sends, against the items its request names. */
function sameItems(trace: FormTrace, sent: readonly string[]): void {
  const named = trace.namedItems();
  if (named === undefined) trace.untraced("the request's words do not pick out which items");
  else if (named.length !== sent.length || !sent.every((i) => named.includes(i)))
    trace.untraced(`the items ${sent.join(", ")} are not the ones the request names (${named.join(", ") || "none"})`);
}

/** A return's or a replacement's reason, against the reason phrase of the request. */
function sameReason({ request, form, untraced }: FormTrace): void {
  if (form.reason === undefined) untraced(`the request gives no reason in its own words, and ${String(request.reason)} was proposed`);
  else if (request.reason !== form.reason) untraced(`the reason ${String(request.reason)} is not the request's (${form.reason})`);
}

/** The pictographs of a text, in order, without variation selectors. */
const signsOf = (text: string) => (text.match(/\p{Extended_Pictographic}/gu) ?? []).join("");

export const changeForms: Record<ChangeToolName, ChangeForm> = {
  cancel_order: {
    // "Cancel <order>", and the one deadline that urges rather than defers: "before it ships".
    requestForm: ({ target, word }) =>
      `cancel (?<target>${target})(?:, the (?<about>${word}(?: ${word}){0,3}?))?(?: before it (?:ships|is shipped|'s shipped|gets shipped|is dispatched|goes out))?`,
    // A cancellation's reason is one line the seller reads: it may be the model's summary of the request, but it
    // never carries data (an e-mail, an id, a number, a link) the principal did not write in this message.
    formValues: ({ request, form, untraced, namedItems, foreignData }) => {
      // "Cancel SU-10234, the one not shipped" is not the order's name for itself: the words must be an item's title.
      if (form.items !== undefined && namedItems() === undefined)
        untraced(
          `the words after the order (${form.items.flatMap((i) => (i.kind === "words" ? i.words : [])).join(" ")}) are not one of its items`,
        );
      const foreign = typeof request.reason === "string" ? foreignData(request.reason) : [];
      if (foreign.length > 0)
        untraced(`the cancellation reason carries data the principal did not write (${foreign.slice(0, 6).join(", ")})`);
    },
    quotable: ({ request, foreignData }) => typeof request.reason !== "string" || foreignData(request.reason).length === 0,
    heldItems: () => undefined,
    // Its question shows the order and its items, not the model's free-text reason: a held cancellation goes without it.
    heldRequest: ({ reason: _reason, ...shown }) => shown,
    question: ({ order, orderId, say, shortTitle, sellersTitles, quote }) => {
      const titles = (order?.itemTitles?.slice(0, 2) ?? []).map(shortTitle);
      return say("question.cancel_order", {
        orderId,
        hasTitles: titles.length === 0 ? "no" : sellersTitles ? "seller" : "yes",
        titles: (sellersTitles ? titles.map(quote) : titles).join(", "),
      });
    },
  },
  add_delivery_note: {
    // "Add a note to <order>: …", "Delivery note on <order>: …", "Tell the driver: …", or the note quoted whole.
    requestForm: ({ noteHeads }) => `(?:${noteHeads.join("|")})`,
    // The note is the request's own words: the text after "add a note to …:", up to case and punctuation.
    formValues: ({ request, form, untraced, sameWords }) => {
      if (typeof request.deliveryNote !== "string" || form.note === undefined || !sameWords(request.deliveryNote, form.note))
        untraced("the note is not the words the request gives for it");
      // Words compare without their signs, so the signs are compared on their own: "❌" may be the note's "don't".
      else if (signsOf(request.deliveryNote) !== signsOf(form.note)) untraced("the note's signs are not the ones the request gives");
    },
    quotable: ({ request, foreignWords, droppedNegationsAndNumbers }) => {
      if (typeof request.deliveryNote !== "string") return true;
      return foreignWords(request.deliveryNote).length === 0 && droppedNegationsAndNumbers(request.deliveryNote).length === 0;
    },
    heldItems: () => undefined,
    question: ({ request, orderId, quoteNote, say }) =>
      quoteNote
        ? say("question.add_delivery_note", { orderId, note: wordsOf(String(request.deliveryNote), "customer", "note") })
        : say("noteUnquoted", { orderId }),
  },
  start_return: {
    // "Start a return for <items>" or "return <items>", "because <reason phrase>", a pickup day.
    requestForm: ({ itemsOn, pickup }) =>
      `(?:(?:start|open|arrange|book|set up|begin) (?:a |the )?return (?:for|of|on) |return )${itemsOn}(?: (?:because|as|since) (?<because>[^,]+?))?${pickup}?`,
    formValues: (trace) => {
      const { request, form, untraced } = trace;
      sameItems(trace, Array.isArray(request.itemIds) ? request.itemIds.map(String) : []);
      sameReason(trace);
      if ((request.pickupDate ?? undefined) !== form.pickupDate)
        untraced(
          form.pickupDate === undefined
            ? `the pickup date ${String(request.pickupDate)} is not one the request gives`
            : `the pickup date is not the request's (${form.pickupDate})`,
        );
    },
    quotable: () => true,
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
    // "Send (me) a replacement (for <items>)", "replace <items>", "send another (one)", "because <reason phrase>".
    requestForm: ({ itemsOn, itemsOnSecond, target }) =>
      `(?:send (?:me |us )?(?:a |the )?replacement(?: (?:for|of) ${itemsOn})?|replace ${itemsOnSecond}|send (?:me |us )?(?:a new one|another one|another)(?: (?:for|of) (?<target>${target}))?)(?: (?:because|as|since) (?<because>[^,]+?))?`,
    formValues: (trace) => {
      sameItems(trace, typeof trace.request.itemId === "string" ? [trace.request.itemId] : []);
      sameReason(trace);
    },
    quotable: () => true,
    heldItems: (request) => (typeof request.itemId === "string" ? [request.itemId] : undefined),
    question: ({ orderId, items, reason, say }) => say("question.offer_replacement", { orderId, items, ...reason }),
  },
};
