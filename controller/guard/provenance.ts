import { isChangeTool, type ToolName } from "#contract/tools";
import type { OrderFacts } from "#controller/outcomes";
import { ambiguityGuard, type GuardDecision } from "#controller/guard/ambiguity";
import type { PrincipalMessage } from "#controller/guard/message";
import { type FormRequest, readOrderAnswer, type RequestForm } from "#controller/guard/request-form";
import { formValues, quotable } from "#controller/guard/values";
import type { Locale } from "#controller/i18n/locale";
import { agreesWith, personsOrders } from "#controller/guard/targets";

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * The provenance control (contract §8.5): a change is sent without asking only when it was clearly asked for — a
 * clean context, English, and the principal's message, in whole, a request in the closed form
 * (guard/request-form.ts) for this very change: its kind, its order, its values. Everything else waits for the
 * principal's confirmation of the exact request, which names what they will see. This check never reads the text
 * the principal did not write; it reads the conversation's taint and the principal's own message.
 *
 * Counts, all required for the fast path:
 * - **context**: the model's context is clean — it never read text the principal did not write (context/taint.ts).
 *   In a tainted context every change waits: the model's choice to propose it may be the foreign text's;
 * - **language**: the conversation is in English, the one language the closed form is written in;
 * - **form**: the message is a request in the closed form for this kind of change — or it answers the controller's
 *   "which order?" with only an order reference, and the message that asked was one;
 * - **target**: the order is one the request names by id, or that its fragment, pronoun, possessive or description
 *   names alone among the orders the principal named or was shown (guard/targets.ts); a description must agree with
 *   it, and after a change "it", "this", "that" name that change, not an order;
 * - **values**: every argument is what the request says (guard/change-forms.ts, `formValues`).
 *
 * With several orders in play and a request that does not say which, the outcome is a clarification, whatever the
 * context: which order comes first, the confirmation once it is known.
 */
export interface ProvenanceInput {
  tool: ToolName;
  request: Record<string, unknown>;
  orderId: string;
  /** The principal's message in this turn, read once for the turn (guard/message.ts). */
  message: PrincipalMessage;
  /** When this turn answers the controller's "which order?", the message that asked for the change. */
  askedBefore?: PrincipalMessage;
  /** Every message of the principal in the conversation, this turn's included: a note is quoted back only if theirs. */
  principalMessages: readonly PrincipalMessage[];
  orders: readonly OrderFacts[];
  incomplete?: boolean;
  resolvedFragments?: Readonly<Record<string, readonly string[]>>;
  /** What the model's context holds that the principal did not write (empty or absent: clean). */
  taint?: readonly string[];
  /** The texts the model read that the principal did not write, as written: quoting them is not dictating. */
  foreignTexts?: readonly string[];
  /** The conversation's locale; the closed form is English. Default en. */
  locale?: Locale;
  /** Today in the principal's time zone (YYYY-MM-DD), to read a day the principal gave. Default: the current UTC day. */
  today?: string;
  /** The principal's time zone (IANA), in which the days orders were placed are read. Default UTC. */
  timeZone?: string;
  /**
   * Orders the application's own text showed the principal in this conversation (facts, questions, clarification
   * lists): with the orders they named themselves, the only orders their words can name.
   */
  shownOrders?: readonly string[];
  /** A change was made or asked about earlier in the conversation: "it", "this", "that" now name it, not an order. */
  changeBefore?: boolean;
  /** Counts not checked: only for measuring what each one prevents (an evaluation's defects), never in use. */
  skip?: readonly ProvenanceCount[];
}

export type ProvenanceCount = "context" | "language" | "form" | "target" | "values";

export type ProvenanceDecision =
  | { decision: "dispatch"; target: GuardDecision }
  | { decision: "clarify"; candidates: OrderFacts[] }
  | { decision: "confirm"; failed: ProvenanceCount[]; quoteNote: boolean; reasons: string[] };

