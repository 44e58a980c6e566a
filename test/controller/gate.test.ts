import { describe, expect, it } from "vitest";
import type { ToolName } from "#catalog/tools";
import { classifyReply, readClaims } from "#controller/gate/claim-check";
import { gate, type GateInput } from "#controller/gate/gate";
import type { ReplyKind, TurnOutcome } from "#controller/gate/outcomes";
import { boundTemplate, noChangeTemplate, templateFor } from "#controller/gate/templates";

/** The response gate (SPEC §8.2) on its own: what each recorded outcome lets a reply claim. */

const order = "SU-10234";
const other = "SU-10387";
const base = { ordersInPlay: new Set([order, other]), settledOrders: new Set<string>() };
const completed: TurnOutcome = { kind: "completed", tool: "cancel_order", orderId: order, operationId: "op-1", body: { status: "completed", orderId: order, orderVersion: 2, orderStatus: "cancelled" } };
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
const run = (candidate: string, outcomes: TurnOutcome[], extra: Partial<GateInput> = {}) => gate({ ...base, candidate, outcomes, ...extra });

const falseSuccesses = [
  "Done.",
  `Your order ${order} is cancelled.`,
  `All set — I've cancelled ${order} for you.`,
  "Cancelled ✅",
  `Good news: the cancellation went through, and ${order} won't ship.`,
  `Your order ${order} has been cancelled, though I'm still checking the refund.`,
];

describe("an injected false success never reaches the customer", () => {
  for (const text of falseSuccesses) {
    it(`after a rejection: ${JSON.stringify(text)} → the rejection template, flagged claim_mismatch`, () => {
      const decision = run(text, [rejected]);
      expect(decision.reply).toBe(templateFor(rejected));
      expect(decision).toMatchObject({ decision: "claim_mismatch", replyKind: "rejection", flags: ["claim_mismatch"] });
      expect(decision.problems.some((p) => p.startsWith("claims success"))).toBe(true);
    });

    it(`after an unknown outcome: ${JSON.stringify(text)} → the uncertainty template`, () => {
      const decision = run(text, [unknown]);
      expect(decision.reply).toBe(templateFor(unknown));
      expect(decision).toMatchObject({ decision: "claim_mismatch", replyKind: "uncertainty" });
    });
  }

  it("with no change in the turn, “Done” is the seed's failure: replaced, since nothing was recorded", () => {
    const decision = run("Done — your order is cancelled.", []);
    expect(decision).toMatchObject({ reply: noChangeTemplate, decision: "claim_mismatch", replyKind: "information" });
  });

  it("an unknown outcome allows no denial either", () => {
    expect(run(`Sorry, the cancellation of ${order} failed.`, [unknown])).toMatchObject({ decision: "claim_mismatch", reply: templateFor(unknown) });
    expect(run(`It didn't go through.`, [unknown]).decision).toBe("claim_mismatch");
  });
});

describe("a truthful model reply passes", () => {
  it("a confirmation of the completed order", () => {
    expect(run(`Your order ${order} is cancelled. The refund follows in 3–5 days.`, [completed])).toMatchObject({ decision: "accepted", replyKind: "confirmation" });
  });

  it("a rejection that says nothing was cancelled", () => {
    const text = `I couldn't find order ${order} among your orders, so nothing was cancelled.`;
    expect(run(text, [rejected])).toMatchObject({ decision: "accepted", reply: text });
  });

  it("a rejection explained, with what is still possible", () => {
    const text = `I'm sorry — ${order} has already shipped, so it can't be cancelled now. Once it arrives you can start a return.`;
    expect(run(text, [rejected])).toMatchObject({ decision: "accepted", reply: text, replyKind: "rejection" });
  });

  it("uncertainty about an unknown outcome", () => {
    const text = `I've sent the request for ${order}, but I can't confirm yet whether it has taken effect. I'm checking.`;
    expect(run(text, [unknown])).toMatchObject({ decision: "accepted", reply: text, replyKind: "uncertainty" });
  });

  it("information that names only orders in play, and calls cancelled only what was read as cancelled", () => {
    expect(run(`${order} is placed and ${other} is processing.`, [])).toMatchObject({ decision: "accepted", replyKind: "information" });
    expect(run(`${other} was cancelled last week.`, []).decision).toBe("claim_mismatch");
    expect(run(`${other} was cancelled last week.`, [], { settledOrders: new Set([other]) }).decision).toBe("accepted");
  });
});

