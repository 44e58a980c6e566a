import type { ToolName } from "#catalog/tools";
import type { OrderFacts } from "#controller/gate/outcomes";
import { smallWords } from "#controller/gate/vocabulary";
import { ambiguityGuard, type GuardDecision } from "#controller/guard/ambiguity";
import { type ChangeKind, changesAskedFor, contentWords, continuesPrevious, dataTokens, isExplicitYes } from "#controller/guard/words";

/**
 * The provenance control: a change is dispatched only when it traces to the principal's own words. Text the
 * principal did not write — a seller's item description, a customer's note read by staff or a seller — reaches
 * the model through tool results, and a model may do what it says; this check never reads that text, only the
 * principal's messages, so nothing written there can make a change pass it.
 *
 * Three counts, all required:
 * - **intent**: the principal's message in this turn asks for this kind of change — in words of that change
 *   ("cancel", "send it back"), or for a note by dictating its very words. Also their own earlier words, in
 *   three cases: this message answers the controller's "which order?" (the message that asked counts); it
 *   carries the previous message over ("and the other one too"); or it says yes, or "try again", to retrying
 *   a change of theirs that the service refused;
 * - **target**: the order is one the principal identified, or the only order in play (see the ambiguity
 *   guard); with several in play and none identified the outcome is a clarification;
 * - **values**: a delivery note — free text others will read — is made of the principal's own words (up to
 *   case, punctuation and small function words), and every piece of data in it (an e-mail address, an order
 *   or item id, a number, a link) is in this turn's message. A note can never carry data from a tool result.
 *
 * When a count fails nothing is sent: the change waits for the principal's explicit yes to the application's
 * question. A note that failed on its values is never quoted back (its words are not the principal's) and a
 * yes does not send it: the question asks for the exact words instead.
 */
export interface ProvenanceInput {
  tool: ToolName;
  request: Record<string, unknown>;
  orderId: string;
  /** The principal's message in this turn. */
  message: string;
  /** When this turn answers the controller's "which order?", the message that asked for the change. */
  askedBefore?: string;
  /** The principal's message of the previous turn. */
  previousMessage?: string;
  /** A change of the same tool on the same order, sent on the principal's words, was refused earlier. */
  retrying?: boolean;
  /** Every message of the principal in the conversation, this turn's included. */
  principalMessages: readonly string[];
  orders: readonly OrderFacts[];
  incomplete?: boolean;
  resolvedFragments?: Readonly<Record<string, readonly string[]>>;
  /** Counts not checked: only for measuring what each one prevents (an evaluation's defects), never in use. */
  skip?: readonly ProvenanceCount[];
}

export type ProvenanceCount = "intent" | "target" | "values";

export type ProvenanceDecision =
  | { decision: "dispatch"; target: GuardDecision }
  | { decision: "clarify"; candidates: OrderFacts[] }
  | { decision: "confirm"; failed: ProvenanceCount[]; quoteNote: boolean; reasons: string[] };

const changeKinds: ReadonlySet<string> = new Set<ChangeKind>(["cancel_order", "add_delivery_note", "start_return", "offer_replacement"]);

export function provenance(input: ProvenanceInput): ProvenanceDecision {
  const failed: ProvenanceCount[] = [];
  const reasons: string[] = [];

  const asked = new Set([...changesAskedFor(input.message), ...(input.askedBefore ? changesAskedFor(input.askedBefore) : [])]);
  const carried =
    input.previousMessage !== undefined &&
    continuesPrevious(input.message) &&
    changesAskedFor(input.previousMessage).has(input.tool as ChangeKind);
  const retried = input.retrying === true && isExplicitYes(input.message);
  const dictated = input.tool === "add_delivery_note" && noteFrom(input.request.deliveryNote, [input.message], input.message);
  const skip = new Set(input.skip ?? []);
  if (!skip.has("intent") && (!changeKinds.has(input.tool) || !(asked.has(input.tool as ChangeKind) || carried || retried || dictated))) {
    failed.push("intent");
    reasons.push(
      `the principal's message does not ask for ${input.tool}${asked.size > 0 ? ` (it asks for ${[...asked].join(", ")})` : ""}`,
    );
  }

  // A yes to retrying the principal's own refused change is about that change's order: nothing to pick.
  const target: GuardDecision =
    skip.has("target") || retried
      ? "single_order"
      : ambiguityGuard({
          targetOrderId: input.orderId,
          ordersInPlay: input.orders.map((o) => o.orderId),
          latestMessage: input.askedBefore ? `${input.askedBefore}\n${input.message}` : input.message,
          incomplete: input.incomplete ?? false,
          resolvedFragments: input.resolvedFragments ?? {},
          namedOrders: input.orders.filter((o) => o.named).map((o) => o.orderId),
        });
  if (target === "clarification" && failed.length === 0) return { decision: "clarify", candidates: input.orders.map((o) => ({ ...o })) };
  if (target === "clarification" || target === "unplaced") {
    failed.push("target");
    reasons.push(
      target === "unplaced"
        ? `${input.orderId} is not an order the principal named, and not the only order in play`
        : `other orders are in play and the message does not pick ${input.orderId}`,
    );
  }

  let quoteNote = true;
  if (input.tool === "add_delivery_note" && !skip.has("values")) {
    const foreign = foreignWords(input.request.deliveryNote, input.principalMessages, input.message);
    if (foreign.length > 0) {
      failed.push("values");
      quoteNote = false;
      reasons.push(`the note has words or data the principal did not write (${foreign.slice(0, 6).join(", ")})`);
    }
  }

  return failed.length === 0 ? { decision: "dispatch", target } : { decision: "confirm", failed, quoteNote, reasons };
}

/**
 * The words and data of a note that are not the principal's: content words not in any of their messages, and
 * data (e-mail, ids, numbers, links) not in this turn's message.
 */
function foreignWords(note: unknown, messages: readonly string[], message: string): string[] {
  if (typeof note !== "string") return [];
  const own = new Set(messages.flatMap((m) => contentWords(m, smallWords)));
  const data = new Set(dataTokens(message));
  return [...new Set([...dataTokens(note).filter((d) => !data.has(d)), ...contentWords(note, smallWords).filter((w) => !own.has(w))])];
}

/** A note dictated in this very message: it has words, and all of them are the message's. */
function noteFrom(note: unknown, messages: readonly string[], message: string): boolean {
  return typeof note === "string" && contentWords(note, smallWords).length > 0 && foreignWords(note, messages, message).length === 0;
}
