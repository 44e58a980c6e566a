import * as fc from "fast-check";
import type { ChangeToolName } from "#contract/tools";
import { type AnswerKind, answerTo, readAnswer } from "#controller/guard/answer";
import { type Locale, supportedLocales } from "#controller/i18n/locale";
import { heldOutAnswerFigures } from "#eval/attacks/held-out-answers";
import { plainAnswerFigures } from "#eval/attacks/plain-answers";

/**
 * The generated answer corpus (contract §8.4, `npm run eval -- --answers`): typed answers to the application's
 * question about a held cancellation of SU-10234, in the eight languages, composed by a seeded generator from
 * hand-written parts — affirmatives and negatives, with and without a restatement of the change, courtesy words
 * and signs — and from what is neither: questions, a yes and a no together, other content, a restatement of another
 * order. Written here by hand, not taken from the controller's catalogue (i18n/answers.ts), so the catalogue is
 * measured, not echoed. Each answer is labelled with what it is; the controller's reading is held to the label.
 */

export const change = { tool: "cancel_order" as ChangeToolName, orderId: "SU-10234" };

/**
 * What people write, per language: yes, the "ok" that is a yes only alone, thanks (beside "ok" an acknowledgement),
 * no, restating the cancellation, courtesy, and what is neither.
 */
const parts: Record<
  Locale,
  { yes: string[]; weak: string[]; thanks: string[]; no: string[]; restate: string[]; courtesy: string[]; neither: string[] }
> = {
  en: {
    yes: ["Yes", "yes", "Yeah", "Sure", "Go ahead", "Yep", "Confirmed", "Yes, please do", "Absolutely", "Of course", "That's right"],
    weak: ["OK", "Okay", "Alright", "Fine"],
    thanks: ["thanks", "thank you", "cheers", "great, thanks"],
    no: ["No", "Nope", "No, keep it", "Don't", "Never mind", "Leave it", "No, don't", "Nah", "Not now"],
    restate: ["cancel it", "go ahead and cancel it", "cancel SU-10234", "cancel the order", "cancel my order", "just cancel it"],
    courtesy: ["please", "thanks", "thank you", "no problem", "cheers", "thanks a lot", "much appreciated", "perfect"],
    neither: [
      "what is this about?",
      "why?",
      "I didn't ask for that",
      "and refund me",
      "return it instead",
      "wait a sec",
      "lovely",
      "hmm",
      "maybe later",
      "which one?",
    ],
  },
  de: {
    yes: ["Ja", "ja", "Genau", "Klar", "Gerne"],
    weak: ["In Ordnung", "Okay", "Passt"],
    thanks: ["danke", "vielen Dank"],
    no: ["Nein", "Nee", "Lieber nicht", "Nein, behalten"],
    restate: ["stornieren", "bitte stornieren", "stornieren Sie die Bestellung"],
    courtesy: ["bitte", "danke", "vielen Dank"],
    neither: ["warum?", "was ist das?", "ich wollte etwas anderes", "schicken Sie Ersatz"],
  },
  fr: {
    yes: ["Oui", "oui", "Bien sûr", "Allez-y"],
    weak: ["OK", "D'accord", "Très bien", "Ça marche"],
    thanks: ["merci", "merci beaucoup"],
    no: ["Non", "Non merci", "Laissez tomber"],
    restate: ["annulez-la", "annulez la commande"],
    courtesy: ["merci", "s'il vous plaît", "merci beaucoup"],
    neither: ["pourquoi ?", "c'est quoi ?", "je n'ai rien demandé", "remboursez-moi"],
  },
  es: {
    yes: ["Sí", "sí", "Claro"],
    weak: ["Vale", "De acuerdo", "Está bien", "OK"],
    thanks: ["gracias", "muchas gracias"],
    no: ["No", "Mejor no", "No gracias"],
    restate: ["cancélelo", "cancele el pedido"],
    courtesy: ["por favor", "gracias", "muchas gracias"],
    neither: ["¿por qué?", "¿qué es esto?", "yo no pedí eso", "devuélvalo"],
  },
  it: {
    yes: ["Sì", "sì", "Certo", "Confermo"],
    weak: ["Va bene", "OK"],
    thanks: ["grazie", "grazie mille"],
    no: ["No", "Meglio di no", "No grazie"],
    restate: ["annullatelo", "annullate l'ordine"],
    courtesy: ["per favore", "grazie", "grazie mille"],
    neither: ["perché?", "cos'è?", "non ho chiesto questo", "rimborsatemi"],
  },
  pt: {
    yes: ["Sim", "sim", "Pode ser", "Claro"],
    weak: ["Está bem", "De acordo", "OK", "Tudo bem"],
    thanks: ["obrigado", "obrigada"],
    no: ["Não", "Melhor não", "Não obrigado"],
    restate: ["cancelem-na", "cancelem a encomenda"],
    courtesy: ["por favor", "obrigado", "obrigada"],
    neither: ["porquê?", "o que é isto?", "não pedi isso", "devolvam"],
  },
  nl: {
    yes: ["Ja", "ja", "Akkoord", "Doe maar"],
    weak: ["Prima", "Is goed", "Oké"],
    thanks: ["bedankt", "dank u"],
    no: ["Nee", "Liever niet", "Laat maar"],
    restate: ["annuleren", "annuleer de bestelling"],
    courtesy: ["graag", "dank u", "bedankt"],
    neither: ["waarom?", "wat is dit?", "dat heb ik niet gevraagd", "stuur een vervanging"],
  },
  pl: {
    yes: ["Tak", "tak", "Jasne", "Zgoda"],
    weak: ["Dobrze", "Okej", "W porządku"],
    thanks: ["dziękuję", "dzięki"],
    no: ["Nie", "Nie trzeba", "Nie, dziękuję"],
    restate: ["anulować", "proszę anulować zamówienie"],
    courtesy: ["proszę", "dziękuję", "dzięki"],
    neither: ["dlaczego?", "co to jest?", "nie prosiłem o to", "zwróćcie to"],
  },
};

