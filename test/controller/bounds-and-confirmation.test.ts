import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController, type ControllerOptions } from "#controller/controller";
import { MemoryIntentStore } from "#controller/intents/memory";
import { type ScriptFunction, type ScriptStep, scriptedModel } from "#controller/model/scripted";
import type { ModelResponse } from "#controller/model/types";
import type { DemoWorld } from "#examples/controller-demo/cases";
import { claimsSuccess, type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/** Loop bounds (N tool calls, T seconds per turn), the confirmation policy, and what streams before the gate. */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

async function controllerFor(world: DemoWorld, script: ScriptStep[] | ScriptFunction, options: Partial<ControllerOptions> = {}) {
  const fetch = watchedFetch();
  const controller = createController({
    service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId), fetch },
    model: scriptedModel(script),
    intents: new MemoryIntentStore(),
    ...options,
  });
  return { controller, fetch };
}

describe("loop bounds", () => {
  it("a model that proposes forever stops at N tool calls, with an honest reply", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { controller, fetch } = await controllerFor(world, () => ({ call: "get_order", input: { orderId } }), {
      limits: { maxToolCalls: 4 },
    });
    const turn = await controller.conversation("forever").turn(`Tell me about ${orderId}`);

    expect(turn.reply).toBe(
      "I had to stop before finishing, because it needed more than the 4 steps I can take per message. I haven't changed anything on your orders.",
    );
    expect(turn.replyKind).toBe("information");
    expect(turn.trace.counts).toEqual({ httpRequests: 4, toolCalls: 4, modelRequests: 4 });
    expect(turn.trace.events.filter((e) => e.type === "limit")).toEqual([expect.objectContaining({ limit: "tool_calls", value: 4 })]);
    expect(turn.trace.flags).toContain("limit");
    expect(fetch.requests).toHaveLength(4);
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });

  it("calls past the bound in one response are answered NOT_RUN, and what did change is reported", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    // Every response proposes the same cancellation three times over.
    const thrice = (): ModelResponse => ({
      text: "",
      toolCalls: [1, 2, 3].map((n) => ({
        id: `call_${Math.random().toString(36).slice(2)}_${n}`,
        name: "cancel_order",
        input: { orderId },
      })),
    });
    const { controller, fetch } = await controllerFor(world, thrice, { limits: { maxToolCalls: 2 } });
    const conversation = controller.conversation("bounded");
    const turn = await conversation.turn(`Cancel ${orderId}!`);

    // The second proposal is the change the first already made this turn: answered with its outcome, not sent.
    expect(fetch.requests.map((r) => r.tool)).toEqual(["cancel_order"]);
    expect(turn.trace.events.filter((e) => e.type === "same_change")).toHaveLength(1);
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
    expect(turn.outcomes.map((o) => o.kind)).toEqual(["completed"]);
    expect(turn.reply).toBe(
      `I had to stop before finishing, because it needed more than the 2 steps I can take per message. Order ${orderId} is cancelled.`,
    );
    const results = conversation.state().messages.filter((m) => m.role === "tool");
    expect(results).toHaveLength(3);
    expect(results[2]).toMatchObject({ isError: true, content: expect.stringContaining("NOT_RUN") });
  });

  it("a slow model stops at T seconds", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const slow: ScriptFunction = () => ({ call: "get_order", input: { orderId } });
    const model = scriptedModel(slow);
    const { controller } = await controllerFor(world, [], {
      model: {
        name: "slow",
        respond: async (request) => {
          await new Promise((r) => setTimeout(r, 150));
          return model.respond(request);
        },
      },
      limits: { maxSeconds: 0.5, maxToolCalls: 50 },
    });
    const started = performance.now();
    const turn = await controller.conversation("slow").turn(`Tell me about ${orderId}`);

    expect(performance.now() - started).toBeLessThan(2_000);
    expect(turn.trace.events.filter((e) => e.type === "limit")).toEqual([expect.objectContaining({ limit: "time", value: 0.5 })]);
    expect(turn.reply).toMatch(/^I had to stop before finishing, because it took longer than the 0.5 seconds/);
    expect(turn.trace.counts.toolCalls).toBeLessThanOrEqual(4);
    // Within a bound shorter than a request's own timeout, the calls still reach the service and are answered
    // (a deadline's fraction of a millisecond once made every one of them fail before it left).
    expect(turn.trace.events.filter((e) => e.type === "http_response").map((e) => e.status)).toContain(200);
    expect(turn.problem).toBeUndefined();
  });
});

