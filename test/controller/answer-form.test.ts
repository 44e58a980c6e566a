import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerTo, readAnswer } from "#controller/guard/answer";
import type { Locale } from "#controller/i18n/locale";
import { heldOutAnswerFigures } from "#eval/attacks/held-out-answers";
import { plainAnswerFigures } from "#eval/attacks/plain-answers";
import { lampController, lampWorld } from "#test/controller/support/lamp-world";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * Contract §8.5, "only an answer confirms": an acknowledgement or thanks, with or without "ok", is never a
 * confirmation; any character outside the closed answer form (another question mark, a sign) makes a message not the
 * form; and after a reply that reported one change's outcome and asked about another, only a typed answer that
 * restates that other change confirms it. Written here by hand, not taken from the catalogue.
 */
const change = { tool: "cancel_order" as const, orderId: "SU-10234" };

/** Per language: explicit yeses, the "ok" words, and thanks, as people type them. */
const words: Record<Locale, { yes: string[]; ok: string[]; thanks: string[] }> = {
  en: { yes: ["Yes", "Yes please", "Go ahead", "Sure"], ok: ["OK", "Okay", "Alright", "Fine"], thanks: ["thanks", "thank you", "cheers"] },
  de: { yes: ["Ja", "Ja, gerne", "Klar"], ok: ["OK", "In Ordnung", "Passt"], thanks: ["danke", "vielen Dank"] },
  fr: { yes: ["Oui", "Bien sûr", "Allez-y"], ok: ["OK", "D'accord", "Très bien", "Ça marche"], thanks: ["merci", "merci beaucoup"] },
  es: { yes: ["Sí", "Claro", "Adelante"], ok: ["Vale", "OK", "Está bien"], thanks: ["gracias", "muchas gracias"] },
  it: { yes: ["Sì", "Certo", "Procedi"], ok: ["Va bene", "OK"], thanks: ["grazie", "grazie mille"] },
  pt: { yes: ["Sim", "Claro", "Pode avançar"], ok: ["OK", "Está bem", "Tudo bem"], thanks: ["obrigado", "obrigada"] },
  nl: { yes: ["Ja", "Akkoord", "Doe maar"], ok: ["Prima", "Oké", "Is goed"], thanks: ["bedankt", "dank u wel"] },
  pl: { yes: ["Tak", "Jasne", "Zgoda"], ok: ["Dobrze", "Okej", "W porządku"], thanks: ["dziękuję", "dzięki"] },
};
const locales = Object.keys(words) as Locale[];
const read = (text: string, locale: Locale) => answerTo(readAnswer(text, locale), change);

describe("an acknowledgement is never a confirmation", () => {
  it("'ok' with thanks, in any language and order, is neither a yes nor a no", () => {
    const acknowledgement = fc
      .constantFrom(...locales)
      .chain((locale) =>
        fc
          .tuple(
            fc.constantFrom(...words[locale].ok),
            fc.constantFrom(...words[locale].thanks),
            fc.boolean(),
            fc.constantFrom("", "!", " 🙏", "."),
          )
          .map(([ok, thanks, first, end]) => ({ locale, text: `${first ? ok : thanks}, ${first ? thanks : ok}${end}` })),
      );
    fc.assert(
      fc.property(acknowledgement, ({ locale, text }) => read(text, locale) === "neither"),
      { seed: 41, numRuns: 400 },
    );
  });

  it("words that acknowledge ('great', 'perfect', 'sounds good') are no yes, alone or with 'ok'", () => {
    for (const text of ["Great", "Perfect", "Sounds good", "OK, sounds good", "Alright, perfect", "Ok great"])
      expect(read(text, "en"), text).toBe("neither");
  });

  it("an explicit yes with thanks, and 'ok' alone, still confirm", () => {
    const yes = fc.constantFrom(...locales).chain((locale) =>
      fc.oneof(
        fc
          .tuple(fc.constantFrom(...words[locale].yes), fc.constantFrom(...words[locale].thanks))
          .map(([y, t]) => ({ locale, text: `${y}, ${t}` })),
        fc.constantFrom(...words[locale].ok).map((ok) => ({ locale, text: ok })),
      ),
    );
    fc.assert(
      fc.property(yes, ({ locale, text }) => read(text, locale) === "confirm"),
      { seed: 41, numRuns: 300 },
    );
  });
});

