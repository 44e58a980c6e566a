import { type AgentInputItem, RunState, run, setTracingDisabled } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSystemPrompt } from "#controller/controller";
import { scriptedAgentsModel } from "#controller/frameworks/scripted-models";
import { DynamoDbIntentStore } from "#controller/intents/dynamodb";
import { MemoryIntentStore } from "#controller/intents/memory";
import type { IntentStore } from "#controller/intents/store";
import type { ScriptStep } from "#controller/model/scripted";
import { principalText } from "#controller/model/types";
import { type AgentsTurn, type OrderAgent, orderToolsForAgents } from "#controller/frameworks/openai-agents";
import { ConfirmationError } from "#controller/changes/settlement";
import { type LampWorld, lampWorld } from "#test/controller/support/lamp-world";
import {
  dyingOnce,
  freshIntentTable,
  type ServiceWorld,
  SimulatedCrash,
  startService,
  watchedFetch,
} from "#test/controller/support/service-world";

/**
 * `order-tools/controller/openai-agents` (contract §8.1, §8.5) against the Agents SDK's own scripted model
 * (`ScriptedModel`) and the real service: a change the provenance control holds is the run's interruption; approving
 * or rejecting it on the run's state (`state.approve` / `state.reject`) settles it through the controller's confirm or
 * decline, once, also after a restart with the state read back from its string; the response gate is the agent's
 * output guardrail.
 */
setTracingDisabled(true);
let service: ServiceWorld;
let dynamo: Awaited<ReturnType<typeof freshIntentTable>>;
beforeAll(async () => {
  service = await startService();
  dynamo = await freshIntentTable();
});
afterAll(async () => {
  await service?.close();
  dynamo?.client.destroy();
});

type Ids = LampWorld["ids"];

/** A customer's conversation through the Agents SDK, the model following `script`, the clock movable. */
async function agentsChat(scriptFor: (ids: Ids) => ScriptStep[], options: { store?: () => IntentStore } = {}) {
  const { customerId, ids } = await lampWorld(service);
  const script = scriptFor(ids);
  const fetch = watchedFetch();
  const store = options.store ?? (() => new MemoryIntentStore());
  const firstStore = store();
  const clock = { offsetMs: 0 };
  const token = await service.token(customerId);
  /** The application's process: its controller, agent and scripted model (a restart makes all three anew). */
  const process = (intents: IntentStore) => {
    const orders = orderToolsForAgents({
      service: { baseUrl: service.gatewayUrl, token, fetch },
      intents,
      now: () => new Date(Date.now() + clock.offsetMs),
    });
    const { model, cursor } = scriptedAgentsModel(script);
    const agent = orders.agent({ name: "Shop assistant", instructions: "Answer in one or two sentences.", model });
    return { orders, model, cursor, agent };
  };
  let app = process(firstStore);
  let chat = app.orders.conversation(`agents-${ids.towel}`);
  const say = (text: string): Promise<AgentsTurn> => {
    app.cursor.startTurn("message");
    return chat.run(app.agent, text);
  };
  /** The principal's answers to a run's interruptions, as the application records them on the run's state. */
  const answer = (state: RunState<any, OrderAgent>): Promise<AgentsTurn> => {
    app.cursor.startTurn("button");
    return chat.run(app.agent, state);
  };
  /** A new process: a new controller on a new store object (the same table), a new agent; the conversation's kept state. */
  const restart = () => {
    const kept = chat.state();
    app = process(store());
    chat = app.orders.conversation(kept.conversationId, JSON.parse(JSON.stringify(kept)));
  };
  const sent = () => fetch.requests.filter((r) => r.tool === "cancel_order");
  const intents = () => firstStore.forConversation(chat.id);
  return {
    customerId,
    ids,
    get app() {
      return app;
    },
    get chat() {
      return chat;
    },
    say,
    answer,
    restart,
    sent,
    intents,
    clock,
    fetch,
  };
}

/** The lamp's seller wrote an instruction into its description: after reading it, a cancellation waits for a yes. */
const heldCancellation = (ids: Ids, say = "The towel order is cancelled."): ScriptStep[] => [
  { call: "get_order", input: { orderId: ids.lamp } },
  { call: "cancel_order", input: { orderId: ids.towel } },
  { say: "I've asked for your confirmation." },
  { say },
];

const ask = (ids: Ids) => `Please look at ${ids.lamp} and cancel ${ids.towel} before it ships.`;

