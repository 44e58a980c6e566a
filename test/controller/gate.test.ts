import { describe, expect, it } from "vitest";
import { changeToolNames, type ToolName } from "#contract/tools";
import { gate, type GateInput } from "#controller/gate/gate";
import { normalizeForReading } from "#controller/gate/normalize";
import type { OrderFacts, TurnOutcome } from "#controller/gate/outcomes";
import { boundTemplate, noChangeTemplate, openingFor, templateFor } from "#controller/gate/templates";

/** The response gate on its own: the status is the application's, and model text is kept only when placed. */

const order = "SU-51234";
const other = "SU-10387";
const today = "2026-12-01";
const orders: OrderFacts[] = [
  {
    orderId: order,
    status: "shipped",
    read: true,
    items: [{ itemId: "ITM-1", title: "Electric kettle" }],
    itemTitles: ["Electric kettle"],
    allowedActions: [],
  },
  { orderId: other, status: "processing", read: true, allowedActions: ["cancel_order", "add_delivery_note"] },
];
const completed: TurnOutcome = {
  kind: "completed",
  tool: "cancel_order",
  orderId: order,
  operationId: "op-1",
  body: { status: "completed", orderId: order, orderVersion: 2, orderStatus: "cancelled" },
};
const noteSaved: TurnOutcome = {
  kind: "completed",
  tool: "add_delivery_note",
  orderId: order,
  operationId: "op-2",
  body: { status: "completed", orderId: order, orderVersion: 3 },
};
const rejected: TurnOutcome = {
  kind: "rejected",
  tool: "cancel_order",
  orderId: order,
  operationId: "op-1",
  code: "NOT_ELIGIBLE",
  reason: "ALREADY_SHIPPED",
  body: { error: { code: "NOT_ELIGIBLE", reason: "ALREADY_SHIPPED" } },
};
const unknown: TurnOutcome = { kind: "unknown", tool: "cancel_order", orderId: order, operationId: "op-1" };
const run = (candidate: string, outcomes: TurnOutcome[], extra: Partial<GateInput> = {}) =>
  gate({ orders, today, candidate, outcomes, ...extra });

describe("the status is the application's: every change outcome opens the reply with its template", () => {
  it("an accepted model text follows the template; the template is never left out", () => {
    const text = "Is there anything else I can help you with?";
    for (const outcome of [completed, rejected, unknown]) {
      const decision = run(text, [outcome]);
      expect(decision).toMatchObject({ decision: "accepted", reply: `${templateFor(outcome)} ${text}` });
    }
  });

  it("a refused model text leaves the template alone, and the trace gets claim_mismatch with the reasons", () => {
    const decision = run(`Good news: you won't be charged now that order ${order} is cancelled.`, [rejected]);
    expect(decision).toMatchObject({
      reply: templateFor(rejected),
      decision: "claim_mismatch",
      flags: ["claim_mismatch"],
      replyKind: "rejection",
    });
    expect(decision.problems.join("\n")).toMatch(/money|cancelled/);
  });

  it("a model text that only repeats the template is not said twice", () => {
    expect(run(`Order ${order} is cancelled.`, [completed]).reply).toBe(templateFor(completed));
  });

  it("a rejection then a completed retry of the same change read as one coherent reply: the completion", () => {
    const conflict: TurnOutcome = { ...rejected, code: "VERSION_CONFLICT", reason: undefined, body: {} } as TurnOutcome;
    const decision = run("", [conflict, completed]);
    expect(decision).toMatchObject({ reply: templateFor(completed), replyKind: "confirmation" });
  });

  it("this turn's completion is not undone by a later 'already cancelled' for the same change", () => {
    const again: TurnOutcome = { ...rejected, reason: "ALREADY_CANCELLED" } as TurnOutcome;
    expect(openingFor([completed, again])).toBe(templateFor(completed));
  });

  it("several changes: one sentence each, in the order they came up", () => {
    expect(run("", [noteSaved, rejected]).reply).toBe(`${templateFor(noteSaved)} ${templateFor(rejected)}`);
  });

  it("the controller's question and a result for another request are never followed by model text", () => {
    const waiting: TurnOutcome = {
      kind: "awaiting_confirmation",
      tool: "cancel_order",
      orderId: order,
      operationId: "op-9",
      question: `Shall I cancel order ${order}? Reply yes to confirm.`,
    };
    const mismatch: TurnOutcome = { kind: "mismatch", tool: "cancel_order", orderId: order, operationId: "op-1", why: "for another order" };
    expect(run("Is there anything else?", [waiting])).toMatchObject({
      reply: waiting.question,
      replyKind: "confirmation_request",
      decision: "template",
    });
    expect(run(`Your order ${order} is cancelled.`, [mismatch])).toMatchObject({
      reply: templateFor(mismatch),
      replyKind: "uncertainty",
      flags: ["result_mismatch"],
    });
  });
});

