import { isChangeTool, type ToolName } from "#contract/tools";
import { changeTools, type ValueTrace } from "#controller/change-tools";
import { addDays } from "#core/days";
import type { OrderFacts } from "#controller/gate/outcomes";
import { normalizeForReading } from "#controller/gate/normalize";
import { smallWords } from "#controller/gate/vocabulary";
import { type PrincipalMessage, readMessage } from "#controller/guard/message";
import { withoutQuotes } from "#controller/guard/mood";
import { contentWords, dataTokens, orderReferences } from "#controller/guard/words";

/**
 * The values count of the provenance control (contract §8.5): every argument of a change traces to the principal,
 * not only a note's words. Each value that does not is named, so the change is held and the confirmation shows
 * the exact values:
 * - items of a return or a replacement: named by the principal (the item id, or words of its title that tell it
 *   from the order's other items, outside a clause that keeps or excludes it), or the order's only item;
 * - a return's or a replacement's reason: what the principal's words say (broken → damaged), else it is asked;
 * - a pickup date: one the principal gave (a date, "tomorrow", a weekday, "in 3 days"), or none (the default);
 * - a note (free text the carrier reads): the principal's own words, no data (an e-mail, an id, a number, a link)
 *   that is not in this turn's message, and every negation and number of the clauses it was taken from; a
 *   cancellation's one-line reason may be the model's summary, but carries no data the principal did not write.
 * English cue words decide only whether a change may skip its confirmation; a value they cannot place is asked.
 */
export interface ValuesInput {
  tool: ToolName;
  request: Record<string, unknown>;
  /** This turn's message. */
  message: PrincipalMessage;
  /** Every message of the principal, this turn's included. */
  principalMessages: readonly PrincipalMessage[];
  order: OrderFacts | undefined;
  /** Today, YYYY-MM-DD (UTC), to read "tomorrow" and weekdays. */
  today: string;
  /** The texts the model read that the principal did not write (context/taint.ts), as written. */
  foreignTexts?: readonly string[];
}

/**
 * A principal's message without the quotations it takes from foreign text: a quoted span most of whose words are in
 * a text the model read from someone else (a listing pasted back, an instruction asked about).
 */
export function ownWords(foreignTexts: readonly string[]): (message: PrincipalMessage) => PrincipalMessage {
  const foreign = new Set(foreignTexts.flatMap((t) => contentWords(t, smallWords)));
  return (message) => {
    const own = withoutQuotes(message.text, (span) => {
      const words = contentWords(span, smallWords);
      return words.length > 0 && words.filter((w) => foreign.has(w)).length * 2 >= words.length;
    });
    // Nothing quoted from foreign text: the very message, with what has been read of it already.
    return own === message.text ? message : readMessage(own);
  };
}

export interface ValuesCheck {
  /** Why each value that does not trace does not (empty: all trace). */
  untraced: string[];
  /** False when free text is not the principal's words: never quoted back, and a yes does not send it. */
  quotable: boolean;
}

const read = (text: string) => normalizeForReading(text).toLowerCase().replaceAll("’", "'");
const readOf = (message: PrincipalMessage) => message.reading.replaceAll("’", "'");
const stem = (word: string) => word.replace(/(?:es|s)$/, "");

export function checkValues(raw: ValuesInput): ValuesCheck {
  // What the principal quotes from text they did not write is not their words: a value found only there does not
  // trace. A quotation of their own (a note dictated in quotation marks) is.
  const own = ownWords(raw.foreignTexts ?? []);
  const input = { ...raw, message: own(raw.message), principalMessages: raw.principalMessages.map(own) };
  const check: ValuesCheck = { untraced: [], quotable: true };
  // A read has no values to trace; the intent count refuses it as a change. Each change's own checks
  // (controller/change-tools.ts) run in the order its confirmation names its values.
  if (isChangeTool(input.tool)) changeTools[input.tool].checkValues(traceOf(input, check));
  return check;
}

/** The tracing helpers below, bound to one change's input and the check they fill. */
function traceOf(input: ValuesInput, check: ValuesCheck): ValueTrace {
  const { request, message, principalMessages, today } = input;
  return {
    request,
    untraced: (why) => check.untraced.push(why),
    unquotable: () => {
      check.quotable = false;
    },
    checkItems: (itemIds) => checkItems(itemIds, input, check),
    checkReason: (reason) => checkReason(reason, input, check),
    foreignData: (text) => {
      const data = new Set(message.dataTokens);
      return dataTokens(text).filter((d) => !data.has(d));
    },
    foreignWords: (text) => foreignWords(text, principalMessages, message),
    droppedNegationsAndNumbers: (text) => droppedNegationsAndNumbers(text, message),
    datesSaid: () => datesSaid(principalMessages.map((m) => m.text).join("\n"), today),
  };
}

function checkItems(itemIds: readonly string[], input: ValuesInput, check: ValuesCheck): void {
  for (const itemId of itemIds) {
    if (!itemNamed(itemId, input.order, input.principalMessages))
      check.untraced.push(`item ${itemId} is not one the principal named, and not the order's only item`);
  }
}

function checkReason(reason: unknown, input: ValuesInput, check: ValuesCheck): void {
  if (typeof reason === "string" && !reasonSaid(reason, input.principalMessages))
    check.untraced.push(`the reason ${reason} is not what the principal said`);
}

