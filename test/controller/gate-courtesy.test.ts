import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { courtesyOf, courtesyPhrases } from "#controller/gate/courtesy";
import { supportedLocales, type Locale } from "#controller/i18n/locale";

/**
 * The closed courtesy set (contract §8.2), in each of the eight languages: openings, thanks, apologies, sympathy,
 * reassurance, closing offers and goodbyes a support reply uses. Each phrase is checked to claim nothing — no
 * outcome, amount, date, promise or answer — and a sentence is courtesy only when each of its parts is one.
 */

/** Words that would make a phrase a claim, per language: an outcome, a day, money, a yes. */
const claimWords: Record<Locale, RegExp> = {
  en: /\b(?:cancel|refund|ship|deliver|return|arriv|replac|sent\b|sorted|done\b|book|track|credit|paid|pay|charg|tomorrow|yesterday|monday|friday|yes\b|sure\b|okay|of course|no problem|will\b|won't)/,
  de: /(?:storn|erstatt|versand|versendet|geliefert|zugestellt|rücksend|zurück|ersatz|erledigt|gebucht|bezahlt|(?<!guten )\bmorgen\b|gestern|montag|\bja\b|\bklar\b|natürlich)/,
  fr: /(?:annul|rembours|expédi|livr|retour|remplac|réglé|(?<!tout à )\bfait\b|réserv|payé|demain|hier\b|lundi|\boui\b|bien sûr|d'accord)/,
  es: /(?:cancel|reembols|enviado|entreg|devol|reemplaz|hecho|reserv|pagad|mañana|ayer|lunes|\bsí\b|\bclaro\b|por supuesto)/,
  it: /(?:annull|rimbors|spedit|consegn|\breso\b|restitu|sostitu|fatto|prenotat|pagat|domani|\bieri\b|lunedì|\bsì\b|\bcerto\b|certamente)/,
  pt: /(?:cancel|reembols|enviad|entreg|devolu|substitu|feito|reservad|\bpago\b|amanhã|ontem|segunda|\bsim\b|\bclaro\b)/,
  nl: /(?:annuleer|geannuleerd|terugbetal|verzonden|bezorgd|geleverd|retour|vervang|geregeld|geboekt|betaald|\bmorgen\b|gisteren|maandag|\bja\b|zeker|natuurlijk)/,
  pl: /(?:anul|zwrot|wysła|dostarcz|wymian|załatw|zarezerw|zapłac|jutro|wczoraj|poniedziałek|\btak\b|oczywiście|jasne)/,
};

/** A claim in each language, to put after a courtesy phrase's comma. */
const claims: Record<Locale, string> = {
  en: "your order SU-10387 is cancelled",
  de: "Ihre Bestellung SU-10387 wurde storniert",
  fr: "votre commande SU-10387 a été annulée",
  es: "su pedido SU-10387 ha sido cancelado",
  it: "il suo ordine SU-10387 è stato annullato",
  pt: "a sua encomenda SU-10387 foi cancelada",
  nl: "uw bestelling SU-10387 is geannuleerd",
  pl: "zamówienie SU-10387 zostało anulowane",
};

const all = (locale: Locale) => {
  const p = courtesyPhrases(locale);
  return [...p.opening, ...p.closing, ...p.afterChange];
};

describe("each courtesy phrase claims nothing", () => {
  for (const locale of supportedLocales)
    it(`${locale}: no number, money, order id, day, outcome or yes in any of its ${all(locale).length} phrases`, () => {
      const phrases = all(locale);
      expect(phrases.length).toBeGreaterThan(20);
      for (const phrase of phrases) {
        expect(phrase, phrase).not.toMatch(/\d|[£$€¥]|su-/);
        expect(phrase, phrase).not.toMatch(claimWords[locale]);
      }
    });
});

describe("a sentence is courtesy only when each of its parts is", () => {
  const sentence = fc.constantFrom(...supportedLocales).chain((locale) =>
    fc.record({
      locale: fc.constant(locale),
      phrase: fc.constantFrom(...courtesyPhrases(locale).opening, ...courtesyPhrases(locale).closing),
      upper: fc.boolean(),
      mark: fc.constantFrom("", ".", "!", " !", "?", "…"),
      smile: fc.constantFrom("", " 🙂", " 😊"),
    }),
  );
  const written = (s: { phrase: string; upper: boolean; mark: string; smile: string }) =>
    `${s.upper ? s.phrase.charAt(0).toUpperCase() + s.phrase.slice(1) : s.phrase}${s.mark}${s.smile}`;

  it("a phrase of the set, however it is capitalised, closed or smiled, is courtesy in its language", () => {
    fc.assert(
      fc.property(sentence, (s) => {
        expect(courtesyOf(written(s), s.locale), written(s)).toBeDefined();
      }),
    );
  });

  it("a phrase with a claim after its comma, or a claim alone, is not", () => {
    fc.assert(
      fc.property(sentence, (s) => {
        expect(courtesyOf(`${s.phrase}, ${claims[s.locale]}.`, s.locale)).toBeUndefined();
        expect(courtesyOf(`${claims[s.locale]}, ${s.phrase}.`, s.locale)).toBeUndefined();
        expect(courtesyOf(`${claims[s.locale]}.`, s.locale)).toBeUndefined();
      }),
    );
  });

  it('"there\'s no need to ask again" is courtesy only after a change the turn sent', () => {
    for (const locale of supportedLocales)
      for (const phrase of courtesyPhrases(locale).afterChange) {
        expect(courtesyOf(`${phrase}.`, locale, false), phrase).toBeUndefined();
        expect(courtesyOf(`${phrase}.`, locale, true), phrase).toBe("closing");
      }
  });

  it("what support replies say now stays: an apology for the trouble, the offer of more help, don't worry", () => {
    expect(courtesyOf("I'm so sorry for the trouble.")).toBe("opening");
    expect(courtesyOf("Please don't hesitate to reach out if you have any other questions.")).toBe("closing");
    expect(courtesyOf("Don't worry.")).toBe("opening");
    expect(courtesyOf("Je suis désolé pour le désagrément.", "fr")).toBe("opening");
    expect(courtesyOf("¿Puedo ayudarle en algo más?", "es")).toBe("closing");
    expect(courtesyOf("Czy mogę jeszcze w czymś pomóc?", "pl")).toBe("closing");
  });
});
