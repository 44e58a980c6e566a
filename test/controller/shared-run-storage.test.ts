import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ControllerOptions } from "#controller/controller";
import { MemoryIntentStore } from "#controller/intents/memory";
import { scriptedModel } from "#controller/model/scripted";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * Node keeps every AsyncLocalStorage instance a process has used and visits each one for every promise it
 * creates. The controller keeps the current run in one, so one per controller made every promise in the process
 * slower with each controller created (an application that makes a controller per request, as the benchmark
 * does, slowed its own service calls from 24 to 44 ms after 300). These count the instances directly.
 */
const created = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:async_hooks", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:async_hooks")>();
  class CountedStorage<T> extends original.AsyncLocalStorage<T> {
    constructor() {
      super();
      created.count++;
    }
  }
  return { ...original, AsyncLocalStorage: CountedStorage };
});

let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

describe("the controller's run context", () => {
  it("is one AsyncLocalStorage for the whole process, however many controllers are made", async () => {
    const { createController } = await import("#controller/controller");
    const before = created.count;
    const world = await service.freshWorld();
    const options = async (): Promise<ControllerOptions> => ({
      service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId) },
      model: scriptedModel([{ say: "Hello." }]),
      intents: new MemoryIntentStore(),
    });
    for (let i = 0; i < 50; i++)
      await createController(await options())
        .conversation(`c-${i}`)
        .turn("Hi");
    expect(created.count - before).toBe(0);
    expect(created.count).toBeLessThanOrEqual(1);
  });

  it("keeps each controller's run its own when their turns interleave", async () => {
    const { createController } = await import("#controller/controller");
    const world = await service.freshWorld();
    const token = await service.token(world.ana.customerId);
    const a = createController({
      service: { baseUrl: service.gatewayUrl, token },
      model: scriptedModel([{ call: "get_order", input: { orderId: world.orders.success } }, { say: "Here are the order's details." }]),
      intents: new MemoryIntentStore(),
    });
    const b = createController({
      service: { baseUrl: service.gatewayUrl, token },
      model: scriptedModel([
        { call: "cancel_order", input: { orderId: world.orders.lostResponse } },
        { say: `Order ${world.orders.lostResponse} is cancelled.` },
      ]),
      intents: new MemoryIntentStore(),
    });
    const [turnA, turnB] = await Promise.all([
      a.conversation("a").turn("Show me my order"),
      b.conversation("b").turn(`Cancel ${world.orders.lostResponse}`),
    ]);
    // B's intent transitions are recorded in B's trace only; A, which changed nothing, has none.
    expect(turnA.trace.events.filter((e) => e.type === "intent")).toEqual([]);
    expect(turnB.trace.events.filter((e) => e.type === "intent").map((e) => (e as { to: string }).to)).toEqual(
      expect.arrayContaining(["sent", "completed"]),
    );
    expect(turnB.replyKind).toBe("confirmation");
    // A read and no change: the order's status, rendered from A's own read, stands for the model's sentence.
    expect(turnA.reply).toBe(`Order ${world.orders.success} has been placed and is waiting to be processed.`);
    expect(turnA.facts.map((f) => f.orderId)).not.toContain(world.orders.lostResponse);
    expect(turnA.trace.events.filter((e) => e.type === "http_request")).toHaveLength(1);
    expect(turnB.reply).toBe(`Order ${world.orders.lostResponse} is cancelled.`);
    expect(await service.order(world.orders.lostResponse)).toMatchObject({ status: "cancelled", version: 2 });
    expect(await service.order(world.orders.success)).toMatchObject({ status: "placed", version: 1 });
  });
});
