import type { ChangeToolName, ToolName } from "#contract/tools";
import type { Catalogue } from "#controller/i18n/format";

/**
 * The status sentences the response gate shows (contract §8.2), in every locale the controller speaks: what a
 * recorded outcome lets the application say, in the principal's language. ICU MessageFormat: selects for what a
 * record may or may not carry (a pickup window, a label), plurals for counts. Order ids, item ids, dates and
 * windows are values, rendered as the record holds them.
 *
 * `action.*` is how a change is named inside another sentence: a verb phrase in English ("cancel" order X), a noun
 * phrase elsewhere, and each language's sentences are built around its own form. The keys are made from the
 * registry's tool names, so a new tool does not compile until every locale has its `action.*` (and, for a
 * change, its `completed.*` and `possible.*`) sentence.
 *
 * `fact.*` are the facts of an order the reply tells (gate/facts.ts): its status, dates, tracking, items, charges,
 * return window, a return on it, its delivery note and what can still be done, each rendered from what a read or a
 * change of the turn recorded. Values a seller wrote (titles, a seller's name) arrive cut to their bound and are
 * said to be the seller's words; amounts arrive formatted for the locale.
 */
export type GateMessageKey =
  | `completed.${ChangeToolName}`
  | "completed.other"
  | `action.${ToolName}`
  | "rejected.ALREADY_SHIPPED"
  | "rejected.DISPATCH_STARTED"
  | "rejected.ALREADY_CANCELLED"
  | "rejected.NOT_DELIVERED"
  | "rejected.RETURN_WINDOW_CLOSED"
  | "rejected.ITEM_ALREADY_RETURNED"
  | "rejected.ITEM_ALREADY_REPLACED"
  | "rejected.REPLACEMENT_LINE"
  | "rejected.UNKNOWN_ITEM"
  | "rejected.NOT_ELIGIBLE"
  | "rejected.ORDER_NOT_FOUND"
  | "rejected.VERSION_CONFLICT"
  | "rejected.SELLER_SUSPENDED"
  | "rejected.OUT_OF_STOCK"
  | "rejected.NO_PICKUP_SLOT"
  | "rejected.RATE_LIMITED"
  | "rejected.other"
  | "unknown"
  | "mismatch"
  | "clarification"
  | "list.and"
  | "declined"
  | "sellerTitles"
  | "expired"
  | "noChange"
  | "modelFailed"
  | "bound"
  | "fact.status"
  | "fact.placed"
  | "fact.tracking"
  | "fact.item"
  | "fact.items"
  | "fact.charge"
  | "fact.amounts"
  | "fact.returnWindow"
  | "fact.return"
  | "fact.note"
  | "fact.possible"
  | `possible.${ChangeToolName}`
  | "fact.more"
  /** The turn's service calls met a problem the application must act on (controller/turn/problem.ts): never a claim. */
  | "unreachable";

