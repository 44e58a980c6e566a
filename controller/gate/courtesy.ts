import { courtesyEmoji } from "#controller/text/small-words";

/**
 * The model's sentences the gate shows as they are without a fact behind them (contract §8.2): courtesy, and
 * nothing else. A closed set of whole phrases, not of words — "sorry" and "I can" are each harmless, "Sorry, I
 * can." answers a question — so a sentence is courtesy only when each of its comma-separated parts is one of these
 * phrases, word for word. There is no verb of state or movement, no affirmation ("yes", "sure", "of course", "no
 * problem"), no word of a delivery, money, time or a number, and no pronoun that could stand for an order; an
 * order or an item is named only in the questions that ask the principal which one they mean. Anything else a model
 * writes is a claim, and is held to the facts (gate/reading.ts).
 *
 * Each template is expanded once at load: `(a|b|)` is a choice, where an empty choice leaves the part out.
 */

/** Greetings, thanks, apologies and sympathy: what a reply may open with, before the facts. */
const opening = [
  "(hi|hello|hey|good morning|good afternoon|good evening)( there|)",
  "(thanks|thank you|many thanks)( so much| very much| again|)( for (your patience|waiting|bearing with me|your message|getting in touch|reaching out|asking|letting me know|your understanding|holding on|shopping with us|contacting us)|)",
  "(i'm|i am|we're|we are)( so| very| really| truly|) sorry( for the (wait|inconvenience|trouble|confusion|hassle|frustration)| about (that|this|the (wait|inconvenience|trouble|confusion))| to hear (that|this)|)",
  "(sorry|apologies|my apologies|our apologies)( for the (wait|inconvenience|trouble|confusion|hassle)| about (that|this|the (wait|inconvenience|trouble|confusion))|)",
  "i( completely| totally| can|) understand( (how|that this is|this is|that's) (frustrating|annoying|inconvenient|worrying)| how (frustrating|annoying|inconvenient|worrying) (that|this) (is|must be)|)",
  "(that|this) (must be|is|sounds) (frustrating|annoying|worrying|inconvenient)",
  "(i'm|i am|we're|we are) (happy|glad) to help",
  "(happy|glad) to help",
];

/** Offers of more help and goodbyes: what a reply may close with, after the facts. */
const closing = [
  "(is there|was there) anything else( (i|we) can (help you with|help with|do for you)|)( today|)",
  "anything else( (i|we) can (help you with|help with|do for you)|)( today|)",
  "(please |just |)(let me know|let us know|feel free to let me know) if (there is|there's) anything else( (i|we) can (help you with|help with|do for you)|)",
  "(please |just |)(let me know|let us know|feel free to let me know) if you (need|have) anything else",
  "(please |just |)(let me know|let us know|feel free to let me know) if you have (any|any other|any more|more) questions",
  "(please |)feel free to (ask|reach out|get in touch)( if you (need|have) anything else| if you have (any|any other|any more) questions|)",
  "(i'm|i am|we're|we are) (here|always here|here to help)( if you need (anything else|more help)| if you have (any|any other|any more) questions|)",
  "(you're|you are)( very| most|) welcome",
  "(have|enjoy) a (good|great|nice|lovely|wonderful) (day|evening|weekend|afternoon|morning)",
  "(i |)hope (this|that) helps",
  "(take care|all the best|best wishes|kind regards|best regards|regards|cheers|bye|goodbye)",
  // Asking the principal which order or item they mean, or for its number: a question that says nothing of it.
  "which (order|item|one)( (do you mean|is it about|are you asking about|is this about|would you like me to look at)|)",
  "(could|can|would) you (please |)(tell me|give me|share|send me|confirm) (the|your) order (number|id)",
  "(what is|what's) (the|your) order (number|id)",
  "do you have (the|your) order (number|id)",
];

/** `(a|b|)` choices, nested, expanded into every phrase they make. */
function expand(template: string): string[] {
  const open = template.indexOf("(");
  if (open < 0) return [template.replace(/ +/g, " ").trim()];
  let depth = 0;
  let close = open;
  const cuts: number[] = [];
  for (let i = open; i < template.length; i++) {
    const c = template[i];
    if (c === "(") depth += 1;
    else if (c === ")") {
      depth -= 1;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (c === "|" && depth === 1) cuts.push(i);
  }
  const inner = template.slice(open + 1, close);
  const choices: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    choices.push(inner.slice(from, cut - open - 1));
    from = cut - open;
  }
  choices.push(inner.slice(from));
  const before = template.slice(0, open);
  const after = template.slice(close + 1);
  return choices.flatMap((choice) => expand(`${before}${choice}${after}`));
}

const phrases = (templates: readonly string[]) => new Set(templates.flatMap(expand));
const openingPhrases = phrases(opening);
const closingPhrases = phrases(closing);

const trailingCourtesyEmoji = new RegExp(`(?:\\s*(?:${courtesyEmoji.source}))+$`, "u");

export type Courtesy = "opening" | "closing";

/**
 * Whether a sentence (as shown: rendered, invisible characters removed) is courtesy, and which kind: every part of
 * it between commas is one of the phrases, and nothing else is in it but a closing mark and courtesy emoji.
 */
export function courtesyOf(sentence: string): Courtesy | undefined {
  const bare = sentence.normalize("NFC").replace(/^- /, "").trim();
  const plain = bare
    .toLowerCase()
    .replace(/[’‘ʼ]/g, "'")
    .replace(trailingCourtesyEmoji, "")
    .replace(/[.!?]+$/, "")
    .trim();
  // A smile on its own, after the sentence it closes.
  if (plain === "") return bare !== "" && trailingCourtesyEmoji.test(bare) ? "closing" : undefined;
  if (/[^a-z', ]/.test(plain)) return undefined;
  let kind: Courtesy = "opening";
  for (const part of plain.split(",")) {
    const phrase = part.trim().replace(/ +/g, " ");
    if (closingPhrases.has(phrase)) kind = "closing";
    else if (!openingPhrases.has(phrase)) return undefined;
  }
  return kind;
}
