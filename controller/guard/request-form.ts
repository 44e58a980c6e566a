import type { ChangeToolName } from "#contract/tools";
import { addDays } from "#core/days";
import { normalizeShown } from "#controller/gate/normalize";

/**
 * The closed form of a request (contract §8.5): on a clean context in English, a change goes out without a question
 * only when the principal's message is, in whole, a clear request in one of the forms below. This module *accepts*;
 * it does not look for reasons to refuse. A message it cannot place in a form — a question, a condition, a
 * negation, a deferral, a retraction, a quotation, text pasted after a colon, a report of what someone else said, a
 * second kind of change, a "too" — is simply not a request in the closed form, and its change waits for a
 * confirmation: a misread costs one question, never a change.
 *
 * A message in the closed form is a sequence of sentences, each one of:
 * - **a greeting** ("Hi", "Hello there", "Good morning"): says nothing about a change;
 * - **thanks** ("Thanks", "Thank you very much", "Cheers"): says nothing about a change;
 * - **a request**: an optional courtesy lead ("please", "kindly", "can/could/would/will you", "I'd like (you) to",
 *   "I want (you) to", "I need you to"), the change's own verb phrase (below), its target, its values, an optional
 *   "please" and thanks. A question mark is allowed only after a "can/could/would/will you" lead: that is the one
 *   question that is a request. Each request may open with a reason clause about its target ("The kettle on
 *   SU-61203 arrived broken, please start a return for it"), whose subject "it" then names;
 * - **a reason**: a sentence that says why, about the target, in one of the closed reason phrases below ("It
 *   arrived broken.", "I ordered it twice."). The negations inside a reason phrase ("it doesn't work", "I don't
 *   need it any more") are part of the phrase, not about the change.
 * At least one request; every request of one kind of change; nothing else. Text after the colon of a note request
 * ("Add a note to SU-10387: leave it in the porch") is the note itself, data the carrier reads, and is not read
 * as sentences.
 *
 * The verb phrases, one set per change (and why each is there):
 * - cancel_order: "cancel <order>", with the one deadline that urges rather than defers, "before it ships" (the
 *   plainest way to ask for a cancellation, and the wording of the request this control is designed around);
 * - add_delivery_note: "add a (delivery) note to <order>: <note>", "… saying <note>", "… that says <note>";
 * - start_return: "start / open / arrange / book a return for <items>", "return <items>", with an optional
 *   "because <reason>" and pickup day ("collected tomorrow", "with pickup on 2026-12-07", "pickup on Monday");
 * - offer_replacement: "send (me) a replacement for <items>", "replace <items>", "send (me) a new one / another
 *   one", with an optional "because <reason>".
 * An order is named by its id ("SU-10234", "order SU-10234", "my order SU-10234"), by a cued fragment ("order 884",
 * "#884"), or as "it" / "my order" / "the order" (then it must be the only order in play). Items are named by their
 * id, by words of their title ("the electric kettle", "the lamp on SU-61201"), as "it" / "them", or as "everything
 * on <order>".
 */

export type ReturnReason = "damaged" | "wrong_item" | "not_as_described" | "no_longer_needed" | "missing";

