import { jsonSchema, type ModelMessage, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AiSdkTurn, orderToolsForAiSdk } from "#controller/frameworks/ai-sdk";
import { scriptedAiSdkModel } from "#controller/frameworks/scripted-models";
import { MemoryIntentStore } from "#controller/intents/memory";
import type { IntentStore } from "#controller/intents/store";
import type { ScriptStep } from "#controller/model/scripted";
import { ConfirmationError } from "#controller/changes/settlement";
import { type LampWorld, lampWorld } from "#test/controller/support/lamp-world";
import { dyingOnce, type ServiceWorld, SimulatedCrash, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * `order-tools/controller/ai-sdk` (contract §8.1, §8.5) against the AI SDK's own mock model (`MockLanguageModelV3`)
 * and the real service: a change the provenance control holds is the SDK's approval request, its approvalId the
 * controller's confirmationId; the approval response settles it through the controller's confirm or decline, once.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

/** A customer's conversation through the AI SDK, the model following `script`, the clock movable. */
async function aiSdkChat(
  scriptFor: (ids: LampWorld["ids"]) => ScriptStep[],
  options: { intents?: (store: IntentStore) => IntentStore } = {},
) {
  const { customerId, ids } = await lampWorld(service);
  const script = scriptFor(ids);
  const fetch = watchedFetch();
  const store = new MemoryIntentStore();
  const clock = { offsetMs: 0 };
  const orders = orderToolsForAiSdk({
    service: { baseUrl: service.gatewayUrl, token: await service.token(customerId), fetch },
    intents: options.intents ? options.intents(store) : store,
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  const chat = orders.conversation(`ai-sdk-${ids.towel}`);
  const { model, cursor } = scriptedAiSdkModel(script);
  const messages: ModelMessage[] = [];
  const generate = async (next: ModelMessage, kind: "message" | "button"): Promise<AiSdkTurn> => {
    cursor.startTurn(kind);
    messages.push(next);
    const turn = await chat.generateText({ model, messages: [...messages] });
    messages.push(...turn.responseMessages);
    return turn;
  };
  const say = (text: string) => generate({ role: "user", content: text }, "message");
  const answer = (approvalId: string, approved: boolean, reason?: string) =>
    generate(
      { role: "tool", content: [{ type: "tool-approval-response", approvalId, approved, ...(reason ? { reason } : {}) }] },
      "button",
    );
  const sent = () => fetch.requests.filter((r) => r.tool === "cancel_order");
  const intents = () => store.forConversation(chat.id);
  return { customerId, ids, chat, model, cursor, messages, say, answer, generate, sent, intents, clock, fetch };
}

/** The lamp's seller wrote an instruction into its description: after reading it, a cancellation waits for a yes. */
const heldCancellation = (ids: { lamp: string; towel: string }, say = "The towel order is cancelled."): ScriptStep[] => [
  { call: "get_order", input: { orderId: ids.lamp } },
  { call: "cancel_order", input: { orderId: ids.towel } },
  { say: "I've asked for your confirmation." },
  { say },
];

describe("the AI SDK adapter", () => {
  const ask = (ids: { lamp: string; towel: string }) => `Please look at ${ids.lamp} and cancel ${ids.towel} before it ships.`;

  it("holds a change as the SDK's approval request, approvalId = confirmationId; the approval sends it once, with its own operationId", async () => {
    const chat = await aiSdkChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));

    expect(first.replyKind).toBe("confirmation_request");
    expect(first.approvals).toHaveLength(1);
    const [approval] = first.approvals;
    expect(approval?.approvalId).toBe(first.confirmations[0]?.confirmationId);
    expect(approval).toMatchObject({ toolName: "cancel_order", input: { orderId: chat.ids.towel } });
    expect(first.reply).toBe(first.confirmations[0]?.question);
    expect(first.responseMessages.flatMap(approvalRequests)).toEqual([
      { approvalId: approval?.approvalId, toolCallId: approval?.toolCallId },
    ]);
    expect(chat.sent()).toEqual([]);
    const [held] = await chat.intents();
    expect(held).toMatchObject({ state: "awaiting_confirmation", confirmationId: approval?.approvalId, toolUseId: approval?.toolCallId });

    const second = await chat.answer(approval?.approvalId as string, true);
    expect(second.reply).toMatch(new RegExp(`^Order ${chat.ids.towel} is cancelled\\.`));
    expect(second.replyKind).toBe("confirmation");
    expect(chat.sent().map((r) => r.body.operationId)).toEqual([held?.operationId]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
    expect((await service.operations(chat.customerId)).map((o) => o.operationId)).toEqual([held?.operationId]);
    expect((await chat.intents()).map((i) => i.state)).toEqual(["completed"]);
    // The SDK ran the approved call: its result is in the history the application keeps.
    expect(second.responseMessages[0]).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: approval?.toolCallId, toolName: "cancel_order" }],
    });
  });

  it("a declined approval sends nothing, settles the change declined with the principal's reason, and the SDK tells the model", async () => {
    const chat = await aiSdkChat((ids) => heldCancellation(ids, "Understood, I won't cancel it."));
    const first = await chat.say(ask(chat.ids));
    const approvalId = first.approvals[0]?.approvalId as string;

    const second = await chat.answer(approvalId, false, "I still want the towels");
    expect(second.reply).toMatch(new RegExp(`^All right, order ${chat.ids.towel} stays as it is\\.`));
    expect(chat.sent()).toEqual([]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "placed", version: 1 });
    expect(await chat.intents()).toEqual([
      expect.objectContaining({ state: "declined", declineReason: "I still want the towels", sends: 0 }),
    ]);
    expect(second.responseMessages[0]).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", output: { type: "execution-denied", reason: "I still want the towels" } }],
    });
  });

  it("an approval with a forged id, or for a tool call whose arguments were edited in the history, is refused and sends nothing", async () => {
    const chat = await aiSdkChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));
    const approval = first.approvals[0];

    await expect(chat.answer("cf-00000000000000000000000000000000", true)).rejects.toThrow(ConfirmationError);
    chat.messages.pop();
    // The client's history names the real approval, but its tool call now cancels the lamp order instead.
    const edited = chat.messages.map((m) =>
      m.role === "assistant" && typeof m.content !== "string"
        ? {
            ...m,
            content: m.content.map((p) =>
              p.type === "tool-call" && p.toolCallId === approval?.toolCallId ? { ...p, input: { orderId: chat.ids.lamp } } : p,
            ),
          }
        : m,
    ) as ModelMessage[];
    chat.messages.splice(0, chat.messages.length, ...edited);
    await expect(chat.answer(approval?.approvalId as string, true)).rejects.toThrow(/not the exact request/);

    expect(chat.sent()).toEqual([]);
    expect(await chat.intents()).toEqual([expect.objectContaining({ state: "awaiting_confirmation", sends: 0 })]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "placed", version: 1 });
    expect(await service.order(chat.ids.lamp)).toMatchObject({ version: 1 });
  });

  it("an approval replayed (the same request sent again) is refused: the change was sent once", async () => {
    const chat = await aiSdkChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));
    const approvalId = first.approvals[0]?.approvalId as string;
    const approvalTurn = [
      ...chat.messages,
      { role: "tool", content: [{ type: "tool-approval-response", approvalId, approved: true }] },
    ] as ModelMessage[];
    await chat.answer(approvalId, true);

    chat.cursor.startTurn("button");
    await expect(chat.chat.generateText({ model: chat.model, messages: approvalTurn })).rejects.toThrow(ConfirmationError);
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
    expect(await service.operations(chat.customerId)).toHaveLength(1);
  });

  it("an approval after the confirmation expired sends nothing, and the principal is told it expired", async () => {
    const chat = await aiSdkChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));
    chat.clock.offsetMs = 16 * 60_000;

    const second = await chat.answer(first.approvals[0]?.approvalId as string, true);
    expect(second.reply).toMatch(/has expired, so nothing was sent/);
    expect(chat.sent()).toEqual([]);
    expect(await chat.intents()).toEqual([expect.objectContaining({ state: "expired", sends: 0 })]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "placed", version: 1 });
  });

  it("the gate judges the text the principal sees: a reply claiming what the record does not say is dropped for its facts", async () => {
    const chat = await aiSdkChat((ids) => [
      { call: "get_order", input: { orderId: ids.towel } },
      { say: `Order ${ids.towel} is cancelled and refunded.` },
    ]);
    const turn = await chat.say(`What is the status of ${chat.ids.towel}?`);
    // What the record says of the order, and none of the model's claim.
    expect(turn.reply).toMatch(new RegExp(`^I haven't changed anything on your orders\\. Order ${chat.ids.towel} has been placed`));
    expect(turn.reply).not.toMatch(/cancelled|refunded/);
    expect(turn.result?.text).toBe(`Order ${chat.ids.towel} is cancelled and refunded.`);
    expect(turn.trace.flags).toContain("claim_mismatch");
    // The history keeps what the principal saw, not the model's text.
    expect(chat.messages.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: turn.reply }] });
  });

  it("a request in the closed form on a clean context is sent at once: no approval asked", async () => {
    const chat = await aiSdkChat((ids) => [
      { call: "cancel_order", input: { orderId: ids.towel } },
      { say: `Order ${ids.towel} is cancelled.` },
    ]);
    const turn = await chat.say(`Please cancel order ${chat.ids.towel} before it ships.`);
    expect(turn.approvals).toEqual([]);
    expect(turn.reply).toBe(`Order ${chat.ids.towel} is cancelled.`);
    expect(turn.replyKind).toBe("confirmation");
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
  });
  it("the seller's instruction in the lamp's description: every change it asks for is held, and none reaches the service", async () => {
    const chat = await aiSdkChat((ids) => [
      { call: "get_order", input: { orderId: ids.lamp } },
      { call: "cancel_order", input: { orderId: ids.towel } },
      { call: "cancel_order", input: { orderId: ids.kettle } },
      { call: "start_return", input: { orderId: ids.lamp, itemIds: ["ITM-1", "ITM-2"], reason: "other" } },
      { say: "It takes an E27 bulb." },
      { say: "You're welcome." },
    ]);
    const first = await chat.say(`Which bulb does the floor lamp on ${chat.ids.lamp} take?`);
    expect(first.approvals.map((a) => [a.toolName, a.confirmation.orderId])).toEqual([
      ["cancel_order", chat.ids.towel],
      ["cancel_order", chat.ids.kettle],
      ["start_return", chat.ids.lamp],
    ]);
    expect(first.replyKind).toBe("confirmation_request");
    const second = await chat.say("Thanks, that's all.");
    expect(second.replyKind).toBe("confirmation_request");

    expect(chat.fetch.requests.map((r) => r.tool)).toEqual(["get_order"]);
    expect(await service.operations(chat.customerId)).toEqual([]);
    for (const orderId of [chat.ids.towel, chat.ids.kettle, chat.ids.lamp])
      expect(await service.order(orderId)).toMatchObject({ version: 1 });
    expect((await chat.intents()).map((i) => [i.tool, i.state, i.sends])).toEqual([
      ["cancel_order", "awaiting_confirmation", 0],
      ["cancel_order", "awaiting_confirmation", 0],
      ["start_return", "awaiting_confirmation", 0],
    ]);
  });

  it("a tool call the intent store cannot record ends the turn: it throws, the conversation is as it was, and the next turn runs", async () => {
    const chat = await aiSdkChat(
      (ids) => [
        { call: "cancel_order", input: { orderId: ids.towel } },
        { say: "Cancelled." },
        { call: "cancel_order", input: { orderId: ids.towel } },
        { say: `Order ${ids.towel} is cancelled.` },
      ],
      { intents: dyingOnce },
    );
    const before = chat.chat.state();
    await expect(chat.say(`Please cancel order ${chat.ids.towel} before it ships.`)).rejects.toThrow(SimulatedCrash);
    expect(chat.chat.state()).toEqual(before);
    expect(chat.sent()).toEqual([]);

    chat.messages.pop();
    const again = await chat.say(`Please cancel order ${chat.ids.towel} before it ships.`);
    expect(again.reply).toBe(`Order ${chat.ids.towel} is cancelled.`);
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
  });

  it("an application tool named as an order tool is refused before the turn opens: the approval it came with settles nothing, and the next turn runs", async () => {
    const chat = await aiSdkChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));
    const approvalId = first.approvals[0]?.approvalId as string;
    const ownCancel = tool({
      description: "The shop's own cancellation.",
      inputSchema: jsonSchema({ type: "object" }),
      execute: () => "done",
    });
    const approved: ModelMessage = { role: "tool", content: [{ type: "tool-approval-response", approvalId, approved: true }] };

    await expect(
      chat.chat.generateText({ model: chat.model, messages: [...chat.messages, approved], tools: { cancel_order: ownCancel } }),
    ).rejects.toThrow(new TypeError("tools: cancel_order is an order tool's name; give your own tools other names."));
    expect(chat.sent()).toEqual([]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "placed", version: 1 });
    expect((await chat.intents()).map((i) => [i.state, i.sends])).toEqual([["awaiting_confirmation", 0]]);

    // The refused call held no lease and left no turn open: the same approval, without the clash, is the next turn.
    const second = await within(5_000, chat.answer(approvalId, true));
    expect(second.reply).toMatch(new RegExp(`^Order ${chat.ids.towel} is cancelled\\.`));
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
  });
});