describe("a reply that names the wrong order, or no order, is withheld", () => {
  it("a confirmation naming another order, or not naming the order, falls back to the template", () => {
    expect(run(`Your order ${other} is cancelled.`, [completed])).toMatchObject({ decision: "claim_mismatch", reply: templateFor(completed) });
    expect(run("It's cancelled.", [completed])).toMatchObject({ decision: "claim_mismatch", reply: `Order ${order} is cancelled.` });
    expect(run(`${order} is cancelled, and so is SU-55555.`, [])).toMatchObject({ decision: "claim_mismatch" });
  });

  it("a result for another order or operation: confirmation withheld and flagged result_mismatch, whatever the model says", () => {
    const mismatch: TurnOutcome = { kind: "mismatch", tool: "cancel_order", orderId: order, operationId: "op-1", why: "the response is for order SU-10387" };
    const decision = run(`Your order ${order} is cancelled.`, [mismatch]);
    expect(decision).toMatchObject({ reply: templateFor(mismatch), replyKind: "uncertainty", flags: ["result_mismatch"] });
    expect(readClaims(decision.reply).success).toEqual([]);
  });

  it("a clarification must name every candidate and claim nothing", () => {
    const clarification: TurnOutcome = { kind: "clarification", tool: "cancel_order", orderId: order, candidates: [{ orderId: order, itemTitles: ["Kettle"] }, { orderId: other, status: "processing" }] };
    expect(run(`Which order: ${order} or ${other}?`, [clarification]).decision).toBe("accepted");
    expect(run("Which order do you mean?", [clarification])).toMatchObject({
      decision: "claim_mismatch",
      reply: `You have more than one order in this conversation: ${order} (Kettle) and ${other} (processing). Which order do you mean?`,
    });
    expect(run(`Done, ${order} is cancelled.`, [clarification]).decision).toBe("claim_mismatch");
  });
});

describe("templates", () => {
  const tools: ToolName[] = ["cancel_order", "add_delivery_note", "start_return", "offer_replacement"];
  const rejections: [string, string | undefined][] = [
    ["NOT_ELIGIBLE", "ALREADY_SHIPPED"],
    ["NOT_ELIGIBLE", "DISPATCH_STARTED"],
    ["NOT_ELIGIBLE", "ALREADY_CANCELLED"],
    ["NOT_ELIGIBLE", "NOT_DELIVERED"],
    ["NOT_ELIGIBLE", "RETURN_WINDOW_CLOSED"],
    ["NOT_ELIGIBLE", "ITEM_ALREADY_RETURNED"],
    ["NOT_ELIGIBLE", "ITEM_ALREADY_REPLACED"],
    ["NOT_ELIGIBLE", "REPLACEMENT_LINE"],
    ["NOT_ELIGIBLE", "UNKNOWN_ITEM"],
    ["ORDER_NOT_FOUND", undefined],
    ["VERSION_CONFLICT", undefined],
    ["SELLER_SUSPENDED", undefined],
    ["OUT_OF_STOCK", undefined],
    ["NO_PICKUP_SLOT", undefined],
    ["RATE_LIMITED", undefined],
    ["FORBIDDEN", undefined],
  ];

  it("each template reads as its own kind to the claim check, and names the order", () => {
    const cases: [TurnOutcome, ReplyKind][] = [
      ...tools.map((tool): [TurnOutcome, ReplyKind] => [{ ...completed, tool } as TurnOutcome, "confirmation"]),
      ...rejections.map(([code, reason]): [TurnOutcome, ReplyKind] => [{ ...rejected, code, ...(reason ? { reason } : { reason: undefined }) } as TurnOutcome, "rejection"]),
      ...tools.map((tool): [TurnOutcome, ReplyKind] => [{ ...unknown, tool }, "uncertainty"]),
      [{ kind: "mismatch", tool: "cancel_order", orderId: order, operationId: "op-1", why: "" }, "uncertainty"],
      [{ kind: "clarification", tool: "cancel_order", orderId: order, candidates: [{ orderId: order }, { orderId: other }] }, "clarification"],
      [{ kind: "awaiting_confirmation", tool: "cancel_order", orderId: order, operationId: "op-1", question: `Cancel ${order} (Kettle, placed)? Reply yes to confirm.` }, "clarification"],
      [{ kind: "declined", tool: "cancel_order", orderId: order, operationId: "op-1" }, "information"],
    ];
    for (const [outcome, kind] of cases) {
      const text = templateFor(outcome);
      expect({ text, kind: classifyReply(text) }).toEqual({ text, kind });
      expect(text).toContain(order);
    }
    expect(classifyReply(noChangeTemplate)).toBe("information");
    expect(classifyReply(boundTemplate({ kind: "tool_calls", value: 8 }, []))).toBe("information");
  });

  it("a rejection template says what is still possible where something is", () => {
    expect(templateFor(rejected)).toMatch(/start a return/);
    expect(templateFor({ ...rejected, code: "SELLER_SUSPENDED", reason: undefined } as TurnOutcome)).toMatch(/still return/);
  });
});
