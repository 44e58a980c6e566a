import type { ChangeToolName } from "#contract/tools";
import type { Catalogue } from "#controller/i18n/format";

/**
 * The texts the controller writes itself, outside the gate's status sentences: the confirmation question of a
 * held change (contract §8.5), one `question.<tool>` per changing tool and one for a note whose words are not the
 * principal's; the names of a return's or a replacement's reason inside it; and the progress lines a turn streams.
 * One ICU MessageFormat pattern per key and locale; `{titles}`, `{items}`, `{reason}` and `{date}` are values, and
 * whether each is there is a select, so no sentence is built by joining strings.
 */
export type ConfirmationKey =
  | `question.${ChangeToolName}`
  | "noteUnquoted"
  | "notUnderstood"
  | "messageTooLong"
  | "item"
  | "quoted"
  | "reason"
  | "progressSearching"
  | "progressReading"
  | "progressSending"
  | "progressChecking"
  | "progressCheckingEarlier";

const reasonsEn =
  "{reason, select, damaged {damaged} wrong_item {wrong item} not_as_described {not as described} no_longer_needed {no longer needed} missing {missing} other {other}}";

export const confirmationMessages: Catalogue<ConfirmationKey> = {
  en: {
    "question.cancel_order":
      "Shall I cancel order {orderId}{hasTitles, select, yes { ({titles})} seller { (items listed by the seller as {titles})} other {}}? Reply {yes} to confirm.",
    "question.add_delivery_note": "Shall I set the delivery note on order {orderId} to “{note}”? Reply {yes} to confirm.",
    noteUnquoted:
      "Shall I set a delivery note on order {orderId}? Some of the proposed wording did not come from you, so I won't send it as it is: reply with the exact words you want on the note.",
    notUnderstood:
      "I couldn't read your answer as a yes or a no to the question about order {orderId}. To confirm, reply “{yes} {orderId}”; to leave it, reply “no”.",
    messageTooLong:
      "Your message is too long for me to read ({length} characters; I can read up to {limit}). Nothing was changed: please send a shorter message.",
    "question.start_return":
      "Shall I start a return of {items} on order {orderId}{hasReason, select, yes { (reason: {reason})} other {}}{hasDate, select, yes {, collected on {date}} other {}}? Reply {yes} to confirm.",
    "question.offer_replacement":
      "Shall I send a replacement for {items} on order {orderId}{hasReason, select, yes { (reason: {reason})} other {}}? Reply {yes} to confirm.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (listed by the seller as {title})} other {}}",
    quoted: "“{text}”",
    reason: reasonsEn,
    progressSearching: "Looking for your orders…",
    progressReading: "Looking up {orderId}…",
    progressSending: "Sending your request for {orderId}…",
    progressChecking: "Checking on your request for {orderId}…",
    progressCheckingEarlier: "Checking on your earlier request for {orderId}…",
  },
  de: {
    "question.cancel_order":
      "Soll ich die Bestellung {orderId}{hasTitles, select, yes { ({titles})} seller { (Artikel vom Verkäufer als {titles} bezeichnet)} other {}} stornieren? Antworten Sie mit „{yes}“, um zu bestätigen.",
    "question.add_delivery_note":
      "Soll ich die Lieferanweisung für die Bestellung {orderId} auf „{note}“ setzen? Antworten Sie mit „{yes}“, um zu bestätigen.",
    noteUnquoted:
      "Soll ich eine Lieferanweisung für die Bestellung {orderId} setzen? Ein Teil des vorgeschlagenen Wortlauts stammt nicht von Ihnen, daher sende ich ihn so nicht: Antworten Sie mit genau dem Text, der in der Anweisung stehen soll.",
    notUnderstood:
      "Ich konnte Ihre Antwort nicht als Ja oder Nein zur Frage zur Bestellung {orderId} verstehen. Zum Bestätigen antworten Sie „{yes} {orderId}“, sonst „Nein“.",
    messageTooLong:
      "Ihre Nachricht ist zu lang ({length} Zeichen; ich kann bis zu {limit} lesen). Es wurde nichts geändert: Bitte senden Sie eine kürzere Nachricht.",
    "question.start_return":
      "Soll ich eine Rücksendung von {items} aus der Bestellung {orderId}{hasReason, select, yes { (Grund: {reason})} other {}}{hasDate, select, yes {, Abholung am {date}} other {}} starten? Antworten Sie mit „{yes}“, um zu bestätigen.",
    "question.offer_replacement":
      "Soll ich einen Ersatz für {items} aus der Bestellung {orderId}{hasReason, select, yes { (Grund: {reason})} other {}} senden? Antworten Sie mit „{yes}“, um zu bestätigen.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (vom Verkäufer als {title} bezeichnet)} other {}}",
    quoted: "„{text}“",
    reason:
      "{reason, select, damaged {beschädigt} wrong_item {falscher Artikel} not_as_described {nicht wie beschrieben} no_longer_needed {nicht mehr benötigt} missing {fehlt} other {anderer Grund}}",
    progressSearching: "Ich suche Ihre Bestellungen…",
    progressReading: "Ich sehe mir {orderId} an…",
    progressSending: "Ich sende Ihre Anfrage für {orderId}…",
    progressChecking: "Ich prüfe Ihre Anfrage für {orderId}…",
    progressCheckingEarlier: "Ich prüfe Ihre frühere Anfrage für {orderId}…",
  },
  fr: {
    "question.cancel_order":
      "Dois-je annuler la commande {orderId}{hasTitles, select, yes { ({titles})} seller { (articles intitulés {titles} par le vendeur)} other {}} ? Répondez {yes} pour confirmer.",
    "question.add_delivery_note":
      "Dois-je définir la consigne de livraison de la commande {orderId} sur « {note} » ? Répondez {yes} pour confirmer.",
    noteUnquoted:
      "Dois-je ajouter une consigne de livraison à la commande {orderId} ? Une partie du texte proposé ne vient pas de vous, je ne l'enverrai donc pas tel quel : répondez avec les mots exacts que vous voulez dans la consigne.",
    notUnderstood:
      "Je n'ai pas compris votre réponse comme un oui ou un non à la question sur la commande {orderId}. Pour confirmer, répondez « {yes} {orderId} » ; sinon, répondez « non ».",
    messageTooLong:
      "Votre message est trop long ({length} caractères ; je peux en lire jusqu'à {limit}). Rien n'a été modifié : merci d'envoyer un message plus court.",
    "question.start_return":
      "Dois-je lancer le retour de {items} de la commande {orderId}{hasReason, select, yes { (motif : {reason})} other {}}{hasDate, select, yes {, enlèvement le {date}} other {}} ? Répondez {yes} pour confirmer.",
    "question.offer_replacement":
      "Dois-je envoyer un remplacement pour {items} de la commande {orderId}{hasReason, select, yes { (motif : {reason})} other {}} ? Répondez {yes} pour confirmer.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (intitulé {title} par le vendeur)} other {}}",
    quoted: "« {text} »",
    reason:
      "{reason, select, damaged {endommagé} wrong_item {mauvais article} not_as_described {non conforme à la description} no_longer_needed {plus nécessaire} missing {manquant} other {autre}}",
    progressSearching: "Je recherche vos commandes…",
    progressReading: "Je consulte {orderId}…",
    progressSending: "J'envoie votre demande pour {orderId}…",
    progressChecking: "Je vérifie votre demande pour {orderId}…",
    progressCheckingEarlier: "Je vérifie votre demande précédente pour {orderId}…",
  },
  es: {
    "question.cancel_order":
      "¿Cancelo el pedido {orderId}{hasTitles, select, yes { ({titles})} seller { (artículos que el vendedor llama {titles})} other {}}? Responda {yes} para confirmar.",
    "question.add_delivery_note": "¿Pongo la nota de entrega del pedido {orderId} como «{note}»? Responda {yes} para confirmar.",
    noteUnquoted:
      "¿Añado una nota de entrega al pedido {orderId}? Parte del texto propuesto no es suyo, así que no lo enviaré tal cual: responda con las palabras exactas que quiere en la nota.",
    notUnderstood:
      "No he entendido su respuesta como un sí o un no a la pregunta sobre el pedido {orderId}. Para confirmar, responda «{yes} {orderId}»; si no, responda «no».",
    messageTooLong:
      "Su mensaje es demasiado largo ({length} caracteres; puedo leer hasta {limit}). No se ha cambiado nada: envíe un mensaje más corto.",
    "question.start_return":
      "¿Inicio la devolución de {items} del pedido {orderId}{hasReason, select, yes { (motivo: {reason})} other {}}{hasDate, select, yes {, con recogida el {date}} other {}}? Responda {yes} para confirmar.",
    "question.offer_replacement":
      "¿Envío un reemplazo de {items} del pedido {orderId}{hasReason, select, yes { (motivo: {reason})} other {}}? Responda {yes} para confirmar.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (que el vendedor llama {title})} other {}}",
    quoted: "«{text}»",
    reason:
      "{reason, select, damaged {dañado} wrong_item {artículo equivocado} not_as_described {no coincide con la descripción} no_longer_needed {ya no lo necesito} missing {falta} other {otro}}",
    progressSearching: "Buscando sus pedidos…",
    progressReading: "Consultando {orderId}…",
    progressSending: "Enviando su solicitud para {orderId}…",
    progressChecking: "Comprobando su solicitud para {orderId}…",
    progressCheckingEarlier: "Comprobando su solicitud anterior para {orderId}…",
  },
  it: {
    "question.cancel_order":
      "Devo annullare l'ordine {orderId}{hasTitles, select, yes { ({titles})} seller { (articoli che il venditore chiama {titles})} other {}}? Rispondi {yes} per confermare.",
    "question.add_delivery_note": "Devo impostare la nota di consegna dell'ordine {orderId} su «{note}»? Rispondi {yes} per confermare.",
    noteUnquoted:
      "Devo aggiungere una nota di consegna all'ordine {orderId}? Parte del testo proposto non viene da te, quindi non lo invierò così: rispondi con le parole esatte che vuoi nella nota.",
    notUnderstood:
      "Non ho capito la sua risposta come un sì o un no alla domanda sull'ordine {orderId}. Per confermare, risponda «{yes} {orderId}»; altrimenti, risponda «no».",
    messageTooLong:
      "Il suo messaggio è troppo lungo ({length} caratteri; posso leggerne fino a {limit}). Non è stato modificato nulla: invii un messaggio più breve.",
    "question.start_return":
      "Devo avviare il reso di {items} dell'ordine {orderId}{hasReason, select, yes { (motivo: {reason})} other {}}{hasDate, select, yes {, ritiro il {date}} other {}}? Rispondi {yes} per confermare.",
    "question.offer_replacement":
      "Devo inviare una sostituzione per {items} dell'ordine {orderId}{hasReason, select, yes { (motivo: {reason})} other {}}? Rispondi {yes} per confermare.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (che il venditore chiama {title})} other {}}",
    quoted: "«{text}»",
    reason:
      "{reason, select, damaged {danneggiato} wrong_item {articolo sbagliato} not_as_described {non conforme alla descrizione} no_longer_needed {non più necessario} missing {mancante} other {altro}}",
    progressSearching: "Cerco i tuoi ordini…",
    progressReading: "Controllo {orderId}…",
    progressSending: "Invio la tua richiesta per {orderId}…",
    progressChecking: "Verifico la tua richiesta per {orderId}…",
    progressCheckingEarlier: "Verifico la tua richiesta precedente per {orderId}…",
  },
  pt: {
    "question.cancel_order":
      "Devo cancelar a encomenda {orderId}{hasTitles, select, yes { ({titles})} seller { (artigos que o vendedor chama {titles})} other {}}? Responda {yes} para confirmar.",
    "question.add_delivery_note": "Devo definir a nota de entrega da encomenda {orderId} como «{note}»? Responda {yes} para confirmar.",
    noteUnquoted:
      "Devo adicionar uma nota de entrega à encomenda {orderId}? Parte do texto proposto não veio de si, por isso não o enviarei assim: responda com as palavras exatas que quer na nota.",
    notUnderstood:
      "Não percebi a sua resposta como um sim ou um não à pergunta sobre a encomenda {orderId}. Para confirmar, responda «{yes} {orderId}»; caso contrário, responda «não».",
    messageTooLong:
      "A sua mensagem é demasiado longa ({length} caracteres; consigo ler até {limit}). Nada foi alterado: envie uma mensagem mais curta.",
    "question.start_return":
      "Devo iniciar a devolução de {items} da encomenda {orderId}{hasReason, select, yes { (motivo: {reason})} other {}}{hasDate, select, yes {, recolha a {date}} other {}}? Responda {yes} para confirmar.",
    "question.offer_replacement":
      "Devo enviar uma substituição para {items} da encomenda {orderId}{hasReason, select, yes { (motivo: {reason})} other {}}? Responda {yes} para confirmar.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (que o vendedor chama {title})} other {}}",
    quoted: "«{text}»",
    reason:
      "{reason, select, damaged {danificado} wrong_item {artigo errado} not_as_described {não corresponde à descrição} no_longer_needed {já não é necessário} missing {em falta} other {outro}}",
    progressSearching: "A procurar as suas encomendas…",
    progressReading: "A consultar {orderId}…",
    progressSending: "A enviar o seu pedido para {orderId}…",
    progressChecking: "A verificar o seu pedido para {orderId}…",
    progressCheckingEarlier: "A verificar o seu pedido anterior para {orderId}…",
  },
  nl: {
    "question.cancel_order":
      "Zal ik bestelling {orderId}{hasTitles, select, yes { ({titles})} seller { (artikelen door de verkoper {titles} genoemd)} other {}} annuleren? Antwoord {yes} om te bevestigen.",
    "question.add_delivery_note":
      "Zal ik de bezorginstructie van bestelling {orderId} instellen op ‘{note}’? Antwoord {yes} om te bevestigen.",
    noteUnquoted:
      "Zal ik een bezorginstructie aan bestelling {orderId} toevoegen? Een deel van de voorgestelde tekst komt niet van u, dus die verstuur ik niet zo: antwoord met de precieze woorden die u in de instructie wilt.",
    notUnderstood:
      "Ik kon uw antwoord niet lezen als ja of nee op de vraag over bestelling {orderId}. Antwoord „{yes} {orderId}” om te bevestigen, of „nee” om het zo te laten.",
    messageTooLong:
      "Uw bericht is te lang ({length} tekens; ik kan er tot {limit} lezen). Er is niets gewijzigd: stuur een korter bericht.",
    "question.start_return":
      "Zal ik een retour van {items} uit bestelling {orderId}{hasReason, select, yes { (reden: {reason})} other {}}{hasDate, select, yes {, ophalen op {date}} other {}} starten? Antwoord {yes} om te bevestigen.",
    "question.offer_replacement":
      "Zal ik een vervanging voor {items} uit bestelling {orderId}{hasReason, select, yes { (reden: {reason})} other {}} sturen? Antwoord {yes} om te bevestigen.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (door de verkoper {title} genoemd)} other {}}",
    quoted: "‘{text}’",
    reason:
      "{reason, select, damaged {beschadigd} wrong_item {verkeerd artikel} not_as_described {niet zoals beschreven} no_longer_needed {niet meer nodig} missing {ontbreekt} other {anders}}",
    progressSearching: "Ik zoek uw bestellingen…",
    progressReading: "Ik bekijk {orderId}…",
    progressSending: "Ik verstuur uw verzoek voor {orderId}…",
    progressChecking: "Ik controleer uw verzoek voor {orderId}…",
    progressCheckingEarlier: "Ik controleer uw eerdere verzoek voor {orderId}…",
  },
  pl: {
    "question.cancel_order":
      "Czy mam anulować zamówienie {orderId}{hasTitles, select, yes { ({titles})} seller { (produkty nazwane przez sprzedawcę {titles})} other {}}? Odpowiedz „{yes}”, aby potwierdzić.",
    "question.add_delivery_note":
      "Czy mam ustawić notatkę dla kuriera w zamówieniu {orderId} na „{note}”? Odpowiedz „{yes}”, aby potwierdzić.",
    noteUnquoted:
      "Czy mam dodać notatkę dla kuriera do zamówienia {orderId}? Część proponowanego tekstu nie pochodzi od Ciebie, więc nie wyślę go w tej postaci: odpowiedz dokładnymi słowami, które mają się znaleźć w notatce.",
    notUnderstood:
      "Nie zrozumiałem odpowiedzi jako „tak” lub „nie” na pytanie o zamówienie {orderId}. Aby potwierdzić, odpowiedz „{yes} {orderId}”; w przeciwnym razie odpowiedz „nie”.",
    messageTooLong:
      "Wiadomość jest za długa ({length} znaków; mogę przeczytać do {limit}). Nic nie zostało zmienione: proszę wysłać krótszą wiadomość.",
    "question.start_return":
      "Czy mam rozpocząć zwrot {items} z zamówienia {orderId}{hasReason, select, yes { (powód: {reason})} other {}}{hasDate, select, yes {, odbiór {date}} other {}}? Odpowiedz „{yes}”, aby potwierdzić.",
    "question.offer_replacement":
      "Czy mam wysłać zamiennik dla {items} z zamówienia {orderId}{hasReason, select, yes { (powód: {reason})} other {}}? Odpowiedz „{yes}”, aby potwierdzić.",
    item: "{itemId}{hasTitle, select, yes { ({title})} seller { (nazwany przez sprzedawcę {title})} other {}}",
    quoted: "„{text}”",
    reason:
      "{reason, select, damaged {uszkodzony} wrong_item {niewłaściwy produkt} not_as_described {niezgodny z opisem} no_longer_needed {już niepotrzebny} missing {brakujący} other {inny}}",
    progressSearching: "Szukam Twoich zamówień…",
    progressReading: "Sprawdzam {orderId}…",
    progressSending: "Wysyłam Twoją prośbę dotyczącą {orderId}…",
    progressChecking: "Sprawdzam Twoją prośbę dotyczącą {orderId}…",
    progressCheckingEarlier: "Sprawdzam Twoją wcześniejszą prośbę dotyczącą {orderId}…",
  },
};
