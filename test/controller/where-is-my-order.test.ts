import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import { scriptedModel } from "#controller/model/scripted";
import { demoCases } from "#examples/controller-demo/cases";
import { runDemoCase } from "#examples/controller-demo/run";
import { type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * "Where is my order?" through the controller and the real service (contract §8.2): the model guesses a delivery
 * day the record does not hold, so its sentence is not shown, and the order's facts — rendered by the application
 * from the get_order it made this turn — answer instead, as text and as data. With no record, no facts.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

describe("where is my order?", () => {
  it("is answered with the order's status, tracking and (asked too) its amount in yen from this turn's read, and the model's guess is not shown", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.withCarrier;
    const demo = demoCases(world).find((c) => c.id === "where-is-my-order");
    if (!demo) throw new Error("no where-is-my-order demo case");
    const fetch = watchedFetch();
    const run = await runDemoCase(service, world, demo, { fetch });
    const [turn] = run.turns;

    expect(turn?.reply).toBe(
      `Thanks for waiting! Order ${orderId} has shipped. Order ${orderId}: Parcelline, tracking number PL${world.tag}88, in transit. The charges on order ${orderId} come to ¥15,800.`,
    );
    expect(turn?.replyKind).toBe("information");
    expect(turn?.trace.flags).toContain("claim_mismatch");
    expect(fetch.requests.map((r) => r.tool)).toEqual(["get_order"]);
    // As data: every fact of the order read, the three the question asked for marked shown.
    expect(turn?.facts.filter((f) => f.shown).map((f) => f.kind)).toEqual(["status", "tracking", "amounts"]);
    expect(turn?.facts.find((f) => f.kind === "amounts")).toMatchObject({ totalCents: 15800, currency: "JPY" });
    expect(turn?.facts.map((f) => f.kind)).toEqual(
      expect.arrayContaining(["status", "placed", "tracking", "items", "amounts", "possible"]),
    );
    expect(turn?.facts.every((f) => f.orderId === orderId)).toBe(true);
    // Plain data: a copy keeps every sentence.
    expect(structuredClone(turn?.facts)?.find((f) => f.kind === "status")?.text).toBe(`Order ${orderId} has shipped.`);
    expect(await service.order(orderId)).toMatchObject({ status: "shipped", version: 1 });
  });

  it("with no record — the read did not reach the service — there are no facts, nothing the model guessed, and the customer is told their orders could not be reached", async () => {
    const controller = createController({
      service: { baseUrl: "http://127.0.0.1:9", token: "unused" },
      model: scriptedModel([
        { call: "get_order", input: { orderId: "SU-90018" } },
        { say: "Your order SU-90018 is on its way and should arrive on Thursday." },
      ]),
      reconcile: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    const turn = await controller.conversation("c-unreachable").turn("Where is my order SU-90018?");
    expect(turn.facts).toEqual([]);
    // Not "I haven't changed anything on your orders.", as if all were well.
    expect(turn.reply).toBe("Your orders could not be reached right now.");
    expect(turn.problem).toMatchObject({ code: "unreachable", tool: "get_order" });
  });
});
