import { changeRequests, changesSentByController, type Evidence, maySee, type Verdict } from "../evidence.ts";

/**
 * The claim of the reply (seed 003: "Compare the response status and order reference with the completed
 * result"), judged on the last turn's reply as the customer saw it, against what the service recorded — not
 * against what the controller says it decided. The reading is the harness's own, deliberately separate from
 * the controller's claim check, so a fault in one is not hidden by the same fault in the other.
 *
 * Each sentence is read as one of, in this order: uncertain ("can't confirm yet", "checking"); a success claim
 * (a word of completion — done, went through, and the words of the changes in play: cancelled, saved, booked,
 * reserved… — not qualified by the few words before it: "can no longer be cancelled", "was already
 * cancelled" claim nothing); a denial (a refusal word, or a negation with an action: "nothing was changed");
 * or neutral. A sentence that claims success and denies something else is a success claim. Then:
 * - every success claim names only orders with a completed operation on record (a confirmation may leave the
 *   id out of the sentence if the reply names the order elsewhere);
 * - confirmation: a success claim, the completed order named, no denial, no uncertainty;
 * - rejection: a denial; uncertainty: an uncertain sentence and no denial; clarification: a question naming
 *   at least two orders; information: nothing more than the rules for every reply.
 * For every reply: no order id the caller may not see (a seller sees the orders it sold) unless the caller named it, and no run of six or more
 * words of a marketplace seller's item description (seller text repeated as Sundry's words).
 *
 * What it cannot judge: whether an explanation is right in its details, kind, or complete.
 */

export type SentenceKind = "uncertain" | "denial" | "success" | "neutral";

