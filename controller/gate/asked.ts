import type { FactKind } from "#controller/gate/facts";
import type { Locale } from "#controller/i18n/locale";
import { questionWords, type Topic } from "#controller/i18n/questions";

/**
 * What the person's message asks about their order (contract §8.2), read from their own words and nothing else:
 * a closed reading per locale (i18n/questions.ts), whole words and phrases, the longest first, each word read once.
 * It only picks which true facts of the record the reply tells; it never lets a sentence through. A message with
 * none of the words asks where the order is, as "where is my order?" does (unless `orElse: false`: then nothing).
 */
export function askedTopics(message: string, locale: Locale, options: { orElse?: false } = {}): Set<Topic> {
  // An order's id says which order, not what is asked: "send SU-10387 back" reads as "send back".
  const words = wordsOf(message).filter((w) => !/^su-?\d+$/.test(w));
  const topics = new Set<Topic>();
  const used = new Array<boolean>(words.length).fill(false);
  for (const { phrase, topic } of phrasesOf(locale)) {
    for (let at = 0; at + phrase.length <= words.length; at++) {
      if (phrase.every((w, i) => words[at + i] === w && !used[at + i])) {
        topics.add(topic);
        for (let i = 0; i < phrase.length; i++) used[at + i] = true;
      }
    }
  }
  if (topics.size === 0 && options.orElse !== false) topics.add("where");
  return topics;
}

/**
 * A message's words: lowercase, apostrophes plain, an elided article or pronoun its own word ("l'importo" is
 * "l'" and "importo", "qu'ai-je" is "qu'" and "ai-je"), and English contractions whole ("what's").
 */
function wordsOf(text: string): string[] {
  const words =
    text
      .normalize("NFC")
      .toLowerCase()
      .replace(/[’‘ʼ]/g, "'")
      .match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? [];
  return words.flatMap((w) => {
    const elided = /^(l|d|c|j|m|t|s|n|qu|dell|all|nell|sull|dall|dov|com|cos)'(.+)$/u.exec(w);
    return elided ? [`${elided[1]}'`, elided[2] as string] : [w];
  });
}

/** The facts that answer each topic; a topic whose facts the order lacks is answered by its status. */
export const topicFacts: Readonly<Record<Topic, readonly FactKind[]>> = {
  where: ["status", "tracking"],
  track: ["tracking"],
  what: ["items"],
  paid: ["amounts"],
  return: ["returnWindow", "return"],
  delivered: ["status"],
  placed: ["placed"],
  note: ["note"],
  options: ["possible"],
};

const byLocale = new Map<Locale, { phrase: string[]; topic: Topic }[]>();
function phrasesOf(locale: Locale): { phrase: string[]; topic: Topic }[] {
  let phrases = byLocale.get(locale);
  if (!phrases) {
    phrases = Object.entries(questionWords[locale])
      .flatMap(([topic, list]) => list.map((p) => ({ phrase: wordsOf(p), topic: topic as Topic })))
      .sort((a, b) => b.phrase.length - a.phrase.length);
    byLocale.set(locale, phrases);
  }
  return phrases;
}
