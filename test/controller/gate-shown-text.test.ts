import { describe, expect, it } from "vitest";
import { gate, type GateInput } from "#controller/gate/gate";
import type { OrderFacts, TurnOutcome } from "#controller/outcomes";
import { templateFor } from "#controller/gate/templates";

/**
 * The gate reads exactly the text the customer will see, and a claim is a claim in any mood (contract §8.2).
 * Each reply here reached the customer once: a claim hidden in a link target or behind a strikethrough, put as a
 * question, an offer or a subordinate clause, denied twice, made of two orders at once, or carried by a number.
 */

const shipped = "SU-51234";
const open = "SU-10387";
const today = "2026-12-01";
const orders: OrderFacts[] = [
  { orderId: shipped, status: "shipped", read: true, itemTitles: ["Electric kettle"], allowedActions: [] },
  { orderId: open, status: "processing", read: true, allowedActions: ["cancel_order", "add_delivery_note"] },
];
const cancelled = (orderId: string): TurnOutcome => ({
  kind: "completed",
  tool: "cancel_order",
  orderId,
  operationId: `op-${orderId}`,
  body: { status: "completed", orderId, orderVersion: 2, orderStatus: "cancelled" },
});
const refused = (orderId: string): TurnOutcome => ({
  kind: "rejected",
  tool: "cancel_order",
  orderId,
  operationId: `op-${orderId}`,
  code: "NOT_ELIGIBLE",
  reason: "ALREADY_SHIPPED",
  body: { error: { code: "NOT_ELIGIBLE", reason: "ALREADY_SHIPPED" } },
});
const unknown: TurnOutcome = { kind: "unknown", tool: "cancel_order", orderId: shipped, operationId: "op-u" };
const returnBooked: TurnOutcome = {
  kind: "completed",
  tool: "start_return",
  orderId: shipped,
  operationId: "op-r",
  body: {
    status: "completed",
    orderId: shipped,
    return: { returnId: "RET-1", itemIds: ["ITM-1"], labelRef: "RL-77", pickup: { date: "2026-12-02", window: "08:00-12:00" } },
  },
};
const run = (candidate: string, outcomes: TurnOutcome[], extra: Partial<GateInput> = {}) =>
  gate({ orders, today, candidate, outcomes, ...extra });

/** Not shown: the model's text was refused, and no part of what it hid reaches the customer. */
function expectRefused(candidate: string, outcomes: TurnOutcome[], hidden: RegExp) {
  const decision = run(candidate, outcomes);
  expect(decision.decision, `${candidate} → ${decision.reply}`).toBe("claim_mismatch");
  expect(decision.reply).not.toMatch(hidden);
}

describe("one text: what is read is what is shown", () => {
  const link = `Sorry about that [details](your order ${shipped} has been cancelled and your refund of £24 is on its way).`;
  it("a claim in a link's target is shown, so it is read: refused after a rejection, no change and an unknown outcome", () => {
    for (const outcomes of [[refused(shipped)], [], [unknown]]) expectRefused(link, outcomes, /refund|£24/);
  });

  it("a real link's target is shown beside its text and read", () => {
    expectRefused(`Sorry about that, [see your order](https://shop.example/${shipped}/cancelled).`, [refused(shipped)], /shop\.example/);
  });

  it("struck-through text is not shown, so 'is ~~not~~ cancelled' says cancelled", () => {
    expectRefused(`Your order ${shipped} is ~~not~~ cancelled.`, [refused(shipped)], /~~|not cancelled/);
  });

  it("HTML, footnotes and an emphasis inside a word are shown as they are read", () => {
    expectRefused(`Sorry. <span hidden>Order ${shipped} is cancelled.</span>`, [refused(shipped)], /span/);
    expectRefused(`Sorry about that.[^1]\n\n[^1]: https://shop.example/cancelled`, [refused(shipped)], /shop/);
    expectRefused(`Your order ${shipped} is can*cel*led.`, [refused(shipped)], /is can\*?cel/);
  });

  it("the model's markdown is shown as the plain text that was read", () => {
    const decision = run("**Thanks for waiting.** Is there _anything_ else I can help with?", [cancelled(shipped)]);
    expect(decision).toMatchObject({
      decision: "accepted",
      reply: `${templateFor(cancelled(shipped))} Thanks for waiting. Is there anything else I can help with?`,
    });
  });
});

