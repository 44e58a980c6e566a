import type { ChangeToolName } from "#contract/tools";
import {
  type ChangeForm,
  changeForms,
  type FormPieces,
  type FormRequest,
  type ItemReference,
  type ReturnReason,
} from "#controller/guard/change-forms";

export type { FormRequest, ItemReference, ReturnReason } from "#controller/guard/change-forms";
import { addDays } from "#core/days";
import { normalizeShown } from "#controller/text/normalize";
import { courtesyEmoji } from "#controller/text/small-words";

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
 * The verb phrases, one set per change, each in the change's entry of controller/guard/change-forms.ts (and why each is
 * there):
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

/** A message read as the closed form, or why it is not one. */
export type RequestForm = { closed: true; tool: ChangeToolName; requests: FormRequest[]; forms: string[] } | { closed: false; why: string };

// ——— the pieces of the forms, as the reading (lowercase, normalised) has them ———

const id = String.raw`su-\d{5}`;
const fragment = String.raw`\d{3,5}`;
/** An order by its id (with or without "SU-", spaced or not), or by a fragment after a cue ("order 884", "the 884 one"). */
const orderRef = String.raw`(?:(?:my |the |this )?order (?:number |no\.? )?#?(?:${id}|${fragment})|(?:my |the )?${id}|#${fragment}|\d{5}|the ${fragment} one|the one ending (?:in )?${fragment})`;
const orderList = `${orderRef}(?:(?:, and |, | and )${orderRef})*`;
const weekday = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
/**
 * "It", "my order", or a description ("the towels from yesterday"): names no order by itself, so it is the only order
 * in play, or the principal is asked which.
 */
const pronoun = `(?:it|this|that|this one|my order|the order|this order|the [a-z]+(?: [a-z]+){0,2} (?:from|of) (?:yesterday|today|last week|this week|${weekday}))`;
const target = `(?:${orderList}|${pronoun})`;
/** A description of an order, read apart: its words ("the rug order") and its day ("from Monday"). */
const descriptionForm = new RegExp(
  `^the (?<words>[a-z]+(?: [a-z]+){0,2}) (?:from|of) (?<day>yesterday|today|last week|this week|${weekday})$`,
);
const orderWords = new Set(["order", "orders", "one", "purchase", "delivery", "parcel", "package"]);
const bareWords = new Set(["it", "this", "that", "this one", "them"]);
/** A word of an item's name: not an order id, and not a word the forms use to go on ("on", "because", "please"…). */
const word = String.raw`(?!(?:on|from|in|of|for|to|and|as|because|since|with|please|thanks|collected|picked|pickup|before|now)\b)(?!su-\d)[a-z][a-z0-9'-]*`;
/** A word of an item's state that gives the reason for its change: "the broken vase" is a vase, and damaged. */
const condition = "broken|damaged|cracked|chipped|smashed|shattered|dented|scratched|faulty|defective|torn|leaking";
const item = String.raw`(?:(?:item )?itm-\d+|it|them|these|this|everything|all (?:of )?(?:the )?items|(?:the|my|both) ${word}(?: ${word}){0,4}?)`;
const items = `${item}(?:(?:, and |, | and )${item})*`;
const itemsOn = `(?<items>${items})(?: (?:on|from|in|of) (?<itemsOrder>${target}))?`;
const day = String.raw`(?:today|tomorrow|the day after tomorrow|in \d{1,2} days?|(?:on )?(?:${weekday})|(?:on )?\d{4}-\d{2}-\d{2})`;
const pickup = `(?:,? (?:(?:with |for )?(?:a )?(?:pickup|pick-up|collection)|to be collected|collected|picked up)(?: on)? (?<day>${day}))`;

