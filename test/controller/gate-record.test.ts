import { describe, expect, it } from "vitest";
import { type ConversationState, newConversationState, noteReadResult } from "#controller/state/conversation";
import { gate } from "#controller/gate/gate";
import type { TurnOutcome } from "#controller/outcomes";
import { PrincipalMessage } from "#controller/guard/message";

/**
 * A reply states only what the record says (contract §8.2): each reply here is one a model plausibly writes. The
 * false ones were shown by the gate once — a symbol beside an order, an outcome verb the gate took for harmless,
 * another actor doing it, a question the model answers itself, a bare "yes", money on a turn that changed nothing,
 * words a seller's title made readable. The true ones were dropped, and the customer got "I haven't changed
 * anything" instead of what they asked. Now the facts come from the record, rendered by the application, and the
 * model's sentence stays only where it claims nothing the facts do not say.
 */

const today = "2026-12-01";
const shipped = "SU-51234";
const open = "SU-10387";
const marketplace = "SU-62001";

/** A get_order answer as the service gives it, with what a test changes. */
function orderBody(orderId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderId,
    status: "shipped",
    version: 3,
    placedAt: "2026-11-24T09:00:00Z",
    deliveredAt: null,
    seller: { id: "SLR-9000", name: "Sundry", type: "sundry", status: "active" },
    policy: { ref: "sundry/standard", returnWindowDays: 30, returnableUntil: null },
    items: [
      {
        itemId: "ITM-1",
        title: "Electric kettle",
        quantity: 1,
        unitCents: 2400,
        description: { origin: "sundry", reviewed: true, text: "A kettle." },
      },
    ],
    charges: [{ kind: "item", cents: 2400 }],
    totalCents: 2400,
    currency: "GBP",
    delivery: {
      carrier: "Parcelline",
      trackingId: "PL0042881",
      tracking: { available: true, status: "in_transit", lastScanAt: "2026-11-30T18:20:00Z" },
      note: null,
    },
    returns: [],
    allowedActions: [],
    ...over,
  };
}

/** The conversation after this turn's reads: what the controller keeps of each get_order answer. */
function afterReads(...bodies: Record<string, unknown>[]): ConversationState {
  const state = newConversationState("c-record");
  state.turns = 1;
  for (const body of bodies)
    noteReadResult(state, "get_order", { orderId: body.orderId }, body, new PrincipalMessage(`Where is ${String(body.orderId)}?`));
  return state;
}