export const gateMessages: Catalogue<GateMessageKey> = {
  en: {
    "completed.cancel_order": "Order {orderId} is cancelled.",
    "completed.add_delivery_note": "The delivery note on order {orderId} is saved and will go to the carrier.",
    "completed.start_return":
      "A return of {itemsKnown, select, yes {{items}} other {the items}} from order {orderId} is booked{pickup, select, window {: the carrier collects on {date}, {window}} date {: the carrier collects on {date}} other {}}.{labelKnown, select, yes { Your return label is {label}.} other {}}",
    "completed.offer_replacement":
      "A replacement for {itemKnown, select, yes {{item}} other {the item}} on order {orderId} is reserved and added to the order{lineKnown, select, yes { as {line}} other {}}.",
    "completed.other": "The change to order {orderId} is done.",
    "action.search_orders": "search your orders",
    "action.get_order": "read the order",
    "action.cancel_order": "cancel",
    "action.add_delivery_note": "set the delivery note on",
    "action.start_return": "start a return on",
    "action.offer_replacement": "send a replacement for an item on",
    "action.get_operation_status": "check",
    "rejected.ALREADY_SHIPPED":
      "Order {orderId} has already shipped, so it can no longer be cancelled. Once it is delivered, a return is possible.",
    "rejected.DISPATCH_STARTED":
      "Order {orderId} has started dispatch, so its delivery note can no longer be changed. The carrier's own tracking may let you leave instructions.",
    "rejected.ALREADY_CANCELLED": "Order {orderId} can't be cancelled again: it was already cancelled before this request.",
    "rejected.NOT_DELIVERED":
      "Order {orderId} has not been delivered, so I can't {action} it now. Once it is delivered, that becomes possible.",
    "rejected.RETURN_WINDOW_CLOSED":
      "The return window for order {orderId} has closed, so I can't {action} it any more. Nothing was changed.",
    "rejected.ITEM_ALREADY_RETURNED": "That item on order {orderId} can't be returned again: it is already being returned.",
    "rejected.ITEM_ALREADY_REPLACED": "That item on order {orderId} can't be replaced again: a replacement was arranged for it earlier.",
    "rejected.REPLACEMENT_LINE":
      "That item on order {orderId} is itself a replacement, so it can't be replaced or returned here; a member of our team needs to handle it. Nothing was changed.",
    "rejected.UNKNOWN_ITEM":
      "That item is not on order {orderId}, so I couldn't change anything. Check the items on the order and tell me which one you mean.",
    "rejected.NOT_ELIGIBLE": "Order {orderId} is not eligible for that right now, so nothing was changed.",
    "rejected.ORDER_NOT_FOUND": "I couldn't find order {orderId}, so nothing was changed. Please check the order number.",
    "rejected.VERSION_CONFLICT":
      "I couldn't change order {orderId}: it changed while I was working on it. I'll need to look at it again before trying.",
    "rejected.SELLER_SUSPENDED": "The seller of order {orderId} can't send replacements at the moment. A return is still possible.",
    "rejected.OUT_OF_STOCK": "I couldn't arrange a replacement for order {orderId}: there is no stock left. A return is still possible.",
    "rejected.NO_PICKUP_SLOT":
      "There is no carrier pickup available for that day for order {orderId}, so the return was not started.{datesKnown, select, yes { Days with room: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "I couldn't change order {orderId}: you have made as many changes as allowed for now.{wait, select, known { Please try again in about {count, plural, one {{minutes} minute} other {{minutes} minutes}}.} other { Please try again later.}}",
    "rejected.other": "I couldn't {action} order {orderId}; it is as it was.",
    unknown:
      "I've asked to {action} order {orderId}, but I can't confirm yet whether that has taken effect. I'm checking and will tell you as soon as I know; there is no need to ask again.",
    mismatch:
      "I'm checking the request to {action} order {orderId}: the answer I got was for a different request, so I can't confirm it yet.",
    clarification: "More than one order has come up in this conversation: {list}. Which order do you mean?",
    sellerTitles: "listed by the seller as {titles}",
    "list.and": "{first} and {last}",
    declined: "All right, order {orderId} stays as it is.",
    expired: "That confirmation for order {orderId} has expired, so nothing was sent. Ask again if you still want the change.",
    noChange: "I haven't changed anything on your orders.",
    modelFailed: "I couldn't finish working on that just now.",
    bound:
      "I had to stop before finishing, because {limit, select, tool_calls {it needed more than the {value} steps I can take per message} other {it took longer than the {value} seconds I can take per message}}.",
    "fact.status":
      "{status, select, placed {Order {orderId} has been placed and is waiting to be processed.} processing {Order {orderId} is being processed.} dispatching {Order {orderId} is being prepared for dispatch.} shipped {Order {orderId} has shipped.} delivered {{deliveredKnown, select, yes {Order {orderId} was delivered on {deliveredOn}.} other {Order {orderId} has been delivered.}}} cancelled {Order {orderId} is cancelled.} other {Order {orderId} has the status {status}.}}",
    "fact.placed": "Order {orderId} was placed on {placedOn}.",
    "fact.tracking":
      "{state, select, none {Order {orderId} will go with {carrier}; it has no tracking number yet.} expired {Order {orderId}: {carrier}, tracking number {trackingId}; the carrier keeps scans for {days} days after delivery, so there are none now.} other {Order {orderId}: {carrier}, tracking number {trackingId}, {scan, select, in_transit {in transit} awaiting_dispatch {waiting for the carrier} delivered {delivered} cancelled {cancelled} other {not scanned yet}}{scanKnown, select, yes {, last scanned on {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × “{title}”",
    "fact.items":
      "Order {orderId} holds {items}{more, plural, =0 {} one { and # more item} other { and # more items}}{words, select, marketplace {, sold by “{seller}”: titles and name as the seller wrote them} seller {: titles as the seller wrote them} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {items} delivery {delivery} other {other}})",
    "fact.amounts": "The charges on order {orderId} come to {total}{breakdown, select, yes {: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {A return of order {orderId} can be started until {until}.} closed {The return window for order {orderId} closed on {until}.} other {Once order {orderId} is delivered, a return can be started within {days, plural, one {# day} other {# days}}.}}",
    "fact.return":
      "A return of {items} from order {orderId} is booked: the carrier collects on {date}, {window}. The return label is {label}.",
    "fact.note":
      "Order {orderId} has a delivery note for the carrier: “{note}”{by, select, customer { (written by the customer)} support { (written by support)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {There is nothing I can change on order {orderId} now.} other {On order {orderId} I can still {actions}.}}",
    "possible.cancel_order": "cancel it",
    "possible.add_delivery_note": "change its delivery note",
    "possible.start_return": "start a return",
    "possible.offer_replacement": "send a replacement for an item",
    "fact.more": "{count, plural, one {# more order} other {# more orders}} came up as well.",
    unreachable: "Your orders could not be reached right now.",
  },
  de: {
    "completed.cancel_order": "Bestellung {orderId} ist storniert.",
    "completed.add_delivery_note": "Die Lieferanweisung für Bestellung {orderId} ist gespeichert und wird an den Zusteller weitergegeben.",
    "completed.start_return":
      "Eine Rücksendung {itemsKnown, select, yes {von {items}} other {der Artikel}} aus Bestellung {orderId} ist gebucht{pickup, select, window {: Der Zusteller holt sie am {date} im Zeitfenster {window} ab} date {: Der Zusteller holt sie am {date} ab} other {}}.{labelKnown, select, yes { Ihr Rücksendeetikett ist {label}.} other {}}",
    "completed.offer_replacement":
      "Ein Ersatz für {itemKnown, select, yes {{item}} other {den Artikel}} aus Bestellung {orderId} ist reserviert und der Bestellung hinzugefügt{lineKnown, select, yes { (als {line})} other {}}.",
    "completed.other": "Die Änderung an Bestellung {orderId} ist erledigt.",
    "action.search_orders": "die Suche in Ihren Bestellungen",
    "action.get_order": "das Abrufen der Bestellung",
    "action.cancel_order": "die Stornierung",
    "action.add_delivery_note": "das Festlegen der Lieferanweisung",
    "action.start_return": "eine Rücksendung",
    "action.offer_replacement": "ein Ersatz für einen Artikel",
    "action.get_operation_status": "die Prüfung",
    "rejected.ALREADY_SHIPPED":
      "Bestellung {orderId} wurde bereits versandt und kann daher nicht mehr storniert werden. Sobald sie zugestellt ist, ist eine Rücksendung möglich.",
    "rejected.DISPATCH_STARTED":
      "Der Versand von Bestellung {orderId} hat bereits begonnen, daher kann die Lieferanweisung nicht mehr geändert werden. Über die Sendungsverfolgung des Zustellers können Sie eventuell Hinweise hinterlassen.",
    "rejected.ALREADY_CANCELLED": "Bestellung {orderId} kann nicht erneut storniert werden: Sie war schon vor dieser Anfrage storniert.",
    "rejected.NOT_DELIVERED":
      "Bestellung {orderId} wurde noch nicht zugestellt, daher ist {action} jetzt nicht möglich. Sobald sie zugestellt ist, geht das.",
    "rejected.RETURN_WINDOW_CLOSED":
      "Die Rückgabefrist für Bestellung {orderId} ist abgelaufen, daher ist {action} nicht mehr möglich. Es wurde nichts geändert.",
    "rejected.ITEM_ALREADY_RETURNED":
      "Dieser Artikel aus Bestellung {orderId} kann nicht erneut zurückgesendet werden: Er wird bereits zurückgesendet.",
    "rejected.ITEM_ALREADY_REPLACED":
      "Dieser Artikel aus Bestellung {orderId} kann nicht erneut ersetzt werden: Für ihn wurde bereits ein Ersatz veranlasst.",
    "rejected.REPLACEMENT_LINE":
      "Dieser Artikel aus Bestellung {orderId} ist selbst ein Ersatz und kann hier weder ersetzt noch zurückgesendet werden; darum muss sich ein Mitglied unseres Teams kümmern. Es wurde nichts geändert.",
    "rejected.UNKNOWN_ITEM":
      "Dieser Artikel gehört nicht zu Bestellung {orderId}, daher konnte ich nichts ändern. Prüfen Sie die Artikel der Bestellung und sagen Sie mir, welchen Sie meinen.",
    "rejected.NOT_ELIGIBLE": "Das ist für Bestellung {orderId} derzeit nicht möglich, daher wurde nichts geändert.",
    "rejected.ORDER_NOT_FOUND":
      "Ich konnte Bestellung {orderId} nicht finden, daher wurde nichts geändert. Bitte prüfen Sie die Bestellnummer.",
    "rejected.VERSION_CONFLICT":
      "Ich konnte Bestellung {orderId} nicht ändern: Sie wurde geändert, während ich daran gearbeitet habe. Ich muss sie mir erneut ansehen, bevor ich es noch einmal versuche.",
    "rejected.SELLER_SUSPENDED":
      "Der Verkäufer von Bestellung {orderId} kann derzeit keinen Ersatz versenden. Eine Rücksendung ist weiterhin möglich.",
    "rejected.OUT_OF_STOCK":
      "Ich konnte keinen Ersatz für Bestellung {orderId} veranlassen: Es ist nichts mehr auf Lager. Eine Rücksendung ist weiterhin möglich.",
    "rejected.NO_PICKUP_SLOT":
      "Für Bestellung {orderId} ist an diesem Tag keine Abholung durch den Zusteller möglich, daher wurde die Rücksendung nicht gestartet.{datesKnown, select, yes { Tage mit freien Terminen: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "Ich konnte Bestellung {orderId} nicht ändern: Sie haben vorerst so viele Änderungen vorgenommen wie erlaubt.{wait, select, known { Bitte versuchen Sie es in etwa {count, plural, one {{minutes} Minute} other {{minutes} Minuten}} erneut.} other { Bitte versuchen Sie es später erneut.}}",
    "rejected.other": "Für Bestellung {orderId} war {action} nicht möglich; sie ist unverändert.",
    unknown:
      "Ich habe {action} für Bestellung {orderId} angefordert, kann aber noch nicht bestätigen, ob das wirksam geworden ist. Ich prüfe es und melde mich, sobald ich es weiß; Sie müssen nicht noch einmal fragen.",
    mismatch:
      "Ich prüfe die Anfrage ({action} für Bestellung {orderId}): Die Antwort, die ich erhalten habe, gehörte zu einer anderen Anfrage, daher kann ich sie noch nicht bestätigen.",
    clarification: "In diesem Gespräch ist mehr als eine Bestellung vorgekommen: {list}. Welche Bestellung meinen Sie?",
    sellerTitles: "vom Verkäufer als {titles} bezeichnet",
    "list.and": "{first} und {last}",
    declined: "In Ordnung, Bestellung {orderId} bleibt, wie sie ist.",
    expired:
      "Diese Bestätigung für die Bestellung {orderId} ist abgelaufen, daher wurde nichts gesendet. Fragen Sie erneut, wenn Sie die Änderung noch wünschen.",
    noChange: "Ich habe an Ihren Bestellungen nichts geändert.",
    modelFailed: "Ich konnte das gerade nicht zu Ende bearbeiten.",
    bound:
      "Ich musste abbrechen, bevor ich fertig war, weil {limit, select, tool_calls {mehr als die {value} Schritte nötig waren, die ich pro Nachricht ausführen kann} other {es länger gedauert hat als die {value} Sekunden, die ich pro Nachricht zur Verfügung habe}}.",
    "fact.status":
      "{status, select, placed {Bestellung {orderId} ist eingegangen und wartet auf die Bearbeitung.} processing {Bestellung {orderId} wird bearbeitet.} dispatching {Bestellung {orderId} wird für den Versand vorbereitet.} shipped {Bestellung {orderId} wurde versandt.} delivered {{deliveredKnown, select, yes {Bestellung {orderId} wurde am {deliveredOn} zugestellt.} other {Bestellung {orderId} wurde zugestellt.}}} cancelled {Bestellung {orderId} ist storniert.} other {Bestellung {orderId} hat den Status {status}.}}",
    "fact.placed": "Bestellung {orderId} wurde am {placedOn} aufgegeben.",
    "fact.tracking":
      "{state, select, none {Bestellung {orderId} geht mit {carrier}; sie hat noch keine Sendungsnummer.} expired {Bestellung {orderId}: {carrier}, Sendungsnummer {trackingId}; der Zusteller bewahrt Scans {days} Tage nach der Zustellung auf, daher gibt es keine mehr.} other {Bestellung {orderId}: {carrier}, Sendungsnummer {trackingId}, {scan, select, in_transit {unterwegs} awaiting_dispatch {wartet auf den Zusteller} delivered {zugestellt} cancelled {storniert} other {noch nicht gescannt}}{scanKnown, select, yes {, zuletzt gescannt am {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × „{title}“",
    "fact.items":
      "Bestellung {orderId} enthält {items}{more, plural, =0 {} one { und # weiteren Artikel} other { und # weitere Artikel}}{words, select, marketplace {, verkauft von „{seller}“: Titel und Name so, wie der Verkäufer sie geschrieben hat} seller {: Titel so, wie der Verkäufer sie geschrieben hat} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {Artikel} delivery {Versand} other {Sonstiges}})",
    "fact.amounts": "Die Kosten für Bestellung {orderId} betragen {total}{breakdown, select, yes {: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {Eine Rücksendung von Bestellung {orderId} ist bis zum {until} möglich.} closed {Die Rückgabefrist für Bestellung {orderId} ist am {until} abgelaufen.} other {Sobald Bestellung {orderId} zugestellt ist, ist eine Rücksendung innerhalb von {days, plural, one {# Tag} other {# Tagen}} möglich.}}",
    "fact.return":
      "Eine Rücksendung von {items} aus Bestellung {orderId} ist gebucht: Der Zusteller holt sie am {date} im Zeitfenster {window} ab. Das Rücksendeetikett ist {label}.",
    "fact.note":
      "Bestellung {orderId} hat eine Lieferanweisung für den Zusteller: „{note}“{by, select, customer { (vom Kunden geschrieben)} support { (vom Support geschrieben)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {An Bestellung {orderId} kann ich jetzt nichts ändern.} other {Für Bestellung {orderId} kann ich noch: {actions}.}}",
    "possible.cancel_order": "sie stornieren",
    "possible.add_delivery_note": "ihre Lieferanweisung ändern",
    "possible.start_return": "eine Rücksendung starten",
    "possible.offer_replacement": "einen Ersatz für einen Artikel senden",
    "fact.more": "{count, plural, one {# weitere Bestellung ist} other {# weitere Bestellungen sind}} ebenfalls aufgetaucht.",
    unreachable: "Auf Ihre Bestellungen konnte gerade nicht zugegriffen werden.",
  },
  fr: {
    "completed.cancel_order": "La commande {orderId} est annulée.",
    "completed.add_delivery_note": "La note de livraison de la commande {orderId} est enregistrée et sera transmise au transporteur.",
    "completed.start_return":
      "Le retour {itemsKnown, select, yes {de {items}} other {des articles}} de la commande {orderId} est enregistré{pickup, select, window {\u00a0: le transporteur passe le {date}, {window}} date {\u00a0: le transporteur passe le {date}} other {}}.{labelKnown, select, yes { Votre étiquette de retour est {label}.} other {}}",
    "completed.offer_replacement":
      "Un remplacement pour {itemKnown, select, yes {{item}} other {l’article}} de la commande {orderId} est réservé et ajouté à la commande{lineKnown, select, yes { sous la référence {line}} other {}}.",
    "completed.other": "La modification de la commande {orderId} est effectuée.",
    "action.search_orders": "la recherche dans vos commandes",
    "action.get_order": "la consultation de la commande",
    "action.cancel_order": "l’annulation",
    "action.add_delivery_note": "l’enregistrement de la note de livraison",
    "action.start_return": "un retour",
    "action.offer_replacement": "le remplacement d’un article",
    "action.get_operation_status": "la vérification",
    "rejected.ALREADY_SHIPPED":
      "La commande {orderId} a déjà été expédiée, elle ne peut donc plus être annulée. Une fois livrée, un retour sera possible.",
    "rejected.DISPATCH_STARTED":
      "L’expédition de la commande {orderId} a commencé, sa note de livraison ne peut donc plus être modifiée. Le suivi du transporteur vous permet peut-être de laisser des instructions.",
    "rejected.ALREADY_CANCELLED":
      "La commande {orderId} ne peut pas être annulée une seconde fois\u00a0: elle était déjà annulée avant cette demande.",
    "rejected.NOT_DELIVERED":
      "La commande {orderId} n’a pas encore été livrée, {action} n’est donc pas possible pour le moment. Ce sera possible une fois la commande livrée.",
    "rejected.RETURN_WINDOW_CLOSED":
      "Le délai de retour de la commande {orderId} est dépassé, {action} n’est donc plus possible. Rien n’a été modifié.",
    "rejected.ITEM_ALREADY_RETURNED":
      "Cet article de la commande {orderId} ne peut pas être retourné une seconde fois\u00a0: il est déjà en cours de retour.",
    "rejected.ITEM_ALREADY_REPLACED":
      "Cet article de la commande {orderId} ne peut pas être remplacé une seconde fois\u00a0: un remplacement a déjà été organisé.",
    "rejected.REPLACEMENT_LINE":
      "Cet article de la commande {orderId} est lui-même un remplacement, il ne peut donc être ni remplacé ni retourné ici\u00a0; un membre de notre équipe doit s’en occuper. Rien n’a été modifié.",
    "rejected.UNKNOWN_ITEM":
      "Cet article ne fait pas partie de la commande {orderId}, je n’ai donc rien pu modifier. Vérifiez les articles de la commande et dites-moi lequel vous voulez dire.",
    "rejected.NOT_ELIGIBLE": "Ce n’est pas possible pour la commande {orderId} pour le moment, rien n’a donc été modifié.",
    "rejected.ORDER_NOT_FOUND":
      "Je n’ai pas trouvé la commande {orderId}, rien n’a donc été modifié. Merci de vérifier le numéro de commande.",
    "rejected.VERSION_CONFLICT":
      "Je n’ai pas pu modifier la commande {orderId}\u00a0: elle a changé pendant que je la traitais. Je dois la consulter à nouveau avant de réessayer.",
    "rejected.SELLER_SUSPENDED":
      "Le vendeur de la commande {orderId} ne peut pas envoyer de remplacement pour le moment. Un retour reste possible.",
    "rejected.OUT_OF_STOCK":
      "Je n’ai pas pu organiser de remplacement pour la commande {orderId}\u00a0: il n’y a plus de stock. Un retour reste possible.",
    "rejected.NO_PICKUP_SLOT":
      "Aucun enlèvement par le transporteur n’est disponible ce jour-là pour la commande {orderId}, le retour n’a donc pas été lancé.{datesKnown, select, yes { Jours disponibles\u00a0: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "Je n’ai pas pu modifier la commande {orderId}\u00a0: vous avez atteint le nombre de modifications autorisé pour le moment.{wait, select, known { Merci de réessayer dans {count, plural, one {{minutes} minute} other {{minutes} minutes}} environ.} other { Merci de réessayer plus tard.}}",
    "rejected.other": "Pour la commande {orderId}, {action} n’a pas été possible\u00a0; elle reste inchangée.",
    unknown:
      "J’ai demandé {action} pour la commande {orderId}, mais je ne peux pas encore confirmer que cela a pris effet. Je vérifie et vous tiens informé dès que je le sais\u00a0; inutile de redemander.",
    mismatch:
      "Je vérifie la demande ({action} pour la commande {orderId})\u00a0: la réponse reçue concernait une autre demande, je ne peux donc pas encore la confirmer.",
    clarification: "Plusieurs commandes ont été mentionnées dans cette conversation\u00a0: {list}. De quelle commande parlez-vous\u00a0?",
    sellerTitles: "intitulés {titles} par le vendeur",
    "list.and": "{first} et {last}",
    declined: "Très bien, la commande {orderId} reste telle quelle.",
    expired:
      "Cette confirmation pour la commande {orderId} a expiré : rien n'a été envoyé. Redemandez si vous souhaitez toujours la modification.",
    noChange: "Je n’ai rien modifié sur vos commandes.",
    modelFailed: "Je n’ai pas pu terminer cette demande pour l’instant.",
    bound:
      "J’ai dû m’arrêter avant la fin, car {limit, select, tool_calls {il fallait plus que les {value} étapes que je peux effectuer par message} other {cela a pris plus que les {value} secondes dont je dispose par message}}.",
    "fact.status":
      "{status, select, placed {La commande {orderId} est passée et attend d’être traitée.} processing {La commande {orderId} est en cours de traitement.} dispatching {La commande {orderId} est en préparation pour l’expédition.} shipped {La commande {orderId} a été expédiée.} delivered {{deliveredKnown, select, yes {La commande {orderId} a été livrée le {deliveredOn}.} other {La commande {orderId} a été livrée.}}} cancelled {La commande {orderId} est annulée.} other {La commande {orderId} a le statut {status}.}}",
    "fact.placed": "La commande {orderId} a été passée le {placedOn}.",
    "fact.tracking":
      "{state, select, none {La commande {orderId} partira avec {carrier}\u00a0; elle n’a pas encore de numéro de suivi.} expired {La commande {orderId}\u00a0: {carrier}, numéro de suivi {trackingId}\u00a0; le transporteur conserve les scans {days} jours après la livraison, il n’y en a donc plus.} other {La commande {orderId}\u00a0: {carrier}, numéro de suivi {trackingId}, {scan, select, in_transit {en transit} awaiting_dispatch {en attente du transporteur} delivered {livrée} cancelled {annulée} other {pas encore scannée}}{scanKnown, select, yes {, dernier scan le {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × «\u00a0{title}\u00a0»",
    "fact.items":
      "La commande {orderId} contient {items}{more, plural, =0 {} one { et # autre article} other { et # autres articles}}{words, select, marketplace {, vendue par «\u00a0{seller}\u00a0»\u00a0: titres et nom tels que le vendeur les a écrits} seller {\u00a0: titres tels que le vendeur les a écrits} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {articles} delivery {livraison} other {autre}})",
    "fact.amounts": "Les frais de la commande {orderId} s’élèvent à {total}{breakdown, select, yes {\u00a0: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {Un retour de la commande {orderId} peut être lancé jusqu’au {until}.} closed {Le délai de retour de la commande {orderId} a pris fin le {until}.} other {Une fois la commande {orderId} livrée, un retour pourra être lancé dans un délai de {days, plural, one {# jour} other {# jours}}.}}",
    "fact.return":
      "Le retour de {items} de la commande {orderId} est enregistré\u00a0: le transporteur passe le {date}, {window}. L’étiquette de retour est {label}.",
    "fact.note":
      "La commande {orderId} a une note de livraison pour le transporteur\u00a0: «\u00a0{note}\u00a0»{by, select, customer { (écrite par le client)} support { (écrite par le support)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {Je ne peux rien modifier sur la commande {orderId} pour le moment.} other {Sur la commande {orderId}, je peux encore\u00a0: {actions}.}}",
    "possible.cancel_order": "l’annuler",
    "possible.add_delivery_note": "modifier sa note de livraison",
    "possible.start_return": "lancer un retour",
    "possible.offer_replacement": "envoyer un remplacement pour un article",
    "fact.more": "{count, plural, one {# autre commande est également apparue} other {# autres commandes sont également apparues}}.",
    unreachable: "Vos commandes n’ont pas pu être consultées pour le moment.",
  },
  es: {
    "completed.cancel_order": "El pedido {orderId} está cancelado.",
    "completed.add_delivery_note": "La nota de entrega del pedido {orderId} está guardada y se enviará al transportista.",
    "completed.start_return":
      "La devolución {itemsKnown, select, yes {de {items}} other {de los artículos}} del pedido {orderId} está registrada{pickup, select, window {: el transportista la recoge el {date}, {window}} date {: el transportista la recoge el {date}} other {}}.{labelKnown, select, yes { Su etiqueta de devolución es {label}.} other {}}",
    "completed.offer_replacement":
      "Un reemplazo para {itemKnown, select, yes {{item}} other {el artículo}} del pedido {orderId} está reservado y añadido al pedido{lineKnown, select, yes { como {line}} other {}}.",
    "completed.other": "El cambio en el pedido {orderId} está hecho.",
    "action.search_orders": "la búsqueda en sus pedidos",
    "action.get_order": "la consulta del pedido",
    "action.cancel_order": "la cancelación",
    "action.add_delivery_note": "el registro de la nota de entrega",
    "action.start_return": "una devolución",
    "action.offer_replacement": "el reemplazo de un artículo",
    "action.get_operation_status": "la comprobación",
    "rejected.ALREADY_SHIPPED":
      "El pedido {orderId} ya se ha enviado, así que ya no se puede cancelar. Cuando se entregue, será posible una devolución.",
    "rejected.DISPATCH_STARTED":
      "El envío del pedido {orderId} ya ha comenzado, así que su nota de entrega ya no se puede cambiar. Es posible que el seguimiento del transportista le permita dejar instrucciones.",
    "rejected.ALREADY_CANCELLED": "El pedido {orderId} no se puede volver a cancelar: ya estaba cancelado antes de esta solicitud.",
    "rejected.NOT_DELIVERED":
      "El pedido {orderId} aún no se ha entregado, así que {action} no es posible ahora. Cuando se entregue, será posible.",
    "rejected.RETURN_WINDOW_CLOSED":
      "El plazo de devolución del pedido {orderId} ha terminado, así que {action} ya no es posible. No se ha cambiado nada.",
    "rejected.ITEM_ALREADY_RETURNED": "Ese artículo del pedido {orderId} no se puede volver a devolver: ya está en devolución.",
    "rejected.ITEM_ALREADY_REPLACED":
      "Ese artículo del pedido {orderId} no se puede volver a reemplazar: ya se organizó un reemplazo para él.",
    "rejected.REPLACEMENT_LINE":
      "Ese artículo del pedido {orderId} es en sí un reemplazo, así que no se puede reemplazar ni devolver aquí; debe gestionarlo un miembro de nuestro equipo. No se ha cambiado nada.",
    "rejected.UNKNOWN_ITEM":
      "Ese artículo no está en el pedido {orderId}, así que no he podido cambiar nada. Revise los artículos del pedido y dígame a cuál se refiere.",
    "rejected.NOT_ELIGIBLE": "Eso no es posible ahora para el pedido {orderId}, así que no se ha cambiado nada.",
    "rejected.ORDER_NOT_FOUND": "No he encontrado el pedido {orderId}, así que no se ha cambiado nada. Compruebe el número de pedido.",
    "rejected.VERSION_CONFLICT":
      "No he podido cambiar el pedido {orderId}: cambió mientras trabajaba en él. Tendré que revisarlo de nuevo antes de intentarlo.",
    "rejected.SELLER_SUSPENDED":
      "El vendedor del pedido {orderId} no puede enviar reemplazos en este momento. Una devolución sigue siendo posible.",
    "rejected.OUT_OF_STOCK":
      "No he podido organizar un reemplazo para el pedido {orderId}: no queda stock. Una devolución sigue siendo posible.",
    "rejected.NO_PICKUP_SLOT":
      "No hay recogida del transportista disponible ese día para el pedido {orderId}, así que la devolución no se ha iniciado.{datesKnown, select, yes { Días con disponibilidad: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "No he podido cambiar el pedido {orderId}: ha hecho todos los cambios permitidos por ahora.{wait, select, known { Vuelva a intentarlo en unos {count, plural, one {{minutes} minuto} other {{minutes} minutos}}.} other { Vuelva a intentarlo más tarde.}}",
    "rejected.other": "Para el pedido {orderId}, {action} no ha sido posible; sigue como estaba.",
    unknown:
      "He solicitado {action} para el pedido {orderId}, pero aún no puedo confirmar si ya ha surtido efecto. Lo estoy comprobando y le avisaré en cuanto lo sepa; no hace falta que vuelva a pedirlo.",
    mismatch:
      "Estoy comprobando la solicitud ({action} para el pedido {orderId}): la respuesta que recibí correspondía a otra solicitud, así que aún no puedo confirmarla.",
    clarification: "En esta conversación ha salido más de un pedido: {list}. ¿A qué pedido se refiere?",
    sellerTitles: "que el vendedor llama {titles}",
    "list.and": "{first} y {last}",
    declined: "De acuerdo, el pedido {orderId} se queda como está.",
    expired: "Esa confirmación para el pedido {orderId} ha caducado, así que no se envió nada. Vuelva a pedirlo si aún quiere el cambio.",
    noChange: "No he cambiado nada en sus pedidos.",
    modelFailed: "No he podido terminar con eso ahora mismo.",
    bound:
      "Tuve que detenerme antes de terminar, porque {limit, select, tool_calls {hacían falta más de los {value} pasos que puedo dar por mensaje} other {tardó más de los {value} segundos de que dispongo por mensaje}}.",
    "fact.status":
      "{status, select, placed {El pedido {orderId} está realizado y pendiente de procesar.} processing {El pedido {orderId} se está procesando.} dispatching {El pedido {orderId} se está preparando para el envío.} shipped {El pedido {orderId} se ha enviado.} delivered {{deliveredKnown, select, yes {El pedido {orderId} se entregó el {deliveredOn}.} other {El pedido {orderId} se ha entregado.}}} cancelled {El pedido {orderId} está cancelado.} other {El pedido {orderId} tiene el estado {status}.}}",
    "fact.placed": "El pedido {orderId} se realizó el {placedOn}.",
    "fact.tracking":
      "{state, select, none {El pedido {orderId} irá con {carrier}; aún no tiene número de seguimiento.} expired {Pedido {orderId}: {carrier}, número de seguimiento {trackingId}; el transportista guarda los escaneos {days} días después de la entrega, así que ya no hay ninguno.} other {Pedido {orderId}: {carrier}, número de seguimiento {trackingId}, {scan, select, in_transit {en tránsito} awaiting_dispatch {esperando al transportista} delivered {entregado} cancelled {cancelado} other {sin escanear todavía}}{scanKnown, select, yes {, último escaneo el {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × «{title}»",
    "fact.items":
      "El pedido {orderId} contiene {items}{more, plural, =0 {} one { y # artículo más} other { y # artículos más}}{words, select, marketplace {, vendido por «{seller}»: títulos y nombre tal como los escribió el vendedor} seller {: títulos tal como los escribió el vendedor} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {artículos} delivery {envío} other {otros}})",
    "fact.amounts": "Los cargos del pedido {orderId} suman {total}{breakdown, select, yes {: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {Se puede iniciar una devolución del pedido {orderId} hasta el {until}.} closed {El plazo de devolución del pedido {orderId} terminó el {until}.} other {Cuando se entregue el pedido {orderId}, se podrá iniciar una devolución en un plazo de {days, plural, one {# día} other {# días}}.}}",
    "fact.return":
      "La devolución de {items} del pedido {orderId} está registrada: el transportista la recoge el {date}, {window}. La etiqueta de devolución es {label}.",
    "fact.note":
      "El pedido {orderId} tiene una nota de entrega para el transportista: «{note}»{by, select, customer { (escrita por el cliente)} support { (escrita por soporte)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {Ahora no puedo cambiar nada en el pedido {orderId}.} other {En el pedido {orderId} todavía puedo: {actions}.}}",
    "possible.cancel_order": "cancelarlo",
    "possible.add_delivery_note": "cambiar su nota de entrega",
    "possible.start_return": "iniciar una devolución",
    "possible.offer_replacement": "enviar un reemplazo de un artículo",
    "fact.more": "{count, plural, one {También ha salido # pedido más} other {También han salido # pedidos más}}.",
    unreachable: "No se ha podido acceder a sus pedidos en este momento.",
  },
  it: {
    "completed.cancel_order": "L'ordine {orderId} è annullato.",
    "completed.add_delivery_note": "La nota di consegna dell'ordine {orderId} è salvata e sarà inoltrata al corriere.",
    "completed.start_return":
      "Il reso {itemsKnown, select, yes {di {items}} other {degli articoli}} dell'ordine {orderId} è prenotato{pickup, select, window {: il corriere ritira il {date}, {window}} date {: il corriere ritira il {date}} other {}}.{labelKnown, select, yes { La sua etichetta di reso è {label}.} other {}}",
    "completed.offer_replacement":
      "Una sostituzione per {itemKnown, select, yes {{item}} other {l'articolo}} dell'ordine {orderId} è riservata e aggiunta all'ordine{lineKnown, select, yes { come {line}} other {}}.",
    "completed.other": "La modifica all'ordine {orderId} è stata eseguita.",
    "action.search_orders": "la ricerca nei suoi ordini",
    "action.get_order": "la consultazione dell'ordine",
    "action.cancel_order": "l'annullamento",
    "action.add_delivery_note": "l'impostazione della nota di consegna",
    "action.start_return": "un reso",
    "action.offer_replacement": "la sostituzione di un articolo",
    "action.get_operation_status": "la verifica",
    "rejected.ALREADY_SHIPPED":
      "L'ordine {orderId} è già stato spedito, quindi non può più essere annullato. Una volta consegnato, sarà possibile un reso.",
    "rejected.DISPATCH_STARTED":
      "La spedizione dell'ordine {orderId} è già iniziata, quindi la nota di consegna non può più essere modificata. Il tracciamento del corriere potrebbe permetterle di lasciare istruzioni.",
    "rejected.ALREADY_CANCELLED": "L'ordine {orderId} non può essere annullato di nuovo: era già annullato prima di questa richiesta.",
    "rejected.NOT_DELIVERED":
      "L'ordine {orderId} non è ancora stato consegnato, quindi {action} non è possibile per ora. Una volta consegnato, sarà possibile.",
    "rejected.RETURN_WINDOW_CLOSED":
      "Il periodo di reso dell'ordine {orderId} è scaduto, quindi {action} non è più possibile. Non è stato modificato nulla.",
    "rejected.ITEM_ALREADY_RETURNED": "Quell'articolo dell'ordine {orderId} non può essere reso di nuovo: è già in fase di reso.",
    "rejected.ITEM_ALREADY_REPLACED":
      "Quell'articolo dell'ordine {orderId} non può essere sostituito di nuovo: è già stata organizzata una sostituzione.",
    "rejected.REPLACEMENT_LINE":
      "Quell'articolo dell'ordine {orderId} è già a sua volta una sostituzione, quindi non può essere sostituito né reso qui; deve occuparsene un membro del nostro team. Non è stato modificato nulla.",
    "rejected.UNKNOWN_ITEM":
      "Quell'articolo non fa parte dell'ordine {orderId}, quindi non ho potuto modificare nulla. Controlli gli articoli dell'ordine e mi dica quale intende.",
    "rejected.NOT_ELIGIBLE": "Questo non è possibile al momento per l'ordine {orderId}, quindi non è stato modificato nulla.",
    "rejected.ORDER_NOT_FOUND": "Non ho trovato l'ordine {orderId}, quindi non è stato modificato nulla. Controlli il numero d'ordine.",
    "rejected.VERSION_CONFLICT":
      "Non ho potuto modificare l'ordine {orderId}: è cambiato mentre ci lavoravo. Devo ricontrollarlo prima di riprovare.",
    "rejected.SELLER_SUSPENDED": "Il venditore dell'ordine {orderId} al momento non può inviare sostituzioni. Un reso è ancora possibile.",
    "rejected.OUT_OF_STOCK":
      "Non ho potuto organizzare una sostituzione per l'ordine {orderId}: non c'è più disponibilità. Un reso è ancora possibile.",
    "rejected.NO_PICKUP_SLOT":
      "Non c'è un ritiro del corriere disponibile quel giorno per l'ordine {orderId}, quindi il reso non è stato avviato.{datesKnown, select, yes { Giorni disponibili: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "Non ho potuto modificare l'ordine {orderId}: ha già fatto tutte le modifiche consentite per ora.{wait, select, known { Riprovi tra circa {count, plural, one {{minutes} minuto} other {{minutes} minuti}}.} other { Riprovi più tardi.}}",
    "rejected.other": "Per l'ordine {orderId}, {action} non è stato possibile; l'ordine è rimasto com'era.",
    unknown:
      "Ho richiesto {action} per l'ordine {orderId}, ma non posso ancora confermare che abbia avuto effetto. Sto verificando e le farò sapere appena possibile; non serve chiedere di nuovo.",
    mismatch:
      "Sto verificando la richiesta ({action} per l'ordine {orderId}): la risposta ricevuta riguardava un'altra richiesta, quindi non posso ancora confermarla.",
    clarification: "In questa conversazione è emerso più di un ordine: {list}. A quale ordine si riferisce?",
    sellerTitles: "che il venditore chiama {titles}",
    "list.and": "{first} e {last}",
    declined: "Va bene, l'ordine {orderId} resta com'è.",
    expired:
      "Questa conferma per l'ordine {orderId} è scaduta, quindi non è stato inviato nulla. Chiedi di nuovo se vuoi ancora la modifica.",
    noChange: "Non ho modificato nulla nei suoi ordini.",
    modelFailed: "Non sono riuscito a completare la richiesta in questo momento.",
    bound:
      "Ho dovuto fermarmi prima di finire, perché {limit, select, tool_calls {servivano più dei {value} passaggi che posso fare per messaggio} other {ci è voluto più dei {value} secondi che ho a disposizione per messaggio}}.",
    "fact.status":
      "{status, select, placed {L’ordine {orderId} è stato effettuato ed è in attesa di elaborazione.} processing {L’ordine {orderId} è in elaborazione.} dispatching {L’ordine {orderId} è in preparazione per la spedizione.} shipped {L’ordine {orderId} è stato spedito.} delivered {{deliveredKnown, select, yes {L’ordine {orderId} è stato consegnato il {deliveredOn}.} other {L’ordine {orderId} è stato consegnato.}}} cancelled {L’ordine {orderId} è annullato.} other {L’ordine {orderId} ha lo stato {status}.}}",
    "fact.placed": "L’ordine {orderId} è stato effettuato il {placedOn}.",
    "fact.tracking":
      "{state, select, none {L’ordine {orderId} partirà con {carrier}; non ha ancora un numero di tracciamento.} expired {Ordine {orderId}: {carrier}, numero di tracciamento {trackingId}; il corriere conserva le scansioni per {days} giorni dopo la consegna, quindi non ce ne sono più.} other {Ordine {orderId}: {carrier}, numero di tracciamento {trackingId}, {scan, select, in_transit {in transito} awaiting_dispatch {in attesa del corriere} delivered {consegnato} cancelled {annullato} other {non ancora scansionato}}{scanKnown, select, yes {, ultima scansione il {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × «{title}»",
    "fact.items":
      "L’ordine {orderId} contiene {items}{more, plural, =0 {} one { e # altro articolo} other { e altri # articoli}}{words, select, marketplace {, venduto da «{seller}»: titoli e nome come li ha scritti il venditore} seller {: titoli come li ha scritti il venditore} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {articoli} delivery {spedizione} other {altro}})",
    "fact.amounts": "Gli addebiti dell’ordine {orderId} ammontano a {total}{breakdown, select, yes {: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {Un reso dell’ordine {orderId} si può avviare fino al {until}.} closed {Il periodo di reso dell’ordine {orderId} si è chiuso il {until}.} other {Una volta consegnato l’ordine {orderId}, si potrà avviare un reso entro {days, plural, one {# giorno} other {# giorni}}.}}",
    "fact.return":
      "Il reso di {items} dell’ordine {orderId} è registrato: il corriere ritira il {date}, {window}. L’etichetta di reso è {label}.",
    "fact.note":
      "L’ordine {orderId} ha una nota di consegna per il corriere: «{note}»{by, select, customer { (scritta dal cliente)} support { (scritta dall’assistenza)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {Ora non posso modificare nulla nell’ordine {orderId}.} other {Sull’ordine {orderId} posso ancora: {actions}.}}",
    "possible.cancel_order": "annullarlo",
    "possible.add_delivery_note": "modificarne la nota di consegna",
    "possible.start_return": "avviare un reso",
    "possible.offer_replacement": "inviare un sostituto per un articolo",
    "fact.more": "{count, plural, one {È emerso anche # altro ordine} other {Sono emersi anche altri # ordini}}.",
    unreachable: "Al momento non è stato possibile accedere ai suoi ordini.",
  },
  pt: {
    "completed.cancel_order": "O pedido {orderId} está cancelado.",
    "completed.add_delivery_note": "A instrução de entrega do pedido {orderId} está salva e será enviada à transportadora.",
    "completed.start_return":
      "A devolução {itemsKnown, select, yes {de {items}} other {dos itens}} do pedido {orderId} está agendada{pickup, select, window {: a transportadora faz a coleta em {date}, {window}} date {: a transportadora faz a coleta em {date}} other {}}.{labelKnown, select, yes { Sua etiqueta de devolução é {label}.} other {}}",
    "completed.offer_replacement":
      "Uma substituição para {itemKnown, select, yes {{item}} other {o item}} do pedido {orderId} está reservada e adicionada ao pedido{lineKnown, select, yes { como {line}} other {}}.",
    "completed.other": "A alteração no pedido {orderId} foi feita.",
    "action.search_orders": "a busca nos seus pedidos",
    "action.get_order": "a consulta do pedido",
    "action.cancel_order": "o cancelamento",
    "action.add_delivery_note": "o registro da instrução de entrega",
    "action.start_return": "uma devolução",
    "action.offer_replacement": "a substituição de um item",
    "action.get_operation_status": "a verificação",
    "rejected.ALREADY_SHIPPED":
      "O pedido {orderId} já foi enviado, então não pode mais ser cancelado. Depois da entrega, será possível fazer uma devolução.",
    "rejected.DISPATCH_STARTED":
      "O envio do pedido {orderId} já começou, então a instrução de entrega não pode mais ser alterada. O rastreamento da transportadora talvez permita deixar instruções.",
    "rejected.ALREADY_CANCELLED": "O pedido {orderId} não pode ser cancelado de novo: ele já estava cancelado antes desta solicitação.",
    "rejected.NOT_DELIVERED":
      "O pedido {orderId} ainda não foi entregue, então {action} não é possível agora. Depois da entrega, será possível.",
    "rejected.RETURN_WINDOW_CLOSED":
      "O prazo de devolução do pedido {orderId} terminou, então {action} não é mais possível. Nada foi alterado.",
    "rejected.ITEM_ALREADY_RETURNED": "Esse item do pedido {orderId} não pode ser devolvido de novo: ele já está em devolução.",
    "rejected.ITEM_ALREADY_REPLACED":
      "Esse item do pedido {orderId} não pode ser substituído de novo: já foi providenciada uma substituição para ele.",
    "rejected.REPLACEMENT_LINE":
      "Esse item do pedido {orderId} já é uma substituição, então não pode ser substituído nem devolvido aqui; um membro da nossa equipe precisa cuidar disso. Nada foi alterado.",
    "rejected.UNKNOWN_ITEM":
      "Esse item não faz parte do pedido {orderId}, então não consegui alterar nada. Confira os itens do pedido e me diga qual deles você quer dizer.",
    "rejected.NOT_ELIGIBLE": "Isso não é possível agora para o pedido {orderId}, então nada foi alterado.",
    "rejected.ORDER_NOT_FOUND": "Não encontrei o pedido {orderId}, então nada foi alterado. Confira o número do pedido.",
    "rejected.VERSION_CONFLICT":
      "Não consegui alterar o pedido {orderId}: ele mudou enquanto eu trabalhava nele. Preciso consultá-lo de novo antes de tentar.",
    "rejected.SELLER_SUSPENDED":
      "O vendedor do pedido {orderId} não pode enviar substituições no momento. Uma devolução continua possível.",
    "rejected.OUT_OF_STOCK":
      "Não consegui providenciar uma substituição para o pedido {orderId}: não há mais estoque. Uma devolução continua possível.",
    "rejected.NO_PICKUP_SLOT":
      "Não há coleta da transportadora disponível nesse dia para o pedido {orderId}, então a devolução não foi iniciada.{datesKnown, select, yes { Dias com vagas: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "Não consegui alterar o pedido {orderId}: você já fez todas as alterações permitidas por enquanto.{wait, select, known { Tente de novo em cerca de {count, plural, one {{minutes} minuto} other {{minutes} minutos}}.} other { Tente de novo mais tarde.}}",
    "rejected.other": "Para o pedido {orderId}, {action} não foi possível; ele continua como estava.",
    unknown:
      "Solicitei {action} para o pedido {orderId}, mas ainda não posso confirmar se isso já teve efeito. Estou verificando e aviso assim que souber; não é preciso pedir de novo.",
    mismatch:
      "Estou verificando a solicitação ({action} para o pedido {orderId}): a resposta que recebi era de outra solicitação, então ainda não posso confirmá-la.",
    clarification: "Mais de um pedido apareceu nesta conversa: {list}. De qual pedido você está falando?",
    sellerTitles: "que o vendedor chama {titles}",
    "list.and": "{first} e {last}",
    declined: "Tudo bem, o pedido {orderId} continua como está.",
    expired: "Essa confirmação para a encomenda {orderId} expirou, por isso nada foi enviado. Peça de novo se ainda quiser a alteração.",
    noChange: "Não alterei nada nos seus pedidos.",
    modelFailed: "Não consegui terminar isso agora.",
    bound:
      "Tive que parar antes de terminar, porque {limit, select, tool_calls {foram necessários mais do que os {value} passos que posso dar por mensagem} other {levou mais do que os {value} segundos que tenho por mensagem}}.",
    "fact.status":
      "{status, select, placed {A encomenda {orderId} foi feita e aguarda processamento.} processing {A encomenda {orderId} está a ser processada.} dispatching {A encomenda {orderId} está a ser preparada para envio.} shipped {A encomenda {orderId} foi enviada.} delivered {{deliveredKnown, select, yes {A encomenda {orderId} foi entregue em {deliveredOn}.} other {A encomenda {orderId} foi entregue.}}} cancelled {A encomenda {orderId} está cancelada.} other {A encomenda {orderId} tem o estado {status}.}}",
    "fact.placed": "A encomenda {orderId} foi feita em {placedOn}.",
    "fact.tracking":
      "{state, select, none {A encomenda {orderId} seguirá com {carrier}; ainda não tem número de seguimento.} expired {Encomenda {orderId}: {carrier}, número de seguimento {trackingId}; a transportadora guarda as leituras {days} dias após a entrega, por isso já não há nenhuma.} other {Encomenda {orderId}: {carrier}, número de seguimento {trackingId}, {scan, select, in_transit {em trânsito} awaiting_dispatch {à espera da transportadora} delivered {entregue} cancelled {cancelada} other {ainda sem leitura}}{scanKnown, select, yes {, última leitura em {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × «{title}»",
    "fact.items":
      "A encomenda {orderId} contém {items}{more, plural, =0 {} one { e mais # artigo} other { e mais # artigos}}{words, select, marketplace {, vendida por «{seller}»: títulos e nome tal como o vendedor os escreveu} seller {: títulos tal como o vendedor os escreveu} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {artigos} delivery {envio} other {outros}})",
    "fact.amounts": "As cobranças da encomenda {orderId} somam {total}{breakdown, select, yes {: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {Pode iniciar uma devolução da encomenda {orderId} até {until}.} closed {O prazo de devolução da encomenda {orderId} terminou em {until}.} other {Depois de a encomenda {orderId} ser entregue, pode iniciar uma devolução no prazo de {days, plural, one {# dia} other {# dias}}.}}",
    "fact.return":
      "A devolução de {items} da encomenda {orderId} está registada: a transportadora recolhe em {date}, {window}. A etiqueta de devolução é {label}.",
    "fact.note":
      "A encomenda {orderId} tem uma nota de entrega para a transportadora: «{note}»{by, select, customer { (escrita pelo cliente)} support { (escrita pelo apoio ao cliente)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {Agora não posso alterar nada na encomenda {orderId}.} other {Na encomenda {orderId} ainda posso: {actions}.}}",
    "possible.cancel_order": "cancelá-la",
    "possible.add_delivery_note": "alterar a nota de entrega",
    "possible.start_return": "iniciar uma devolução",
    "possible.offer_replacement": "enviar uma substituição de um artigo",
    "fact.more": "{count, plural, one {Surgiu também mais # encomenda} other {Surgiram também mais # encomendas}}.",
    unreachable: "Não foi possível acessar seus pedidos neste momento.",
  },
  nl: {
    "completed.cancel_order": "Bestelling {orderId} is geannuleerd.",
    "completed.add_delivery_note": "De bezorginstructie voor bestelling {orderId} is opgeslagen en gaat naar de vervoerder.",
    "completed.start_return":
      "Een retour {itemsKnown, select, yes {van {items}} other {van de artikelen}} uit bestelling {orderId} is geboekt{pickup, select, window {: de vervoerder haalt het op {date} op, {window}} date {: de vervoerder haalt het op {date} op} other {}}.{labelKnown, select, yes { Uw retourlabel is {label}.} other {}}",
    "completed.offer_replacement":
      "Een vervanging voor {itemKnown, select, yes {{item}} other {het artikel}} uit bestelling {orderId} is gereserveerd en aan de bestelling toegevoegd{lineKnown, select, yes { als {line}} other {}}.",
    "completed.other": "De wijziging aan bestelling {orderId} is doorgevoerd.",
    "action.search_orders": "het zoeken in uw bestellingen",
    "action.get_order": "het opvragen van de bestelling",
    "action.cancel_order": "de annulering",
    "action.add_delivery_note": "het instellen van de bezorginstructie",
    "action.start_return": "een retour",
    "action.offer_replacement": "een vervanging voor een artikel",
    "action.get_operation_status": "de controle",
    "rejected.ALREADY_SHIPPED":
      "Bestelling {orderId} is al verzonden en kan daarom niet meer worden geannuleerd. Zodra ze bezorgd is, is een retour mogelijk.",
    "rejected.DISPATCH_STARTED":
      "De verzending van bestelling {orderId} is al begonnen, dus de bezorginstructie kan niet meer worden gewijzigd. Via de tracking van de vervoerder kunt u misschien instructies achterlaten.",
    "rejected.ALREADY_CANCELLED": "Bestelling {orderId} kan niet nogmaals worden geannuleerd: ze was al geannuleerd vóór dit verzoek.",
    "rejected.NOT_DELIVERED":
      "Bestelling {orderId} is nog niet bezorgd, dus {action} is nu niet mogelijk. Zodra ze bezorgd is, kan dat wel.",
    "rejected.RETURN_WINDOW_CLOSED":
      "De retourtermijn voor bestelling {orderId} is verlopen, dus {action} is niet meer mogelijk. Er is niets gewijzigd.",
    "rejected.ITEM_ALREADY_RETURNED":
      "Dat artikel uit bestelling {orderId} kan niet nogmaals worden geretourneerd: het wordt al geretourneerd.",
    "rejected.ITEM_ALREADY_REPLACED":
      "Dat artikel uit bestelling {orderId} kan niet nogmaals worden vervangen: er is al eerder een vervanging voor geregeld.",
    "rejected.REPLACEMENT_LINE":
      "Dat artikel uit bestelling {orderId} is zelf een vervanging en kan hier niet worden vervangen of geretourneerd; een medewerker van ons team moet dit afhandelen. Er is niets gewijzigd.",
    "rejected.UNKNOWN_ITEM":
      "Dat artikel hoort niet bij bestelling {orderId}, dus ik kon niets wijzigen. Controleer de artikelen van de bestelling en laat me weten welk artikel u bedoelt.",
    "rejected.NOT_ELIGIBLE": "Dat is voor bestelling {orderId} nu niet mogelijk, dus er is niets gewijzigd.",
    "rejected.ORDER_NOT_FOUND": "Ik kon bestelling {orderId} niet vinden, dus er is niets gewijzigd. Controleer het bestelnummer.",
    "rejected.VERSION_CONFLICT":
      "Ik kon bestelling {orderId} niet wijzigen: ze veranderde terwijl ik ermee bezig was. Ik moet haar eerst opnieuw bekijken voordat ik het nog eens probeer.",
    "rejected.SELLER_SUSPENDED":
      "De verkoper van bestelling {orderId} kan op dit moment geen vervangingen versturen. Een retour is nog steeds mogelijk.",
    "rejected.OUT_OF_STOCK":
      "Ik kon geen vervanging regelen voor bestelling {orderId}: er is geen voorraad meer. Een retour is nog steeds mogelijk.",
    "rejected.NO_PICKUP_SLOT":
      "Er is die dag geen ophaalmoment van de vervoerder beschikbaar voor bestelling {orderId}, dus de retour is niet gestart.{datesKnown, select, yes { Dagen met ruimte: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "Ik kon bestelling {orderId} niet wijzigen: u hebt voorlopig het maximale aantal wijzigingen gedaan.{wait, select, known { Probeer het over ongeveer {count, plural, one {{minutes} minuut} other {{minutes} minuten}} opnieuw.} other { Probeer het later opnieuw.}}",
    "rejected.other": "Voor bestelling {orderId} was {action} niet mogelijk; de bestelling is ongewijzigd.",
    unknown:
      "Ik heb {action} voor bestelling {orderId} aangevraagd, maar ik kan nog niet bevestigen of dat al is doorgevoerd. Ik controleer het en laat het u weten zodra ik het weet; u hoeft het niet opnieuw te vragen.",
    mismatch:
      "Ik controleer het verzoek ({action} voor bestelling {orderId}): het antwoord dat ik kreeg hoorde bij een ander verzoek, dus ik kan het nog niet bevestigen.",
    clarification: "In dit gesprek is meer dan één bestelling genoemd: {list}. Welke bestelling bedoelt u?",
    sellerTitles: "door de verkoper {titles} genoemd",
    "list.and": "{first} en {last}",
    declined: "Goed, bestelling {orderId} blijft zoals ze is.",
    expired:
      "Die bevestiging voor bestelling {orderId} is verlopen, dus er is niets verstuurd. Vraag het opnieuw als u de wijziging nog wilt.",
    noChange: "Ik heb niets aan uw bestellingen gewijzigd.",
    modelFailed: "Het is me nu niet gelukt dat af te ronden.",
    bound:
      "Ik moest stoppen voordat ik klaar was, omdat {limit, select, tool_calls {er meer nodig was dan de {value} stappen die ik per bericht kan zetten} other {het langer duurde dan de {value} seconden die ik per bericht heb}}.",
    "fact.status":
      "{status, select, placed {Bestelling {orderId} is geplaatst en wacht op verwerking.} processing {Bestelling {orderId} wordt verwerkt.} dispatching {Bestelling {orderId} wordt klaargemaakt voor verzending.} shipped {Bestelling {orderId} is verzonden.} delivered {{deliveredKnown, select, yes {Bestelling {orderId} is op {deliveredOn} bezorgd.} other {Bestelling {orderId} is bezorgd.}}} cancelled {Bestelling {orderId} is geannuleerd.} other {Bestelling {orderId} heeft de status {status}.}}",
    "fact.placed": "Bestelling {orderId} is geplaatst op {placedOn}.",
    "fact.tracking":
      "{state, select, none {Bestelling {orderId} gaat met {carrier}; er is nog geen trackingnummer.} expired {Bestelling {orderId}: {carrier}, trackingnummer {trackingId}; de vervoerder bewaart scans {days} dagen na bezorging, dus die zijn er niet meer.} other {Bestelling {orderId}: {carrier}, trackingnummer {trackingId}, {scan, select, in_transit {onderweg} awaiting_dispatch {wacht op de vervoerder} delivered {bezorgd} cancelled {geannuleerd} other {nog niet gescand}}{scanKnown, select, yes {, laatst gescand op {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × ‘{title}’",
    "fact.items":
      "Bestelling {orderId} bevat {items}{more, plural, =0 {} one { en nog # artikel} other { en nog # artikelen}}{words, select, marketplace {, verkocht door ‘{seller}’: titels en naam zoals de verkoper ze schreef} seller {: titels zoals de verkoper ze schreef} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {artikelen} delivery {verzending} other {overig}})",
    "fact.amounts": "De kosten van bestelling {orderId} komen op {total}{breakdown, select, yes {: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {Een retour van bestelling {orderId} kan tot {until} worden gestart.} closed {De retourtermijn van bestelling {orderId} is op {until} verlopen.} other {Zodra bestelling {orderId} is bezorgd, kan binnen {days, plural, one {# dag} other {# dagen}} een retour worden gestart.}}",
    "fact.return":
      "Een retour van {items} uit bestelling {orderId} is geboekt: de vervoerder haalt op {date} op, {window}. Het retourlabel is {label}.",
    "fact.note":
      "Bestelling {orderId} heeft een bezorginstructie voor de vervoerder: ‘{note}’{by, select, customer { (geschreven door de klant)} support { (geschreven door de klantenservice)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {Ik kan nu niets wijzigen aan bestelling {orderId}.} other {Voor bestelling {orderId} kan ik nog: {actions}.}}",
    "possible.cancel_order": "haar annuleren",
    "possible.add_delivery_note": "de bezorginstructie wijzigen",
    "possible.start_return": "een retour starten",
    "possible.offer_replacement": "een vervanging voor een artikel sturen",
    "fact.more": "{count, plural, one {Er kwam ook nog # bestelling naar voren} other {Er kwamen ook nog # bestellingen naar voren}}.",
    unreachable: "Uw bestellingen waren op dit moment niet bereikbaar.",
  },
  pl: {
    "completed.cancel_order": "Zamówienie {orderId} zostało anulowane.",
    "completed.add_delivery_note": "Wskazówka dla kuriera do zamówienia {orderId} została zapisana i trafi do przewoźnika.",
    "completed.start_return":
      "Zwrot {itemsKnown, select, yes {{items}} other {produktów}} z zamówienia {orderId} został zarejestrowany{pickup, select, window {: kurier odbierze przesyłkę {date}, {window}} date {: kurier odbierze przesyłkę {date}} other {}}.{labelKnown, select, yes { Twoja etykieta zwrotna to {label}.} other {}}",
    "completed.offer_replacement":
      "Produkt zastępczy za {itemKnown, select, yes {{item}} other {ten produkt}} z zamówienia {orderId} został zarezerwowany i dodany do zamówienia{lineKnown, select, yes { jako {line}} other {}}.",
    "completed.other": "Zmiana w zamówieniu {orderId} została wprowadzona.",
    "action.search_orders": "wyszukiwanie zamówień",
    "action.get_order": "odczyt zamówienia",
    "action.cancel_order": "anulowanie",
    "action.add_delivery_note": "ustawienie wskazówki dla kuriera",
    "action.start_return": "zwrot",
    "action.offer_replacement": "wysłanie produktu zastępczego",
    "action.get_operation_status": "sprawdzenie",
    "rejected.ALREADY_SHIPPED":
      "Zamówienie {orderId} zostało już wysłane, więc nie można go już anulować. Po jego dostarczeniu możliwy będzie zwrot.",
    "rejected.DISPATCH_STARTED":
      "Wysyłka zamówienia {orderId} już się rozpoczęła, więc wskazówki dla kuriera nie można już zmienić. Instrukcje można ewentualnie zostawić w systemie śledzenia przesyłek przewoźnika.",
    "rejected.ALREADY_CANCELLED": "Zamówienia {orderId} nie można anulować ponownie: zostało anulowane już przed tą prośbą.",
    "rejected.NOT_DELIVERED":
      "Zamówienie {orderId} nie zostało jeszcze dostarczone, więc operacja „{action}” nie jest teraz możliwa. Będzie możliwa po dostarczeniu.",
    "rejected.RETURN_WINDOW_CLOSED":
      "Termin zwrotu zamówienia {orderId} minął, więc operacja „{action}” nie jest już możliwa. Nic nie zostało zmienione.",
    "rejected.ITEM_ALREADY_RETURNED": "Tego produktu z zamówienia {orderId} nie można zwrócić ponownie: jest już w trakcie zwrotu.",
    "rejected.ITEM_ALREADY_REPLACED":
      "Tego produktu z zamówienia {orderId} nie można wymienić ponownie: produkt zastępczy został już wcześniej zorganizowany.",
    "rejected.REPLACEMENT_LINE":
      "Ten produkt z zamówienia {orderId} sam jest produktem zastępczym, więc nie można go tutaj wymienić ani zwrócić; musi się tym zająć ktoś z naszego zespołu. Nic nie zostało zmienione.",
    "rejected.UNKNOWN_ITEM":
      "Tego produktu nie ma w zamówieniu {orderId}, więc nic nie zmieniłem. Sprawdź produkty w zamówieniu i napisz, o który chodzi.",
    "rejected.NOT_ELIGIBLE": "W przypadku zamówienia {orderId} nie jest to teraz możliwe, więc nic nie zostało zmienione.",
    "rejected.ORDER_NOT_FOUND": "Nie znalazłem zamówienia {orderId}, więc nic nie zostało zmienione. Sprawdź numer zamówienia.",
    "rejected.VERSION_CONFLICT":
      "Nie udało się zmienić zamówienia {orderId}: zmieniło się w trakcie mojej pracy nad nim. Muszę je ponownie sprawdzić, zanim spróbuję jeszcze raz.",
    "rejected.SELLER_SUSPENDED":
      "Sprzedawca zamówienia {orderId} nie może obecnie wysyłać produktów zastępczych. Zwrot jest nadal możliwy.",
    "rejected.OUT_OF_STOCK":
      "Nie udało się zorganizować produktu zastępczego dla zamówienia {orderId}: nie ma go już na stanie. Zwrot jest nadal możliwy.",
    "rejected.NO_PICKUP_SLOT":
      "W tym dniu nie ma dostępnego odbioru przez kuriera dla zamówienia {orderId}, więc zwrot nie został rozpoczęty.{datesKnown, select, yes { Dni z wolnymi terminami: {dates}.} other {}}",
    "rejected.RATE_LIMITED":
      "Nie udało się zmienić zamówienia {orderId}: na razie wykorzystano limit dozwolonych zmian.{wait, select, known { Spróbuj ponownie za około {count, plural, one {{minutes} minutę} few {{minutes} minuty} many {{minutes} minut} other {{minutes} minuty}}.} other { Spróbuj ponownie później.}}",
    "rejected.other": "Nie udało się wykonać operacji „{action}” dla zamówienia {orderId}; zamówienie pozostaje bez zmian.",
    unknown:
      "Operacja „{action}” dla zamówienia {orderId} została zlecona, ale nie mogę jeszcze potwierdzić, czy przyniosła skutek. Sprawdzam to i dam znać, gdy tylko będę wiedzieć; nie trzeba prosić ponownie.",
    mismatch:
      "Sprawdzam operację „{action}” dla zamówienia {orderId}: otrzymana odpowiedź dotyczyła innego żądania, więc nie mogę jej jeszcze potwierdzić.",
    clarification: "W tej rozmowie pojawiło się więcej niż jedno zamówienie: {list}. O które zamówienie chodzi?",
    sellerTitles: "nazwane przez sprzedawcę {titles}",
    "list.and": "{first} i {last}",
    declined: "Dobrze, zamówienie {orderId} pozostaje bez zmian.",
    expired:
      "To potwierdzenie dla zamówienia {orderId} wygasło, więc nic nie zostało wysłane. Poproś ponownie, jeśli nadal chcesz tej zmiany.",
    noChange: "Nie zmieniłem niczego w Twoich zamówieniach.",
    modelFailed: "Nie udało mi się teraz tego dokończyć.",
    bound:
      "Musiałem przerwać przed zakończeniem, ponieważ {limit, select, tool_calls {potrzeba było więcej niż {value} kroków, które mogę wykonać w jednej wiadomości} other {trwało to dłużej niż {value} sekund, którymi dysponuję na jedną wiadomość}}.",
    "fact.status":
      "{status, select, placed {Zamówienie {orderId} zostało złożone i czeka na realizację.} processing {Zamówienie {orderId} jest w realizacji.} dispatching {Zamówienie {orderId} jest przygotowywane do wysyłki.} shipped {Zamówienie {orderId} zostało wysłane.} delivered {{deliveredKnown, select, yes {Zamówienie {orderId} zostało dostarczone {deliveredOn}.} other {Zamówienie {orderId} zostało dostarczone.}}} cancelled {Zamówienie {orderId} jest anulowane.} other {Zamówienie {orderId} ma status {status}.}}",
    "fact.placed": "Zamówienie {orderId} zostało złożone {placedOn}.",
    "fact.tracking":
      "{state, select, none {Zamówienie {orderId} pojedzie z {carrier}; nie ma jeszcze numeru przesyłki.} expired {Zamówienie {orderId}: {carrier}, numer przesyłki {trackingId}; przewoźnik przechowuje skany przez {days} dni po doręczeniu, więc już ich nie ma.} other {Zamówienie {orderId}: {carrier}, numer przesyłki {trackingId}, {scan, select, in_transit {w drodze} awaiting_dispatch {czeka na przewoźnika} delivered {doręczone} cancelled {anulowane} other {jeszcze niezeskanowane}}{scanKnown, select, yes {, ostatni skan {scanOn}} other {}}.}}",
    "fact.item": "{quantity} × „{title}”",
    "fact.items":
      "Zamówienie {orderId} zawiera {items}{more, plural, =0 {} one { i jeszcze # artykuł} few { i jeszcze # artykuły} other { i jeszcze # artykułów}}{words, select, marketplace {, sprzedawca: „{seller}”; tytuły i nazwa w brzmieniu sprzedawcy} seller {; tytuły w brzmieniu sprzedawcy} other {}}.",
    "fact.charge": "{amount} ({kind, select, item {artykuły} delivery {dostawa} other {inne}})",
    "fact.amounts": "Opłaty za zamówienie {orderId} wynoszą łącznie {total}{breakdown, select, yes {: {charges}} other {}}.",
    "fact.returnWindow":
      "{state, select, open {Zwrot zamówienia {orderId} można rozpocząć do {until}.} closed {Termin zwrotu zamówienia {orderId} minął {until}.} other {Po doręczeniu zamówienia {orderId} zwrot można rozpocząć w ciągu {days, plural, one {# dnia} other {# dni}}.}}",
    "fact.return":
      "Zwrot {items} z zamówienia {orderId} jest zarejestrowany: przewoźnik odbierze go {date}, {window}. Etykieta zwrotna: {label}.",
    "fact.note":
      "Zamówienie {orderId} ma instrukcję dostawy dla przewoźnika: „{note}”{by, select, customer { (napisana przez klienta)} support { (napisana przez obsługę klienta)} other {}}.",
    "fact.possible":
      "{count, plural, =0 {Nie mogę teraz nic zmienić w zamówieniu {orderId}.} other {W zamówieniu {orderId} mogę jeszcze: {actions}.}}",
    "possible.cancel_order": "je anulować",
    "possible.add_delivery_note": "zmienić instrukcję dostawy",
    "possible.start_return": "rozpocząć zwrot",
    "possible.offer_replacement": "wysłać zamiennik artykułu",
    "fact.more":
      "{count, plural, one {Pojawiło się też # inne zamówienie} few {Pojawiły się też # inne zamówienia} other {Pojawiło się też # innych zamówień}}.",
    unreachable: "W tej chwili nie udało się uzyskać dostępu do Twoich zamówień.",
  },
};
