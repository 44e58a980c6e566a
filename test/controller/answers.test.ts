import { describe, expect, it } from "vitest";
import type { ChangeToolName } from "#contract/tools";
import { answerTo, changeAnswered, readAnswer } from "#controller/guard/answer";
import { confirmationQuestion } from "#controller/guard/confirmation";
import { answerWords } from "#controller/i18n/answers";
import { supportedLocales } from "#controller/i18n/locale";
import { answerCorpus, answerMatrix } from "../../eval/attacks/answers.ts";
import { normalizeForReading } from "#controller/gate/normalize";

/**
 * A typed answer to a held change, in the principal's words (contract §8.5): confirm, decline or neither, held to
 * the generated answer corpus (eval/attacks/answers.ts) in the eight languages.
 */

const change = { tool: "cancel_order" as ChangeToolName, orderId: "SU-10234" };

describe("the answer corpus, in every language", () => {
  const corpus = answerCorpus(8, 250);
  const matrix = answerMatrix(corpus);

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
