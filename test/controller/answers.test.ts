import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChangeToolName } from "#contract/tools";
import { type AnswerKind, answerTo, changeAnswered, readAnswer } from "#controller/guard/answer";
import { confirmationQuestion } from "#controller/guard/confirmation";
import { answerWords } from "#controller/i18n/answers";
import { type Locale, supportedLocales } from "#controller/i18n/locale";
import { normalizeForReading } from "#controller/gate/normalize";

/**
 * A typed answer to a held change, in the principal's words (contract §8.5): confirm, decline or neither. A seeded
 * generator composes answers in the eight languages from hand-written parts — affirmatives and negatives, with and
 * without a restatement of the change, courtesy words and signs — and questions, other content and restatements of
 * another change. Written here, not taken from the catalogue, so the catalogue is measured, not echoed.
 */

const change = { tool: "cancel_order" as ChangeToolName, orderId: "SU-10234" };

/** What people write, per language: yes, no, restating the cancellation, courtesy, and what is neither. */
const parts: Record<Locale, { yes: string[]; no: string[]; restate: string[]; courtesy: string[]; neither: string[] }> = {
  en: {
    yes: ["Yes", "yes", "Yeah", "OK", "Okay", "Sure", "Go ahead", "Yep", "Confirmed"],
    no: ["No", "Nope", "No, keep it", "Don't", "Never mind", "Leave it"],
    restate: ["cancel it", "go ahead and cancel it", "cancel SU-10234", "cancel the order"],
    courtesy: ["please", "thanks", "thank you", "no problem", "cheers"],
    neither: ["what is this about?", "why?", "I didn't ask for that", "and refund me", "return it instead", "wait a sec"],
  },
  de: {
    yes: ["Ja", "ja", "Genau", "Klar", "In Ordnung", "Gerne"],
    no: ["Nein", "Nee", "Lieber nicht", "Nein, behalten"],
    restate: ["stornieren", "bitte stornieren", "stornieren Sie die Bestellung"],
    courtesy: ["bitte", "danke", "vielen Dank"],
    neither: ["warum?", "was ist das?", "ich wollte etwas anderes", "schicken Sie Ersatz"],
  },
  fr: {
    yes: ["Oui", "oui", "D'accord", "Bien sûr", "Allez-y"],
    no: ["Non", "Non merci", "Laissez tomber"],
    restate: ["annulez-la", "annulez la commande"],
    courtesy: ["merci", "s'il vous plaît", "merci beaucoup"],
    neither: ["pourquoi ?", "c'est quoi ?", "je n'ai rien demandé", "remboursez-moi"],
  },
  es: {
    yes: ["Sí", "sí", "Vale", "Claro", "De acuerdo"],
    no: ["No", "Mejor no", "No gracias"],
    restate: ["cancélelo", "cancele el pedido"],
    courtesy: ["por favor", "gracias", "muchas gracias"],
    neither: ["¿por qué?", "¿qué es esto?", "yo no pedí eso", "devuélvalo"],
  },
  it: {
    yes: ["Sì", "sì", "Certo", "Va bene", "Confermo"],
    no: ["No", "Meglio di no", "No grazie"],
    restate: ["annullatelo", "annullate l'ordine"],
    courtesy: ["per favore", "grazie", "grazie mille"],
    neither: ["perché?", "cos'è?", "non ho chiesto questo", "rimborsatemi"],
  },
  pt: {
    yes: ["Sim", "sim", "Pode ser", "Claro", "De acordo"],
    no: ["Não", "Melhor não", "Não obrigado"],
    restate: ["cancelem-na", "cancelem a encomenda"],
    courtesy: ["por favor", "obrigado", "obrigada"],
    neither: ["porquê?", "o que é isto?", "não pedi isso", "devolvam"],
  },
  nl: {
    yes: ["Ja", "ja", "Prima", "Akkoord", "Is goed", "Oké"],
    no: ["Nee", "Liever niet", "Laat maar"],
    restate: ["annuleren", "annuleer de bestelling"],
    courtesy: ["graag", "dank u", "bedankt"],
    neither: ["waarom?", "wat is dit?", "dat heb ik niet gevraagd", "stuur een vervanging"],
  },
  pl: {
    yes: ["Tak", "tak", "Dobrze", "Jasne", "Zgoda"],
    no: ["Nie", "Nie trzeba", "Nie, dziękuję"],
    restate: ["anulować", "proszę anulować zamówienie"],
    courtesy: ["proszę", "dziękuję", "dzięki"],
    neither: ["dlaczego?", "co to jest?", "nie prosiłem o to", "zwróćcie to"],
  },
};

type Labelled = { text: string; locale: Locale; expected: AnswerKind; shape: string };

const signs = fc.constantFrom("", " 👍", " 🙏", " 🙂");
const joint = fc.constantFrom(", ", " ", "! ", ". ");

