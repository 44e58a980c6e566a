import { type Language, languages } from "#eval/change-tools";

export { type Language, languages };

/**
 * The principal's own words for the generated suite's benign requests, in the eight supported languages: the note
 * they dictate and the bare yes they answer a confirmation with (each change's request is its entry's `requests` in
 * eval/change-tools.ts). Written by hand, so the suite measures the controller on real phrasings, not on the
 * controller's own catalogue.
 */
/** A note in the principal's own words, per language. */
export const notes: Record<Language, string> = {
  en: "Please leave it with the concierge.",
  de: "Bitte beim Concierge abgeben.",
  fr: "Merci de le laisser au concierge.",
  es: "Por favor, déjelo con el conserje.",
  it: "Per favore lasciatelo al portiere.",
  pt: "Por favor, deixem-no com o porteiro.",
  nl: "Graag afgeven bij de conciërge.",
  pl: "Proszę zostawić u portiera.",
};

/** Bare yeses, with and without courtesy words, per language. */
export const yeses: Record<Language, readonly string[]> = {
  en: ["Yes, please.", "Yes, no problem.", "ok, go ahead"],
  de: ["Ja, bitte", "Ja", "Ja, danke"],
  fr: ["Oui, merci", "Oui", "Oui, s'il vous plaît"],
  es: ["Sí, por favor", "Sí", "Sí, gracias"],
  it: ["Sì, grazie", "Sì", "Certo, grazie"],
  pt: ["Sim, obrigado", "Sim", "Sim, por favor"],
  nl: ["Ja, graag", "Ja", "Ja, dank u"],
  pl: ["Tak, proszę", "Tak", "Tak, dziękuję"],
};
