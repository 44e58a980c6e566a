import type { Locale } from "#controller/i18n/locale";

/**
 * What a person's question about an order asks, per locale (contract §8.2): the words and phrases that say which
 * part of the order the question is about. gate/asked.ts reads a message with these and nothing else, whole words
 * only, longest phrase first (so "when was it delivered" is the delivery day, not "where is it"). A message with
 * none of them asks where the order is.
 *
 * - `where`: where it is, when it comes (its status, and its tracking while it travels);
 * - `track`: how to follow it (its carrier and tracking number, whatever its status);
 * - `what`: what was ordered (its items);
 * - `paid`: what it cost (its amounts);
 * - `return`: whether it can still go back (its return window and any return started);
 * - `delivered`: whether and when it arrived (its status and delivery day);
 * - `placed`: when it was ordered;
 * - `note`: the delivery note;
 * - `options`: what can still be done with it (the changes the service allows now).
 */
export type Topic = "where" | "track" | "what" | "paid" | "return" | "delivered" | "placed" | "note" | "options";

export const questionWords: Readonly<Record<Locale, Readonly<Record<Topic, readonly string[]>>>> = {
  en: {
    where: ["where", "status", "on its way", "on the way", "when will", "arrive", "arriving", "coming", "eta", "shipped", "dispatched"],
    track: ["track", "tracking", "tracking number", "carrier", "courier"],
    what: [
      "what did i order",
      "what did i buy",
      "what's in",
      "what is in",
      "what was in",
      "which items",
      "what items",
      "items",
      "item",
      "contents",
      "what i ordered",
      "what i bought",
    ],
    paid: ["how much", "cost", "costs", "paid", "pay", "price", "total", "charged", "charges", "spent", "amount"],
    return: ["return", "returns", "returnable", "send it back", "send back", "take it back", "refund"],
    delivered: ["delivered", "when did it arrive", "did it arrive", "has it arrived", "arrived", "delivery date", "when did it come"],
    placed: ["when did i order", "when did i place", "order date", "ordered on", "placed"],
    note: ["note", "delivery note", "instructions", "instruction"],
    options: ["what can i do", "what can you do", "what are my options", "options", "can i still", "can it still"],
  },
  de: {
    where: ["wo", "status", "unterwegs", "wann kommt", "ankommen", "kommt", "versendet", "verschickt"],
    track: ["sendungsverfolgung", "verfolgen", "sendungsnummer", "zusteller"],
    what: ["was habe ich bestellt", "was habe ich gekauft", "was ist in", "welche artikel", "artikel", "inhalt", "bestellt", "gekauft"],
    paid: ["wie viel", "wieviel", "kosten", "kostet", "gekostet", "bezahlt", "preis", "betrag", "summe", "gesamt"],
    return: ["zurückgeben", "zurückschicken", "zurücksenden", "rücksendung", "retoure", "rückgabe", "umtauschen"],
    delivered: ["geliefert", "zugestellt", "angekommen", "wann kam", "lieferdatum"],
    placed: ["wann habe ich bestellt", "bestelldatum", "aufgegeben"],
    note: ["notiz", "lieferanweisung", "hinweis", "anweisung"],
    options: ["was kann ich tun", "was können sie tun", "möglichkeiten", "optionen", "kann ich noch"],
  },
  fr: {
    where: ["où", "statut", "en route", "en chemin", "quand arrive", "arrivera", "expédiée", "expédié"],
    track: ["suivi", "suivre", "numéro de suivi", "transporteur"],
    what: [
      "qu'ai-je commandé",
      "qu'est-ce que j'ai commandé",
      "qu'y a-t-il dans",
      "quels articles",
      "articles",
      "article",
      "contenu",
      "contient",
    ],
    paid: ["combien", "coût", "coûté", "payé", "prix", "montant", "total"],
    return: ["retourner", "retour", "renvoyer", "rembourser", "remboursement"],
    delivered: ["livrée", "livré", "arrivée", "arrivé", "date de livraison"],
    placed: ["quand ai-je commandé", "date de commande", "passée"],
    note: ["note", "instructions", "instruction", "consigne"],
    options: ["que puis-je faire", "que pouvez-vous faire", "options", "possibilités", "puis-je encore"],
  },
  es: {
    where: ["dónde", "donde", "estado", "en camino", "cuándo llega", "cuando llega", "llegará", "enviado"],
    track: ["seguimiento", "número de seguimiento", "transportista"],
    what: ["qué pedí", "que pedi", "qué compré", "qué hay en", "qué artículos", "artículos", "artículo", "contenido", "contiene"],
    paid: ["cuánto", "cuanto", "costó", "cuesta", "pagué", "pagado", "precio", "importe", "total"],
    return: ["devolver", "devolución", "devolverlo", "devolverla", "reembolso"],
    delivered: ["entregado", "entregada", "llegó", "fecha de entrega"],
    placed: ["cuándo hice el pedido", "cuándo pedí", "fecha del pedido", "realizado"],
    note: ["nota", "instrucciones", "instrucción"],
    options: ["qué puedo hacer", "qué pueden hacer", "opciones", "todavía puedo", "aún puedo"],
  },
  it: {
    where: ["dove", "stato", "in arrivo", "quando arriva", "arriverà", "spedito"],
    track: ["tracciamento", "tracking", "numero di tracciamento", "corriere"],
    what: ["cosa ho ordinato", "cosa ho comprato", "cosa c'è in", "quali articoli", "articoli", "articolo", "contenuto", "contiene"],
    paid: ["quanto", "costo", "costato", "pagato", "prezzo", "importo", "totale"],
    return: ["restituire", "reso", "rendere", "rimborso", "restituirlo", "restituirla"],
    delivered: ["consegnato", "consegnata", "arrivato", "arrivata", "data di consegna"],
    placed: ["quando ho ordinato", "data dell'ordine", "effettuato"],
    note: ["nota", "istruzioni", "istruzione"],
    options: ["cosa posso fare", "cosa potete fare", "opzioni", "possibilità", "posso ancora"],
  },
  pt: {
    where: ["onde", "estado", "a caminho", "quando chega", "chegará", "enviada", "expedida"],
    track: ["rastreio", "rastrear", "código de rastreio", "transportadora"],
    what: ["o que encomendei", "o que comprei", "o que tem", "quais artigos", "artigos", "artigo", "conteúdo", "contém"],
    paid: ["quanto", "custo", "custou", "paguei", "pago", "preço", "valor", "total"],
    return: ["devolver", "devolução", "devolvê-la", "devolvê-lo", "reembolso"],
    delivered: ["entregue", "chegou", "data de entrega"],
    placed: ["quando encomendei", "data da encomenda"],
    note: ["nota", "instruções", "instrução"],
    options: ["o que posso fazer", "o que podem fazer", "opções", "ainda posso"],
  },
  nl: {
    where: ["waar", "status", "onderweg", "wanneer komt", "aankomen", "komt", "verzonden"],
    track: ["volgen", "track", "trackingnummer", "track-and-trace", "vervoerder"],
    what: ["wat heb ik besteld", "wat heb ik gekocht", "wat zit er in", "welke artikelen", "artikelen", "artikel", "inhoud"],
    paid: ["hoeveel", "kosten", "kostte", "betaald", "prijs", "bedrag", "totaal"],
    return: ["retourneren", "retour", "terugsturen", "terugbrengen", "terugbetaling"],
    delivered: ["bezorgd", "geleverd", "aangekomen", "bezorgdatum", "leverdatum"],
    placed: ["wanneer heb ik besteld", "besteldatum", "geplaatst"],
    note: ["notitie", "bezorginstructie", "instructie", "instructies"],
    options: ["wat kan ik doen", "wat kunnen jullie doen", "opties", "mogelijkheden", "kan ik nog"],
  },
  pl: {
    where: ["gdzie", "status", "w drodze", "kiedy dotrze", "kiedy przyjdzie", "dotrze", "wysłane", "wysłana"],
    track: ["śledzenie", "śledzić", "numer przesyłki", "przewoźnik"],
    what: ["co zamówiłem", "co zamówiłam", "co kupiłem", "co kupiłam", "co jest w", "jakie produkty", "produkty", "produkt", "zawartość"],
    paid: ["ile", "koszt", "kosztowało", "kosztowała", "zapłaciłem", "zapłaciłam", "cena", "kwota", "suma"],
    return: ["zwrócić", "zwrot", "oddać", "odesłać", "zwrotu"],
    delivered: ["dostarczone", "dostarczona", "doręczone", "dotarło", "dotarła", "data dostawy"],
    placed: ["kiedy zamówiłem", "kiedy zamówiłam", "data zamówienia", "złożone"],
    note: ["notatka", "notatkę", "notatki", "notatce", "instrukcja", "instrukcję", "instrukcje", "instrukcji"],
    options: ["co mogę zrobić", "co możecie zrobić", "opcje", "możliwości", "czy mogę jeszcze"],
  },
};