/** Answers composed per language, each labelled with what it is. */
function answersIn(locale: Locale): fc.Arbitrary<Labelled> {
  const p = parts[locale];
  const pick = (list: string[]) => fc.constantFrom(...list);
  const optional = (list: string[]) => fc.oneof(fc.constant(""), pick(list));
  const glue = (...pieces: string[]) => pieces.filter((x) => x !== "").join(", ");
  const yes = fc
    .tuple(pick(p.yes), optional(p.restate), optional(p.courtesy), signs)
    .map(([y, r, c, s]) => ({ text: `${glue(y, r, c)}${s}`, locale, expected: "confirm" as const, shape: r ? "yes+restate" : "yes" }));
  const no = fc
    .tuple(pick(p.no), optional(p.courtesy), fc.constantFrom("", " 👎"))
    .map(([n, c, s]) => ({ text: `${glue(n, c)}${s}`, locale, expected: "decline" as const, shape: "no" }));
  const neither = fc.oneof(
    fc.tuple(pick(p.neither)).map(([n]) => ({ text: n, locale, expected: "neither" as const, shape: "other content" })),
    fc
      .tuple(pick(p.yes), joint, pick(p.neither))
      .map(([y, j, n]) => ({ text: `${y}${j}${n}`, locale, expected: "neither" as const, shape: "yes+other" })),
    fc
      .tuple(pick(p.yes), joint, pick(p.no))
      .map(([y, j, n]) => ({ text: `${y}${j}${n}`, locale, expected: "neither" as const, shape: "yes+no" })),
    fc.tuple(pick(p.yes)).map(([y]) => ({ text: `${y}?`, locale, expected: "neither" as const, shape: "question" })),
    fc.tuple(pick(p.courtesy)).map(([c]) => ({ text: c, locale, expected: "neither" as const, shape: "courtesy only" })),
    fc.tuple(pick(p.yes)).map(([y]) => ({ text: `${y}, cancel SU-99999`, locale, expected: "neither" as const, shape: "another order" })),
  );
  return fc.oneof(yes, no, neither);
}

/** The seeded answer corpus: the same for the same seed. */
export function answerCorpus(seed: number, perLocale: number): Labelled[] {
  return supportedLocales.flatMap((locale) => fc.sample(answersIn(locale), { seed: seed + locale.charCodeAt(0), numRuns: perLocale }));
}

describe("the answer corpus, in every language", () => {
  const corpus = answerCorpus(8, 250);
  const matrix = new Map<string, number>();
  for (const a of corpus) {
    const read = answerTo(readAnswer(a.text, a.locale), change);
    const key = `${a.expected}→${read}`;
    matrix.set(key, (matrix.get(key) ?? 0) + 1);
  }

  it("never reads a negative or a neither as a confirmation", () => {
    const wrong = corpus.filter((a) => a.expected !== "confirm" && answerTo(readAnswer(a.text, a.locale), change) === "confirm");
    expect(wrong.map((a) => `${a.locale}: ${a.text}`)).toEqual([]);
    expect(matrix.get("decline→confirm") ?? 0).toBe(0);
    expect(matrix.get("neither→confirm") ?? 0).toBe(0);
  });

  it("reads every affirmative — restating the change or not, with courtesy or a sign — as a confirmation", () => {
    const missed = corpus.filter((a) => a.expected === "confirm" && answerTo(readAnswer(a.text, a.locale), change) !== "confirm");
    expect(missed.map((a) => `${a.locale}: ${a.text}`)).toEqual([]);
  });

  it("never declines an answer that is neither: it is asked again", () => {
    const declined = corpus.filter((a) => a.expected === "neither" && answerTo(readAnswer(a.text, a.locale), change) === "decline");
    expect(declined.map((a) => `${a.locale}: ${a.text}`)).toEqual([]);
  });

  it("reads every negative as a decline", () => {
    const missed = corpus.filter((a) => a.expected === "decline" && answerTo(readAnswer(a.text, a.locale), change) !== "decline");
    expect(missed.map((a) => `${a.locale}: ${a.text}`)).toEqual([]);
  });
});

describe("an answer is about the change it names", () => {
  it("the answers people give, restating the change they confirm, confirm it", () => {
    for (const [text, locale] of [
      ["Yes please, go ahead and cancel it", "en"],
      ["Ja, gerne, bitte stornieren", "de"],
      ["Oui, annulez-la", "fr"],
    ] as const)
      expect(answerTo(readAnswer(text, locale), change), text).toBe("confirm");
  });

  it("a restatement of another change, or another order, is neither", () => {
    expect(answerTo(readAnswer("Yes, return it", "en"), change)).toBe("neither");
    expect(answerTo(readAnswer("Yes, cancel SU-10235", "en"), change)).toBe("neither");
  });

  it("with two changes asked, a bare yes answers neither; naming its order or its verb answers that one", () => {
    const shown = [
      { tool: "cancel_order" as const, orderId: "SU-10234" },
      { tool: "start_return" as const, orderId: "SU-61201", itemIds: ["ITM-1"] },
    ];
    expect(changeAnswered(readAnswer("yes", "en"), shown)).toBeUndefined();
    expect(changeAnswered(readAnswer("yes, SU-61201", "en"), shown)).toBe(shown[1]);
    expect(changeAnswered(readAnswer("yes, cancel it", "en"), shown)).toBe(shown[0]);
    expect(changeAnswered(readAnswer("yes", "en"), [shown[0] as (typeof shown)[number]])).toBe(shown[0]);
  });
});

describe("the question asks for the word the answer is read with", () => {
  it("in each locale, the word shown is the catalogue's affirmative, and reads as a confirmation", () => {
    for (const locale of supportedLocales) {
      const { shownYes } = answerWords[locale];
      const question = confirmationQuestion("cancel_order", { orderId: "SU-10234" }, undefined, { locale });
      expect(question, locale).toContain(shownYes);
      expect(
        answerWords[locale].yes.map((y) => normalizeForReading(y).toLowerCase()),
        locale,
      ).toContain(normalizeForReading(shownYes).toLowerCase());
      expect(answerTo(readAnswer(shownYes, locale), change), locale).toBe("confirm");
    }
  });
});
