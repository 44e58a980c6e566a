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
  const words =
    message
      .normalize("NFC")
      .toLowerCase()
      .replace(/[’‘ʼ]/g, "'")
      .match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? [];
  const phrases = phrasesOf(locale);
  const topics = new Set<Topic>();
  const used = new Array<boolean>(words.length).fill(false);
  for (const { phrase, topic } of phrases) {
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

/** The facts that answer each topic; a topic whose facts the order lacks is answered by its status. */
export const topicFacts: Readonly<Record<Topic, readonly FactKind[]>> = {
  where: ["status", "tracking"],
  what: ["items"],
  paid: ["amounts"],
  return: ["returnWindow", "return"],
  delivered: ["status"],
  placed: ["placed"],
  note: ["note"],
  options: ["possible"],
};

/** The fact kinds a set of topics asks for. */
export function askedKinds(topics: ReadonlySet<Topic>): Set<FactKind> {
  return new Set([...topics].flatMap((t) => topicFacts[t]));
}

const byLocale = new Map<Locale, { phrase: string[]; topic: Topic }[]>();
function phrasesOf(locale: Locale): { phrase: string[]; topic: Topic }[] {
  let phrases = byLocale.get(locale);
  if (!phrases) {
    phrases = Object.entries(questionWords[locale])
      .flatMap(([topic, list]) => list.map((p) => ({ phrase: p.split(" "), topic: topic as Topic })))
      .sort((a, b) => b.phrase.length - a.phrase.length);
    byLocale.set(locale, phrases);
  }
  return phrases;
}
