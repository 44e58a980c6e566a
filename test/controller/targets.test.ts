import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OrderFacts } from "#controller/outcomes";
import { sameWord } from "#controller/guard/targets";
import { provenanceOf } from "#test/controller/support/provenance-words";

/**
 * Contract §8.5, "a target is the person's": a request's fragment, pronoun, possessive or description names an order
 * only among those the principal named or was shown; a description must agree with the order; after a change, "it",
 * "this", "that" name that change; item words match whole words, singular or plural, and words that fit two items ask.
 */
const today = "2026-12-07"; // a Monday
const rugs: OrderFacts = {
  orderId: "SU-71201",
  read: true,
  status: "placed",
  placedAt: "2026-12-07T08:00:00Z",
  items: [{ itemId: "ITM-1", title: "Wool rug" }],
};
const lamps: OrderFacts = {
  orderId: "SU-71202",
  read: true,
  status: "placed",
  placedAt: "2026-12-07T09:00:00Z",
  items: [{ itemId: "ITM-1", title: "Floor lamp" }],
};
const check = provenanceOf({ orders: [lamps], today });

/** The ways a request names its order without its id. */
const unnamed = ["Cancel this one.", "Please cancel it.", "Cancel my order.", "Please cancel the order.", "Cancel this order, please."];

describe("the model's own reads name nothing", () => {
  it("a pronoun, possessive or fragment that only the model's read makes unique is asked about, never sent", () => {
    const message = fc.oneof(
      fc.constantFrom(...unnamed),
      fc.constant("Please cancel order 1202."),
      fc.constant("Cancel the lamp order from Monday."),
    );
    fc.assert(
      fc.property(message, (text) => {
        const decision = check({ tool: "cancel_order", request: { orderId: lamps.orderId }, message: text });
        return decision.decision === "confirm" && decision.failed.includes("target");
      }),
      { seed: 41, numRuns: 50 },
    );
  });

  it("the benign twin: the same words go out at once when the order was shown to the principal", () => {
    for (const text of [...unnamed, "Please cancel order 1202.", "Cancel the lamp order from Monday."])
      expect(
        check({ tool: "cancel_order", request: { orderId: lamps.orderId }, message: text, shownOrders: [lamps.orderId] }),
        text,
      ).toMatchObject({
        decision: "dispatch",
      });
  });

  it("an order the principal named in an earlier message is theirs", () => {
    expect(
      check({
        tool: "cancel_order",
        request: { orderId: lamps.orderId },
        message: "Please cancel it.",
        principalMessages: [`When does ${lamps.orderId} arrive?`, "Please cancel it."],
      }),
    ).toMatchObject({ decision: "dispatch" });
  });
});

describe("a description must agree with the order it names", () => {
  const shown = [rugs.orderId, lamps.orderId];
  const cancel = (orderId: string, message: string, orders: OrderFacts[] = [rugs, lamps]) =>
    check({ tool: "cancel_order", request: { orderId }, message, orders, shownOrders: shown });

  it("a rug order from Monday is not the lamp order from Monday", () => {
    expect(cancel(lamps.orderId, "Please cancel the rug order from Monday.")).toMatchObject({ decision: "confirm", failed: ["target"] });
    expect(cancel(rugs.orderId, "Please cancel the rug order from Monday.")).toMatchObject({ decision: "dispatch" });
  });

  it("an order placed on another day does not agree, whatever it holds", () => {
    const friday = { ...rugs, placedAt: "2026-12-04T10:00:00Z" };
    expect(cancel(rugs.orderId, "Please cancel the rug order from Monday.", [friday, lamps])).toMatchObject({
      decision: "confirm",
      failed: ["target"],
    });
    expect(cancel(rugs.orderId, "Please cancel the rug order from Friday.", [friday, lamps])).toMatchObject({ decision: "dispatch" });
  });

  it("the day it was placed is read in the principal's time zone", () => {
    // 03:00 UTC on Monday is still Sunday evening in Anchorage: there, it is the rug order from Sunday.
    const late = { ...rugs, placedAt: "2026-12-07T03:00:00Z" };
    const inAnchorage = { orders: [late], shownOrders: shown, today: "2026-12-06", timeZone: "America/Anchorage" };
    const request = { tool: "cancel_order" as const, request: { orderId: rugs.orderId } };
    expect(check({ ...request, ...inAnchorage, message: "Cancel the rug order from Sunday." })).toMatchObject({ decision: "dispatch" });
    expect(check({ ...request, ...inAnchorage, message: "Cancel the rug order from today." })).toMatchObject({ decision: "dispatch" });
    expect(check({ ...request, orders: [late], shownOrders: shown, message: "Cancel the rug order from Sunday." })).toMatchObject({
      decision: "confirm",
      failed: ["target"],
    });
  });
});