describe("the gate accepts, it does not hunt: false claims fall back to the template", () => {
  const refusedAfterRejection = [
    `Good news: you won't be charged now that order ${order} is cancelled.`,
    `I've stopped ${order} from shipping.`,
    "You're sorted, the kettle won't ship.",
    `Listo, he cancelado tu pedido ${order}.`,
    `Votre commande ${order} est annulée.`,
    `ご注文${order}はキャンセルされました。`,
    `Order ${order} is cаncеllеd.`,
    `Order ${order} is can\u200Bcelled.`,
    `Order ${order} is can\u00ADcelled.`,
    `Order ${order} is ｃａｎｃｅｌｌｅｄ.`,
    `Order ${order} is c a n c e l l e d.`,
    `Order ${order} is canc3lled.`,
    `Your order ${order} has been scrapped.`,
    "Done!",
    `**All done** 🎉 — ${order} won't be sent.`,
  ];
  for (const text of refusedAfterRejection) {
    it(`after ALREADY_SHIPPED: ${JSON.stringify(text)}`, () => {
      expect(run(text, [rejected])).toMatchObject({ decision: "claim_mismatch", reply: templateFor(rejected) });
    });
  }

  it("after a completed note, a claim of another action is refused", () => {
    expect(run(`Your note is saved, and I've also cancelled ${order} as requested.`, [noteSaved]).decision).toBe("claim_mismatch");
    expect(run("The note is saved and you'll get a refund.", [noteSaved]).decision).toBe("claim_mismatch");
  });

  it("after an unknown outcome, a denial is refused as much as a success", () => {
    expect(run(`It didn't go through — ${order} is still active.`, [unknown]).decision).toBe("claim_mismatch");
    expect(run(`Sorry, the cancellation of ${order} failed.`, [unknown]).decision).toBe("claim_mismatch");
    expect(run(`Your order ${order} is cancelled.`, [unknown]).decision).toBe("claim_mismatch");
  });

  it("on a turn that changed nothing, any change claim gets the no-change template", () => {
    for (const text of [
      `${order} is on hold now, as you asked.`,
      `He cancelado tu pedido ${order}.`,
      "Done — your order is cancelled.",
      `I've started a return for ${order}.`,
    ]) {
      expect(run(text, [])).toMatchObject({ reply: noChangeTemplate, decision: "claim_mismatch", replyKind: "information" });
    }
  });

  it("another order's id is refused, in any spacing or width", () => {
    for (const id of ["SU-10387", "SU 10387", "su10387", "ＳＵ－１０３８７", "SU\u201110387"]) {
      expect(run(`Your order ${id} is cancelled.`, [completed]).decision).toBe("claim_mismatch");
    }
  });
});

describe("what the model wrote that the record says, or that says nothing of an order, is kept as written", () => {
  it("a repeat of the status sentence is not said twice, and counts as kept", () => {
    expect(run(`Your order ${order} has been cancelled.`, [completed])).toMatchObject({
      decision: "accepted",
      reply: templateFor(completed),
    });
  });

  it("courtesy around the status sentence stays; an explanation in the model's own words does not, the status sentence says it", () => {
    const text = `I'm sorry, ${order} has already shipped, so it can't be cancelled now. Once it arrives, you can start a return. Is there anything else I can help you with?`;
    const decision = run(text, [rejected]);
    expect(decision.reply).toBe(`${templateFor(rejected)} Is there anything else I can help you with?`);
    expect(decision.kept).toEqual(["Is there anything else I can help you with?"]);
    expect(decision.problems).toHaveLength(2);
  });

  it("doubt in the model's words gives way to the status sentence's", () => {
    const decision = run(`I can't confirm yet whether the cancellation of ${order} went through. I'm still checking.`, [unknown]);
    expect(decision.reply).toBe(templateFor(unknown));
  });

  it("a claim about an order no read of this turn showed gets the no-change sentence, with no fact beside it", () => {
    expect(run(`${order} was delivered.`, [])).toMatchObject({ reply: noChangeTemplate, decision: "claim_mismatch" });
    expect(run("SU-55555 is processing.", []).reply).toBe(noChangeTemplate);
  });
});

describe("normalisation, as the guards read a principal's message", () => {
  it("NFKC, invisible and format characters, confusables, dashes, spaced letters and spaced ids", () => {
    expect(normalizeForReading("ｃａｎｃｅｌｌｅｄ")).toBe("cancelled");
    expect(normalizeForReading("can\u200Bcel\u00ADled\u2060")).toBe("cancelled");
    expect(normalizeForReading("cаncеllеd")).toBe("cancelled");
    expect(normalizeForReading("c a n c e l l e d")).toBe("cancelled");
    expect(normalizeForReading("SU 10234 and ＳＵ－１０２３４ and SU\u201110234")).toBe("SU-10234 and SU-10234 and SU-10234");
    expect(normalizeForReading("**Done!** 🎉")).toBe("Done!");
  });

  it("the gate's reasons name each sentence it did not show", () => {
    const decision = run("Votre commande est annulée. Thanks for waiting.", [rejected]);
    expect(decision.problems).toEqual(['says "Votre commande est annulée.", which no fact of the record says']);
    expect(decision.kept).toEqual(["Thanks for waiting."]);
  });
});

describe("templates", () => {
  const tools: readonly ToolName[] = changeToolNames;
  it("every outcome's template names its order, and the bound template keeps the outcomes", () => {
    for (const tool of tools) {
      expect(templateFor({ ...completed, tool } as TurnOutcome)).toContain(order);
      expect(templateFor({ ...unknown, tool })).toContain(order);
    }
    expect(boundTemplate({ kind: "tool_calls", value: 8 }, [rejected])).toContain(templateFor(rejected));
    expect(boundTemplate({ kind: "time", value: 30 }, [])).toContain(noChangeTemplate);
  });

  it("a rejection template says what is still possible where something is", () => {
    expect(templateFor(rejected)).toMatch(/a return is possible/);
    expect(templateFor({ ...rejected, code: "SELLER_SUSPENDED", reason: undefined } as TurnOutcome)).toMatch(/A return is still possible/);
  });
});