describe("mood does not excuse a claim", () => {
  it("a claim beside a question, in an offer or a tag question, on a turn whose record does not support it", () => {
    expectRefused(`${shipped} is cancelled — is there anything else I can help you with?`, [], /cancelled/);
    expectRefused(`Shall I email you the confirmation that ${shipped} was cancelled?`, [], /email/);
    expectRefused(`Good news, I can confirm that ${shipped} was cancelled, right?`, [unknown], /Good news/);
  });

  it("a claim in a temporal or conditional clause, and in a hedge", () => {
    expectRefused(`When order ${shipped} was cancelled, the carrier was told.`, [refused(shipped)], /carrier was told/);
    expectRefused(`If ${open} has been cancelled, you will get an email.`, [], /email/);
    expectRefused(`I'm fairly sure ${shipped} might have been cancelled.`, [unknown], /fairly/);
  });

  it("a double negation affirms", () => {
    expectRefused(`There's no way order ${shipped} isn't cancelled.`, [refused(shipped)], /no way/);
  });
});

describe("every order, every quantifier", () => {
  const both = [cancelled(open), refused(shipped)];
  it("two orders named in one claim are each held to their own outcome", () => {
    expectRefused(`${open} and ${shipped} are both cancelled.`, both, /both/);
    expectRefused(`${open} is cancelled, and so is ${shipped}.`, both, /so is/);
    expectRefused(`${shipped} and ${open} are cancelled.`, both, /are cancelled/);
  });

  it("a quantifier reaches every order of the turn", () => {
    expectRefused("Both orders are cancelled.", both, /Both/);
    expectRefused("All your orders are cancelled.", both, /All/);
    expectRefused(`${open} is cancelled, the other one too.`, both, /other/);
  });

  it("each order's outcome is told by its own status sentence, whatever the model's summary of both", () => {
    const text = `${open} is cancelled, but ${shipped} could not be cancelled because it has already shipped.`;
    expect(run(text, both)).toMatchObject({
      reply: `${templateFor(cancelled(open))} ${templateFor(refused(shipped))}`,
      decision: "claim_mismatch",
    });
  });
});

describe("numbers are facts", () => {
  it("a time, a day count or an amount no record holds is refused", () => {
    expectRefused("The carrier collects it between 14:00 and 18:00, in 5 days.", [returnBooked], /14:00/);
    expectRefused("The carrier collects it tomorrow between 08:00 and 12:00, in 5 days.", [returnBooked], /5 days/);
    expectRefused("Your return label RL-77 covers 3 items.", [returnBooked], /3 items/);
  });

  it("the record's own date, window and label reach the customer in the status sentence, in the record's words", () => {
    const text = "The carrier collects it tomorrow between 08:00 and 12:00, and your label is RL-77.";
    const decision = run(text, [returnBooked]);
    expect(decision.reply).toBe(templateFor(returnBooked));
    expect(decision.reply).toMatch(/2026-12-02, 08:00-12:00\. Your return label is RL-77\.$/);
  });
});

describe("the held change: text beside the application's question", () => {
  const waiting: TurnOutcome = {
    kind: "awaiting_confirmation",
    tool: "cancel_order",
    orderId: open,
    operationId: "op-w",
    question: `Shall I cancel order ${open}? Reply yes to confirm.`,
  };
  it("may not describe the change differently or urge a yes", () => {
    for (const text of [
      `I'll cancel ${shipped} once you confirm.`,
      "Please confirm quickly, or it will ship.",
      `I'll also set a delivery note on ${open}.`,
      "Just say yes and it is done.",
    ]) {
      const decision = run(text, [waiting]);
      expect(decision.reply, text).toBe(waiting.question);
    }
  });
});

describe("a reply in another language: read in that language", () => {
  it("its claims are dropped and its courtesy in that language kept, where it stands", () => {
    const decision = run(`Ihre Bestellung ${open} wurde storniert. Kann ich Ihnen sonst noch helfen?`, [cancelled(open)], { locale: "de" });
    expect(decision).toMatchObject({
      decision: "claim_mismatch",
      reply: `Bestellung ${open} ist storniert. Kann ich Ihnen sonst noch helfen?`,
      kept: ["Kann ich Ihnen sonst noch helfen?"],
    });
    expect(decision.reply.startsWith(templateFor(cancelled(open), "de"))).toBe(true);
    expect(run(`Bestellung ${shipped} wurde storniert.`, [refused(shipped)], { locale: "de" }).reply).toBe(
      `Bestellung ${shipped} wurde bereits versandt und kann daher nicht mehr storniert werden. Sobald sie zugestellt ist, ist eine Rücksendung möglich.`,
    );
    // A claim the gate cannot read for change, on a turn that changed nothing: it says so, then the courtesy.
    expect(run("Alles erledigt! Vielen Dank!", [], { locale: "de" }).reply).toBe(
      "Ich habe an Ihren Bestellungen nichts geändert. Vielen Dank!",
    );
    expect(run("Vielen Dank!", [], { locale: "de" })).toMatchObject({ decision: "accepted", reply: "Vielen Dank!" });
    // Courtesy is read whole: a thanks with a claim after its comma is a claim.
    expect(run(`Vielen Dank, Bestellung ${open} ist storniert.`, [], { locale: "de" }).kept).toEqual([]);
  });
});
