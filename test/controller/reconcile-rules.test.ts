import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController, type ControllerOptions } from "#controller/controller";
import type { Fetch } from "#controller/http/faults";
import { type TestSeams, withTestSeams } from "#controller/testing";
import { MemoryIntentStore } from "#controller/intents/memory";
import { scriptedModel, type ScriptStep } from "#controller/model/scripted";
import { delayBefore, resendSettles } from "#controller/changes/reconcile";
import {
  claimsSuccess,
  crashingStore,
  type ServiceWorld,
  SimulatedCrash,
  startService,
  watchedFetch,
} from "#test/controller/support/service-world";

/**
 * The rules of reconciliation and of time, against the real handlers: a refused resend settles nothing, the
 * turn's time bound caps every HTTP call (resume() included), and a change persisted but never sent is asked
 * about again before anything is sent.
 */
let service: ServiceWorld;
beforeAll(async () => {
  // One capped change per customer and hour, so a resend can be refused for real (429, not recorded).
  process.env.ORDER_TOOLS_HOURLY_CAP = "1";
  service = await startService();
});
afterAll(async () => {
  await service?.close();
  delete process.env.ORDER_TOOLS_HOURLY_CAP;
});

async function controller(
  customerId: string,
  script: ScriptStep[],
  extra: Partial<ControllerOptions> & { seams?: TestSeams } = {},
  fetch: Fetch = globalThis.fetch,
) {
  const watched = watchedFetch(fetch);
  const { seams = {}, ...rest } = extra;
  return {
    fetch: watched,
    controller: createController(
      withTestSeams(
        {
          service: { baseUrl: service.gatewayUrl, token: await service.token(customerId), fetch: watched },
          model: scriptedModel(script),
          intents: new MemoryIntentStore(),
          reconcile: { baseDelayMs: 5, maxDelayMs: 20, maxStatusChecks: 3, maxResends: 1 },
          ...rest,
        },
        seams,
      ),
    ),
  };
}