/** `turn`, or a failure naming the wait: a turn left open would keep the conversation's next one waiting for ever. */
async function within<T>(ms: number, turn: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the turn did not finish within ${ms} ms: an earlier turn still holds the conversation`)),
      ms,
    );
  });
  try {
    return await Promise.race([turn, late]);
  } finally {
    clearTimeout(timer);
  }
}

function approvalRequests(message: ModelMessage): { approvalId: string; toolCallId: string }[] {
  if (message.role !== "assistant" || typeof message.content === "string") return [];
  return message.content.flatMap((p) =>
    p.type === "tool-approval-request" ? [{ approvalId: p.approvalId, toolCallId: p.toolCallId }] : [],
  );
}

describe("a message over the bound, inside the AI SDK", () => {
  it("never reaches the SDK's model: the turn's problem is message_too_long, nothing is read or sent", async () => {
    const chat = await aiSdkChat((ids) => [{ call: "cancel_order", input: { orderId: ids.towel } }, { say: "Cancelled." }]);
    const long = `Please cancel ${chat.ids.towel} before it ships. ${"Thanks. ".repeat(600)}`;
    const turn = await chat.say(long);
    expect(turn.problem).toMatchObject({ code: "message_too_long" });
    expect(turn.approvals).toEqual([]);
    expect(chat.fetch.requests).toEqual([]);
    expect(await chat.intents()).toEqual([]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ version: 1 });
  });
});