describe("after a change, 'it', 'this' and 'that' name that change, not an order", () => {
  it("'Cancel that.' after a note was added asks, and names the order", () => {
    for (const text of ["Cancel that.", "Cancel it.", "Please cancel this."]) {
      expect(
        check({
          tool: "cancel_order",
          request: { orderId: lamps.orderId },
          message: text,
          shownOrders: [lamps.orderId],
          changeBefore: true,
        }),
        text,
      ).toMatchObject({ decision: "confirm", failed: ["target"] });
      expect(
        check({ tool: "cancel_order", request: { orderId: lamps.orderId }, message: text, shownOrders: [lamps.orderId] }),
        text,
      ).toMatchObject({ decision: "dispatch" });
    }
  });

  it("a possessive or the order's id still names the order after a change", () => {
    for (const text of ["Cancel my order.", `Cancel ${lamps.orderId}.`])
      expect(
        check({
          tool: "cancel_order",
          request: { orderId: lamps.orderId },
          message: text,
          shownOrders: [lamps.orderId],
          changeBefore: true,
        }),
        text,
      ).toMatchObject({ decision: "dispatch" });
  });
});

describe("item words match whole words, singular and plural", () => {
  const nouns = ["glass", "dress", "box", "brush", "battery", "lamp", "bench", "tomato", "bus", "lens", "brass", "class"];
  const plural = (w: string) => (/[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : /(?:s|sh|ch|x|z|o)$/.test(w) ? `${w}es` : `${w}s`);

  it("a word and its plural are the same word; a word cut short is not", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...nouns),
        // "glass" is not "glas": a word ending in -ss is not a plural of the word one letter shorter.
        (w) => sameWord(w, plural(w)) && sameWord(plural(w), w) && (!w.endsWith("ss") || !sameWord(w, w.slice(0, -1))),
      ),
      { seed: 41, numRuns: 50 },
    );
  });

  it("the item the principal names is the one returned, whether they say it in the singular or the plural", () => {
    fc.assert(
      fc.property(fc.constantFrom(...nouns), fc.constantFrom(...nouns), fc.boolean(), (named, other, asPlural) => {
        if (named === other) return true;
        const order: OrderFacts = {
          orderId: "SU-71203",
          read: true,
          status: "delivered",
          items: [
            { itemId: "ITM-1", title: `Blue ${other}` },
            { itemId: "ITM-2", title: `Red ${asPlural ? named : plural(named)}` },
          ],
        };
        const message = `The ${asPlural ? plural(named) : named} on SU-71203 arrived broken, please return it.`;
        const right = check({
          tool: "start_return",
          request: { orderId: "SU-71203", itemIds: ["ITM-2"], reason: "damaged" },
          message,
          orders: [order],
        });
        const swapped = check({
          tool: "start_return",
          request: { orderId: "SU-71203", itemIds: ["ITM-1"], reason: "damaged" },
          message,
          orders: [order],
        });
        return right.decision === "dispatch" && swapped.decision === "confirm";
      }),
      { seed: 41, numRuns: 100 },
    );
  });

  it("words that fit two items do not say which: the change waits for a question", () => {
    const order: OrderFacts = {
      orderId: "SU-71204",
      read: true,
      status: "delivered",
      items: [
        { itemId: "ITM-1", title: "Reading glasses" },
        { itemId: "ITM-2", title: "Glass vase" },
      ],
    };
    const message = "The glasses on SU-71204 arrived broken, please return them.";
    expect(
      check({ tool: "start_return", request: { orderId: "SU-71204", itemIds: ["ITM-1"], reason: "damaged" }, message, orders: [order] }),
    ).toMatchObject({ decision: "confirm", failed: ["values"] });
  });
});