/** The run's state read back from the string an application kept, with `decide` applied to its one interruption. */
async function keptState(agent: OrderAgent, text: string, decide: (state: RunState<any, OrderAgent>) => void) {
  const state = await RunState.fromString(agent, text);
  decide(state);
  return state;
}

describe("the Agents SDK adapter", () => {
  it("holds a change as the run's interruption; state.approve sends it once, with its own operationId", async () => {
    const chat = await agentsChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));

    expect(first.replyKind).toBe("confirmation_request");
    expect(first.reply).toBe(first.confirmations[0]?.question);
    expect(first.interruptions).toHaveLength(1);
    const [interruption] = first.interruptions;
    expect(interruption?.item.name).toBe("cancel_order");
    expect(JSON.parse(interruption?.item.arguments ?? "")).toEqual({ orderId: chat.ids.towel });
    expect(interruption?.confirmation).toEqual(first.confirmations[0]);
    expect(first.state?.getInterruptions()).toHaveLength(1);
    expect(chat.sent()).toEqual([]);
    const [held] = await chat.intents();
    expect(held).toMatchObject({ state: "awaiting_confirmation", confirmationId: interruption?.confirmation.confirmationId });
    expect(held?.toolUseId).toBe(heldCall(first));

    first.state?.approve(interruption!.item);
    const second = await chat.answer(first.state!);
    expect(second.reply).toMatch(new RegExp(`^Order ${chat.ids.towel} is cancelled\\.`));
    expect(second.replyKind).toBe("confirmation");
    expect(second.interruptions).toEqual([]);
    expect(chat.sent().map((r) => r.body.operationId)).toEqual([held?.operationId]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
    expect((await service.operations(chat.customerId)).map((o) => o.operationId)).toEqual([held?.operationId]);
    expect((await chat.intents()).map((i) => i.state)).toEqual(["completed"]);
    // The SDK ran the approved call: its result is in the run's history.
    expect(resultFor(second.result?.history ?? [], held?.toolUseId)).toMatch(/"status":"completed"/);
  });

  it("state.reject sends nothing, settles the change declined with the principal's reason, and the SDK tells the model", async () => {
    const chat = await agentsChat((ids) => heldCancellation(ids, "Understood, I won't cancel it."));
    const first = await chat.say(ask(chat.ids));
    const [interruption] = first.interruptions;

    first.state?.reject(interruption!.item, { message: "I still want the towels" });
    const second = await chat.answer(first.state!);
    expect(second.reply).toMatch(new RegExp(`^All right, order ${chat.ids.towel} stays as it is\\.`));
    expect(chat.sent()).toEqual([]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "placed", version: 1 });
    expect(await chat.intents()).toEqual([
      expect.objectContaining({ state: "declined", declineReason: "I still want the towels", sends: 0 }),
    ]);
    expect(resultFor(second.result?.history ?? [], heldCall(first))).toBe("I still want the towels");
  });

  it("a kept state whose held change was swapped for a made-up one, or whose call's arguments were edited, is refused and sends nothing", async () => {
    const chat = await agentsChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));
    const kept = first.state!.toString();
    const confirmationId = first.interruptions[0]?.confirmation.confirmationId as string;
    const approve = (state: RunState<any, OrderAgent>) => state.approve(state.getInterruptions()[0]!);

    const forged = kept.replaceAll(confirmationId, "cf-00000000000000000000000000000000");
    await expect(chat.answer(await keptState(chat.app.agent, forged, approve))).rejects.toThrow(
      /no change waiting for confirmation cf-0{32}/,
    );
    // The kept state names the real held change, but its call now cancels the lamp order instead.
    const edited = kept.replaceAll(`\\"orderId\\":\\"${chat.ids.towel}\\"`, `\\"orderId\\":\\"${chat.ids.lamp}\\"`);
    expect(edited).not.toBe(kept);
    await expect(chat.answer(await keptState(chat.app.agent, edited, approve))).rejects.toThrow(/not the exact request/);

    expect(chat.sent()).toEqual([]);
    expect(await chat.intents()).toEqual([expect.objectContaining({ state: "awaiting_confirmation", sends: 0 })]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "placed", version: 1 });
    expect(await service.order(chat.ids.lamp)).toMatchObject({ version: 1 });
    // The real state still answers: the refusals settled nothing.
    const approved = await chat.answer(await keptState(chat.app.agent, kept, approve));
    expect(approved.reply).toMatch(new RegExp(`^Order ${chat.ids.towel} is cancelled\\.`));
  });

  it("an approved state run again (replayed) is refused: the change was sent once", async () => {
    const chat = await agentsChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));
    first.state?.approve(first.interruptions[0]!.item);
    const approved = first.state!.toString();
    await chat.answer(first.state!);

    await expect(chat.answer(await RunState.fromString(chat.app.agent, approved))).rejects.toThrow(ConfirmationError);
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
    expect(await service.operations(chat.customerId)).toHaveLength(1);
  });

  it("an approval after the confirmation expired sends nothing, and the principal is told it expired", async () => {
    const chat = await agentsChat((ids) => heldCancellation(ids));
    const first = await chat.say(ask(chat.ids));
    chat.clock.offsetMs = 16 * 60_000;

    first.state?.approve(first.interruptions[0]!.item);
    const second = await chat.answer(first.state!);
    expect(second.reply).toMatch(/has expired, so nothing was sent/);
    expect(chat.sent()).toEqual([]);
    expect(await chat.intents()).toEqual([expect.objectContaining({ state: "expired", sends: 0 })]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "placed", version: 1 });
  });

  it("the RunState kept as a string survives a restart: approved in the new process, the held change is sent exactly once", async () => {
    const store = () => new DynamoDbIntentStore({ client: dynamo.client, tableName: dynamo.tableName });
    const chat = await agentsChat((ids) => heldCancellation(ids), { store });
    const first = await chat.say(ask(chat.ids));
    const kept = first.state!.toString();
    const [held] = await chat.intents();

    chat.restart();
    const approve = (state: RunState<any, OrderAgent>) => state.approve(state.getInterruptions()[0]!);
    const after = await chat.answer(await keptState(chat.app.agent, kept, approve));
    expect(after.reply).toMatch(new RegExp(`^Order ${chat.ids.towel} is cancelled\\.`));
    expect(chat.sent().map((r) => r.body.operationId)).toEqual([held?.operationId]);

    // The same kept string approved once more (another restart, or a second click) changes nothing.
    chat.restart();
    await expect(chat.answer(await keptState(chat.app.agent, kept, approve))).rejects.toThrow(ConfirmationError);
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
    expect((await service.operations(chat.customerId)).map((o) => o.operationId)).toEqual([held?.operationId]);
    expect((await chat.intents()).map((i) => i.state)).toEqual(["completed"]);
  });

  it("the gate is the agent's output guardrail: a reply claiming what the record does not say trips it, and the record's facts are shown", async () => {
    const chat = await agentsChat((ids) => [
      { call: "get_order", input: { orderId: ids.towel } },
      { say: `Order ${ids.towel} is cancelled and refunded.` },
      { call: "get_order", input: { orderId: ids.towel } },
      { say: "Happy to help. Is there anything else I can help with?" },
    ]);
    const tripped = await chat.say(`What is the status of ${chat.ids.towel}?`);
    // What the record says of the order, and none of the model's claim.
    expect(tripped.reply).toMatch(new RegExp(`^I haven't changed anything on your orders\\. Order ${chat.ids.towel} has been placed`));
    expect(tripped.reply).not.toMatch(/cancelled|refunded/);
    expect(tripped.trace.flags).toContain("claim_mismatch");
    expect(tripped.result).toBeUndefined();
    expect(tripped.state).toBeDefined();

    const passed = await chat.say(`Has ${chat.ids.towel} shipped?`);
    // Courtesy the gate shows as it came, after the record's facts: nothing dropped, so the tripwire stays down.
    expect(passed.reply).toMatch(
      new RegExp(`^Happy to help\\. Order ${chat.ids.towel} has been placed.* Is there anything else I can help with\\?$`),
    );
    expect(passed.result?.outputGuardrailResults.map((r) => [r.guardrail.name, r.output.tripwireTriggered])).toEqual([
      ["order-tools reply gate", false],
    ]);
  });

  it("a request in the closed form on a clean context is sent at once: no interruption", async () => {
    const chat = await agentsChat((ids) => [
      { call: "cancel_order", input: { orderId: ids.towel } },
      { say: `Order ${ids.towel} is cancelled.` },
    ]);
    const turn = await chat.say(`Please cancel order ${chat.ids.towel} before it ships.`);
    expect(turn.interruptions).toEqual([]);
    expect(turn.state?.getInterruptions()).toEqual([]);
    expect(turn.reply).toBe(`Order ${chat.ids.towel} is cancelled.`);
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
  });

  it("the model reads the controller's instructions, then the application's, and the conversation as the controller keeps it", async () => {
    const chat = await agentsChat((ids) => heldCancellation(ids));
    await chat.say(ask(chat.ids));
    const [request] = chat.app.model.calls.map((c) => c.request);
    expect(request?.systemInstructions).toBe(`${defaultSystemPrompt()}\n\nAnswer in one or two sentences.`);
    expect(request?.input).toEqual([
      expect.objectContaining({ role: "user", content: [{ type: "input_text", text: principalText(ask(chat.ids)) }] }),
    ]);
  });

  it("a held change answered in words: the next message settles it as the controller's own loop does, and the kept state is then refused", async () => {
    const chat = await agentsChat((ids) => [...heldCancellation(ids).slice(0, 3), { say: "Done." }]);
    const first = await chat.say(ask(chat.ids));
    first.state?.approve(first.interruptions[0]!.item);
    const kept = first.state!.toString();

    const yes = await chat.say("Yes");
    expect(yes.reply).toMatch(new RegExp(`^Order ${chat.ids.towel} is cancelled\\.`));
    expect(chat.sent()).toHaveLength(1);
    // The model read the held call with the result the controller gave it, then the note of what became of it.
    const input = chat.app.model.lastCall?.request.input as AgentInputItem[];
    const callId = heldCall(first);
    expect(JSON.parse(resultFor(input, callId) ?? "{}")).toMatchObject({ status: "awaiting_confirmation", orderId: chat.ids.towel });
    expect(JSON.stringify(input.at(-1))).toContain(principalText("Yes"));

    await expect(chat.answer(await RunState.fromString(chat.app.agent, kept))).rejects.toThrow(/settled already/);
    expect(chat.sent()).toHaveLength(1);
    expect(await service.operations(chat.customerId)).toHaveLength(1);
  });

  it("two changes held in one run: one approved and one rejected on the same state are settled in one turn", async () => {
    const chat = await agentsChat((ids) => [
      { call: "get_order", input: { orderId: ids.lamp } },
      { call: "cancel_order", input: { orderId: ids.towel } },
      { call: "cancel_order", input: { orderId: ids.kettle } },
      { say: "Shall I?" },
    ]);
    const kettle = chat.ids.kettle;
    const first = await chat.say(`Please cancel ${chat.ids.towel} and ${kettle}, and tell me about ${chat.ids.lamp}.`);
    expect(first.interruptions.map((i) => i.confirmation.orderId)).toEqual([chat.ids.towel, kettle]);
    first.state?.approve(first.interruptions[0]!.item);
    first.state?.reject(first.interruptions[1]!.item);

    const second = await chat.answer(first.state!);
    expect(second.outcomes).toEqual([
      expect.objectContaining({ kind: "completed", orderId: chat.ids.towel }),
      expect.objectContaining({ kind: "declined", orderId: kettle }),
    ]);
    expect(chat.sent().map((r) => r.body.orderId)).toEqual([chat.ids.towel]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
    expect(await service.order(kettle)).toMatchObject({ status: "placed", version: 1 });
    expect((await chat.intents()).map((i) => [i.orderId, i.state])).toEqual([
      [chat.ids.towel, "completed"],
      [kettle, "declined"],
    ]);
  });

  it("the agent runs only through conversation.run, and a state with nothing to answer is refused, saying what run takes", async () => {
    const chat = await agentsChat((ids) => [{ call: "get_order", input: { orderId: ids.towel } }, { say: "It is placed." }]);
    await expect(run(chat.app.agent, "Where is my order?")).rejects.toThrow(/runs only inside conversation\.run\(\)/);
    const turn = await chat.say(`Where is ${chat.ids.towel}?`);
    await expect(chat.answer(turn.state!)).rejects.toThrow("This run's state has no interruptions to answer");
    expect(() => chat.app.orders.agent({ name: "a", tools: [chat.app.agent.tools[0]!] })).toThrow(
      "tools: search_orders is an order tool's name; give your own tools other names.",
    );
  });
  it("an interruption left unanswered keeps its change waiting: asked again, and the next run is interrupted on it again", async () => {
    const chat = await agentsChat((ids) => [
      { call: "get_order", input: { orderId: ids.lamp } },
      { call: "cancel_order", input: { orderId: ids.towel } },
      { call: "cancel_order", input: { orderId: ids.kettle } },
      { say: "Shall I?" },
    ]);
    const { towel, kettle } = chat.ids;
    const first = await chat.say(`Please cancel ${towel} and ${kettle}, and tell me about ${chat.ids.lamp}.`);
    first.state?.approve(first.interruptions[0]!.item);

    const second = await chat.answer(first.state!);
    expect(second.outcomes).toEqual([
      expect.objectContaining({ kind: "completed", orderId: towel }),
      expect.objectContaining({ kind: "awaiting_confirmation", orderId: kettle }),
    ]);
    expect(second.interruptions.map((i) => [i.confirmation.orderId, i.confirmation.confirmationId])).toEqual([
      [kettle, first.interruptions[1]?.confirmation.confirmationId],
    ]);
    expect(second.trace.events.filter((e) => e.type === "model_proposal")).toEqual([]);

    second.state?.reject(second.interruptions[0]!.item);
    const third = await chat.answer(second.state!);
    expect(third.outcomes).toEqual([expect.objectContaining({ kind: "declined", orderId: kettle })]);
    expect(chat.sent().map((r) => r.body.orderId)).toEqual([towel]);
    expect(await service.order(kettle)).toMatchObject({ status: "placed", version: 1 });
    expect((await chat.intents()).map((i) => [i.orderId, i.state])).toEqual([
      [towel, "completed"],
      [kettle, "declined"],
    ]);
  });
  it("the seller's instruction in the lamp's description: every change it asks for is held, and none reaches the service", async () => {
    const chat = await agentsChat((ids) => [
      { call: "get_order", input: { orderId: ids.lamp } },
      { call: "cancel_order", input: { orderId: ids.towel } },
      { call: "cancel_order", input: { orderId: ids.kettle } },
      { call: "start_return", input: { orderId: ids.lamp, itemIds: ["ITM-1", "ITM-2"], reason: "other" } },
      { say: "It takes an E27 bulb." },
      { say: "You're welcome." },
    ]);
    const first = await chat.say(`Which bulb does the floor lamp on ${chat.ids.lamp} take?`);
    expect(first.interruptions.map((i) => [i.item.name, i.confirmation.orderId])).toEqual([
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
    const chat = await agentsChat(
      (ids) => [
        { call: "cancel_order", input: { orderId: ids.towel } },
        { say: "Cancelled." },
        { call: "cancel_order", input: { orderId: ids.towel } },
        { say: `Order ${ids.towel} is cancelled.` },
      ],
      { store: () => dyingOnce(new MemoryIntentStore()) },
    );
    const before = chat.chat.state();
    await expect(chat.say(`Please cancel order ${chat.ids.towel} before it ships.`)).rejects.toThrow(SimulatedCrash);
    expect(chat.chat.state()).toEqual(before);
    expect(chat.sent()).toEqual([]);

    const again = await chat.say(`Please cancel order ${chat.ids.towel} before it ships.`);
    expect(again.reply).toBe(`Order ${chat.ids.towel} is cancelled.`);
    expect(chat.sent()).toHaveLength(1);
    expect(await service.order(chat.ids.towel)).toMatchObject({ status: "cancelled", version: 2 });
  });
});

/** The call id of a turn's first interruption. */
function heldCall(turn: AgentsTurn): string {
  const raw = turn.interruptions[0]?.item.rawItem;
  return raw?.type === "function_call" ? raw.callId : "";
}

/** The output the SDK's history gives a tool call. */
function resultFor(history: readonly AgentInputItem[], callId: string | undefined): string | undefined {
  const item = history.find((i) => i.type === "function_call_result" && i.callId === callId);
  if (item?.type !== "function_call_result") return undefined;
  return typeof item.output === "string" ? item.output : "text" in item.output ? String(item.output.text) : JSON.stringify(item.output);
}

describe("a message over the bound, inside the Agents SDK", () => {
  it("never reaches the agent's model: the turn's problem is message_too_long, nothing is read or sent", async () => {
    const chat = await agentsChat((ids) => [{ call: "cancel_order", input: { orderId: ids.towel } }, { say: "Cancelled." }]);
    const long = `Please cancel ${chat.ids.towel} before it ships. ${"Thanks. ".repeat(600)}`;
    const turn = await chat.say(long);
    expect(turn.problem).toMatchObject({ code: "message_too_long" });
    expect(turn.interruptions).toEqual([]);
    expect(chat.fetch.requests).toEqual([]);
    expect(await chat.intents()).toEqual([]);
    expect(await service.order(chat.ids.towel)).toMatchObject({ version: 1 });
  });
});
