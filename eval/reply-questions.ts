import { type GateDecision, gate } from "#controller/gate/gate";
import { type FactKind, turnFacts } from "#controller/gate/facts";
import { newConversationState, noteReadResult } from "#controller/state/conversation";
import { PrincipalMessage } from "#controller/guard/message";
import type { OrderFacts } from "#controller/outcomes";
import { supportedLocales, type Locale } from "#controller/i18n/locale";
import { seededRandom } from "#local/seeded-random";
import { judgeTurnReply } from "#eval/judges/reply";
import { isCourtesy } from "#eval/judges/reply-reader";
import { item, order, today } from "#eval/reply-records";

/**
 * The generated question set (`npm run eval -- --replies`, contract §8.2): a person asks one thing about one order —
 * where it is, what they ordered, what it cost, whether it can go back, when it was delivered, what its note says —
 * in each of the eight languages, in several phrasings of their own, about an order of every status; the model read
 * the order with get_order and then wrote prose the gate refuses, no prose at all, or true prose (the facts asked,
 * as the application renders them). Per turn it measures:
 * - whether the information asked for is in the reply's text (a fact of a kind asked, of that order, told whole;
 *   a question whose kind the order lacks — a return on a cancelled order — is answered by its status);
 * - how many facts the reply's text tells beyond what was asked (at most one may be);
 * - whether the reply shows a false sentence: the judge fails it, or it keeps a sentence of refused prose.
 * The phrasings are the person's, written for this set; the gate reads them with its own closed reading.
 */

export type Question = "where" | "what" | "how much" | "can I return" | "when delivered" | "what is the note";
export const questions: readonly Question[] = ["where", "what", "how much", "can I return", "when delivered", "what is the note"];
type Prose = "refused" | "absent" | "true";
const proses: readonly Prose[] = ["refused", "absent", "true"];