/** A service that never answers: every request waits until its signal aborts it. */
const hanging: Fetch = (_input, init) =>
  new Promise((_, reject) => {
    const signal = init?.signal;
    if (!signal) return;
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

describe("a refused resend is not an outcome", () => {
  it("after not_found, a resend refused with 429 leaves the change unknown: never 'couldn't change'", async () => {
    const world = await service.freshWorld();
    const { ana, orders } = world;
    // Spend the customer's one capped change of the hour.
    const spend = await controller(ana.customerId, [{ call: "cancel_order", input: { orderId: orders.ambiguousA } }, { say: "Done." }]);
    expect((await spend.controller.conversation(`spend-${world.tag}`).turn(`Cancel ${orders.ambiguousA}`)).replyKind).toBe("confirmation");
    // The first send never reaches the service (503); the lookup says not_found; the resend is refused (429).
    const { controller: c, fetch } = await controller(
      ana.customerId,
      [{ call: "cancel_order", input: { orderId: orders.lostResponse } }, { say: `Order ${orders.lostResponse} could not be cancelled.` }],
      {
        seams: { faults: [{ kind: "service_error_before_commit", tool: "cancel_order" }] },
      },
    );
    const turn = await c.conversation(`refused-${world.tag}`).turn(`Cancel ${orders.lostResponse}`);
    // The controller's own account: the first send (stopped by the 503) and one resend, under one operationId.
    const sends = turn.trace.events.filter((e) => e.type === "http_request" && e.tool === "cancel_order");
    expect(sends).toHaveLength(2);
    expect(new Set(sends.map((e) => (e.type === "http_request" ? e.operationId : undefined))).size).toBe(1);
    expect(fetch.requests.filter((r) => r.tool === "cancel_order")).toHaveLength(1);
    expect(turn.trace.events).toContainEqual(expect.objectContaining({ type: "http_response", tool: "cancel_order", status: 429 }));
    expect(turn.replyKind).toBe("uncertainty");
    expect(turn.reply).not.toMatch(/couldn't|could not|can't be|cannot/i);
    expect(turn.outcomes).toEqual([expect.objectContaining({ kind: "unknown", orderId: orders.lostResponse })]);
    expect(await service.order(orders.lostResponse)).toMatchObject({ status: "placed", version: 1 });
  });

  it("the rule itself: only a recorded answer to a resend settles it", () => {
    const refused = {
      kind: "definite" as const,
      outcome: { status: "rejected" as const, body: {}, code: "RATE_LIMITED", recorded: false },
    };
    const recorded = {
      kind: "definite" as const,
      outcome: { status: "rejected" as const, body: {}, code: "NOT_ELIGIBLE", recorded: true },
    };
    expect(resendSettles(refused)).toBeUndefined();
    expect(resendSettles(recorded)).toBe(recorded.outcome);
    expect(delayBefore(3, { maxStatusChecks: 5, maxResends: 2, baseDelayMs: 100, maxDelayMs: 300 }, () => 1)).toBe(300);
  });
});

describe("the time bound T bounds every HTTP call", () => {
  it("a service that never answers: the turn ends within T (not the client's own 10 s timeout), uncertain", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { controller: c } = await controller(
      world.ana.customerId,
      [{ call: "cancel_order", input: { orderId } }, { say: "Done." }],
      { limits: { maxSeconds: 1 } },
      hanging,
    );
    const started = performance.now();
    const turn = await c.conversation(`hang-${world.tag}`).turn(`Cancel ${orderId}`);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(claimsSuccess(turn.reply)).toBe(false);
  });

  it("resume() shares one bound across every intent it finishes", async () => {
    const world = await service.freshWorld();
    const intents = new MemoryIntentStore();
    // Two changes persisted and never sent by a controller that stopped.
    const stopped = await controller(
      world.ana.customerId,
      [{ call: "cancel_order", input: { orderId: world.orders.success } }, { say: "x" }],
      { intents: crashingStore(intents, "sent", "before") },
    );
    await expect(stopped.controller.conversation(`r1-${world.tag}`).turn(`Cancel ${world.orders.success}`)).rejects.toThrow(SimulatedCrash);
    const stopped2 = await controller(
      world.ana.customerId,
      [{ call: "cancel_order", input: { orderId: world.orders.lostResponse } }, { say: "x" }],
      { intents: crashingStore(intents, "sent", "before") },
    );
    await expect(stopped2.controller.conversation(`r2-${world.tag}`).turn(`Cancel ${world.orders.lostResponse}`)).rejects.toThrow(
      SimulatedCrash,
    );
    const { controller: c } = await controller(world.ana.customerId, [], { intents, limits: { maxSeconds: 1 } }, hanging);
    const started = performance.now();
    const settled = await c.resume();
    expect(settled).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(2_500);
  });
});

describe("a change persisted in an earlier turn and never sent", () => {
  it("is not sent before the model reads the next message: it is asked about, and a no declines it", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const intents = new MemoryIntentStore();
    const crashing = await controller(world.ana.customerId, [{ call: "cancel_order", input: { orderId } }, { say: "x" }], {
      intents: crashingStore(intents, "persisted", "after"),
    });
    const conversationId = `stale-${world.tag}`;
    await expect(crashing.controller.conversation(conversationId).turn(`Cancel ${orderId}`)).rejects.toThrow(SimulatedCrash);

    const { controller: c, fetch } = await controller(world.ana.customerId, [{ say: "Understood." }, { say: "All right." }], { intents });
    const conversation = c.conversation(conversationId);
    const next = await conversation.turn("Actually, don't.");
    expect(next.replyKind).toBe("confirmation_request");
    expect(next.reply).toBe(`Shall I cancel order ${orderId}? Reply yes to confirm.`);
    const declined = await conversation.turn("No.");
    expect(declined.outcomes).toEqual([expect.objectContaining({ kind: "declined", orderId })]);
    expect(fetch.requests.filter((r) => r.tool === "cancel_order")).toEqual([]);
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });
});