describe("plain affirmatives are understood at the first answer", () => {
  it("at least 90 % of the hand-written affirmatives of each language confirm, and no acknowledgement does", () => {
    for (const figure of plainAnswerFigures()) {
      expect(figure.of, figure.locale).toBeGreaterThanOrEqual(10);
      expect(figure.confirmed / figure.of, `${figure.locale}: ${figure.missed.join(" | ")}`).toBeGreaterThanOrEqual(0.9);
      expect(figure.acknowledgementsConfirmed, figure.locale).toEqual([]);
    }
  });

  it("so are at least 90 % of the held-out affirmatives, written before the catalogue was read, and no acknowledgement", () => {
    for (const figure of heldOutAnswerFigures()) {
      expect(figure.of, figure.locale).toBe(12);
      expect(figure.confirmed / figure.of, `${figure.locale}: ${figure.missed.join(" | ")}`).toBeGreaterThanOrEqual(0.9);
      expect(figure.acknowledgementsConfirmed, figure.locale).toEqual([]);
    }
  });

  it("a restating verb with its object pronoun at its end is that change's verb, accents aside", () => {
    const verbs = { es: ["cancela", "cancele", "anula", "cancelar"], it: ["annulla", "annullare", "annulli"] } as const;
    const clitics = { es: ["lo", "la", "los", "las"], it: ["lo", "la", "li", "le"] } as const;
    const yes = { es: "Sí", it: "Sì" } as const;
    const accented = (verb: string) =>
      verb.replace(/^(.*?)([aeiou])(?=[^aeiou]*[aeiou][^aeiou]*$)/, (_m, head: string, v: string) =>
        `${head}${v.normalize("NFD")}\u0301`.normalize("NFC"),
      );
    const answer = fc
      .constantFrom("es" as const, "it" as const)
      .chain((locale) =>
        fc
          .tuple(fc.constantFrom(...verbs[locale]), fc.constantFrom(...clitics[locale]), fc.boolean(), fc.constantFrom("", "!", " 👍"))
          .map(([verb, clitic, accent, end]) => ({ locale, text: `${yes[locale]}, ${accent ? accented(verb) : verb}${clitic}${end}` })),
      );
    fc.assert(
      fc.property(answer, ({ locale, text }) => {
        const reading = readAnswer(text, locale);
        return (
          answerTo(reading, change) === "confirm" &&
          answerTo(reading, { tool: "start_return", orderId: "SU-10234" }) === "neither" &&
          answerTo(readAnswer(`${text}, no`, locale), change) === "neither"
        );
      }),
      { seed: 41, numRuns: 200 },
    );
    // A clitic makes a word a verb only on a verb of the catalogue.
    expect(read("Sí, cantalo", "es")).toBe("neither");
  });

  it("a softening particle follows an imperative, never the bare yes or an acknowledgement", () => {
    expect(read("Ja, annuleer maar", "nl")).toBe("confirm");
    expect(read("Ja, annuleer het maar", "nl")).toBe("confirm");
    expect(read("Sì, annullalo pure", "it")).toBe("confirm");
    for (const [text, locale] of [
      ["Ja maar", "nl"],
      ["Prima maar", "nl"],
      ["Bedankt maar", "nl"],
      ["Sì pure", "it"],
      ["Grazie pure", "it"],
    ] as const)
      expect(read(text, locale), text).toBe("neither");
  });
});

describe("any character outside the closed answer form makes it no answer", () => {
  it("another question mark or a sign beside a yes is neither", () => {
    const marked = fc
      .constantFrom(...locales)
      .chain((locale) =>
        fc
          .tuple(fc.constantFrom(...words[locale].yes), fc.constantFrom("？", "؟", "‽", "⁇", " ✗", " →", " ☐", " (?)", " ;)", " ※"))
          .map(([y, m]) => ({ locale, text: `${y}${m}` })),
      );
    fc.assert(
      fc.property(marked, ({ locale, text }) => read(text, locale) === "neither"),
      { seed: 41, numRuns: 300 },
    );
    for (const text of ["Yes？", "Yes؟", "yes‽", "Ok ✗"]) expect(read(text, "en"), text).toBe("neither");
  });
});

describe("after a reply that reports one change and asks about another, only a restatement confirms", () => {
  let service: ServiceWorld;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => service?.close());

  it("an acknowledgement of the change just made sends nothing, says how to answer, and a yes naming the order sends it", async () => {
    const { customerId, ids } = await lampWorld(service);
    const { controller, changes, store } = await lampController(service, customerId, [
      { call: "get_order", input: { orderId: ids.lamp } },
      { call: "cancel_order", input: { orderId: ids.towel } },
      { call: "cancel_order", input: { orderId: ids.kettle } },
      { say: "Shall I?" },
      { say: "You're welcome." },
      { say: "Glad to help." },
      { say: "OK." },
      { say: "Done." },
    ]);
    const conversation = controller.conversation("ack-after-button");
    const held = await conversation.turn(`Please cancel ${ids.towel}, and tell me about ${ids.lamp}.`);
    const towel = held.confirmations.find((c) => c.orderId === ids.towel);
    const pressed = await conversation.confirm(towel?.confirmationId ?? "");
    expect(pressed.reply).toContain(`Order ${ids.towel} is cancelled.`);
    expect(pressed.confirmations.map((c) => c.orderId)).toEqual([ids.kettle]);
    // Right after the report, "cancel it" restates a change of the kind just reported: no answer. Then, asked again
    // alone, an acknowledgement is still no answer.
    for (const text of ["Yes, cancel it.", "OK, thanks!", "Alright, sounds good."]) {
      const turn = await conversation.turn(text);
      expect(
        changes().map((r) => r.body.orderId),
        text,
      ).toEqual([ids.towel]);
      expect(turn.reply, text).toContain(`I couldn't read your answer as a yes or a no to the question about order ${ids.kettle}.`);
      expect(turn.reply, text).toContain(`To confirm, reply “yes ${ids.kettle}”`);
      expect(
        turn.confirmations.map((c) => c.orderId),
        text,
      ).toEqual([ids.kettle]);
    }
    expect(await service.order(ids.kettle)).toMatchObject({ status: "placed", version: 1 });
    const stored = (await store.forConversation("ack-after-button")).find((i) => i.orderId === ids.kettle);
    expect(stored).toMatchObject({ state: "awaiting_confirmation" });
    const confirmed = await conversation.turn(`Yes ${ids.kettle}`);
    expect(changes().map((r) => r.body.orderId)).toEqual([ids.towel, ids.kettle]);
    expect(confirmed.replyKind).toBe("confirmation");
    expect(await service.order(ids.kettle)).toMatchObject({ status: "cancelled" });
  });
});