/** How people ask each question, per language ({id}: the order). */
export const asked: Record<Locale, Record<Question, string[]>> = {
  en: {
    where: ["Where is my order {id}?", "Any news on {id}? When will it get here?", "Can you track {id} for me"],
    what: ["What did I order in {id}?", "Which items are on order {id}?", "Remind me what's in {id}, please"],
    "how much": ["How much did {id} cost?", "What did I pay for {id}?", "What was the total on {id}?"],
    "can I return": ["Can I return {id}?", "Is it too late to send {id} back?", "I'd like to know if I can still return {id}"],
    "when delivered": ["When was {id} delivered?", "Has {id} arrived yet?", "What day did {id} get delivered?"],
    "what is the note": ["What's the note on {id}?", "What delivery instructions did I leave for {id}?", "Remind me of the note on {id}"],
  },
  de: {
    where: ["Wo ist meine Bestellung {id}?", "Wann kommt {id} an?", "Können Sie {id} für mich verfolgen?"],
    what: ["Was habe ich mit {id} bestellt?", "Welche Artikel sind in {id}?", "Was ist in Bestellung {id}?"],
    "how much": ["Wie viel hat {id} gekostet?", "Was habe ich für {id} bezahlt?", "Wie hoch war der Betrag für {id}?"],
    "can I return": ["Kann ich {id} zurückgeben?", "Kann ich {id} noch zurückschicken?", "Ist eine Rücksendung von {id} möglich?"],
    "when delivered": ["Wann wurde {id} geliefert?", "Ist {id} schon angekommen?", "Wurde {id} schon zugestellt?"],
    "what is the note": [
      "Was steht in der Notiz zu {id}?",
      "Welche Lieferanweisung habe ich für {id} hinterlassen?",
      "Wie lautet der Hinweis für {id}?",
    ],
  },
  fr: {
    where: ["Où en est ma commande {id} ?", "Quand est-ce que {id} arrivera ?", "Pouvez-vous suivre {id} pour moi ?"],
    what: ["Qu'est-ce que j'ai commandé dans {id} ?", "Quels articles sont dans {id} ?", "Que contient la commande {id} ?"],
    "how much": ["Combien a coûté {id} ?", "Combien ai-je payé pour {id} ?", "Quel est le montant de {id} ?"],
    "can I return": [
      "Puis-je retourner {id} ?",
      "Est-il trop tard pour renvoyer {id} ?",
      "Je voudrais savoir si un retour de {id} est possible",
    ],
    "when delivered": ["Quand {id} a-t-elle été livrée ?", "Est-ce que {id} est arrivée ?", "{id} a-t-elle été livrée ?"],
    "what is the note": [
      "Quelle est la note sur {id} ?",
      "Quelles instructions de livraison ai-je laissées pour {id} ?",
      "Rappelez-moi la consigne pour {id}",
    ],
  },
  es: {
    where: ["¿Dónde está mi pedido {id}?", "¿Cuándo llega {id}?", "¿Me puede dar el seguimiento de {id}?"],
    what: ["¿Qué pedí en {id}?", "¿Qué artículos hay en {id}?", "¿Qué contiene el pedido {id}?"],
    "how much": ["¿Cuánto costó {id}?", "¿Cuánto pagué por {id}?", "¿Cuál fue el importe de {id}?"],
    "can I return": ["¿Puedo devolver {id}?", "¿Todavía puedo hacer una devolución de {id}?", "Quisiera saber si puedo devolver {id}"],
    "when delivered": ["¿Cuándo se entregó {id}?", "¿Ya llegó {id}?", "¿Fue entregado {id}?"],
    "what is the note": ["¿Cuál es la nota de {id}?", "¿Qué instrucciones de entrega dejé para {id}?", "Recuérdeme la nota de {id}"],
  },
  it: {
    where: ["Dov'è il mio ordine {id}?", "Quando arriva {id}?", "Potete darmi il tracciamento di {id}?"],
    what: ["Cosa ho ordinato con {id}?", "Quali articoli ci sono in {id}?", "Cosa contiene l'ordine {id}?"],
    "how much": ["Quanto è costato {id}?", "Quanto ho pagato per {id}?", "Qual è l'importo di {id}?"],
    "can I return": ["Posso restituire {id}?", "È troppo tardi per il reso di {id}?", "Vorrei sapere se posso ancora restituire {id}"],
    "when delivered": ["Quando è stato consegnato {id}?", "{id} è già arrivato?", "{id} è stato consegnato?"],
    "what is the note": ["Qual è la nota su {id}?", "Quali istruzioni di consegna ho lasciato per {id}?", "Mi ricordi la nota di {id}"],
  },
  pt: {
    where: ["Onde está a minha encomenda {id}?", "Quando chega a {id}?", "Pode dar-me o rastreio da {id}?"],
    what: ["O que encomendei na {id}?", "Quais artigos estão na {id}?", "O que contém a encomenda {id}?"],
    "how much": ["Quanto custou a {id}?", "Quanto paguei pela {id}?", "Qual foi o valor da {id}?"],
    "can I return": ["Posso devolver a {id}?", "Ainda dá para fazer a devolução da {id}?", "Gostava de saber se posso devolver a {id}"],
    "when delivered": ["Quando foi entregue a {id}?", "A {id} já chegou?", "A {id} foi entregue?"],
    "what is the note": ["Qual é a nota da {id}?", "Que instruções de entrega deixei para a {id}?", "Lembre-me da nota da {id}"],
  },
  nl: {
    where: ["Waar is mijn bestelling {id}?", "Wanneer komt {id} aan?", "Kunt u {id} voor me volgen?"],
    what: ["Wat heb ik besteld in {id}?", "Welke artikelen zitten in {id}?", "Wat zit er in bestelling {id}?"],
    "how much": ["Hoeveel kostte {id}?", "Wat heb ik voor {id} betaald?", "Wat was het bedrag van {id}?"],
    "can I return": ["Kan ik {id} retourneren?", "Kan ik {id} nog terugsturen?", "Is retour van {id} nog mogelijk?"],
    "when delivered": ["Wanneer is {id} bezorgd?", "Is {id} al aangekomen?", "Is {id} geleverd?"],
    "what is the note": [
      "Wat staat er in de notitie bij {id}?",
      "Welke bezorginstructie heb ik voor {id} gegeven?",
      "Wat was mijn instructie voor {id}?",
    ],
  },
  pl: {
    where: ["Gdzie jest moje zamówienie {id}?", "Kiedy dotrze {id}?", "Czy możecie sprawdzić śledzenie {id}?"],
    what: ["Co zamówiłem w {id}?", "Jakie produkty są w {id}?", "Co jest w zamówieniu {id}?"],
    "how much": ["Ile kosztowało {id}?", "Ile zapłaciłam za {id}?", "Jaka była kwota za {id}?"],
    "can I return": ["Czy mogę zwrócić {id}?", "Czy da się jeszcze odesłać {id}?", "Chciałbym wiedzieć, czy zwrot {id} jest możliwy"],
    "when delivered": ["Kiedy {id} zostało dostarczone?", "Czy {id} już dotarło?", "Czy {id} zostało doręczone?"],
    "what is the note": ["Jaka jest notatka do {id}?", "Jaką instrukcję dostawy zostawiłem dla {id}?", "Przypomnij mi notatkę do {id}"],
  },
};

