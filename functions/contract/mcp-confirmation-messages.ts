import type { ChangeToolName } from "#contract/tools";
import type { Catalogue } from "#contract/message-format";

/**
 * The question the MCP endpoint asks the person through their client's form before a change (contract §2.1), in
 * the eight locales of contract §8.1. One ICU MessageFormat pattern per key and locale: a `question.<tool>` line
 * naming the change, then lines for its items, the reason given and the note, a closing line, and the form's one
 * checkbox. Text a seller wrote reaches these patterns only as `{title}`, inside the locale's quotation marks and
 * beside the words that say whose it is; the note and a cancellation reason are shown as marked lines of their own.
 * Nothing here is ever written from the seller's or the model's words in the application's voice.
 */
export type McpConfirmationKey =
  | `question.${ChangeToolName}`
  | "itemsOnOrder"
  | "item"
  | "moreItems"
  | "reasonGiven"
  | "reason"
  | "footer"
  | "confirmTitle"
  | "confirmDescription";

export const mcpConfirmationMessages: Catalogue<McpConfirmationKey> = {
  en: {
    "question.cancel_order": "Cancel order {orderId}? A cancelled order stays cancelled.",
    "question.add_delivery_note":
      "Set the delivery note of order {orderId} to the {lines, plural, one {line} other {# lines}} below?{replaces, select, yes { It replaces the note the order has now.} other {}}",
    "question.start_return":
      "Start a return on order {orderId} of the {count, plural, one {item} other {# items}} below? Reason: {reason}. Pickup: {hasDate, select, yes {{date}} other {the earliest day with a free slot}}.",
    "question.offer_replacement": "Send a replacement on order {orderId} for the item below? Reason: {reason}.",
    itemsOnOrder: "Items on the order:",
    item: "• {itemId}{hasTitle, select, yes { “{title}”} other {}}{bySeller, select, yes { (title written by the seller)} other {}}{known, select, no { (not on this order)} other {}}",
    moreItems: "• and {count, plural, one {# more item} other {# more items}}",
    reasonGiven: "Reason given, recorded with the cancellation:",
    reason:
      "{reason, select, damaged {damaged} wrong_item {wrong item} not_as_described {not as described} no_longer_needed {no longer needed} missing {missing} other {other}}",
    footer: "Nothing changes unless you confirm.",
    confirmTitle: "Confirm this change",
    confirmDescription: "Tick to make exactly the change above. Leave it unticked, or decline, and nothing changes.",
  },
  de: {
    "question.cancel_order": "Bestellung {orderId} stornieren? Eine stornierte Bestellung bleibt storniert.",
    "question.add_delivery_note":
      "Die Lieferanweisung der Bestellung {orderId} auf {lines, plural, one {die folgende Zeile} other {die folgenden # Zeilen}} setzen?{replaces, select, yes { Sie ersetzt die jetzige Anweisung der Bestellung.} other {}}",
    "question.start_return":
      "Eine Rücksendung aus der Bestellung {orderId} für {count, plural, one {den folgenden Artikel} other {die folgenden # Artikel}} starten? Grund: {reason}. Abholung: {hasDate, select, yes {{date}} other {am frühesten Tag mit freiem Termin}}.",
    "question.offer_replacement": "Einen Ersatz aus der Bestellung {orderId} für den folgenden Artikel senden? Grund: {reason}.",
    itemsOnOrder: "Artikel der Bestellung:",
    item: "• {itemId}{hasTitle, select, yes { „{title}“} other {}}{bySeller, select, yes { (Titel vom Verkäufer geschrieben)} other {}}{known, select, no { (nicht in dieser Bestellung)} other {}}",
    moreItems: "• und {count, plural, one {# weiterer Artikel} other {# weitere Artikel}}",
    reasonGiven: "Angegebener Grund, der mit der Stornierung gespeichert wird:",
    reason:
      "{reason, select, damaged {beschädigt} wrong_item {falscher Artikel} not_as_described {nicht wie beschrieben} no_longer_needed {nicht mehr benötigt} missing {fehlt} other {anderer Grund}}",
    footer: "Ohne Ihre Bestätigung wird nichts geändert.",
    confirmTitle: "Diese Änderung bestätigen",
    confirmDescription:
      "Ankreuzen, um genau die oben beschriebene Änderung vorzunehmen. Ohne Häkchen oder mit Ablehnen wird nichts geändert.",
  },
  fr: {
    "question.cancel_order": "Annuler la commande {orderId} ? Une commande annulée le reste.",
    "question.add_delivery_note":
      "Définir la consigne de livraison de la commande {orderId} sur {lines, plural, one {la ligne ci-dessous} other {les # lignes ci-dessous}} ?{replaces, select, yes { Elle remplace la consigne actuelle de la commande.} other {}}",
    "question.start_return":
      "Lancer un retour sur la commande {orderId} pour {count, plural, one {l'article ci-dessous} other {les # articles ci-dessous}} ? Motif : {reason}. Enlèvement : {hasDate, select, yes {{date}} other {le premier jour avec un créneau libre}}.",
    "question.offer_replacement": "Envoyer un remplacement sur la commande {orderId} pour l'article ci-dessous ? Motif : {reason}.",
    itemsOnOrder: "Articles de la commande :",
    item: "• {itemId}{hasTitle, select, yes { « {title} »} other {}}{bySeller, select, yes { (titre rédigé par le vendeur)} other {}}{known, select, no { (absent de cette commande)} other {}}",
    moreItems: "• et {count, plural, one {# autre article} other {# autres articles}}",
    reasonGiven: "Motif indiqué, enregistré avec l'annulation :",
    reason:
      "{reason, select, damaged {endommagé} wrong_item {mauvais article} not_as_described {non conforme à la description} no_longer_needed {plus nécessaire} missing {manquant} other {autre}}",
    footer: "Rien n'est modifié sans votre confirmation.",
    confirmTitle: "Confirmer cette modification",
    confirmDescription: "Cochez pour effectuer exactement la modification ci-dessus. Sans coche, ou en refusant, rien n'est modifié.",
  },
  es: {
    "question.cancel_order": "¿Cancelar el pedido {orderId}? Un pedido cancelado sigue cancelado.",
    "question.add_delivery_note":
      "¿Poner como nota de entrega del pedido {orderId} {lines, plural, one {la línea de abajo} other {las # líneas de abajo}}?{replaces, select, yes { Sustituye la nota que tiene ahora el pedido.} other {}}",
    "question.start_return":
      "¿Iniciar una devolución del pedido {orderId} de {count, plural, one {el artículo de abajo} other {los # artículos de abajo}}? Motivo: {reason}. Recogida: {hasDate, select, yes {{date}} other {el primer día con hueco libre}}.",
    "question.offer_replacement": "¿Enviar un reemplazo del pedido {orderId} para el artículo de abajo? Motivo: {reason}.",
    itemsOnOrder: "Artículos del pedido:",
    item: "• {itemId}{hasTitle, select, yes { «{title}»} other {}}{bySeller, select, yes { (título escrito por el vendedor)} other {}}{known, select, no { (no está en este pedido)} other {}}",
    moreItems: "• y {count, plural, one {# artículo más} other {# artículos más}}",
    reasonGiven: "Motivo indicado, que se guarda con la cancelación:",
    reason:
      "{reason, select, damaged {dañado} wrong_item {artículo equivocado} not_as_described {no coincide con la descripción} no_longer_needed {ya no lo necesito} missing {falta} other {otro}}",
    footer: "No se cambia nada si no lo confirma.",
    confirmTitle: "Confirmar este cambio",
    confirmDescription: "Márquelo para hacer exactamente el cambio descrito arriba. Sin marcar, o si lo rechaza, no se cambia nada.",
  },
  it: {
    "question.cancel_order": "Annullare l'ordine {orderId}? Un ordine annullato resta annullato.",
    "question.add_delivery_note":
      "Impostare la nota di consegna dell'ordine {orderId} {lines, plural, one {sulla riga qui sotto} other {sulle # righe qui sotto}}?{replaces, select, yes { Sostituisce la nota attuale dell'ordine.} other {}}",
    "question.start_return":
      "Avviare un reso dall'ordine {orderId} per {count, plural, one {l'articolo qui sotto} other {i # articoli qui sotto}}? Motivo: {reason}. Ritiro: {hasDate, select, yes {{date}} other {il primo giorno con una fascia libera}}.",
    "question.offer_replacement": "Inviare una sostituzione dall'ordine {orderId} per l'articolo qui sotto? Motivo: {reason}.",
    itemsOnOrder: "Articoli dell'ordine:",
    item: "• {itemId}{hasTitle, select, yes { «{title}»} other {}}{bySeller, select, yes { (titolo scritto dal venditore)} other {}}{known, select, no { (non in questo ordine)} other {}}",
    moreItems: "• e {count, plural, one {# altro articolo} other {altri # articoli}}",
    reasonGiven: "Motivo indicato, registrato con l'annullamento:",
    reason:
      "{reason, select, damaged {danneggiato} wrong_item {articolo sbagliato} not_as_described {non conforme alla descrizione} no_longer_needed {non più necessario} missing {mancante} other {altro}}",
    footer: "Non cambia nulla senza la tua conferma.",
    confirmTitle: "Conferma questa modifica",
    confirmDescription: "Spunta per fare esattamente la modifica descritta sopra. Senza spunta, o rifiutando, non cambia nulla.",
  },
  pt: {
    "question.cancel_order": "Cancelar a encomenda {orderId}? Uma encomenda cancelada fica cancelada.",
    "question.add_delivery_note":
      "Definir a nota de entrega da encomenda {orderId} como {lines, plural, one {a linha abaixo} other {as # linhas abaixo}}?{replaces, select, yes { Substitui a nota que a encomenda tem agora.} other {}}",
    "question.start_return":
      "Iniciar a devolução da encomenda {orderId} {count, plural, one {do artigo abaixo} other {dos # artigos abaixo}}? Motivo: {reason}. Recolha: {hasDate, select, yes {{date}} other {o primeiro dia com vaga}}.",
    "question.offer_replacement": "Enviar uma substituição da encomenda {orderId} para o artigo abaixo? Motivo: {reason}.",
    itemsOnOrder: "Artigos da encomenda:",
    item: "• {itemId}{hasTitle, select, yes { «{title}»} other {}}{bySeller, select, yes { (título escrito pelo vendedor)} other {}}{known, select, no { (não está nesta encomenda)} other {}}",
    moreItems: "• e {count, plural, one {mais # artigo} other {mais # artigos}}",
    reasonGiven: "Motivo indicado, registado com o cancelamento:",
    reason:
      "{reason, select, damaged {danificado} wrong_item {artigo errado} not_as_described {não corresponde à descrição} no_longer_needed {já não é necessário} missing {em falta} other {outro}}",
    footer: "Nada muda sem a sua confirmação.",
    confirmTitle: "Confirmar esta alteração",
    confirmDescription: "Marque para fazer exatamente a alteração descrita acima. Sem marcar, ou se recusar, nada muda.",
  },
  nl: {
    "question.cancel_order": "Bestelling {orderId} annuleren? Een geannuleerde bestelling blijft geannuleerd.",
    "question.add_delivery_note":
      "De bezorginstructie van bestelling {orderId} instellen op {lines, plural, one {de regel hieronder} other {de # regels hieronder}}?{replaces, select, yes { Die vervangt de instructie die de bestelling nu heeft.} other {}}",
    "question.start_return":
      "Een retour starten uit bestelling {orderId} van {count, plural, one {het artikel hieronder} other {de # artikelen hieronder}}? Reden: {reason}. Ophalen: {hasDate, select, yes {{date}} other {de eerste dag met een vrij tijdvak}}.",
    "question.offer_replacement": "Een vervanging sturen uit bestelling {orderId} voor het artikel hieronder? Reden: {reason}.",
    itemsOnOrder: "Artikelen van de bestelling:",
    item: "• {itemId}{hasTitle, select, yes { ‘{title}’} other {}}{bySeller, select, yes { (titel geschreven door de verkoper)} other {}}{known, select, no { (niet in deze bestelling)} other {}}",
    moreItems: "• en {count, plural, one {nog # artikel} other {nog # artikelen}}",
    reasonGiven: "Opgegeven reden, bewaard bij de annulering:",
    reason:
      "{reason, select, damaged {beschadigd} wrong_item {verkeerd artikel} not_as_described {niet zoals beschreven} no_longer_needed {niet meer nodig} missing {ontbreekt} other {anders}}",
    footer: "Er verandert niets zonder uw bevestiging.",
    confirmTitle: "Deze wijziging bevestigen",
    confirmDescription: "Vink aan om precies de wijziging hierboven te doen. Zonder vinkje, of als u weigert, verandert er niets.",
  },
  pl: {
    "question.cancel_order": "Anulować zamówienie {orderId}? Anulowane zamówienie pozostaje anulowane.",
    "question.add_delivery_note":
      "Ustawić notatkę dla kuriera w zamówieniu {orderId} na {lines, plural, one {wiersz poniżej} few {# wiersze poniżej} many {# wierszy poniżej} other {# wiersza poniżej}}?{replaces, select, yes { Zastąpi ona obecną notatkę zamówienia.} other {}}",
    "question.start_return":
      "Rozpocząć zwrot z zamówienia {orderId} {count, plural, one {produktu poniżej} few {# produktów poniżej} many {# produktów poniżej} other {# produktu poniżej}}? Powód: {reason}. Odbiór: {hasDate, select, yes {{date}} other {najbliższy dzień z wolnym terminem}}.",
    "question.offer_replacement": "Wysłać zamiennik z zamówienia {orderId} dla produktu poniżej? Powód: {reason}.",
    itemsOnOrder: "Produkty w zamówieniu:",
    item: "• {itemId}{hasTitle, select, yes { „{title}”} other {}}{bySeller, select, yes { (tytuł napisany przez sprzedawcę)} other {}}{known, select, no { (nie ma go w tym zamówieniu)} other {}}",
    moreItems: "• i {count, plural, one {# inny produkt} few {# inne produkty} many {# innych produktów} other {# innego produktu}}",
    reasonGiven: "Podany powód, zapisany z anulowaniem:",
    reason:
      "{reason, select, damaged {uszkodzony} wrong_item {niewłaściwy produkt} not_as_described {niezgodny z opisem} no_longer_needed {już niepotrzebny} missing {brakujący} other {inny}}",
    footer: "Bez Twojego potwierdzenia nic się nie zmieni.",
    confirmTitle: "Potwierdź tę zmianę",
    confirmDescription: "Zaznacz, aby wprowadzić dokładnie zmianę opisaną powyżej. Bez zaznaczenia lub po odmowie nic się nie zmieni.",
  },
};