/** An item the principal named: its id, or title words that tell it apart, outside a keeping or excluding clause. */
function itemNamed(itemId: string, order: OrderFacts | undefined, messages: readonly PrincipalMessage[]): boolean {
  const items = order?.items ?? [];
  if (items.length === 1 && items[0]?.itemId === itemId) return true;
  const excluded = messages.flatMap((m) => m.excludingClauses);
  const choosing = messages
    .map(readOf)
    .map((m) => excluded.reduce((rest, clause) => rest.replace(clause, " "), m))
    .join("\n");
  if (new RegExp(`\\b${itemId.toLowerCase()}\\b`).test(choosing)) return true;
  const item = items.find((i) => i.itemId === itemId);
  if (!item) return false;
  const words = new Set(contentWords(choosing, smallWords).map(stem));
  const titleWords = (title: string) => contentWords(title, smallWords).map(stem);
  const own = titleWords(item.title);
  const others = new Set(items.filter((i) => i.itemId !== itemId).flatMap((i) => titleWords(i.title)));
  return own.some((w) => words.has(w) && !others.has(w)) || (own.length > 0 && own.every((w) => words.has(w)));
}

const reasonCues: Record<string, RegExp> = {
  damaged:
    /\b(?:broken|broke|breaks|damaged|damage|cracked|crack|smashed|shattered|dented|scratched|chipped|faulty|defective|split|torn|ripped|leaks|leaking|(?:doesn't|does not|don't|stopped|isn't|not) work\w*|dead|bent)\b/,
  wrong_item:
    /\b(?:wrong|not what i ordered|not the one i ordered|incorrect|mixed up|sent me a different|different (?:item|one|colou?r|size|model))\b/,
  not_as_described:
    /\b(?:not as described|not what i expected|doesn't match|does not match|different from the (?:description|picture|photo|listing)|misleading|looks nothing like)\b/,
  no_longer_needed:
    /\b(?:no longer need\w*|(?:don't|do not|didn't) (?:need|want)|changed my mind|change of mind|not needed|no longer want\w*|unwanted|ordered (?:it )?(?:twice|by mistake))\b/,
  missing: /\b(?:missing|never arrived|didn't arrive|did not arrive|wasn't in|was not in|not in the (?:box|parcel|package)|lost)\b/,
};

/** The reason the principal's words give: its cue, outside a negated clause (save the reasons that are negations). */
function reasonSaid(reason: string, messages: readonly PrincipalMessage[]): boolean {
  const full = messages.map(readOf).join("\n");
  const excluded = messages.flatMap((m) => m.excludingClauses);
  const affirmed = excluded.reduce((rest, clause) => rest.replace(clause, " "), full);
  const cued = (r: string) => reasonCues[r]?.test(r === "no_longer_needed" ? full : affirmed) ?? false;
  if (reason === "other") return !Object.keys(reasonCues).some(cued);
  return cued(reason);
}

const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Every day the principal's words name: ISO dates, today, tomorrow, the day after tomorrow, "in N days", weekdays. */
export function datesSaid(text: string, today: string): Set<string> {
  const t = read(text);
  const days = new Set<string>(t.match(/\b\d{4}-\d{2}-\d{2}\b/g) ?? []);
  if (/\btoday\b/.test(t)) days.add(today);
  if (/\btomorrow\b/.test(t)) days.add(addDays(today, 1));
  if (/\bday after tomorrow\b/.test(t)) days.add(addDays(today, 2));
  for (const m of t.matchAll(/\bin (\d{1,2}) days?\b/g)) days.add(addDays(today, Number(m[1])));
  const todayIndex = new Date(`${today}T00:00:00Z`).getUTCDay();
  for (const [i, name] of weekdays.entries()) {
    if (new RegExp(`\\b${name}\\b`).test(t)) days.add(addDays(today, (i - todayIndex + 7) % 7 || 7));
  }
  return days;
}

/**
 * The words and data of a text that are not the principal's: content words not in any of their messages, and
 * data (e-mail, ids, numbers, links) not in this turn's message.
 */
export function foreignWords(text: string, messages: readonly PrincipalMessage[], message: PrincipalMessage): string[] {
  const own = new Set(messages.flatMap((m) => m.contentWords));
  const data = new Set(message.dataTokens);
  return [...new Set([...dataTokens(text).filter((d) => !data.has(d)), ...contentWords(text, smallWords).filter((w) => !own.has(w))])];
}

const negationWord = /\b(?:not|no|never|nothing|nobody|none|without)\b|n't\b|\b(?:dont|doesnt|didnt|cant|wont)\b/g;

/**
 * What free text drops of the clauses of the message it was taken from (those sharing a content word with it):
 * a negation ("Don't leave it with the neighbour" saved as "Leave it with the neighbour") or a number.
 */
function droppedNegationsAndNumbers(text: string, message: PrincipalMessage): string[] {
  const words = new Set(contentWords(text, smallWords));
  const textRead = read(text);
  const textNegations = (textRead.match(negationWord) ?? []).length;
  const textNumbers = new Set(textRead.match(/\d+/g) ?? []);
  const dropped: string[] = [];
  for (const clause of readOf(message).split(/[.!?;\n:]/)) {
    if (!contentWords(clause, smallWords).some((w) => words.has(w))) continue;
    const negations = clause.match(negationWord) ?? [];
    if (negations.length > textNegations) dropped.push(`"${negations.join(" ")}"`);
    // Order references ("SU-40456", "the 456 one") say which order, not what the note says.
    const references = new Set(orderReferences(clause).map((r) => r.ref.replace(/^SU-/, "")));
    const numbers = (clause.replace(/\bsu-\d{5}\b/g, " ").match(/\d+/g) ?? []).filter((n) => !textNumbers.has(n) && !references.has(n));
    dropped.push(...numbers);
  }
  return [...new Set(dropped)];
}