export function provenance(input: ProvenanceInput): ProvenanceDecision {
  const failed: ProvenanceCount[] = [];
  const reasons: string[] = [];
  const skip = new Set(input.skip ?? []);
  const today = input.today ?? todayUtc();
  const fail = (count: ProvenanceCount, why: string) => {
    if (skip.has(count)) return;
    failed.push(count);
    reasons.push(why);
  };

  if ((input.taint?.length ?? 0) > 0)
    fail("context", `the model's context holds text the principal did not write (${(input.taint ?? []).slice(0, 3).join("; ")})`);
  const locale = input.locale ?? "en";
  if (locale !== "en")
    fail("language", `the conversation is in ${locale}: only an English request in the closed form goes out without a question`);

  // What the principal asked for, read as the closed form; when this message answers "which order?", the message
  // that asked, with the order this one names.
  const asking = input.askedBefore ?? input.message;
  const form = locale === "en" ? asking.requestForm(today) : undefined;
  const answer = input.askedBefore ? readOrderAnswer(input.message.text) : undefined;
  const asksForThis = form?.closed === true && isChangeTool(input.tool) && form.tool === input.tool && (!input.askedBefore || !!answer);
  if (!asksForThis) fail("form", formProblem(input, form, answer !== undefined));

  const placed = targetOf(input, form, answer);
  // Measuring what the target count prevents (an evaluation's defect): the order proposed is taken as placed.
  const { target, request } = skip.has("target") ? { ...placed, target: "single_order" as const } : placed;
  // Which order is the first question: a change the principal asked for, on an order they did not say, is a
  // clarification whatever the context — the confirmation comes once the order is known.
  if (asksForThis && target === "clarification" && failed.every((f) => f === "context"))
    return { decision: "clarify", candidates: placed.candidates.map((o) => ({ ...o })) };
  if (target === "clarification" || target === "unplaced")
    fail(
      "target",
      placed.why ??
        (target === "unplaced"
          ? `${input.orderId} is not an order the request names, nor the only order the principal named or was shown`
          : `other orders are in play and the request does not name ${input.orderId}`),
    );

  if (asksForThis && request && isChangeTool(input.tool)) {
    const untraced = formValues(
      input.tool,
      input.request,
      request,
      input.orders.find((o) => o.orderId === input.orderId),
      asking,
    );
    for (const why of untraced) fail("values", why);
  }

  const quoteNote = quotable({
    tool: input.tool,
    request: input.request,
    message: input.message,
    principalMessages: input.principalMessages,
    ...(input.foreignTexts ? { foreignTexts: input.foreignTexts } : {}),
  });
  return failed.length === 0 ? { decision: "dispatch", target } : { decision: "confirm", failed, quoteNote, reasons };
}

function formProblem(input: ProvenanceInput, form: RequestForm | undefined, answered: boolean): string {
  if (form === undefined) return "the message was not read as an English request";
  if (!form.closed) return `the message is not a request in the closed form: ${form.why}`;
  if (form.tool !== input.tool) return `the message asks for ${form.tool}, not ${input.tool}`;
  if (input.askedBefore && !answered) return "the message does not answer which order with an order reference alone";
  return `the message does not ask for ${input.tool}`;
}

/**
 * Which order the request names, and which of its requests this change is: its full id or a cued fragment (the
 * ambiguity guard's rules), or "it" / "my order" when only one order is in play.
 */
function targetOf(
  input: ProvenanceInput,
  form: RequestForm | undefined,
  answer: { orderIds: string[]; fragments: string[] } | undefined,
): { target: GuardDecision; request?: FormRequest; candidates: OrderFacts[]; why?: string } {
  const requests = form?.closed ? form.requests.filter((r) => r.tool === input.tool) : [];
  const named = answer ?? {
    orderIds: requests.flatMap((r) => r.orderIds),
    fragments: requests.flatMap((r) => r.fragments),
  };
  const pronouns = answer ? [] : requests.filter((r) => r.pronoun);
  const description = pronouns.find((r) => r.description)?.description;
  // A description names only orders that agree with it: placed that day, holding those items.
  const inPlay = description
    ? input.orders.filter((o) => agreesWith(o, description, input.today ?? todayUtc(), input.timeZone ?? "UTC"))
    : [...input.orders];
  if (description && !inPlay.some((o) => o.orderId === input.orderId) && !named.orderIds.includes(input.orderId))
    return {
      target: "unplaced",
      candidates: inPlay,
      why: `the description (${[...description.words, description.day].join(" ")}) does not agree with ${input.orderId}`,
    };
  if (input.changeBefore && pronouns.some((r) => r.bare) && named.orderIds.length === 0 && named.fragments.length === 0)
    return {
      target: "unplaced",
      candidates: inPlay,
      why: `after a change was made or asked about, "it", "this" or "that" names that change, not order ${input.orderId}`,
    };
  const guard = (orders: readonly OrderFacts[]) =>
    ambiguityGuard({
      targetOrderId: input.orderId,
      ordersInPlay: orders.map((o) => o.orderId),
      named: { orderIds: named.orderIds, fragments: named.fragments, pronoun: pronouns.length > 0 },
      incomplete: input.incomplete ?? false,
      resolvedFragments: input.resolvedFragments ?? {},
    });
  // Words that fit several orders in play ask which, whoever read them: the question sends nothing, and the answer is
  // the principal's own. Words that fit one name it only if it is the principal's: named by them, or shown to them.
  const broad = guard(inPlay);
  const theirs = [input.message, ...input.principalMessages, ...(input.askedBefore ? [input.askedBefore] : [])].flatMap((m) => m.orderIds);
  const personal = personsOrders(inPlay, [...(input.shownOrders ?? []), ...theirs]);
  const target = broad === "clarification" ? broad : guard(personal);
  const candidates = broad === "clarification" ? inPlay : personal;
  const digits = input.orderId.replace(/^SU-/, "");
  const request =
    requests.find((r) => r.orderIds.includes(input.orderId) || r.fragments.some((f) => digits.includes(f))) ??
    requests.find((r) => r.pronoun) ??
    (answer ? requests[0] : undefined);
  return {
    target,
    candidates,
    ...(request ? { request } : {}),
    ...(target === "unplaced" && broad !== "unplaced"
      ? { why: `${input.orderId} is not an order the principal named or was shown: the model's own reads name nothing` }
      : {}),
  };
}
