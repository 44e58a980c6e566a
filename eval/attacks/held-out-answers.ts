import { type AnswerCorpus, answerFigures } from "#eval/attacks/plain-answers";

/**
 * The held-out answer corpus (contract §8.5, "answers in the principal's words"): how people answer "Shall I cancel
 * order SU-10234? Reply yes to confirm." in each language, written BEFORE the controller's catalogue
 * (i18n/answers.ts) or the plain-answer corpus was read. It measures the catalogue and must never be tuned against:
 * a later change to the reading is measured on it, never fitted to it, and no string here is edited to pass.
 * Twelve affirmatives and five acknowledgements per language; at least 90 % of the affirmatives must confirm at the
 * first answer, and no acknowledgement may.
 */
export const heldOutAnswers: AnswerCorpus = {
  en: {
    affirmatives: [
      "yes",
      "Yes please",
      "yeah go ahead",
      "yes, cancel it",
      "Yep, do it",
      "sure, go ahead",
      "Yes, that's correct",
      "yes I confirm",
      "Confirmed",
      "yes please cancel it",
      "Absolutely, yes",
      "yes, please go ahead and cancel it",
    ],
    acknowledgements: ["ok thanks", "thank you", "perfect", "great, thanks", "cool, thanks"],
  },
  de: {
    affirmatives: [
      "Ja",
      "Ja, bitte",
      "Ja, stornieren",
      "Ja, bitte stornieren",
      "Jawohl",
      "Ja genau",
      "Ja, mach das",
      "Ja, gerne",
      "Ja, ich bestätige",
      "Ja, das ist richtig",
      "Ja, storniere sie bitte",
      "Ja, bitte machen Sie das",
    ],
    acknowledgements: ["ok danke", "Danke", "Perfekt", "Super, danke", "Alles klar, danke"],
  },
  fr: {
    affirmatives: [
      "Oui",
      "Oui, s'il vous plaît",
      "Oui, annulez-la",
      "Oui, vas-y",
      "Oui, je confirme",
      "Oui, c'est ça",
      "Oui, exactement",
      "Oui, annule-la",
      "Oui merci, annulez",
      "Bien sûr, oui",
      "Oui, allez-y",
      "Oui, c'est bien ça",
    ],
    acknowledgements: ["ok merci", "Merci", "Parfait", "Super, merci", "D'accord, merci"],
  },
  es: {
    affirmatives: [
      "Sí",
      "Sí, por favor",
      "Sí, cancélala",
      "Sí, adelante",
      "Sí, confirmo",
      "Sí, correcto",
      "Claro, sí",
      "Sí, hazlo",
      "Sí, cancela el pedido",
      "Exacto, sí",
      "Sí, anúlalo por favor",
      "Sí, así es",
    ],
    acknowledgements: ["vale, gracias", "Gracias", "Perfecto", "Genial, gracias", "Muy bien, gracias"],
  },
  it: {
    affirmatives: [
      "Sì",
      "Sì, per favore",
      "Sì, procedi",
      "Sì, confermo",
      "Sì, esatto",
      "Sì, annulla l'ordine",
      "Certo, sì",
      "Sì, fallo pure",
      "Sì, annullala",
      "Sì, è corretto",
      "Sì, vai pure",
      "Sì, lo confermo",
    ],
    acknowledgements: ["ok grazie", "Grazie", "Perfetto", "Ottimo, grazie", "Va bene, grazie"],
  },
  pt: {
    affirmatives: [
      "Sim",
      "Sim, por favor",
      "Sim, pode cancelar",
      "Sim, cancele-o",
      "Sim, confirmo",
      "Sim, isso mesmo",
      "Sim, correto",
      "Claro, sim",
      "Sim, pode seguir",
      "Sim, cancela",
      "Sim, exatamente",
      "Sim, faça isso",
    ],
    acknowledgements: ["ok obrigado", "Obrigada", "Perfeito", "Ótimo, obrigado", "Beleza, valeu"],
  },
  nl: {
    affirmatives: [
      "Ja",
      "Ja graag",
      "Ja, annuleer het maar",
      "Ja, doe maar",
      "Ja, dat klopt",
      "Ja, bevestigd",
      "Ja hoor",
      "Ja, ga je gang",
      "Ja, annuleren graag",
      "Klopt, ja",
      "Ja, precies",
      "Ja, ik bevestig het",
    ],
    acknowledgements: ["ok bedankt", "Dank je", "Perfect", "Top, dankjewel", "Prima, bedankt"],
  },
  pl: {
    affirmatives: [
      "Tak",
      "Tak, proszę",
      "Tak, anuluj",
      "Tak, anuluj je",
      "Tak, potwierdzam",
      "Tak, dokładnie",
      "Tak, zrób to",
      "Tak, śmiało",
      "Tak, poproszę",
      "Oczywiście, tak",
      "Tak, proszę anulować",
      "Tak, to się zgadza",
    ],
    acknowledgements: ["ok dzięki", "Dziękuję", "Super", "Świetnie, dzięki", "Dobrze, dziękuję"],
  },
};

/** The held-out corpus's figures, read as the plain-answer corpus's are. */
export const heldOutAnswerFigures = () => answerFigures(heldOutAnswers);