/** What a person may open with, in their language (or nothing). */
const greetings: Record<Locale, string[]> = {
  en: ["", "Hi, ", "Hello! "],
  de: ["", "Hallo, ", "Guten Tag! "],
  fr: ["", "Bonjour, ", "Salut ! "],
  es: ["", "Hola, ", "Buenas tardes. "],
  it: ["", "Ciao, ", "Buongiorno! "],
  pt: ["", "Olá, ", "Bom dia! "],
  nl: ["", "Hallo, ", "Goedemiddag! "],
  pl: ["", "Cześć, ", "Dzień dobry! "],
};

/** Prose the gate refuses: a claim in the person's language that no fact of the record says. */
const refused: Record<Locale, string> = {
  en: "Good news: it's all sorted and on its way to you!",
  de: "Gute Nachrichten: alles ist erledigt und unterwegs zu Ihnen!",
  fr: "Bonne nouvelle : tout est réglé et en route vers vous !",
  es: "¡Buenas noticias: todo está resuelto y en camino!",
  it: "Buone notizie: è tutto sistemato e in arrivo!",
  pt: "Boas notícias: está tudo resolvido e a caminho!",
  nl: "Goed nieuws: alles is geregeld en onderweg!",
  pl: "Dobra wiadomość: wszystko załatwione i w drodze!",
};

/** The facts that answer each question; those beyond it the reply may tell at most one of. */
const answers: Record<Question, FactKind[]> = {
  where: ["status", "tracking"],
  what: ["items"],
  "how much": ["amounts"],
  "can I return": ["returnWindow", "return"],
  "when delivered": ["status"],
  "what is the note": ["note"],
};
/** The facts any one of which answers: the question's kinds the order has, else its status. */
function required(q: Question, kinds: ReadonlySet<FactKind>): FactKind[] {
  const has = answers[q].filter((k) => kinds.has(k));
  return has.length > 0 ? has : ["status"];
}

const statuses = ["placed", "processing", "dispatching", "shipped", "delivered", "cancelled"] as const;
type Status = (typeof statuses)[number];

