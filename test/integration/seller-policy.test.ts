import { describe, expect, it } from "vitest";
import { sellerWithPolicy } from "#store/sellers";
import { newWorld } from "#test/support/world";

describe("the seller and its resolved policy", () => {
  it("keys DynamoDB leaves unprocessed are asked for again, so the supplement is not mistaken for absent", async () => {
    const world = await newWorld();
    let throttled = false;
    world.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== "BatchGetItemCommand" || throttled) return next(args);
        // As DynamoDB does under throttling: answer for the first key only, hand the rest back as unprocessed.
        throttled = true;
        const input = args.input as { RequestItems: Record<string, { Keys: unknown[] }> };
        const [table, request] = Object.entries(input.RequestItems)[0] as [string, { Keys: unknown[] }];
        const [first, ...rest] = request.Keys;
        input.RequestItems = { [table]: { ...request, Keys: [first] } };
        const result = await next(args);
        (result.output as { UnprocessedKeys?: unknown }).UnprocessedKeys = { [table]: { Keys: rest } };
        return result;
      },
      { step: "initialize", name: "throttleBatchGet" },
    );

    const found = await sellerWithPolicy(world.deps, "SLR-2210");

    expect(throttled).toBe(true);
    expect(world.counter.snapshot()).toEqual({ BatchGetItemCommand: 2 });
    expect(found).toEqual({
      seller: { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
      policy: { ref: "seller-supp/SLR-2210", returnWindowDays: 14 },
    });
  });
});
