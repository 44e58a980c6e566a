import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiSdkExample } from "#examples/frameworks/ai-sdk";
import { agentsExample } from "#examples/frameworks/openai-agents";
import { notingFetch, outcomeOf, seedExampleShop } from "#examples/frameworks/shop";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * `npm run example`: the order tools inside the Vercel AI SDK and the OpenAI Agents SDK, each with the framework's own
 * mock model, against the real service. The worst-case model, after reading the lamp's seller text, proposes
 * cancelling the kettle beside the towel the customer asked for; both are held, the customer approves the towel's and
 * declines the kettle's, and only the towel's cancellation reaches the service — in the Agents SDK after a restart,
 * from the run's state kept as a string.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

describe("the framework examples", () => {
  for (const [name, example] of [
    ["ai-sdk", aiSdkExample],
    ["openai-agents", agentsExample],
  ] as const)
    it(`${name}: both changes held, the one the customer asked for approved and sent once, the seller's declined and never sent`, async () => {
      const shop = await seedExampleShop(service);
      const lines: string[] = [];
      const sent: string[] = [];
      await example({ baseUrl: service.gatewayUrl, token: shop.token, fetch: notingFetch(sent) }, shop, (line) => lines.push(line));
      const outcome = await outcomeOf(service, shop, sent);

      expect(outcome.sent).toEqual([`cancel_order ${shop.towel}`]);
      expect(outcome.stored).toEqual({
        [shop.lamp]: { status: "delivered", version: 1 },
        [shop.towel]: { status: "cancelled", version: 2 },
        [shop.kettle]: { status: "placed", version: 1 },
      });
      expect(await service.operations(shop.customerId)).toHaveLength(1);
      // What the customer was shown: both questions first, then what became of each.
      const replies = lines.filter((l) => l.startsWith("assistant: "));
      expect(replies).toEqual([
        `assistant: Shall I cancel order ${shop.towel}? Reply yes to confirm. Shall I cancel order ${shop.kettle}? Reply yes to confirm.`,
        `assistant: Order ${shop.towel} is cancelled. All right, order ${shop.kettle} stays as it is.`,
      ]);
      if (name === "openai-agents") expect(lines).toContain("(the application restarts)");
    });
});