/** A get_order answer for an order of each status: items, charges, a note, and what its status gives. */
function answerFor(status: Status, index: number): Record<string, unknown> {
  const orderId = `SU-7${String(index).padStart(4, "0")}`;
  const travels = status === "dispatching" || status === "shipped" || status === "delivered";
  return order(orderId, {
    status,
    placedAt: "2026-11-20T09:00:00Z",
    deliveredAt: status === "delivered" ? "2026-11-26T14:00:00Z" : null,
    policy: { ref: "sundry/standard", returnWindowDays: 30, returnableUntil: status === "delivered" ? "2026-12-26" : null },
    items: [item("ITM-1", "Linen duvet cover", 4500), item("ITM-2", "Pillowcase pair", 1800, 2)],
    charges: [
      { kind: "item", cents: 8100 },
      { kind: "delivery", cents: 495 },
    ],
    totalCents: 8595,
    delivery: {
      carrier: "Parcelline",
      trackingId: travels ? `PL00${70000 + index}` : null,
      tracking: {
        available: true,
        status:
          status === "delivered"
            ? "delivered"
            : status === "shipped"
              ? "in_transit"
              : status === "cancelled"
                ? "cancelled"
                : "awaiting_dispatch",
        lastScanAt: status === "shipped" || status === "delivered" ? "2026-11-25T10:00:00Z" : null,
      },
      note: { origin: "customer", text: "Leave it with the concierge" },
    },
    allowedActions:
      status === "delivered"
        ? ["start_return"]
        : status === "cancelled" || status === "shipped"
          ? []
          : ["cancel_order", "add_delivery_note"],
  });
}

interface Read {
  body: Record<string, unknown>;
  orders: OrderFacts[];
}
function read(status: Status, index: number): Read {
  const body = answerFor(status, index);
  const state = newConversationState(`questions-${status}`);
  state.turns = 1;
  noteReadResult(state, "get_order", { orderId: body.orderId }, body, new PrincipalMessage(""));
  return { body, orders: state.orders };
}

export interface QuestionTurn {
  locale: Locale;
  question: Question;
  status: Status;
  prose: Prose;
  message: string;
  reply: string;
  /** The information asked for is in the reply's text. */
  reached: boolean;
  /** Facts the reply's text tells beyond what was asked. */
  beyond: number;
  /** Why the reply shows a false sentence, if it does. */
  falseShown?: string;
}

