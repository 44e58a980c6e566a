import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCases } from "#examples/controller-demo/cases";
import { demoVerdict, runDemoCase } from "#examples/controller-demo/run";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * `npm run demo`'s conversations end as the demo says they do, judged by the demo's own verdict, and what it
 * shows of a button press is the press's whole result: the reply, and the changes still waiting.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

describe("npm run demo's conversations", () => {
  it("each ends as the demo expects it to", async () => {
    const world = await service.freshWorld();
    for (const demoCase of demoCases(world)) {
      const run = await runDemoCase(service, world, demoCase);
      expect([demoCase.id, demoVerdict(demoCase, run)]).toEqual([demoCase.id, []]);
    }
  });

  it("the seller's press on the return: its reply, and the replacement still waiting with the button it had", async () => {
    const world = await service.freshWorld();
    const seller = demoCases(world).find((c) => c.id === "seller-return");
    const run = await runDemoCase(service, world, seller!);
    const [held, pressed] = run.turns;
    const replacement = held?.confirmations.find((c) => c.tool === "offer_replacement");
    expect(pressed?.reply).toMatch(new RegExp(`^A return of ITM-1 from order ${world.orders.sellerReturn} is booked`));
    // The same change and button, asked again: its question has a new expiry.
    const { expiresAt: _asked, ...same } = replacement ?? ({} as NonNullable<typeof replacement>);
    expect(pressed?.confirmations).toEqual([{ ...same, expiresAt: expect.any(String) }]);
    expect(pressed?.confirmation?.confirmationId).toBe(replacement?.confirmationId);
    expect(Date.parse(pressed?.confirmation?.expiresAt ?? "")).toBeGreaterThanOrEqual(Date.parse(replacement?.expiresAt ?? ""));
    expect(await service.order(world.orders.sellerReturn)).toMatchObject({ version: 2 });
  });

  it("a refused order is told once: the application's sentence, then what the model adds", async () => {
    const world = await service.freshWorld();
    const refused = demoCases(world).find((c) => c.id === "someone-elses-order");
    const run = await runDemoCase(service, world, refused!);
    const reply = run.turns[0]?.reply ?? "";
    expect(reply.match(/couldn't find order/g)).toHaveLength(1);
  });
});