/** The closed reason phrases, each with the reason it gives (a return's and a replacement's reasons). */
const reasonPhrases: readonly [ReturnReason, string][] = [
  [
    "damaged",
    `(?:arrived|came|is|was|are|were|has arrived|have arrived|'s|'re) (?:${condition})|(?:doesn't|does not|don't|do not) work|(?:stopped|has stopped) working|(?:is|was|are|were) not working|isn't working|aren't working`,
  ],
  [
    "wrong_item",
    `(?:is|was|are|were|'s|'re) the wrong (?:item|size|colou?r|model|one|ones)|(?:isn't|is not|wasn't|was not) what i ordered`,
  ],
  ["not_as_described", `(?:is|was|are|were|'s|'re) not as described|(?:doesn't|does not|don't|do not) match the description`],
  ["missing", `(?:is|was|are|were|'s|'re) missing|never arrived|(?:wasn't|was not|weren't|were not) in the (?:box|parcel|package)`],
];
/** Reasons the principal gives about themselves, or staff about the customer ("I ordered it twice", "she ordered by mistake"). */
const ownReasons = `(?:i|she|he|they|the customer|the buyer) (?:no longer needs? (?:it|them)|(?:don't|do not|doesn't|does not) need (?:it|them)(?: any ?more)?|changed (?:my|her|his|their) mind|ordered (?:it |them |this )?(?:twice|by mistake|by accident)|ordered the wrong (?:item|size|colou?r|one))`;
const reasonOfOwn = (text: string): ReturnReason => (/wrong/.test(text) ? "wrong_item" : "no_longer_needed");
const subject = `(?:it|they|this|these|the (?<subjectWords>${word}(?: ${word}){0,4}?)(?: (?:on|from|in) (?<subjectOrder>${orderRef}))?|(?<subjectRef>${orderRef})(?:'s (?<subjectOwned>${word}(?: ${word}){0,3}?))?)`;
const reasonClause = `(?:${subject} (?<state>${reasonPhrases.map(([, p]) => `(?:${p})`).join("|")})|(?<own>${ownReasons}))`;

/** Words that open a request and say nothing: "Hi, …", "OK, …", "And …", and who is writing ("I'm ana@example.com, …"). */
const opener = String.raw`(?:(?:hi|hello|hey|ok|okay|right|so|then|and),? )?(?:(?:i'm|i am) [\w.+-]+@[\w-]+(?:\.[\w-]+)+,? )?`;
const lead = `(?:(?:please|kindly),? )?(?:(?<ask>(?:can|could|would|will) you) (?:please |kindly |just )?|i'?d like (?:you )?to |i would like (?:you )?to |i want (?:you )?to |i need you to )?(?:please |kindly )?`;
/** After a request: "now", "right away"; whom it is for when staff or a seller ask ("for the customer"); courtesy. */
const tail = `(?: (?:now|right away|asap|straight away))?(?: for (?:the customer|the buyer|me|us|her|him|them))?(?:,? please)?(?:,? (?:thanks|thank you)(?: very much| so much)?)?`;

/**
 * The ways a note request names its note. Its text is taken out of the message first and stands here as `⟨note⟩`:
 * after a colon, "saying" or "that says" ("Add a note to SU-1: …", "Delivery note on SU-1: …", "Tell the driver: …"),
 * or quoted whole in the sentence ("Add the note "…" to SU-1", "Change the delivery note on SU-1 to "…"").
 */
const notePlace = "⟨note⟩";
const noteNoun = "(?:a |the |this )?(?:delivery )?(?:note|instruction)";
const noteHeads = [
  `(?:add|put|set|update|change|leave) ${noteNoun}(?: (?:to|on|for) (?<target>${target}))?(?:: | saying | that says | to )${notePlace}`,
  `${noteNoun} (?:for|on|to) (?<target2>${target})(?:,? please)?: ${notePlace}`,
  `(?:put|set|use) (?:exactly )?(?:this|these words|the following) as ${noteNoun} (?:on|for|to) (?<target6>${target}): ${notePlace}`,
  `(?:for (?<target3>${target}),? )?(?:please )?(?:tell|ask) the (?:driver|courier|carrier)(?::| to) ${notePlace}`,
  `(?:add|put|set) (?:the |this )?(?:delivery )?note ${notePlace} (?:to|on|for) (?<target4>${target})`,
  `(?:add|put|set) ${notePlace} as (?:the |a )?(?:delivery )?note (?:on|for|to) (?<target5>${target})`,
];