/** Every turn of the set for one seed: language × question × phrasing × status × prose. */
export function questionTurns(seed: number): QuestionTurn[] {
  const next = seededRandom(seed ^ 0x2f6e2b1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const turns: QuestionTurn[] = [];
  const reads = statuses.map((s, i) => read(s, i + 1));
  for (const locale of supportedLocales as readonly Locale[])
    for (const question of questions)
      for (const phrasing of asked[locale][question])
        for (const [i, status] of statuses.entries()) {
          const { body, orders } = reads[i] as Read;
          const orderId = String(body.orderId);
          const said = `${pick(greetings[locale])}${phrasing.replace("{id}", orderId)}`;
          const message = next() < 0.3 ? said.toLowerCase().replace(/[?.!]+$/, "") : said;
          const facts = turnFacts({ outcomes: [], orders, turn: 1, today, locale });
          const kinds = new Set(facts.map((f) => f.kind));
          const must = required(question, kinds);
          for (const prose of proses) {
            const candidate =
              prose === "absent"
                ? undefined
                : prose === "refused"
                  ? refused[locale]
                  : [locale === "en" ? "Thanks for waiting." : "", ...facts.filter((f) => must.includes(f.kind)).map((f) => f.text)]
                      .join(" ")
                      .trim();
            const decision = gate({
              ...(candidate !== undefined ? { candidate } : {}),
              outcomes: [],
              orders,
              today,
              turn: 1,
              locale,
              question: message,
            });
            turns.push({
              locale,
              question,
              status,
              prose,
              message,
              reply: decision.reply,
              ...measure(decision, question, must, orderId, body, locale, prose),
            });
          }
        }
  return turns;
}

function measure(
  decision: GateDecision,
  question: Question,
  must: readonly FactKind[],
  orderId: string,
  body: Record<string, unknown>,
  locale: Locale,
  prose: Prose,
): Pick<QuestionTurn, "reached" | "beyond" | "falseShown"> {
  // The shown text writes a no-break space as a plain one: a fact the model copied is told all the same.
  const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
  const reply = spaced(decision.reply);
  const told = decision.facts.filter((f) => f.orderId === orderId && f.kind !== "outcome" && reply.includes(spaced(f.text)));
  const reached = told.some((f) => must.includes(f.kind));
  const allowed = new Set<FactKind>([...answers[question], ...must]);
  const beyond = new Set(told.filter((f) => !allowed.has(f.kind)).map((f) => f.kind)).size;
  const judged = judgeTurnReply(decision.reply, [], {
    visibleOrders: new Set([orderId]),
    reads: [body],
    today,
    awaiting: [],
    locale,
  }).problem;
  const keptClaim = prose === "refused" ? decision.kept.find((k) => !isCourtesy(k)) : undefined;
  const falseShown = judged ?? (keptClaim ? `kept ${JSON.stringify(keptClaim)}` : undefined);
  return { reached, beyond, ...(falseShown ? { falseShown } : {}) };
}

interface Row {
  key: string;
  turns: number;
  reached: number;
  overOne: number;
  falseShown: number;
}

const pct = (n: number, of: number) => (of === 0 ? "—" : `${(Math.round((1000 * n) / of) / 10).toFixed(1)}%`);

function rows(turns: readonly QuestionTurn[], keyOf: (t: QuestionTurn) => string): Row[] {
  const out = new Map<string, Row>();
  const all: Row = { key: "all", turns: 0, reached: 0, overOne: 0, falseShown: 0 };
  for (const t of turns) {
    const key = keyOf(t);
    const row = out.get(key) ?? { key, turns: 0, reached: 0, overOne: 0, falseShown: 0 };
    out.set(key, row);
    for (const r of [row, all]) {
      r.turns += 1;
      r.reached += t.reached ? 1 : 0;
      r.overOne += t.beyond > 1 ? 1 : 0;
      r.falseShown += t.falseShown ? 1 : 0;
    }
  }
  return [...out.values(), all];
}

function table(title: string, list: readonly Row[]): string[] {
  const head = [title, "turns", "information asked in the reply", "more than one fact beyond", "false sentence shown"];
  const lines = [
    head,
    ...list.map((r) => [r.key, String(r.turns), `${r.reached} (${pct(r.reached, r.turns)})`, String(r.overOne), String(r.falseShown)]),
  ];
  const widths = head.map((_, i) => Math.max(...lines.map((l) => (l[i] as string).length)));
  return lines.map((l) => l.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  "));
}

/** The question set's figures, per language and per question; passes at ≥ 95 % asked information told, no turn more than one fact beyond, no false sentence. */
export function runQuestionSet(seed: number, out: (line: string) => void): { pass: boolean; turns: QuestionTurn[] } {
  const turns = questionTurns(seed);
  const missed = turns.filter((t) => !t.reached || t.beyond > 1 || t.falseShown);
  for (const t of missed.slice(0, 10))
    out(
      `question (${t.locale}, ${t.question}, ${t.status}, prose ${t.prose}): ${JSON.stringify(t.message)} → ${JSON.stringify(t.reply)}${t.reached ? "" : " — the information asked is not told"}${t.beyond > 1 ? ` — ${t.beyond} facts beyond what was asked` : ""}${t.falseShown ? ` — false: ${t.falseShown}` : ""}`,
    );
  if (missed.length > 10) out(`… and ${missed.length - 10} more questions`);
  out(`questions (seed ${seed}), per language:`);
  for (const line of table(
    "language",
    rows(turns, (t) => t.locale),
  ))
    out(`  ${line}`);
  out("per question:");
  for (const line of table(
    "question",
    rows(turns, (t) => t.question),
  ))
    out(`  ${line}`);
  out("per prose:");
  for (const line of table(
    "prose",
    rows(turns, (t) => t.prose),
  ))
    out(`  ${line}`);
  const all = rows(turns, () => "all").at(-1) as Row;
  return { pass: all.reached >= 0.95 * all.turns && all.overOne === 0 && all.falseShown === 0, turns };
}
