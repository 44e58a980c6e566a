import { isChangeTool, type ToolName } from "#contract/tools";
import { changeForms } from "#controller/guard/change-forms";
import type { OrderFacts } from "#controller/outcomes";
import { normalizeForReading } from "#controller/text/normalize";
import { smallWords } from "#controller/text/small-words";
import { type PrincipalMessage, readMessage } from "#controller/guard/message";
import type { FormRequest, ItemReference } from "#controller/guard/request-form";
import { contentWords, dataTokens, orderReferences } from "#controller/guard/words";
import { sameWord } from "#controller/guard/targets";

/**
 * The values of a change, two ways (contract §8.5):
 * - `formValues`, on the fast path: every argument is what the closed-form request says — its items, its reason,
 *   its pickup day, its note's very words (guard/change-forms.ts, each tool's `formValues`). A value the request does not
 *   say is named, and the change waits for a confirmation that shows it;
 * - `quotable`, for a change that waits: whether its free text (a note, a cancellation's reason) may be shown back
 *   to the principal as theirs and sent on their yes. A note whose words or data are not in their messages, or that
 *   drops a negation or a number they wrote, is never quoted: the question asks for the exact words instead.
 */

/** Why each argument of a change does not trace to its closed-form request (empty: all trace). */
export function formValues(
  tool: ToolName,
  request: Record<string, unknown>,
  form: FormRequest,
  order: OrderFacts | undefined,
  message: PrincipalMessage,
): string[] {
  if (!isChangeTool(tool)) return [`${tool} is not a change`];
  const untraced: string[] = [];
  changeForms[tool].formValues({
    request,
    form,
    untraced: (why) => untraced.push(why),
    namedItems: () => namedItems(form.items ?? [], order),
    sameWords: (a, b) => plain(a) === plain(b),
    foreignData: (text) => {
      const data = new Set(message.dataTokens);
      return dataTokens(text).filter((d) => !data.has(d));
    },
  });
  return untraced;
}

export interface QuotableInput {
  tool: ToolName;
  request: Record<string, unknown>;
  /** This turn's message. */
  message: PrincipalMessage;
  /** Every message of the principal, this turn's included. */
  principalMessages: readonly PrincipalMessage[];
  /** The texts the model read that the principal did not write (context/taint.ts), as written. */
  foreignTexts?: readonly string[];
}

/** Whether a change's free text is the principal's own words, to be shown back to them and sent on their yes. */
export function quotable(raw: QuotableInput): boolean {
  if (!isChangeTool(raw.tool)) return true;
  // What the principal quotes from text they did not write is not their words. A quotation of their own (a note
  // dictated in quotation marks) is.
  const own = ownWords(raw.foreignTexts ?? []);
  const message = own(raw.message);
  const messages = raw.principalMessages.map(own);
  return changeForms[raw.tool].quotable({
    request: raw.request,
    foreignData: (text) => {
      const data = new Set(message.dataTokens);
      return dataTokens(text).filter((d) => !data.has(d));
    },
    foreignWords: (text) => foreignWords(text, messages, message),
    droppedNegationsAndNumbers: (text) => droppedNegationsAndNumbers(text, message),
  });
}

/** The items a closed-form request names on an order, or undefined when its words do not pick them out. */
function namedItems(refs: readonly ItemReference[], order: OrderFacts | undefined): string[] | undefined {
  const items = order?.items ?? [];
  const named = new Set<string>();
  for (const ref of refs) {
    if (ref.kind === "id") named.add(ref.itemId);
    else if (ref.kind === "everything") {
      if (items.length === 0) return undefined;
      for (const i of items) named.add(i.itemId);
    } else if (ref.kind === "pronoun") {
      if (items.length !== 1) return undefined;
      named.add((items[0] as { itemId: string }).itemId);
    } else {
      // Every word of the request's name for it is a whole word of its title, singular or plural, and of one item's
      // title only: words that fit two items do not say which, and the change waits for a question that shows it.
      const matches = items.filter((i) => {
        const title = contentWords(i.title, smallWords);
        return ref.words.every((w) => title.some((t) => sameWord(w, t)));
      });
      if (matches.length !== 1) return undefined;
      named.add((matches[0] as { itemId: string }).itemId);
    }
  }
  return [...named];
}

const plain = (text: string) =>
  normalizeForReading(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** Quotation marks of the languages the controller reads; full-width forms are folded to these first (NFKC). */
const quoted = /"[^\n]*"|[“‟][^\n]*[”“]|„[^\n]*[“”]|«[^\n]*»|‹[^\n]*›|‘[^\n]*’|「[^\n]*」|『[^\n]*』/gu;

/**
 * A principal's message without the quotations it takes from foreign text: a quoted span most of whose words are in
 * a text the model read from someone else (a listing pasted back, an instruction asked about).
 */
export function ownWords(foreignTexts: readonly string[]): (message: PrincipalMessage) => PrincipalMessage {
  const foreign = new Set(foreignTexts.flatMap((t) => contentWords(t, smallWords)));
  return (message) => {
    // NFKC first, as the reading does, so a full-width ＂…＂ is the quotation it shows.
    const own = message.text.normalize("NFKC").replace(quoted, (span) => {
      const words = contentWords(span, smallWords);
      return words.length > 0 && words.filter((w) => foreign.has(w)).length * 2 >= words.length ? " " : span;
    });
    // Nothing quoted from foreign text: the very message, with what has been read of it already.
    return own === message.text.normalize("NFKC") ? message : readMessage(own);
  };
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

const read = (text: string) => normalizeForReading(text).toLowerCase().replaceAll("’", "'");
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
  for (const clause of message.reading.replaceAll("’", "'").split(/[.!?;\n:]/)) {
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
