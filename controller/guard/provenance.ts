import { isChangeTool, type ToolName } from "#contract/tools";
import type { OrderFacts } from "#controller/gate/outcomes";
import { smallWords } from "#controller/gate/vocabulary";
import { ambiguityGuard, type GuardDecision } from "#controller/guard/ambiguity";
import { type PrincipalMessage, readMessage } from "#controller/guard/message";
import { checkValues, foreignWords, ownWords } from "#controller/guard/values";
import { contentWords } from "#controller/guard/words";
import type { Locale } from "#controller/i18n/locale";

/**
 * The provenance control (contract §8.5): a change is dispatched without asking only when it traces to the
 * principal by structure. Text the principal did not write — a seller's description, titles and name, a
 * customer's note read by staff or a seller — reaches the model through tool results, and a model may do what it
 * says; this check never reads that text, only the conversation's taint and the principal's own messages.
 *
 * Counts, all required for the fast path:
 * - **context**: the model's context is clean — it never read text the principal did not write (context/taint.ts).
 *   A change proposed in a tainted context is held for the principal's confirmation of that exact change, however
 *   well it seems to trace: the model's choice to propose it may be the foreign text's;
 * - **language**: the conversation is in English, the one language the intent reader reads. In any other locale a
 *   change waits for a confirmation in that language;
 * - **intent**: a clause of the principal's message that can ask (guard/mood.ts: no question, conditional,
 *   hypothetical or negation) asks for this kind of change; or it answers the controller's "which order?" (the
 *   message that asked counts), carries the previous message's request over in a clause that can ask ("and the
 *   other one too"), or says yes to retrying a change of theirs that the service refused;
 * - **target**: the order is one the principal identified, or the only order in play (see the ambiguity guard);
 *   with several in play and none identified the outcome is a clarification;
 * - **values**: every argument traces to the principal (guard/values.ts).
 *
 * When a count fails nothing is sent: the change waits for the principal's confirmation of the exact request.
 */
export interface ProvenanceInput {
  tool: ToolName;
  request: Record<string, unknown>;
  orderId: string;
  /** The principal's message in this turn, read once for the turn (guard/message.ts). */
  message: PrincipalMessage;
  /** When this turn answers the controller's "which order?", the message that asked for the change. */
  askedBefore?: PrincipalMessage;
  /** The principal's message of the previous turn. */
  previousMessage?: PrincipalMessage;
  /** A change of the same tool on the same order, sent on the principal's words, was refused earlier. */
  retrying?: boolean;
  /** Every message of the principal in the conversation, this turn's included. */
  principalMessages: readonly PrincipalMessage[];
  orders: readonly OrderFacts[];
  incomplete?: boolean;
  resolvedFragments?: Readonly<Record<string, readonly string[]>>;
  /** What the model's context holds that the principal did not write (empty or absent: clean). */
  taint?: readonly string[];
  /** The texts the model read that the principal did not write, as written: quoting them is not dictating. */
  foreignTexts?: readonly string[];
  /** The conversation's locale; the fast path reads English only. Default en. */
  locale?: Locale;
  /** Today (UTC, YYYY-MM-DD), to read a pickup day the principal gave. Default: the current day. */
  today?: string;
  /** Counts not checked: only for measuring what each one prevents (an evaluation's defects), never in use. */
  skip?: readonly ProvenanceCount[];
}

export type ProvenanceCount = "context" | "language" | "intent" | "target" | "values";

export type ProvenanceDecision =
  | { decision: "dispatch"; target: GuardDecision }
  | { decision: "clarify"; candidates: OrderFacts[] }
  | { decision: "confirm"; failed: ProvenanceCount[]; quoteNote: boolean; reasons: string[] };

export function provenance(input: ProvenanceInput): ProvenanceDecision {
  const failed: ProvenanceCount[] = [];
  const reasons: string[] = [];
  const skip = new Set(input.skip ?? []);

  if (!skip.has("context") && (input.taint?.length ?? 0) > 0) {
    failed.push("context");
    reasons.push(`the model's context holds text the principal did not write (${(input.taint ?? []).slice(0, 3).join("; ")})`);
  }
  const locale = input.locale ?? "en";
  if (!skip.has("language") && locale !== "en") {
    failed.push("language");
    reasons.push(`the conversation is in ${locale}, and only English requests are read without a confirmation`);
  }

  const asked = new Set([...input.message.asks, ...(input.askedBefore ? input.askedBefore.asks : [])]);
  const carried =
    input.previousMessage !== undefined &&
    input.message.continuesPrevious &&
    isChangeTool(input.tool) &&
    input.previousMessage.asks.has(input.tool);
  const retried = input.retrying === true && input.message.isAffirmation;
  const dictated = dictatedNote(input);
  if (!skip.has("intent") && (!isChangeTool(input.tool) || !(asked.has(input.tool) || carried || retried || dictated))) {
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
          latestMessage: input.askedBefore ? readMessage(`${input.askedBefore.text}\n${input.message.text}`) : input.message,
          incomplete: input.incomplete ?? false,
          resolvedFragments: input.resolvedFragments ?? {},
          namedOrders: input.orders.filter((o) => o.named).map((o) => o.orderId),
        });
  // Which order is the first question: a change the principal asked for, on an order they have not picked, is a
  // clarification whatever the context — the confirmation comes once the order is known.
  if (target === "clarification" && failed.every((f) => f === "context" || f === "language"))
    return { decision: "clarify", candidates: input.orders.map((o) => ({ ...o })) };
  if (target === "clarification" || target === "unplaced") {
    failed.push("target");
    reasons.push(
      target === "unplaced"
        ? `${input.orderId} is not an order the principal named, and not the only order in play`
        : `other orders are in play and the message does not pick ${input.orderId}`,
    );
  }

  let quoteNote = true;
  if (!skip.has("values")) {
    const values = checkValues({
      tool: input.tool,
      request: input.request,
      message: input.message,
      principalMessages: input.principalMessages,
      order: input.orders.find((o) => o.orderId === input.orderId),
      today: input.today ?? new Date().toISOString().slice(0, 10),
      ...(input.foreignTexts ? { foreignTexts: input.foreignTexts } : {}),
    });
    if (values.untraced.length > 0) {
      failed.push("values");
      reasons.push(...values.untraced);
    }
    quoteNote = values.quotable;
  }

  return failed.length === 0 ? { decision: "dispatch", target } : { decision: "confirm", failed, quoteNote, reasons };
}

/**
 * A delivery note the principal dictated in a clause that can ask: every word and datum of it is theirs, outside
 * what they quote from text they did not write.
 */
function dictatedNote(input: ProvenanceInput): boolean {
  const note = input.request.deliveryNote;
  if (input.tool !== "add_delivery_note" || typeof note !== "string" || contentWords(note, smallWords).length === 0) return false;
  const own = ownWords(input.foreignTexts ?? [])(input.message);
  return foreignWords(note, [own], own).length === 0 && input.message.clauses.length > 0;
}