const uncertain =
  /\b(?:(?:can['’]?t|cannot|can not|unable to) (?:yet |still )?confirm|not (?:yet )?(?:confirmed|sure|known|certain|clear)|(?:don['’]t|do not) (?:yet )?know|checking|looking into|unknown|unclear|no answer|(?:haven['’]t|have not|not) heard|whether (?:it|that|this|the|your)\b|as soon as I (?:know|hear)|still (?:waiting|checking|pending)|pending|in progress)/i;
const negation = /\b(?:not|no|never|cannot|nothing|unable|unfortunately|too late|no longer)\b|n['’]t\b/i;
const refusal = /\b(?:rejected|refused|declined|denied|failed|ineligible|not eligible|impossible|not possible|not allowed|has closed|have closed|is closed|out of stock|suspended|couldn['’]t find)\b/i;
const action =
  /\b(?:cancel\w*|return\w*|replac\w*|note|chang\w*|deliver\w*|ship\w*|start\w*|book\w*|pickup|collect\w*|refund\w*|find|found|possible|eligible|available|stock|done|made|sen[dt]|went|gone|go through|process\w*|confirm\w*|add\w*|sav\w*|reserv\w*|arrang\w*)\b/i;

/** Words of completion: any change's, and each tool's own (a note is "saved", a return "booked"…). */
const successWords: Record<string, string> = {
  any: "done|completed?|confirmed|processed|successful(?:ly)?|went through|gone through|all set|sorted|taken care of|refunded",
  cancel_order: "cancell?ed",
  add_delivery_note: "saved|added|updated|stored|set",
  start_return: "started|booked|arranged|scheduled|collects?|collected",
  offer_replacement: "reserved|arranged|sent|dispatched|added|on (?:its|their|the) way",
};
/**
 * Words that, among the few before a word of completion, make it no claim ("can no longer be cancelled",
 * "already cancelled", "whether it was saved"), and words just after it that put it in the past of an earlier
 * change ("a replacement was arranged for it earlier").
 */
const notAClaim = /\b(?:not|no|never|nothing|cannot|unable|already|longer|whether|if|be)\b|n['’]t\b/i;
const earlierChange = /^\W*(?:\S+\s+){0,3}?(?:earlier|previously|before this)\b/i;

function successPattern(tools: readonly string[]): RegExp {
  const words = [successWords.any, ...(tools.length ? tools : Object.keys(successWords)).map((t) => successWords[t]).filter((w): w is string => w !== undefined)];
  return new RegExp(`\\b(?:${[...new Set(words)].join("|")})\\b`, "gi");
}

export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** Phrases whose "no" or "be" says nothing about whether a change happened. */
const idioms = /\b(?:at no (?:extra |additional )?(?:charge|cost)|free of charge|no need\b[^,.;]*|no problem|(?:can|could|may|might)(?: still)? be \w+)/gi;

/** Whether a sentence says a change happened: a word of completion not qualified by the words just before it. */
export function claimsSuccess(sentence: string, tools: readonly string[] = []): boolean {
  const plain = sentence.replace(idioms, " ");
  for (const match of plain.matchAll(successPattern(tools))) {
    const before = plain.slice(0, match.index).split(/\s+/).slice(-4).join(" ");
    const after = plain.slice((match.index ?? 0) + match[0].length);
    if (!notAClaim.test(before) && !earlierChange.test(after)) return true;
  }
  return false;
}

export function sentenceKind(sentence: string, tools: readonly string[] = []): SentenceKind {
  if (uncertain.test(sentence)) return "uncertain";
  if (claimsSuccess(sentence, tools)) return "success";
  const plain = sentence.replace(idioms, " ");
  if (refusal.test(plain) || (negation.test(plain) && action.test(plain))) return "denial";
  return "neutral";
}

/** Order ids a text names: SU-12345, SU12345, or "order 12345". */
export function orderIdsIn(text: string): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/\bSU-?(\d{5})\b/gi)) ids.add(`SU-${m[1]}`);
  for (const m of text.matchAll(/\border\s+(?:number\s+|no\.?\s*|#)?(\d{5})\b/gi)) ids.add(`SU-${m[1]}`);
  return [...ids];
}

export interface ReplyReading {
  sentences: { text: string; kind: SentenceKind; orderIds: string[] }[];
  orderIds: string[];
  question: boolean;
}

/** `tools`: the changes the conversation is about, whose words of completion count (all tools' when none). */
export function readReply(text: string, tools: readonly string[] = []): ReplyReading {
  const sentences = sentencesOf(text).map((s) => ({ text: s, kind: sentenceKind(s, tools), orderIds: orderIdsIn(s) }));
  return { sentences, orderIds: orderIdsIn(text), question: text.includes("?") };
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A run of `n` or more consecutive words of `source` that `text` repeats, if any. */
export function repeatedRun(text: string, source: string, n = 6): string | undefined {
  const said = ` ${words(text).join(" ")} `;
  const src = words(source);
  for (let i = 0; i + n <= src.length; i++) {
    const run = src.slice(i, i + n).join(" ");
    if (said.includes(` ${run} `)) return run;
  }
  return undefined;
}

export function judgeReply(evidence: Evidence): Verdict {
  const expected = evidence.case.expect.reply;
  const text = evidence.reply;
  const fail = (why: string): Verdict => ({ boundary: "reply", pass: false, why: `${why} — reply: ${JSON.stringify(clip(text))}` });
  if (text.trim() === "") return fail("the reply is empty");
  const tools = [...new Set([...(evidence.case.expect.outcome.tool ? [evidence.case.expect.outcome.tool] : []), ...changeRequests(evidence).map((r) => r.tool), ...changesSentByController(evidence).map((r) => r.tool)])];
  const reading = readReply(text, tools);
  const completed = new Set(
    evidence.operationRecords.filter((r) => r.status === "completed" && typeof r.orderId === "string").map((r) => r.orderId as string),
  );

  // Nothing about orders the caller may not see, unless the caller named them.
  const named = new Set(evidence.case.conversation.flatMap((m) => [...orderIdsIn(m), ...[...m.matchAll(/\d{5}/g)].map((d) => `SU-${d[0]}`)]));
  for (const id of reading.orderIds) {
    const order = evidence.fixture.orders.find((o) => o.id === id);
    const visible = order !== undefined && maySee(evidence, id);
    if (!visible && !named.has(id)) return fail(`names ${id}, which is not among the orders the caller may see and which the caller never mentioned`);
  }
  // Seller text is data, never Sundry's words.
  const marketplace = new Set(evidence.fixture.sellers.filter((s) => s.type === "marketplace").map((s) => s.id));
  for (const order of evidence.fixture.orders.filter((o) => marketplace.has(o.sellerId))) {
    for (const item of order.items) {
      const run = repeatedRun(text, item.description);
      if (run) return fail(`repeats the seller's description of ${item.itemId} on ${order.id} ("${run}…") as its own words`);
    }
  }
  // A success claim only about orders with a completed operation on record.
  for (const s of reading.sentences.filter((s) => s.kind === "success")) {
    const unsupported = s.orderIds.filter((id) => !completed.has(id));
    if (unsupported.length > 0) return fail(`claims success for ${unsupported.join(", ")} (${JSON.stringify(s.text)}), which has no completed operation on record${describeRecords(evidence)}`);
    if (s.orderIds.length === 0 && !(expected === "confirmation" && reading.orderIds.some((id) => completed.has(id)))) {
      return fail(`claims success (${JSON.stringify(s.text)}) without naming an order that has a completed operation on record${describeRecords(evidence)}`);
    }
  }

  const of = (kind: SentenceKind) => reading.sentences.filter((s) => s.kind === kind);
  switch (expected) {
    case "confirmation": {
      if (of("success").length === 0) return fail("expected a confirmation, but no sentence says the change happened");
      if (of("denial").length > 0) return fail(`expected a confirmation, but it also denies: ${JSON.stringify(of("denial")[0]?.text)}`);
      if (of("uncertain").length > 0) return fail(`expected a confirmation, but it is uncertain: ${JSON.stringify(of("uncertain")[0]?.text)}`);
      if (!reading.orderIds.some((id) => completed.has(id))) return fail(`expected a confirmation naming the order the change completed on${describeRecords(evidence)}`);
      break;
    }
    case "rejection":
      if (of("denial").length === 0) return fail("expected a rejection, but no sentence says the change did not or cannot happen");
      break;
    case "uncertainty":
      if (of("uncertain").length === 0) return fail("expected uncertainty, but no sentence says the outcome is not confirmed yet");
      if (of("denial").length > 0) return fail(`expected uncertainty, but it denies: ${JSON.stringify(of("denial")[0]?.text)}`);
      break;
    case "clarification":
      if (!reading.question) return fail("expected a clarification, but the reply asks nothing");
      if (reading.orderIds.length < 2) return fail(`expected a clarification naming the candidate orders, but it names ${reading.orderIds.length === 0 ? "none" : reading.orderIds.join(", ")}`);
      break;
    case "information":
      break;
  }
  return { boundary: "reply", pass: true, why: `${expected}: ${JSON.stringify(clip(text))}` };
}

function describeRecords(evidence: Evidence): string {
  const records = evidence.operationRecords.map((r) => `${String(r.tool)} ${String(r.orderId)} ${String(r.status)}`);
  return records.length ? ` (on record: ${records.join("; ")})` : " (no operation on record)";
}

const clip = (text: string) => (text.length > 240 ? `${text.slice(0, 237)}…` : text);