const pieces: FormPieces = {
  target,
  word,
  itemsOn,
  itemsOnSecond: itemsOn.replaceAll("<items>", "<items2>").replaceAll("<itemsOrder>", "<itemsOrder2>"),
  pickup,
  noteHeads,
};

const greeting = /^(?:hi|hello|hey|dear \w+|good (?:morning|afternoon|evening))(?: there| team| sundry)?$/;
const thanks =
  /^(?:thanks|thank you|many thanks|thanks a lot|thanks in advance|thank you very much|thank you so much|cheers|much appreciated)$/;
/** "I'm ana@example.com": who is writing, which asks for nothing. */
const identity = /^(?:i'm|i am|this is|my e-?mail is) [\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;

const compiled = Object.fromEntries(
  (Object.entries(changeForms) as [ChangeToolName, ChangeForm][]).map(([tool, { requestForm }]) => [
    tool,
    new RegExp(`^${opener}(?:${reasonClause}(?:, | and |, and |, so | so ))?${lead}${requestForm(pieces)}${tail}$`),
  ]),
) as Record<ChangeToolName, RegExp>;
const reasonSentence = new RegExp(`^(?:${reasonClause})$`);
/** "SU-10234", "The lamp one, SU-10311", "I mean order 884": an order reference, perhaps after a word of what it is. */
const answerForm = new RegExp(
  `^(?:(?:it is|i mean|i meant) )?(?:the (?:${word} ){1,3}one,? )?(?:the )?(?<ref>${orderRef})(?: one)?${tail}$`,
);
const conditionWord = new RegExp(`^(?:${condition})$`);

/**
 * Where a note's text is: quoted whole ("…" or '…') right after a note word, "as", "to" or a colon in a sentence
 * about a note; else after the colon ("saying", "that says", "tell the driver to") of a note request, up to the first
 * sentence end — what follows is read as sentences: "Add a note to SU-1: leave it at the door. Actually, never
 * mind." is a note request and a retraction, not a two-sentence note.
 */
const noteQuoted = /(?<=(?:\bnote|\bas|\bto|:|\bsaying|\bsays|\badd|\bput|\bset) )(["'])([^"'\n]{1,2000})\1/;
const noteAfter =
  /(?<=\b(?:delivery )?(?:note|instruction)\b[^.!?\n:]{0,60}?(?:: | saying | that says )|\b(?:tell|ask) the (?:driver|courier|carrier)(?::| to) )/;

/**
 * The principal's message read as the closed form. `today` (YYYY-MM-DD, UTC) resolves the pickup days it names.
 */
export function readRequestForm(message: string, today: string): RequestForm {
  // A note's text is data the carrier reads, not sentences: it is taken out first, and only its place is read. A sign
  // in it is the note's ("Leave it by the ☀️ planter"); anywhere else, the message is not the form.
  const { text: reading, signs } = readingForForm(message);
  const { text, note: marked } = withoutNote(reading);
  const outside = text.match(/⟨sign (\d+)⟩/);
  if (outside) return { closed: false, why: signProblem(signs[Number(outside[1])] ?? "") };
  const note = marked?.replace(signPlaces, (_place, n: string) => signs[Number(n)] ?? "");
  const refused = characterProblem(text);
  if (refused) return { closed: false, why: refused };
  const forms: string[] = [];
  const requests: FormRequest[] = [];
  const reasons: ReasonSentence[] = [];
  for (const sentence of splitSentences(text)) {
    const kind = greeting.test(sentence) ? "greeting" : thanks.test(sentence) ? "thanks" : identity.test(sentence) ? "identity" : undefined;
    if (kind) {
      forms.push(kind);
      continue;
    }
    const request = readRequest(sentence, today, note) ?? withTrailingReason(sentence, today, note, reasons);
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
  if (requests.length === 0) return { closed: false, why: "no sentence of the message is a request in the closed form" };
  if (note !== undefined && !requests.some((r) => r.tool === "add_delivery_note"))
    return { closed: false, why: "it quotes words outside a note request" };
  const tools = new Set(requests.map((r) => r.tool));
  if (tools.size > 1) return { closed: false, why: `the message asks for more than one kind of change (${[...tools].join(", ")})` };
  for (const reason of reasons) {
    const problem = giveReason(reason, requests);
    if (problem) return { closed: false, why: problem };
  }
  return { closed: true, tool: requests[0]?.tool as ChangeToolName, requests, forms };
}

/** An answer to "which order?" in the closed form: only an order reference, with courtesy ("SU-10234, please"). */
export function readOrderAnswer(message: string): { orderIds: string[]; fragments: string[] } | undefined {
  const { text, signs } = readingForForm(message);
  if (signs.length > 0 || characterProblem(text)) return undefined;
  const match = text.replace(/[.!]+$/, "").match(answerForm);
  return match?.groups?.ref ? referencesOf(match.groups.ref) : undefined;
}

// ——— reading ———

/**
 * The message as the form reads it: normalised as the gate reads shown text (no markdown taken out), lowercase, with
 * `⟨sign N⟩` where the N-th pictograph that is not a courtesy emoji was; and those pictographs. The normalising takes
 * pictographs out, so their places are marked first: "🚫 Cancel SU-10234." is not "Cancel SU-10234.", and "Leave it
 * by the ☀️ planter" is a note with its sun.
 */
function readingForForm(message: string): { text: string; signs: string[] } {
  const signs: string[] = [];
  const marked = message
    .replace(courtesyEmoji, " ")
    .replace(/\p{Extended_Pictographic}\uFE0F?/gu, (sign) => ` ⟨sign ${signs.push(sign.replace("\uFE0F", "")) - 1}⟩ `);
  return { text: formReading(marked), signs };
}

const signPlaces = /⟨sign (\d+)⟩/g;

function formReading(bare: string): string {
  return (
    normalizeShown(bare)
      .toLowerCase()
      .replace(/[ \t]+/g, " ")
      // "It's broken" is "it is broken": a pronoun's contraction, not a possessive ("SU-70030's vase").
      .replace(/\b(it|that|this|they|there|she|he)'s\b/g, "$1 is")
      .replace(/\b(they|you|we)'re\b/g, "$1 are")
      .trim()
  );
}

const signProblem = (sign: string) => `it holds ${JSON.stringify(sign)}, which no request in the closed form holds`;

/**
 * The message with a note's text taken out and `⟨note⟩` in its place: the quoted whole right after a note word (its
 * quotation marks are the note's, not a quotation), else the one sentence after a note request's colon.
 */
function withoutNote(text: string): { text: string; note?: string } {
  const quoted = text.match(noteQuoted);
  if (
    quoted?.index !== undefined &&
    /\b(?:note|instruction)\b/.test(text.slice(Math.max(0, quoted.index - 80), quoted.index + quoted[0].length + 60))
  )
    return { text: `${text.slice(0, quoted.index)}${notePlace}${text.slice(quoted.index + quoted[0].length)}`, note: quoted[2] as string };
  const after = text.match(noteAfter);
  if (after?.index === undefined) return { text };
  const rest = text.slice(after.index);
  const end = rest.search(/[.!?](?=\s|$)|\n/);
  const value = (end < 0 ? rest : rest.slice(0, end)).trim();
  if (value === "") return { text };
  return { text: `${text.slice(0, after.index)}${notePlace}${end < 0 ? "" : rest.slice(end)}`, note: value };
}

/**
 * Characters a request in the closed form never holds (a note's text was taken out): quotation marks, a line that
 * opens with ">", a colon, brackets, markup, any symbol or pictograph but the courtesy emoji, which were taken out.
 */
function characterProblem(text: string): string | undefined {
  if (/^\s*>/m.test(text)) return "it holds quoted lines (>)";
  if (/"/.test(text)) return "it holds quotation marks";
  // An apostrophe stands between two letters ("don't", "Ana's"), or after an id ("SU-70030's"); any other is a quote.
  if (/(?<![a-z0-9])'|'(?![a-z])/.test(text)) return "it holds quotation marks";
  // The one colon a request holds is its note's: "Add a note to SU-1: …".
  const other = text
    .replaceAll(`: ${notePlace}`, " ")
    .replaceAll(notePlace, " ")
    .match(/[^a-z0-9\s.,!?'#@+-]/u);
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

/**
 * "Please return the lamp on SU-61201, it arrived broken": a request, then a reason clause about it after a comma
 * (or "as", "because", "since"), read as the request and a reason sentence.
 */
function withTrailingReason(sentence: string, today: string, note: string | undefined, reasons: ReasonSentence[]): FormRequest | undefined {
  const split = sentence.match(/^(?<request>.+?)(?:,| as| because| since) (?<reason>[^,]+)$/);
  if (!split?.groups) return undefined;
  const reason = split.groups.reason?.match(reasonSentence)?.groups;
  const request = reason ? readRequest(split.groups.request as string, today, note) : undefined;
  if (!request || !reason) return undefined;
  // Said in the request's own sentence, the reason is this request's, and no other's.
  reasons.push({ ...reasonSentenceOf(reason), of: request });
  return request;
}

/** A reason sentence: the reason it gives, and what it says it of. */
interface ReasonSentence {
  reason?: ReturnReason;
  /** The item words and order of its subject; none for "it", "they" and the principal's own reasons. */
  words?: string[];
  orderIds: string[];
  /** The request whose sentence it was said in: its reason is that request's only. */
  of?: FormRequest;
}

function reasonSentenceOf(g: Record<string, string | undefined>): ReasonSentence {
  const reason = reasonOf(g);
  const words = g.subjectWords ?? g.subjectOwned;
  return {
    ...(reason ? { reason } : {}),
    ...(words ? { words: contentWords(words) } : {}),
    orderIds: referencesOf(`${g.subjectOrder ?? ""} ${g.own ? "" : (g.subjectRef ?? "")}`).orderIds,
  };
}

/**
 * A reason sentence gives its reason to the request it is about: its subject is "it" or names that request's
 * item or order. A reason about something else ("The box was damaged. Please return the lamp.") is not one the
 * request may take, and the message is not in the closed form.
 */
function giveReason(reason: ReasonSentence, all: FormRequest[]): string | undefined {
  const requests = reason.of ? [reason.of] : all;
  // "It arrived broken." beside two returns does not say which: a reason goes only to its own request.
  const takers = requests.filter((r) => r.tool === "start_return" || r.tool === "offer_replacement");
  if (takers.length > 1 && !reason.words && reason.orderIds.length === 0)
    return "a reason sentence stands beside more than one request and does not say which it is about";
  for (const request of requests) {
    if (request.tool === "cancel_order" || request.tool === "add_delivery_note") continue;
    // "The vase on SU-70010 arrived cracked. Can you send another?": "another" is of the vase on SU-70010.
    if (request.pronoun && reason.orderIds.length > 0) {
      request.orderIds = [...reason.orderIds];
      request.pronoun = false;
      delete request.bare;
    }
    if (reason.words && request.items?.every((i) => i.kind === "pronoun")) {
      request.items = [{ kind: "words", words: reason.words }];
      delete request.bare;
    }
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

function readRequest(sentence: string, today: string, note?: string): FormRequest | undefined {
  const question = sentence.endsWith("?");
  const body = sentence.replace(/\?$/, "");
  for (const [tool, pattern] of Object.entries(compiled) as [ChangeToolName, RegExp][]) {
    const g = body.match(pattern)?.groups;
    if (!g) continue;
    // The one question that is a request: "could you cancel it?".
    if (question && g.ask === undefined) return undefined;
    return requestOf(tool, g, today, note);
  }
  return undefined;
}

function requestOf(
  tool: ChangeToolName,
  g: Record<string, string | undefined>,
  today: string,
  note: string | undefined,
): FormRequest | undefined {
  const named = [
    g.target,
    g.target2,
    g.target3,
    g.target4,
    g.target5,
    g.target6,
    g.itemsOrder,
    g.itemsOrder2,
    g.subjectOrder,
    g.subjectRef,
  ];
  const refs = referencesOf(named.filter(Boolean).join(" "));
  const request: FormRequest = {
    tool,
    orderIds: refs.orderIds,
    fragments: refs.fragments,
    pronoun: refs.orderIds.length === 0 && refs.fragments.length === 0,
  };
  if (request.pronoun) {
    const words = named.filter((n): n is string => n !== undefined);
    const description = words.map((w) => w.match(descriptionForm)?.groups).find((d) => d !== undefined);
    if (description)
      request.description = { words: contentWords(description.words ?? "").filter((w) => !orderWords.has(w)), day: description.day ?? "" };
    // "Cancel it", "return it": no word that says which order, so after a change it is that change.
    else if (words.every((w) => bareWords.has(w))) request.bare = true;
  }
  if (tool === "start_return" || tool === "offer_replacement") {
    const itemText = g.items ?? g.items2;
    const said = itemText ? itemReferences(itemText) : [{ kind: "pronoun" as const }];
    // "The broken vase": a vase, and damaged — the word of its state is the reason, not part of its name.
    const stated = said.some((r) => r.kind === "words" && r.words.some((w) => conditionWord.test(w)));
    const items = said.map((r) => (r.kind === "words" ? { ...r, words: r.words.filter((w) => !conditionWord.test(w)) } : r));
    const subjectText = g.subjectWords ?? g.subjectOwned;
    const subject = subjectText ? contentWords(subjectText) : undefined;
    // "The kettle on SU-61203 arrived broken, please return it": "it" is the kettle. Named otherwise, the items must
    // be the clause's subject: its reason is said of it, not of another item.
    if (subject && items.some((r) => r.kind === "words" && !sameWords(r.words, subject))) return undefined;
    request.items = items.map((r) => (r.kind === "pronoun" && subject ? { kind: "words" as const, words: subject } : r));
    // "because …" gives a reason only in a closed reason phrase; anything else after it is not the form.
    const reason = g.because !== undefined ? becauseReason(g.because) : (reasonOf(g) ?? (stated ? "damaged" : undefined));
    if (g.because !== undefined && reason === undefined) return undefined;
    if (reason) request.reason = reason;
    if (g.day) request.pickupDate = dayOf(g.day, today);
  }
  // "Cancel SU-10670, the kettle": the words after the order name one of its items (guard/change-forms.ts checks
  // them against the order), or the request is not the form.
  if (tool === "cancel_order" && g.about) request.items = [{ kind: "words", words: contentWords(g.about) }];
  if (tool === "add_delivery_note") {
    if (note === undefined) return undefined;
    request.note = note.trim();
  }
  // "Return the kettle" names an item, so its order is the kettle's: only "return it" has no word for what it is.
  if (request.items?.some((i) => i.kind !== "pronoun")) delete request.bare;
  return request;
}

function referencesOf(text: string): { orderIds: string[]; fragments: string[] } {
  const orderIds = [...text.matchAll(/\bsu-(\d{5})\b/g)].map((m) => `SU-${m[1]}`);
  const fragments = [...text.replace(/\bsu-\d{5}\b/g, " ").matchAll(/\d{3,5}/g)].map((m) => m[0]);
  // Five digits are an id written without its prefix.
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
    const itemId = p.match(/^(?:item )?itm-(\d+)$/);
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