describe("confirmation policy: cancel_order asks first, and the intent waits persisted", () => {
  it("asks, sends nothing; on “yes” sends the persisted intent once, with its own operationId, and confirms after the gate", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { controller, fetch } = await controllerFor(
      world,
      [
        { call: "get_order", input: { orderId } },
        { call: "cancel_order", input: { orderId } },
        { say: `I've cancelled ${orderId}.` },
        { say: `Order ${orderId} is cancelled.` },
      ],
      { confirm: { cancel_order: true } },
    );
    const conversation = controller.conversation("confirm");
    const first = await conversation.turn(`Please cancel ${orderId}`);

    expect(first.reply).toBe(`Shall I cancel order ${orderId} (Electric kettle 1.7L)? Reply yes to confirm.`);
    expect(first.replyKind).toBe("confirmation_request");
    expect(fetch.requests.map((r) => r.tool)).toEqual(["get_order"]);
    const [waiting] = await controller.store.forConversation("confirm");
    expect(waiting).toMatchObject({ state: "awaiting_confirmation", revision: 1, confirmationQuestion: first.reply });
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });

    const order: string[] = [];
    const progress: string[] = [];
    const second = await conversation.turn("yes", {
      onProgress: (text) => {
        progress.push(text);
        order.push("progress");
      },
      onReply: () => order.push("reply"),
    });
    expect(second.reply).toBe(`Order ${orderId} is cancelled.`);
    expect(second.replyKind).toBe("confirmation");
    expect(fetch.requests.filter((r) => r.tool === "cancel_order")).toEqual([
      { tool: "cancel_order", body: { operationId: waiting?.operationId, orderId } },
    ]);
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
    expect((await controller.store.forConversation("confirm"))[0]).toMatchObject({ operationId: waiting?.operationId, state: "completed" });
    // Streaming: progress first, never a success claim; the confirmation once, after the gate decided.
    expect(order.at(-1)).toBe("reply");
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(claimsSuccess(line)).toBe(false);
    const kinds = second.trace.events.map((e) => e.type);
    expect(kinds.indexOf("gate")).toBe(kinds.indexOf("reply") - 1);
    expect(second.trace.events.find((e) => e.type === "confirmation")).toMatchObject({ decision: "confirm", via: "message" });
  });

  it('confirm: "all" holds even a request in the closed form on a clean context: asked, nothing sent, the order as it was', async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { controller, fetch } = await controllerFor(
      world,
      [{ call: "cancel_order", input: { orderId } }, { say: `I've cancelled ${orderId}.` }],
      { confirm: "all" },
    );
    const turn = await controller.conversation("confirm-all").turn(`Please cancel ${orderId}`);

    expect(turn.reply).toBe(`Shall I cancel order ${orderId}? Reply yes to confirm.`);
    expect(turn.replyKind).toBe("confirmation_request");
    expect(turn.outcomes.map((o) => o.kind)).toEqual(["awaiting_confirmation"]);
    expect(fetch.requests).toEqual([]);
    expect(await controller.store.forConversation("confirm-all")).toEqual([
      expect.objectContaining({ tool: "cancel_order", state: "awaiting_confirmation", heldFor: ["policy"], sends: 0 }),
    ]);
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });

  it("a no declines the held change: nothing sent, and the model may not claim otherwise", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { controller, fetch } = await controllerFor(
      world,
      [{ call: "cancel_order", input: { orderId } }, { say: "OK?" }, { say: `Done, ${orderId} is cancelled.` }],
      { confirm: (tool) => tool === "cancel_order" },
    );
    const conversation = controller.conversation("decline");
    await conversation.turn(`Cancel ${orderId}`);
    const second = await conversation.turn("No, wait, keep it.");

    expect(second.trace.events.find((e) => e.type === "confirmation")).toMatchObject({ decision: "decline", via: "message" });
    expect(fetch.requests).toEqual([]);
    expect((await controller.store.forConversation("decline"))[0]).toMatchObject({ state: "declined" });
    expect(second.reply).toBe(`All right, order ${orderId} stays as it is.`);
    expect(second.trace.flags).toContain("claim_mismatch");
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });
});