const shippedOrder = orderBody(shipped);
const openOrder = orderBody(open, {
  status: "processing",
  delivery: {
    carrier: "Parcelline",
    trackingId: null,
    tracking: { available: true, status: "awaiting_dispatch", lastScanAt: null },
    note: null,
  },
  items: [
    {
      itemId: "ITM-1",
      title: "Wool throw",
      quantity: 1,
      unitCents: 5600,
      description: { origin: "sundry", reviewed: true, text: "Wool." },
    },
  ],
  charges: [{ kind: "item", cents: 5600 }],
  totalCents: 5600,
  allowedActions: ["cancel_order", "add_delivery_note"],
});
const sellerOrder = orderBody(marketplace, {
  status: "delivered",
  deliveredAt: "2026-11-28T15:40:00Z",
  seller: { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
  policy: { ref: "marketplace/default", returnWindowDays: 14, returnableUntil: "2026-12-12" },
  items: [
    {
      itemId: "ITM-1",
      title: "Merino throw, repaid in full if it pills",
      quantity: 1,
      unitCents: 6400,
      description: { origin: "seller", sellerId: "SLR-2210", reviewed: false, text: "Soft." },
    },
  ],
  charges: [{ kind: "item", cents: 6400 }],
  totalCents: 6400,
  allowedActions: ["start_return", "offer_replacement"],
});

const rejected: TurnOutcome = {
  kind: "rejected",
  tool: "cancel_order",
  orderId: shipped,
  operationId: "op-1",
  code: "NOT_ELIGIBLE",
  reason: "ALREADY_SHIPPED",
  body: { error: { code: "NOT_ELIGIBLE", reason: "ALREADY_SHIPPED" } },
};
const noteSaved: TurnOutcome = {
  kind: "completed",
  tool: "add_delivery_note",
  orderId: open,
  operationId: "op-2",
  body: {
    operationId: "op-2",
    status: "completed",
    orderId: open,
    orderVersion: 4,
    deliveryNote: { origin: "customer", text: "Side gate" },
  },
};
const unknown: TurnOutcome = { kind: "unknown", tool: "cancel_order", orderId: open, operationId: "op-3" };

function run(
  candidate: string,
  outcomes: TurnOutcome[],
  state: ConversationState = afterReads(shippedOrder, openOrder),
  question?: string,
) {
  return gate({ candidate, outcomes, orders: state.orders, today, turn: state.turns, ...(question !== undefined ? { question } : {}) });
}

/** The model's claim is not shown: no sentence of it reaches the customer. */
function expectNotShown(candidate: string, outcomes: TurnOutcome[], claim: string, state?: ConversationState, question?: string) {
  const decision = run(candidate, outcomes, state, question);
  expect(decision.reply, `${JSON.stringify(candidate)} was shown as ${JSON.stringify(decision.reply)}`).not.toContain(claim);
  expect(decision.decision).not.toBe("accepted");
  return decision;
}

describe("every character shown is read: a symbol beside an order claims something", () => {
  const symbols: [string, string][] = [
    [`${open} ✅`, "✅"],
    [`${open}: ✔`, "✔"],
    [`✓ ${open}`, "✓"],
    [`${open} → cancelled`, "→"],
    [`${open} ⟶ 📦`, "📦"],
    [`➡️ ${open}`, "➡"],
    ["✅", "✅"],
  ];
  for (const [text, symbol] of symbols) {
    it(`${JSON.stringify(text)} is not shown on a turn that changed nothing`, () => {
      expectNotShown(text, [], symbol);
    });
  }

  it("nor when it is written as an HTML entity that the markdown renderer decodes to the symbol", () => {
    for (const [text, symbol] of [
      [`${open} &#x2705;`, "✅"],
      [`${open}: &#10004;`, "✔"],
      [`${open} &check;`, "✓"],
      [`${open} &rarr; cancelled`, "→"],
    ] as const)
      expectNotShown(text, [], symbol);
  });
});

describe("a verb of state or movement is a claim, whatever words the gate once took for harmless", () => {
  for (const text of [
    `Good news: ${open} stays with us, it won't go out.`,
    "It stays with us.",
    "We'll keep it.",
    `We're keeping ${open} back for you.`,
    `${open} is no longer coming.`,
    "No longer coming.",
    `${open} won't be delivered.`,
    "It won't be delivered.",
    `${open} goes out today.`,
  ])
    it(`${JSON.stringify(text)} on a turn that changed nothing`, () => {
      expectNotShown(text, [], text.replace(/[.]$/, ""));
    });

  it(`"won't be delivered" after ALREADY_SHIPPED`, () => {
    expectNotShown(`${shipped} won't be delivered.`, [rejected], "won't be delivered");
    expectNotShown("It won't be delivered.", [rejected], "won't be delivered");
    expectNotShown("It stays with us.", [rejected], "stays with us");
  });
});

describe("another actor doing it is a claim", () => {
  for (const [text, claim] of [
    [`The carrier has picked up ${shipped} for return.`, "picked up"],
    [`The warehouse stopped ${open} before it left.`, "stopped"],
    [`The seller refunded you for ${shipped}.`, "refunded"],
    ["The warehouse kept it.", "kept it"],
    ["It's with the warehouse.", "with the warehouse"],
    ["The seller kept it.", "kept it"],
    ["The courier will bring it tomorrow.", "bring it tomorrow"],
  ])
    it(JSON.stringify(text), () => {
      expectNotShown(text as string, [], claim as string);
      expectNotShown(text as string, [rejected], claim as string);
      expectNotShown(text as string, [unknown], claim as string);
    });
});

describe("a question the model answers itself, and a bare yes, are claims", () => {
  it("the model asks its own question and answers it in the next sentence", () => {
    expectNotShown(`Is ${open} cancelled? Yes, it is.`, [], "Yes, it is");
    expectNotShown(`Has ${open} been cancelled? It has.`, [], "It has");
    expectNotShown("Did it go through? Yes, it did.", [], "Yes, it did");
    expectNotShown("Is it on its way? It is.", [rejected], "It is.");
  });

  it(`"Yes, it is." answering "Is my order cancelled yet?"`, () => {
    expectNotShown("Yes, it is.", [], "Yes, it is");
    expectNotShown("Yes, it is.", [unknown], "Yes, it is");
  });

  it(`"You'll get £24" on a turn that changed nothing`, () => {
    expectNotShown("You'll get £24.", [], "You'll get");
    expectNotShown("You'll get £24 back.", [rejected], "You'll get");
    // Money said in any words: the reply opens by saying nothing changed, whatever else it tells.
    const decision = run(`You will receive £24.00 within 5 days. Order ${shipped} is on its way.`, [], afterReads(shippedOrder));
    expect(decision.reply).toMatch(/^I haven't changed anything on your orders\./);
    expect(decision.reply).not.toContain("receive");
    expect(decision.reply).not.toContain("5 days");
  });
});

describe("text a seller wrote never makes a word readable", () => {
  it(`a title with "repaid in full" does not let "was repaid in full" through`, () => {
    const state = afterReads(sellerOrder);
    const decision = expectNotShown(`Your order ${marketplace} was repaid in full.`, [], "was repaid in full", state, "What did I order?");
    // The title itself may be named — cut, and said to be the seller's words — but never as the shop's claim.
    expect(decision.reply).toMatch(/^I haven't changed anything on your orders\./);
    expect(decision.reply).toContain(
      "“Merino throw, repaid in full if…”, sold by “Ashcombe Furniture”: titles and name as the seller wrote them",
    );
  });
});

describe("true replies reach the customer: as the model's sentence, or as the record's fact", () => {
  it('"where is my order?" is answered with the order\'s status and tracking, not "I haven\'t changed anything"', () => {
    const decision = run(
      `Your order ${shipped} is on its way with Parcelline and should arrive on Thursday.`,
      [],
      afterReads(shippedOrder),
    );
    expect(decision.reply).toContain(`Order ${shipped} has shipped.`);
    expect(decision.reply).toContain("PL0042881");
    expect(decision.reply).not.toContain("Thursday");
    expect(decision.reply).not.toContain("I haven't changed anything");
  });

  it("a shipped order explained with the words of the gate's own rejection sentence, on a turn that changed nothing", () => {
    const decision = run(
      `Order ${shipped} has already shipped. Once it is delivered, a return is possible.`,
      [],
      afterReads(shippedOrder),
      "Can I return it?",
    );
    // The first sentence says what the status fact says: it stays as written, and the fact is not told twice.
    expect(decision.reply).toContain(`Order ${shipped} has already shipped. `);
    expect(decision.reply).not.toContain(`Order ${shipped} has shipped.`);
    expect(decision.reply).toContain(`Once order ${shipped} is delivered, a return can be started within 30 days.`);
    expect(decision.kept).toEqual([`Order ${shipped} has already shipped.`]);
  });

  it("the same explanation after the refusal: the status sentence says it, and says it once", () => {
    const decision = run(`Order ${shipped} has already shipped, so it can no longer be cancelled.`, [rejected]);
    expect(decision.reply).toMatch(new RegExp(`^Order ${shipped} has already shipped, so it can no longer be cancelled\\.`));
    expect(decision.reply.match(/can no longer be cancelled/g)).toHaveLength(1);
  });

  it("an order still in progress described as such", () => {
    const decision = run("Your order is still in progress.", [], afterReads(openOrder));
    expect(decision.reply).toContain(`Order ${open} is being processed.`);
    expect(decision.reply).not.toMatch(/I haven't changed/);
    // "Where is it?" before it travels is its status: the model's sentence says it, and it is not told twice.
    expect(run(`Order ${open} is being processed.`, [], afterReads(openOrder), "Where is it?")).toMatchObject({
      decision: "accepted",
      reply: `Order ${open} is being processed.`,
    });
  });

  it(`an honest "I asked, and have no answer yet" while the outcome is unknown`, () => {
    const decision = run("I asked for the cancellation, and I have no answer yet.", [unknown]);
    expect(decision.reply).toMatch(/can't confirm yet whether that has taken effect/);
  });

  it("what the courier will do with a note: the note on the order, as the record holds it", () => {
    const withNote = orderBody(open, {
      status: "processing",
      delivery: {
        carrier: "Parcelline",
        trackingId: null,
        tracking: { available: true, status: "awaiting_dispatch", lastScanAt: null },
        note: { origin: "customer", text: "Side gate, please" },
      },
    });
    const decision = run("The courier will see your note when they deliver.", [], afterReads(withNote), "What's on my note?");
    expect(decision.reply).toContain(`Order ${open} has a delivery note for the carrier: “Side gate, please” (written by the customer).`);
    expect(run("The courier will see your note when they deliver.", [noteSaved]).reply).toMatch(/saved and will go to the carrier/);
  });

  it("the model's own 'which order?' beside the application's is asked once", () => {
    const clarification: TurnOutcome = {
      kind: "clarification",
      tool: "cancel_order",
      orderId: open,
      candidates: [{ orderId: open }, { orderId: shipped }],
    };
    const decision = run("Which order do you mean?", [clarification]);
    expect(decision.reply.match(/Which order do you mean\?/g)).toHaveLength(1);
    expect(decision.decision).toBe("accepted");
  });

  it("courtesy stays as the model wrote it", () => {
    const decision = run("Thanks for your patience. Is there anything else I can help you with?", [rejected]);
    expect(decision.reply).toContain("Thanks for your patience.");
    expect(decision.reply).toContain("Is there anything else I can help you with?");
  });
});
