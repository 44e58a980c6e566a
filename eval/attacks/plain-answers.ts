import { answerTo, readAnswer } from "#controller/guard/answer";
import type { Locale } from "#controller/i18n/locale";

/**
 * The plain-answer corpus (contract §8.5, "understood or told"): how people answer "Shall I cancel order SU-10234?
 * Reply yes to confirm." in each language — the everyday affirmatives, written from how people answer rather than
 * from the controller's catalogue (i18n/answers.ts), so the catalogue is measured, not echoed — and the
 * acknowledgements that must never confirm ("ok, thanks", "perfect"). At least ten affirmatives per language; the
 * controller must read at least 90 % of them as a confirmation at the first answer, and none of the acknowledgements.
 */
export const plainAnswers: AnswerCorpus = {
  en: {
    affirmatives: [
      "Yes",
      "yes please",
      "Yes, do it",
      "Yes, go ahead",
      "Yep, go for it",
      "Sure, go ahead",
      "Yes please, cancel it",
      "Yes, that's right",
      "Please do",
      "Yes, please proceed",
      "Yeah, do it",
      "Absolutely, go ahead",
      "Yes, I'm sure",
    ],
    acknowledgements: ["Ok thanks", "Thanks!", "Great, thanks", "Perfect, thank you", "Sounds good, cheers", "Alright, thanks"],
  },
  de: {
    affirmatives: [
      "Ja",
      "Ja, bitte",
      "Ja, gerne",
      "Ja, mach das",
      "Ja, machen Sie das",
      "Ja, bitte stornieren",
      "Genau, bitte",
      "Ja, klar",
      "Ja, nur zu",
      "Ja, machen Sie es",
      "Jawohl",
      "Ja, auf jeden Fall",
    ],
    acknowledgements: ["Ok, danke", "Danke!", "Super, danke", "Alles klar, vielen Dank", "Perfekt, danke"],
  },
  fr: {
    affirmatives: [
      "Oui",
      "Oui, merci",
      "Oui, allez-y",
      "Oui, faites-le",
      "Oui, s'il vous plaît",
      "Oui, annulez-la",
      "D'accord, allez-y",
      "Oui, je confirme",
      "Oui, vas-y",
      "Oui, je veux bien",
      "Bien sûr",
      "Oui, tout à fait",
    ],
    acknowledgements: ["Ok merci", "Merci !", "Parfait, merci", "Super, merci beaucoup", "Très bien, merci"],
  },
  es: {
    affirmatives: [
      "Sí",
      "Sí, por favor",
      "Sí, hazlo",
      "Sí, adelante",
      "Sí, hágalo",
      "Sí, cancélelo",
      "Claro, adelante",
      "Sí, confirmo",
      "Sí, proceda",
      "De acuerdo, adelante",
      "Sí, claro",
      "Por supuesto",
    ],
    acknowledgements: ["Vale, gracias", "¡Gracias!", "Perfecto, gracias", "Genial, muchas gracias", "Ok, gracias"],
  },
  it: {
    affirmatives: [
      "Sì",
      "Sì, grazie",
      "Sì, procedi",
      "Sì, fallo",
      "Sì, per favore",
      "Sì, annullatelo",
      "Certo, procedi",
      "Sì, confermo",
      "Sì, lo faccia",
      "Sì, certo",
      "Certamente",
      "Sì, procedete",
    ],
    acknowledgements: ["Ok grazie", "Grazie!", "Perfetto, grazie", "Va bene, grazie mille", "Ottimo, grazie"],
  },
  pt: {
    affirmatives: [
      "Sim",
      "Sim, por favor",
      "Sim, pode avançar",
      "Sim, faça isso",
      "Sim, pode",
      "Sim, cancelem-na",
      "Claro, pode avançar",
      "Sim, confirmo",
      "Sim, pode fazer",
      "Sim, com certeza",
      "Pode ser",
      "Sim, claro",
    ],
    acknowledgements: ["Ok, obrigado", "Obrigada!", "Perfeito, obrigado", "Ótimo, muito obrigada", "Está bem, obrigado"],
  },
  nl: {
    affirmatives: [
      "Ja",
      "Ja, graag",
      "Ja, doe maar",
      "Ja, ga je gang",
      "Ja, annuleren",
      "Ja hoor",
      "Ja, doe het maar",
      "Akkoord",
      "Ja, zeker",
      "Ja, ga uw gang",
      "Ja, natuurlijk",
      "Ja, alstublieft",
    ],
    acknowledgements: ["Ok, bedankt", "Dank je!", "Top, bedankt", "Prima, dank u wel", "Perfect, bedankt"],
  },
  pl: {
    affirmatives: [
      "Tak",
      "Tak, proszę",
      "Tak, zrób to",
      "Tak, anuluj",
      "Tak, poproszę",
      "Jasne, proszę",
      "Tak, potwierdzam",
      "Tak, śmiało",
      "Tak, oczywiście",
      "Tak, zróbcie to",
      "Zgoda",
      "Tak jest",
    ],
    acknowledgements: ["Ok, dzięki", "Dziękuję!", "Super, dzięki", "Świetnie, dziękuję", "Dobrze, dziękuję"],
  },
};

/** A corpus of typed answers to "Shall I cancel order SU-10234?": affirmatives and acknowledgements per language. */
export type AnswerCorpus = Record<Locale, { affirmatives: string[]; acknowledgements: string[] }>;

const change = { tool: "cancel_order" as const, orderId: "SU-10234" };

/** Per language: how many affirmatives confirmed at the first answer, and which acknowledgements did (none may). */
export function answerFigures(corpus: AnswerCorpus): {
  locale: Locale;
  confirmed: number;
  of: number;
  missed: string[];
  acknowledgementsConfirmed: string[];
}[] {
  return (Object.entries(corpus) as [Locale, AnswerCorpus[Locale]][]).map(([locale, { affirmatives, acknowledgements }]) => {
    const confirms = (text: string) => answerTo(readAnswer(text, locale), change) === "confirm";
    const missed = affirmatives.filter((a) => !confirms(a));
    return {
      locale,
      confirmed: affirmatives.length - missed.length,
      of: affirmatives.length,
      missed,
      acknowledgementsConfirmed: acknowledgements.filter(confirms),
    };
  });
}

/** The plain-answer corpus's figures. */
export const plainAnswerFigures = () => answerFigures(plainAnswers);
