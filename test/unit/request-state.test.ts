import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argumentsDigest, localRequestStateKey, openState, sealState, type StateBinding } from "#runtime/request-state";

/**
 * The requestState of an MCP confirmation (contract §2.1): what the key signed comes back only as issued, only
 * within its time, and only for the principal, tool and arguments it names. Checked over seeded generated states
 * and changes, not a list of examples.
 */

const key = localRequestStateKey(Buffer.alloc(32, 1));
const asked = new Date("2026-12-01T10:00:00Z");
const binding: StateBinding = {
  principal: "p-ana",
  tool: "cancel_order",
  arguments: argumentsDigest({ operationId: "op-12345678", orderId: "SU-10001" }),
};

describe("a requestState", () => {
  it("opens for exactly what it was sealed for, until its expiry, and names its id", async () => {
    const { state, id, expiresAt } = await sealState(key, binding, { now: asked, ttlSeconds: 600 });
    expect(expiresAt.toISOString()).toBe("2026-12-01T10:10:00.000Z");
    expect(await openState(key, state, binding, new Date(asked.getTime() + 599_000))).toEqual({ ok: true, id, expiresAt });
    expect(await openState(key, state, binding, expiresAt)).toEqual({ ok: false, reason: "expired", id, expiresAt });
    expect(await openState(key, state, { ...binding, principal: "p-ben" }, asked)).toEqual({ ok: false, reason: "other_principal", id });
    expect(await openState(key, state, { ...binding, tool: "add_delivery_note" }, asked)).toEqual({
      ok: false,
      reason: "other_request",
      id,
      tool: "cancel_order",
    });
    expect(await openState(key, state, { ...binding, arguments: argumentsDigest({ orderId: "SU-10001" }) }, asked)).toMatchObject({
      reason: "other_request",
    });
    expect(await openState(localRequestStateKey(), state, binding, asked)).toEqual({ ok: false, reason: "tampered" });
  });

  it("changed in any one character, or cut, is refused as tampered before anything it says is read (property)", async () => {
    const { state } = await sealState(key, binding, { now: asked, ttlSeconds: 600 });
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: state.length - 1 }),
        fc.constantFrom(..."ABZaz09-_.=+/ "),
        fc.boolean(),
        async (at, replacement, cut) => {
          const changed = cut ? state.slice(0, at) : state.slice(0, at) + replacement + state.slice(at + 1);
          fc.pre(changed !== state);
          expect(await openState(key, changed, binding, asked)).toEqual({ ok: false, reason: "tampered" });
        },
      ),
      { seed: 35, numRuns: 400 },
    );
  });

  it("the arguments' digest is the same in any key order and differs for any other value (property)", () => {
    const args = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
    fc.assert(
      fc.property(args, fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), (value, field, other) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(argumentsDigest(reversed)).toBe(argumentsDigest(value));
        const changed = { ...value, [field]: other };
        fc.pre(JSON.stringify(changed[field]) !== JSON.stringify(value[field]) || !(field in value));
        expect(argumentsDigest(changed)).not.toBe(argumentsDigest(value));
      }),
      { seed: 35, numRuns: 300 },
    );
  });
});
