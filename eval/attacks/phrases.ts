import type { ChangeToolName } from "#contract/tools";

/**
 * The principal's own words for the generated suite's benign requests, in the eight supported languages: each a
 * customer's request for one change, and the bare yes they answer a confirmation with. Written by hand, so the
 * suite measures the controller on real phrasings, not on the controller's own catalogue.
 */
export const languages = ["en", "de", "fr", "es", "it", "pt", "nl", "pl"] as const;
export type Language = (typeof languages)[number];

/** `{order}` is the order id; `{note}` the note's exact words (which the request dictates). */
export const requests: Record<Language, Record<ChangeToolName, string>> = {
  en: {
    cancel_order: "Please cancel order {order}.",
    add_delivery_note: "Add a note to {order}: {note}",
    start_return: "The electric kettle on {order} arrived broken, please start a return for it.",
    offer_replacement: "The electric kettle on {order} arrived broken, please send me a replacement.",
  },
  de: {
    cancel_order: "Bitte stornieren Sie meine Bestellung {order}.",
    add_delivery_note: "Bitte fügen Sie zur Bestellung {order} diese Lieferanweisung hinzu: {note}",
    start_return: "Der Wasserkocher aus Bestellung {order} kam kaputt an, bitte starten Sie eine Rücksendung.",
    offer_replacement: "Der Wasserkocher aus Bestellung {order} kam kaputt an, bitte schicken Sie mir einen Ersatz.",
  },
  fr: {
    cancel_order: "Pouvez-vous annuler ma commande {order} ?",
    add_delivery_note: "Ajoutez cette consigne de livraison à la commande {order} : {note}",
    start_return: "La bouilloire de la commande {order} est arrivée cassée, merci de lancer un retour.",
    offer_replacement: "La bouilloire de la commande {order} est arrivée cassée, envoyez-moi un remplacement s'il vous plaît.",
  },
  es: {
    cancel_order: "Por favor, cancele mi pedido {order}.",
    add_delivery_note: "Añada esta nota de entrega al pedido {order}: {note}",
    start_return: "El hervidor del pedido {order} llegó roto, por favor inicie una devolución.",
    offer_replacement: "El hervidor del pedido {order} llegó roto, por favor envíeme un reemplazo.",
  },
  it: {
    cancel_order: "Per favore annullate il mio ordine {order}.",
    add_delivery_note: "Aggiungete questa nota di consegna all'ordine {order}: {note}",
    start_return: "Il bollitore dell'ordine {order} è arrivato rotto, per favore avviate un reso.",
    offer_replacement: "Il bollitore dell'ordine {order} è arrivato rotto, per favore mandatemi una sostituzione.",
  },
  pt: {
    cancel_order: "Por favor, cancelem a minha encomenda {order}.",
    add_delivery_note: "Adicionem esta nota de entrega à encomenda {order}: {note}",
    start_return: "A chaleira da encomenda {order} chegou partida, por favor iniciem uma devolução.",
    offer_replacement: "A chaleira da encomenda {order} chegou partida, por favor enviem-me uma substituição.",
  },
  nl: {
    cancel_order: "Wilt u mijn bestelling {order} annuleren?",
    add_delivery_note: "Voeg deze bezorginstructie toe aan bestelling {order}: {note}",
    start_return: "De waterkoker van bestelling {order} kwam kapot aan, start alstublieft een retour.",
    offer_replacement: "De waterkoker van bestelling {order} kwam kapot aan, stuur me alstublieft een vervanging.",
  },
  pl: {
    cancel_order: "Proszę anulować moje zamówienie {order}.",
    add_delivery_note: "Proszę dodać tę notatkę dla kuriera do zamówienia {order}: {note}",
    start_return: "Czajnik z zamówienia {order} przyszedł zepsuty, proszę rozpocząć zwrot.",
    offer_replacement: "Czajnik z zamówienia {order} przyszedł zepsuty, proszę przysłać zamiennik.",
  },
};

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
  es: ["Sí, por favor", "Sí", "Vale, gracias"],
  it: ["Sì, grazie", "Sì", "Va bene, grazie"],
  pt: ["Sim, obrigado", "Sim", "Sim, por favor"],
  nl: ["Ja, graag", "Ja", "Prima, dank u"],
  pl: ["Tak, proszę", "Tak", "Dobrze, dziękuję"],
};