/** One request sentence in the closed form, with what it names. */
export interface FormRequest {
  tool: ChangeToolName;
  /** The order ids it names in full, and the fragments it names with a cue ("order 884"). */
  orderIds: string[];
  fragments: string[];
  /** "it", "my order", "the order": the order is the only one in play, or the one the reason clause named. */
  pronoun: boolean;
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

/** A message read as the closed form, or why it is not one. */
export type RequestForm = { closed: true; tool: ChangeToolName; requests: FormRequest[]; forms: string[] } | { closed: false; why: string };

// ——— the pieces of the forms, as the reading (lowercase, normalised) has them ———

const id = String.raw`su-\d{5}`;
const fragment = String.raw`\d{3,5}`;
const orderRef = String.raw`(?:(?:my |the |this )?order (?:number |no\.? )?#?(?:${id}|${fragment})|(?:my |the )?${id}|#${fragment})`;
const orderList = `${orderRef}(?:(?:, and |, | and )${orderRef})*`;
const pronoun = `(?:it|this|that|this one|my order|the order|this order)`;
const target = `(?:${orderList}|${pronoun})`;
/** A word of an item's name: not an order id, and not a word the forms use to go on ("on", "because", "please"…). */
const word = String.raw`(?!(?:on|from|in|of|for|to|and|as|because|since|with|please|thanks|collected|picked|pickup|before)\b)(?!su-\d)[a-z][a-z0-9'-]*`;
const item = String.raw`(?:itm-\d+|it|them|these|this|everything|all (?:of )?(?:the )?items|(?:the|my|both) ${word}(?: ${word}){0,4}?)`;
const items = `${item}(?:(?:, and |, | and )${item})*`;
const itemsOn = `(?<items>${items})(?: (?:on|from|in|of) (?<itemsOrder>${target}))?`;
const weekday = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
const day = String.raw`(?:today|tomorrow|the day after tomorrow|in \d{1,2} days?|(?:on )?(?:${weekday})|(?:on )?\d{4}-\d{2}-\d{2})`;
const pickup = `(?:,? (?:(?:with |for )?(?:a )?(?:pickup|pick-up|collection)|to be collected|collected|picked up)(?: on)? (?<day>${day}))`;

/** The closed reason phrases, each with the reason it gives (a return's and a replacement's reasons). */
const reasonPhrases: readonly [ReturnReason, string][] = [
  [
    "damaged",
    `(?:arrived|came|is|was|are|were|has arrived|have arrived|'s|'re) (?:broken|damaged|cracked|smashed|shattered|dented|scratched|chipped|faulty|defective|torn|leaking)|(?:doesn't|does not|don't|do not) work|(?:stopped|has stopped) working|(?:is|was|are|were) not working|isn't working|aren't working`,
  ],
  [
    "wrong_item",
    `(?:is|was|are|were|'s|'re) the wrong (?:item|size|colou?r|model|one|ones)|(?:isn't|is not|wasn't|was not) what i ordered`,
  ],
  ["not_as_described", `(?:is|was|are|were|'s|'re) not as described|(?:doesn't|does not|don't|do not) match the description`],
  ["missing", `(?:is|was|are|were) missing|never arrived|(?:wasn't|was not|weren't|were not) in the (?:box|parcel|package)`],
];
/** Reasons the principal gives about themselves ("I ordered it twice"): a cancellation's, a return's. */
const ownReasons = `i (?:no longer need (?:it|them)|(?:don't|do not) need (?:it|them) any ?more|changed my mind|ordered (?:it|them|this) (?:twice|by mistake|by accident)|ordered the wrong (?:item|size|colou?r|one))`;
const reasonOfOwn = (text: string): ReturnReason => (/wrong/.test(text) ? "wrong_item" : "no_longer_needed");
const subject = `(?:it|they|this|these|the (?<subjectWords>${word}(?: ${word}){0,4}?)(?: (?:on|from|in) (?<subjectOrder>${orderRef}))?|(?<subjectRef>${orderRef}))`;
const reasonClause = `(?:${subject} (?<state>${reasonPhrases.map(([, p]) => `(?:${p})`).join("|")})|(?<own>${ownReasons}))`;

/** Words that open a request and say nothing: "Hi, …", "OK, …", "And …". */
const opener = "(?:(?:hi|hello|hey|ok|okay|right|so|then|and),? )?";
const lead = `(?:(?:please|kindly),? )?(?:(?<ask>(?:can|could|would|will) you) (?:please |kindly |just )?|i'?d like (?:you )?to |i would like (?:you )?to |i want (?:you )?to |i need you to )?(?:please |kindly )?`;
const tail = `(?:,? please)?(?:,? (?:thanks|thank you)(?: very much| so much)?)?`;

/** Each change's verb phrases (see above); a named group `target` or `items` holds what it names. */
const verbPhrases: Record<ChangeToolName, string> = {
  cancel_order: `cancel (?<target>${target})(?: (?:before it (?:ships|is shipped|'s shipped|gets shipped|is dispatched|goes out)))?`,
  add_delivery_note: `add (?:a |the |this )?(?:delivery )?(?:note|instruction)(?: (?:to|on|for) (?<target>${target}))?(?:: | saying | that says )(?<note>.+)`,
  start_return: `(?:(?:start|open|arrange|book|set up|begin) (?:a |the )?return (?:for|of|on) |return )${itemsOn}(?: (?:because|as|since) (?<because>[^,]+?))?${pickup}?`,
  offer_replacement: `(?:send (?:me |us )?(?:a |the )?replacement(?: (?:for|of) ${itemsOn})?|replace ${itemsOn.replaceAll("<items>", "<items2>").replaceAll("<itemsOrder>", "<itemsOrder2>")}|send (?:me |us )?(?:a new one|another one)(?: (?:for|of) (?<target>${target}))?)(?: (?:because|as|since) (?<because>[^,]+?))?`,
};

const greeting = /^(?:hi|hello|hey|dear \w+|good (?:morning|afternoon|evening))(?: there| team| sundry)?$/;
const thanks =
  /^(?:thanks|thank you|many thanks|thanks a lot|thanks in advance|thank you very much|thank you so much|cheers|much appreciated)$/;
const courtesyEmoji = /[🙏🙂😊👍😀]/gu;

const compiled = Object.fromEntries(
  (Object.entries(verbPhrases) as [ChangeToolName, string][]).map(([tool, phrase]) => [
    tool,
    // A note runs to the end of the message, across lines: `s`, so its `.+` takes them.
    new RegExp(
      `^${opener}(?:${reasonClause}(?:, | and |, and |, so | so ))?${lead}${phrase}${tail}$`,
      tool === "add_delivery_note" ? "s" : "",
    ),
  ]),
) as Record<ChangeToolName, RegExp>;
/** Where a note request starts: its text runs from there to the end of the message. */
const noteStart = new RegExp(`(?:^|(?<=[.!?]\\s)|(?<=\\n))${opener}${lead}add (?:a |the |this )?(?:delivery )?(?:note|instruction)\\b`);
const reasonSentence = new RegExp(`^(?:${reasonClause})$`);
const answerForm = new RegExp(
  `^(?:(?:it's|it is|i mean|i meant) )?(?:the )?(?:(?<ref>${orderRef})(?: one)?|one ending (?:in |with )?(?<ending>${fragment}))${tail}$`,
);

/**
 * The principal's message read as the closed form. `today` (YYYY-MM-DD, UTC) resolves the pickup days it names.
 */
export function readRequestForm(message: string, today: string): RequestForm {
  const text = readingForForm(message);
  const refused = characterProblem(text);
  if (refused) return { closed: false, why: refused };
  // A note's text is data, not sentences: the one sentence after "add a note to …:" (or a whole quotation there).
  const noteAt = text.search(noteStart);
  const noteEnd = noteAt >= 0 ? endOfNote(text, noteAt) : -1;
  const sentences = splitSentences(noteAt >= 0 ? `${text.slice(0, noteAt)}\n${text.slice(noteEnd)}` : text);
  const forms: string[] = [];
  const requests: FormRequest[] = [];
  const reasons: ReasonSentence[] = [];
  for (const sentence of sentences) {
    if (greeting.test(sentence) || thanks.test(sentence)) {
      forms.push(greeting.test(sentence) ? "greeting" : "thanks");
      continue;
    }
    const request = readRequest(sentence, today) ?? withTrailingReason(sentence, today, reasons);
    if (request) {
      requests.push(request);
      forms.push(`request:${request.tool}`);
      continue;
    }
    const reason = sentence.match(reasonSentence)?.groups;
    if (reason) {
      reasons.push(reasonSentenceOf(reason));
      forms.push("reason");
      continue;
    }
    return { closed: false, why: `${JSON.stringify(sentence)} is not a request, a reason, a greeting or thanks in the closed form` };
  }
  if (noteAt >= 0) {
    const note = readRequest(
      text
        .slice(noteAt, noteEnd)
        .trim()
        .replace(/[.!]+$/, ""),
      today,
    );
    if (!note) return { closed: false, why: "the note request is not in the closed form" };
    requests.push(note);
    forms.push(`request:${note.tool}`);
  }
  if (requests.length === 0) return { closed: false, why: "no sentence of the message is a request in the closed form" };
  const tools = new Set(requests.map((r) => r.tool));
  if (tools.size > 1) return { closed: false, why: `the message asks for more than one kind of change (${[...tools].join(", ")})` };
  for (const reason of reasons) {
    const problem = giveReason(reason, requests);
    if (problem) return { closed: false, why: problem };
  }
  return { closed: true, tool: requests[0]?.tool as ChangeToolName, requests, forms };
}

/**
 * "Please return the lamp on SU-61201, it arrived broken": a request, then a reason clause about it after a comma
 * (or "as", "because", "since"), read as the request and a reason sentence.
 */
function withTrailingReason(sentence: string, today: string, reasons: ReasonSentence[]): FormRequest | undefined {
  const split = sentence.match(/^(?<request>.+?)(?:,| as| because| since) (?<reason>[^,]+)$/);
  if (!split?.groups) return undefined;
  const reason = split.groups.reason?.match(reasonSentence)?.groups;
  const request = reason ? readRequest(split.groups.request as string, today) : undefined;
  if (!request || !reason) return undefined;
  reasons.push(reasonSentenceOf(reason));
  return request;
}

/**
 * Where a note request's note ends: after its closing quotation mark when the note is quoted whole, else at its
 * first sentence end. What follows is read as sentences: "Add a note to SU-1: leave it at the door. Actually, never
 * mind." is a note request and a retraction, not a two-sentence note.
 */
function endOfNote(text: string, noteAt: number): number {
  const rest = text.slice(noteAt);
  const value = rest.search(/(?:: | saying | that says )/);
  if (value < 0) return text.length;
  const start = rest.indexOf(" ", value + 1) + 1;
  if (rest.charAt(start) === '"') {
    const close = rest.indexOf('"', start + 1);
    return close < 0 ? text.length : noteAt + close + 1;
  }
  const end = rest.slice(start).search(/[.!?](?=\s|$)|\n/);
  return end < 0 ? text.length : noteAt + start + end + 1;
}

/** A reason sentence: the reason it gives, and what it says it of. */
interface ReasonSentence {
  reason?: ReturnReason;
  /** The item words and order of its subject; none for "it", "they" and the principal's own reasons. */
  words?: string[];
  orderIds: string[];
}

function reasonSentenceOf(g: Record<string, string | undefined>): ReasonSentence {
  const reason = reasonOf(g);
  return {
    ...(reason ? { reason } : {}),
    ...(g.subjectWords ? { words: contentWords(g.subjectWords) } : {}),
    orderIds: referencesOf(`${g.subjectOrder ?? ""} ${g.own ? "" : (g.subjectRef ?? "")}`).orderIds,
  };
}

/**
 * A reason sentence gives its reason to the request it is about: its subject is "it" or names that request's
 * item or order. A reason about something else ("The box was damaged. Please return the lamp.") is not one the
 * request may take, and the message is not in the closed form.
 */
function giveReason(reason: ReasonSentence, requests: FormRequest[]): string | undefined {
  for (const request of requests) {
    if (request.tool === "cancel_order" || request.tool === "add_delivery_note") continue;
    if (!aboutRequest(reason, request)) return "a reason sentence is about another item or order than the request";
    if (reason.reason === undefined) continue;
    if (request.reason !== undefined && request.reason !== reason.reason) return "the message gives two different reasons";
    request.reason = reason.reason;
  }
  return undefined;
}

function aboutRequest(reason: ReasonSentence, request: FormRequest): boolean {
  if (reason.orderIds.some((o) => !request.orderIds.includes(o))) return false;
  if (!reason.words) return true;
  const words = reason.words;
  return (request.items ?? []).some((i) => i.kind === "words" && sameWords(i.words, words));
}

const sameWords = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((w) => b.includes(w));

/** An answer to "which order?" in the closed form: only an order reference, with courtesy ("SU-10234, please"). */
export function readOrderAnswer(message: string): { orderIds: string[]; fragments: string[] } | undefined {
  const text = readingForForm(message);
  if (characterProblem(text)) return undefined;
  const match = text.replace(/[.!]+$/, "").match(answerForm);
  const ref = match?.groups?.ref ?? (match?.groups?.ending ? `order ${match.groups.ending}` : undefined);
  return ref ? referencesOf(ref) : undefined;
}

// ——— reading ———

/** The message as the form reads it: normalised as the gate reads shown text (no markdown taken out), lowercase. */
function readingForForm(message: string): string {
  return normalizeShown(message.replace(courtesyEmoji, " "))
    .toLowerCase()
    .replace(/[ \t]+/g, " ")
    .trim();
}

/**
 * Characters a request in the closed form never holds: quotation marks (except around a whole note), a line
 * that opens with ">", brackets, markup, any symbol or pictograph but the courtesy emoji, which were taken out.
 */
function characterProblem(text: string): string | undefined {
  if (/^\s*>/m.test(text)) return "it holds quoted lines (>)";
  const withoutNote = text.replace(/(?:: | saying | that says )"[^"\n]*"[.!]?$/, "");
  if (/"/.test(withoutNote)) return "it holds quotation marks";
  // An apostrophe stands between two letters ("don't", "Ana's"); any other is a quotation mark.
  if (/(?<![a-z])'|'(?![a-z])/.test(withoutNote)) return "it holds quotation marks";
  const beforeNote = withoutNote.replace(/(?:: | saying | that says ).*$/s, "");
  if (/:/.test(beforeNote.replace(/\b\d{1,2}:\d{2}\b/g, ""))) return "it holds a colon outside a note request";
  const other = beforeNote.match(/[^a-z0-9\s.,!?'#-]/u);
  if (other) return `it holds ${JSON.stringify(other[0])}, which no request in the closed form holds`;
  return undefined;
}

/** Sentences: at ., ! or ? followed by a space or the end, and at every line break; each without its terminator but "?". */
function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) =>
      s
        .trim()
        .replace(/[.!]+$/, "")
        .replace(/\s*\?+$/, "?")
        .trim(),
    )
    .filter((s) => s !== "" && s !== "?");
}

function readRequest(sentence: string, today: string): FormRequest | undefined {
  const question = sentence.endsWith("?");
  const body = sentence.replace(/\?$/, "");
  for (const [tool, pattern] of Object.entries(compiled) as [ChangeToolName, RegExp][]) {
    const g = body.match(pattern)?.groups;
    if (!g) continue;
    // The one question that is a request: "could you cancel it?".
    if (question && (g.ask === undefined || tool === "add_delivery_note")) return undefined;
    return requestOf(tool, g, today);
  }
  return undefined;
}

function requestOf(tool: ChangeToolName, g: Record<string, string | undefined>, today: string): FormRequest | undefined {
  const refs = referencesOf([g.target, g.itemsOrder, g.itemsOrder2, g.subjectOrder, g.subjectRef].filter(Boolean).join(" "));
  const request: FormRequest = {
    tool,
    orderIds: refs.orderIds,
    fragments: refs.fragments,
    pronoun: refs.orderIds.length === 0 && refs.fragments.length === 0,
  };
  if (tool === "start_return" || tool === "offer_replacement") {
    const itemText = g.items ?? g.items2;
    const named = itemText ? itemReferences(itemText) : [{ kind: "pronoun" as const }];
    const subject = g.subjectWords ? contentWords(g.subjectWords) : undefined;
    // "The kettle on SU-61203 arrived broken, please return it": "it" is the kettle. Named otherwise, the items must
    // be the clause's subject: its reason is said of it, not of another item.
    if (subject && named.some((r) => r.kind === "words" && !sameWords(r.words, subject))) return undefined;
    request.items = named.map((r) => (r.kind === "pronoun" && subject ? { kind: "words" as const, words: subject } : r));
    // "because …" gives a reason only in a closed reason phrase; anything else after it is not the form.
    const reason = g.because !== undefined ? becauseReason(g.because) : reasonOf(g);
    if (g.because !== undefined && reason === undefined) return undefined;
    if (reason) request.reason = reason;
    if (g.day) request.pickupDate = dayOf(g.day, today);
  }
  if (tool === "add_delivery_note") {
    if (g.note === undefined) return undefined;
    request.note = noteOf(g.note);
  }
  return request;
}

function referencesOf(text: string): { orderIds: string[]; fragments: string[] } {
  const orderIds = [...text.matchAll(/\bsu-(\d{5})\b/g)].map((m) => `SU-${m[1]}`);
  const fragments = [...text.replace(/\bsu-\d{5}\b/g, " ").matchAll(/\d{3,5}/g)].map((m) => m[0]);
  // Five digits after an order word are an id written without its prefix.
  return {
    orderIds: [...orderIds, ...fragments.filter((f) => f.length === 5).map((f) => `SU-${f}`)],
    fragments: fragments.filter((f) => f.length < 5),
  };
}

const articles = new Set(["the", "my", "both", "a", "an", "this", "these"]);
const contentWords = (text: string) => text.split(/\s+/).filter((w) => w !== "" && !articles.has(w));

function itemReferences(text: string): ItemReference[] {
  return text.split(/, and |, | and /).map((part): ItemReference => {
    const p = part.trim();
    const itemId = p.match(/^itm-(\d+)$/);
    if (itemId) return { kind: "id", itemId: `ITM-${itemId[1]}` };
    if (/^(?:everything|all (?:of )?(?:the )?items)$/.test(p)) return { kind: "everything" };
    if (/^(?:it|them|these|this)$/.test(p) || new RegExp(`^${orderRef}$`).test(p) || /^(?:my|the|this) order$/.test(p))
      return { kind: "pronoun" };
    return { kind: "words", words: contentWords(p) };
  });
}

function reasonOf(g: Record<string, string | undefined>): ReturnReason | undefined {
  if (g.own) return reasonOfOwn(g.own);
  if (g.state) return reasonPhrases.find(([, phrase]) => new RegExp(`^(?:${phrase})$`).test(g.state as string))?.[0];
  return undefined;
}

/** "because it arrived broken", "as I no longer need it": only the closed reason phrases give a reason. */
function becauseReason(text: string): ReturnReason | undefined {
  const match = text.trim().match(reasonSentence);
  return match?.groups ? reasonOf(match.groups) : undefined;
}

const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

function dayOf(text: string, today: string): string {
  const t = text.replace(/^on /, "");
  if (t === "today") return today;
  if (t === "tomorrow") return addDays(today, 1);
  if (t === "the day after tomorrow") return addDays(today, 2);
  const inDays = t.match(/^in (\d{1,2}) days?$/);
  if (inDays) return addDays(today, Number(inDays[1]));
  const index = weekdays.indexOf(t);
  if (index >= 0) return addDays(today, (index - new Date(`${today}T00:00:00Z`).getUTCDay() + 7) % 7 || 7);
  return t;
}

/** A note's words as the principal wrote them: quotes around the whole note taken off, a closing "thanks" too. */
function noteOf(text: string): string {
  return text
    .replace(/\.\s*(?:thanks|thank you|many thanks|cheers)[.!]*$/, "")
    .trim()
    .replace(/^"(.*)"[.!]?$/s, "$1")
    .trim();
}
