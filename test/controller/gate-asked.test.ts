import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newConversationState, noteReadResult } from "#controller/state/conversation";
import { gate } from "#controller/gate/gate";
import { askedTopics } from "#controller/gate/asked";
import { PrincipalMessage } from "#controller/guard/message";
import { supportedLocales, type Locale } from "#controller/i18n/locale";
import { questionWords, type Topic } from "#controller/i18n/questions";
import { defaultSeed } from "#eval/reply-generator";
import { questionTurns } from "#eval/reply-questions";

/**
 * What the turn is about decides what the reply tells (contract §8.2): when the model's prose is refused or absent,
 * the facts the person's question asks for, of the order the model opened — read from the person's own words by a
 * closed reading per language, never from the model's words or a title's.
 */

const today = "2026-12-01";
const orderId = "SU-51234";

function delivered(title: string) {
  return {
    orderId,
    status: "delivered",
    version: 3,
    placedAt: "2026-11-20T09:00:00Z",
    deliveredAt: "2026-11-26T14:00:00Z",
    seller: { id: "SLR-9000", name: "Sundry", type: "sundry", status: "active" },
    policy: { ref: "sundry/standard", returnWindowDays: 30, returnableUntil: "2026-12-26" },
    items: [{ itemId: "ITM-1", title, quantity: 1, unitCents: 2400, description: { origin: "sundry", reviewed: true, text: "x" } }],
    charges: [{ kind: "item", cents: 2400 }],
    totalCents: 2400,
    currency: "GBP",
    delivery: {
      carrier: "Parcelline",
      trackingId: "PL0042881",
      tracking: { available: true, status: "delivered", lastScanAt: "2026-11-26T14:00:00Z" },
      note: { origin: "customer", text: "Leave it with the concierge" },
    },
    returns: [],
    allowedActions: ["start_return"],
  };
}

function turn(question: string, candidate: string | undefined, title = "Electric kettle", locale: Locale = "en") {
  const state = newConversationState("c-asked");
  state.turns = 1;
  noteReadResult(state, "get_order", { orderId }, delivered(title), new PrincipalMessage(question));
  return gate({
    ...(candidate !== undefined ? { candidate } : {}),
    outcomes: [],
    orders: state.orders,
    today,
    turn: 1,
    locale,
    question,
  });
}

const told = (decision: ReturnType<typeof gate>) => decision.facts.filter((f) => decision.reply.includes(f.text)).map((f) => f.kind);

describe("the question picks the facts, when the model's prose is refused or absent", () => {
  it.each([
    ["What did I order?", "items"],
    ["How much did it cost?", "amounts"],
    ["Can I send it back?", "returnWindow"],
    ["When was it delivered?", "status"],
    ["What's the note on it?", "note"],
    ["When did I place it?", "placed"],
  ])("%s is answered with the %s fact, and nothing the question did not ask", (question, kind) => {
    for (const candidate of [undefined, "Great news, it's all sorted for you!"]) {
      const decision = turn(question, candidate);
      expect(told(decision)).toEqual([kind]);
      expect(decision.facts.find((f) => f.kind === kind)?.shown).toBe(true);
      // The rest stays in the turn's facts, for a card.
      expect(decision.facts.map((f) => f.kind)).toEqual(expect.arrayContaining(["status", "items", "amounts", "returnWindow", "note"]));
    }
  });

  it("a question in French about the price gets the amount in French, not the status", () => {
    const decision = turn("Bonjour, combien a coûté SU-51234 ?", undefined, "Bouilloire", "fr");
    expect(decision.reply).toMatch(/^Les frais de la commande SU-51234 s’élèvent à 24,00\s£(?:GB)?\.$/);
  });

  it("a title or the model's words never pick a fact: 'Returnable tablets, priced to pay' asked about where it is", () => {
    const title = "Returnable tablets, priced to pay, note the charge";
    fc.assert(
      fc.property(
        fc.constantFrom(`Your ${title} are lovely.`, `${orderId}: ${title}!`, "The refund and the note are sorted.", ""),
        (candidate) => {
          const decision = turn(`Where is ${orderId}?`, candidate, title);
          expect(told(decision)).toEqual(["status"]);
          expect(decision.reply).not.toMatch(/£|return|note for the carrier/);
        },
      ),
    );
  });
});

describe("the closed reading of a question, per language", () => {
  const filler = fc.stringMatching(/^[qxzvw]{3,7}$/);
  const entries = supportedLocales.flatMap((locale) =>
    (Object.entries(questionWords[locale]) as [Topic, readonly string[]][]).flatMap(([topic, phrases]) =>
      phrases.map((phrase) => ({ locale, topic, phrase })),
    ),
  );

  it("a phrase of a topic among words it does not know, and an order id, is read as that topic", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...entries),
        fc.array(filler, { maxLength: 4 }),
        fc.array(filler, { maxLength: 4 }),
        (e, before, after) => {
          const message = [...before, "SU-10387", e.phrase, ...after].join(" ");
          expect(askedTopics(message, e.locale).has(e.topic)).toBe(true);
        },
      ),
    );
  });

  it("words it does not know ask where the order is; a topic word inside another word is not read", () => {
    fc.assert(
      fc.property(fc.constantFrom(...supportedLocales), fc.array(filler, { maxLength: 6 }), (locale, words) => {
        expect([...askedTopics(words.join(" "), locale)]).toEqual(["where"]);
      }),
    );
    for (const word of ["tablets", "notebook", "costume", "itemised", "trackless", "returnee"])
      expect([...askedTopics(`${word} ${word}s`, "en")]).toEqual(["where"]);
  });
});

describe("the generated question set: where, what, how much, can I return, when delivered, the note × 8 languages × every status", () => {
  it("tells what was asked in at least 95% of turns, never more than one fact beyond it, and no false sentence", () => {
    const turns = questionTurns(defaultSeed);
    expect(turns.length).toBe(8 * 6 * 3 * 6 * 3);
    const reached = turns.filter((t) => t.reached).length;
    expect(reached / turns.length).toBeGreaterThanOrEqual(0.95);
    expect(turns.filter((t) => t.beyond > 1)).toEqual([]);
    expect(turns.filter((t) => t.falseShown)).toEqual([]);
    for (const locale of supportedLocales) {
      const own = turns.filter((t) => t.locale === locale);
      expect(own.filter((t) => t.reached).length / own.length, locale).toBeGreaterThanOrEqual(0.95);
    }
  });
});