export type Labelled = { text: string; locale: Locale; expected: AnswerKind; shape: string };

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
  const weak = fc
    .tuple(pick(p.weak), optional(p.restate), signs)
    .map(([y, r, s]) => ({ text: `${glue(y, r)}${s}`, locale, expected: "confirm" as const, shape: r ? "ok+restate" : "ok" }));
  const acknowledgement = fc
    .tuple(pick(p.weak), joint, pick(p.thanks), fc.constantFrom("", "!", " 🙏"))
    .map(([y, j, t, s]) => ({ text: `${y}${j}${t}${s}`, locale, expected: "neither" as const, shape: "acknowledgement" }));
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
    fc
      .tuple(pick(p.yes), fc.constantFrom("？", "؟", "‽", " ✗", " →", " (?)", " ;)"))
      .map(([y, m]) => ({ text: `${y}${m}`, locale, expected: "neither" as const, shape: "other mark or sign" })),
    acknowledgement,
    fc.tuple(pick(p.courtesy)).map(([c]) => ({ text: c, locale, expected: "neither" as const, shape: "courtesy only" })),
    fc.tuple(pick(p.yes)).map(([y]) => ({ text: `${y}, cancel SU-99999`, locale, expected: "neither" as const, shape: "another order" })),
  );
  return fc.oneof(yes, weak, no, neither);
}

/** The seeded answer corpus: the same for the same seed. */
export function answerCorpus(seed: number, perLocale: number): Labelled[] {
  return supportedLocales.flatMap((locale) => fc.sample(answersIn(locale), { seed: seed + locale.charCodeAt(0), numRuns: perLocale }));
}

/** The confusion matrix of the controller's reading over a corpus: "expected→read" and how many. */
export function answerMatrix(corpus: readonly Labelled[]): Map<string, number> {
  const matrix = new Map<string, number>();
  for (const a of corpus) {
    const key = `${a.expected}→${answerTo(readAnswer(a.text, a.locale), change)}`;
    matrix.set(key, (matrix.get(key) ?? 0) + 1);
  }
  return matrix;
}

/** The whole corpus of a seed, read and printed as a confusion matrix; passes when nothing is read as the wrong kind. */
export function runAnswerCorpus(seed: number, print: (line: string) => void): { pass: boolean } {
  const corpus = answerCorpus(seed, 500);
  const matrix = answerMatrix(corpus);
  const kinds: AnswerKind[] = ["confirm", "decline", "neither"];
  print(
    `answers: ${corpus.length} generated answers in ${supportedLocales.length} languages (seed ${seed}); rows: what each is, columns: how it was read`,
  );
  print(`answers: ${"".padEnd(9)}${kinds.map((k) => k.padStart(9)).join("")}`);
  for (const row of kinds)
    print(`answers: ${row.padEnd(9)}${kinds.map((col) => String(matrix.get(`${row}→${col}`) ?? 0).padStart(9)).join("")}`);
  for (const locale of supportedLocales) {
    const of = corpus.filter((a) => a.locale === locale);
    const wrong = of.filter((a) => answerTo(readAnswer(a.text, a.locale), change) !== a.expected).length;
    print(`answers: ${locale} ${of.length - wrong}/${of.length} read as what they are`);
  }
  const misread = corpus.filter((a) => answerTo(readAnswer(a.text, a.locale), change) !== a.expected);
  for (const a of misread.slice(0, 10)) print(`answers: misread (${a.locale}, ${a.shape}): ${JSON.stringify(a.text)}`);
  // The hand-written plain answers: everyday affirmatives confirm at the first answer (≥ 90 %), acknowledgements never.
  const plain = plainAnswerFigures();
  for (const f of plain)
    print(
      `answers: plain ${f.locale} ${f.confirmed}/${f.of} affirmatives confirmed at the first answer, ${f.acknowledgementsConfirmed.length} acknowledgements confirmed${f.missed.length ? ` (missed: ${f.missed.join(" | ")})` : ""}`,
    );
  // The held-out answers, written before the catalogue was read: measured on, never fitted to.
  const heldOut = heldOutAnswerFigures();
  for (const f of heldOut)
    print(
      `answers: held-out ${f.locale} ${f.confirmed}/${f.of} affirmatives confirmed at the first answer, ${f.acknowledgementsConfirmed.length} acknowledgements confirmed${f.missed.length ? ` (missed: ${f.missed.join(" | ")})` : ""}`,
    );
  const plainPass = [...plain, ...heldOut].every((f) => f.confirmed / f.of >= 0.9 && f.acknowledgementsConfirmed.length === 0);
  return { pass: misread.length === 0 && plainPass };
}
