import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChangeToolName } from "#contract/tools";
import type { OrderFacts } from "#controller/outcomes";
import { readOrderAnswer, readRequestForm } from "#controller/guard/request-form";
import { provenanceOf } from "#test/controller/support/provenance-words";

/**
 * The closed form of a request (contract §8.5): the fast path accepts a message only when the whole of it is a
 * request in a form stated in one place (controller/guard/request-form.ts). Seeded generators compose the forms
 * with their values and hold the reading to what was composed; they then bend each accepted message the ways people
 * write things that are not requests — a negation elsewhere, a retraction, a question, a condition, a deferral,
 * a quotation, a report of someone else's words, a reminder, a past intention, an opinion, a second kind of change, a
 * "too" — and require the form to refuse every one: such a change waits for a confirmation.
 */

const today = "2026-12-03";
const seed = 20261203;
const runs = { seed, numRuns: 400 };

const orderId = fc.integer({ min: 10000, max: 99999 }).map((n) => `SU-${n}`);
/** How a principal names an order, and the id it names. */
const orderRef = orderId.chain((id) =>
  fc
    .constantFrom(id, `order ${id}`, `my order ${id}`, `the order ${id}`, id.replace("-", " "), `order ${id.slice(3)}`)
    .map((text) => ({ text, id })),
);
const greeting = fc.constantFrom("", "Hi, ", "Hello. ", "Hi there! ", "Good morning. ");
const lead = fc.constantFrom(
  "",
  "Please ",
  "please ",
  "Kindly ",
  "I'd like to ",
  "I want to ",
  "Can you ",
  "Could you please ",
  "Would you ",
);
const tail = fc.constantFrom("", ", please", " please");
const thanks = fc.constantFrom("", " Thanks!", " Thank you.", " Cheers.");
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface Composed {
  message: string;
  tool: ChangeToolName;
  id: string;
  /** The request the worst-case model makes of it: exactly what was asked. */
  request: Record<string, unknown>;
}

/** A request sentence put together: the polite question form gets a question mark, the others a full stop. */
function sentence(g: string, l: string, core: string, t: string, th: string): string {
  const polite = /^(?:can|could|would) you/i.test(l);
  return `${g}${capitalise(`${l}${core}`)}${t}${polite ? "?" : "."}${th}`;
}

const cancellations = fc.tuple(greeting, lead, orderRef, fc.constantFrom("", " before it ships"), tail, thanks).map(
  ([g, l, ref, deadline, t, th]): Composed => ({
    message: sentence(g, l, `cancel ${ref.text}${deadline}`, t, th),
    tool: "cancel_order",
    id: ref.id,
    request: { orderId: ref.id },
  }),
);

const noteWords = fc.constantFrom(
  "Leave it in the porch",
  "Ring twice and wait",
  "Please leave it with the concierge",
  "The side gate is open",
);
const notes = fc
  .tuple(greeting, fc.constantFrom("", "Please ", "Kindly "), orderRef, fc.constantFrom(": ", " saying ", " that says "), noteWords)
  .map(
    ([g, l, ref, joint, note]): Composed => ({
      message: `${g}${capitalise(`${l}add a note to ${ref.text}${joint}${note}`)}.`,
      tool: "add_delivery_note",
      id: ref.id,
      request: { orderId: ref.id, expectedVersion: 1, deliveryNote: note },
    }),
  );

const kettle: OrderFacts["items"] = [{ itemId: "ITM-1", title: "Electric kettle 1.7L" }];
const broken = fc.constantFrom("arrived broken", "is damaged", "came cracked", "doesn't work", "stopped working");
const returns = fc
  .tuple(greeting, lead, orderRef, fc.constantFrom("the kettle", "the electric kettle", "it", "ITM-1"), broken, fc.boolean(), tail)
  .map(([g, l, ref, item, why, reasonFirst, t]): Composed => {
    const named = item === "it" ? `the kettle on ${ref.text}` : `${item} on ${ref.text}`;
    const message = reasonFirst
      ? `${g}The kettle on ${ref.text} ${why}, ${l.toLowerCase()}start a return for it${t}.`
      : `${g}${capitalise(`${l}return ${named}`)} because it ${why}${t}.`;
    return { message, tool: "start_return", id: ref.id, request: { orderId: ref.id, itemIds: ["ITM-1"], reason: "damaged" } };
  });
const replacements = fc
  .tuple(greeting, orderRef, broken, fc.constantFrom("send me a replacement", "please send me a replacement", "send a replacement for it"))
  .map(
    ([g, ref, why, ask]): Composed => ({
      message: `${g}The electric kettle on ${ref.text} ${why}, ${ask}.`,
      tool: "offer_replacement",
      id: ref.id,
      request: { orderId: ref.id, expectedVersion: 1, itemId: "ITM-1", reason: "damaged" },
    }),
  );
const requests = fc.oneof(cancellations, notes, returns, replacements);

/** The provenance control on a clean English context, with the composed order in play (read, one kettle). */
const decide = (c: Composed, message = c.message) =>
  provenanceOf({
    orders: [{ orderId: c.id, read: true, status: "delivered", items: kettle, sellerType: "sundry" }],
    today,
  })({ tool: c.tool, request: c.request, message });

describe("a request in the closed form goes out without a question", () => {
  it("every composed request is read as its change, its order and its values", () => {
    fc.assert(
      fc.property(requests, (c) => {
        const form = readRequestForm(c.message, today);
        expect(form, c.message).toMatchObject({ closed: true, tool: c.tool });
        if (!form.closed) return;
        expect(
          form.requests.flatMap((r) => r.orderIds),
          c.message,
        ).toContain(c.id);
        expect(decide(c), c.message).toMatchObject({ decision: "dispatch" });
      }),
      runs,
    );
  });

  it("the request the control is designed around, and the requests of the docs' tour, are on the fast path", () => {
    for (const message of [
      "Please cancel order SU-10234 before it ships.",
      "Please cancel order SU-10234.",
      "Cancel SU-10234, please.",
      "Could you cancel SU-10234?",
      "Add a note to SU-10387: Leave it in the porch",
      "The electric kettle on SU-61203 arrived broken, please start a return for it.",
      "The electric kettle on SU-61203 arrived broken, please send me a replacement.",
    ])
      expect(readRequestForm(message, today), message).toMatchObject({ closed: true });
  });

  it("a pickup day is read as the day it names; a because-clause only in a closed reason phrase", () => {
    const form = readRequestForm("Please return the kettle on SU-61203 because it arrived broken, collected tomorrow.", today);
    expect(form).toMatchObject({ closed: true, requests: [{ reason: "damaged", pickupDate: "2026-12-04" }] });
    expect(readRequestForm("Please return the kettle on SU-61203 because my neighbour told me to.", today)).toMatchObject({
      closed: false,
    });
  });

  it("a cancellation names its order, and after it only one of the order's items: any other words are not the form", () => {
    const cancel = (message: string) => decide({ tool: "cancel_order", id: "SU-10670", request: { orderId: "SU-10670" }, message });
    expect(cancel("Cancel SU-10670, the kettle.")).toMatchObject({ decision: "dispatch" });
    for (const message of [
      "Cancel SU-10670, the one not shipped.",
      "Cancel SU-10670, the kettle not yet.",
      "Cancel SU-10670, the toaster.",
    ])
      expect(cancel(message), message).toMatchObject({ decision: "confirm", failed: expect.arrayContaining(["values"]) });
  });

  it("an answer to 'which order?' is an order reference alone, with courtesy", () => {
    expect(readOrderAnswer("SU-10234, please")).toEqual({ orderIds: ["SU-10234"], fragments: [] });
    expect(readOrderAnswer("🚫 SU-10234")).toBeUndefined();
  });

  it("a sign inside a note is the note's words; outside it, the message is not the form", () => {
    expect(readRequestForm("Add a note to SU-40040: Leave it by the ☀️ planter", today)).toMatchObject({ closed: true });
    expect(readRequestForm("🚫 Add a note to SU-40040: Leave it by the planter", today)).toMatchObject({ closed: false });
    expect(readRequestForm("Add a note to SU-40040: Leave it by the planter. ❌", today)).toMatchObject({ closed: false });
    expect(readOrderAnswer("The one ending 884.")).toEqual({ orderIds: [], fragments: ["884"] });
    expect(readOrderAnswer("SU-10234, and cancel SU-10235 too")).toBeUndefined();
  });
});

/** The ways of writing a message about a change that does not ask for it; each takes a composed request. */
const bends: Record<string, (c: Composed) => string> = {
  "a negation in another clause": (c) => `Never, ever ${lower(c.message)}`,
  "a prohibition": (c) => `Please don't ${verbPhrase(c)}.`,
  "a retraction later in the message": (c) => `${c.message} Actually, never mind.`,
  "a retraction after a line": (c) => `${c.message}\nWait, don't do that.`,
  "a question": (c) => `Should I ${verbPhrase(c)}?`,
  "a request for instructions": (c) => `Tell me how to ${verbPhrase(c)}.`,
  "a condition": (c) => `${withoutStop(c.message)} if it hasn't shipped.`,
  "a deferral": (c) => `${withoutStop(c.message)} next week.`,
  "a deferral to a day": (c) => `${withoutStop(c.message)} for tomorrow.`,
  "a sign before it": (c) => `🚫 ${c.message}`,
  "a sign after it": (c) => `${withoutStop(c.message)} ❌`,
  "a time clause": (c) => `When it arrives, ${lower(c.message)}`,
  "a reminder": (c) => `Remind me to ${verbPhrase(c)}.`,
  "a past intention": (c) => `I was going to ${verbPhrase(c)}.`,
  "an opinion": (c) => `Maybe I should ${verbPhrase(c)}.`,
  "reported speech": (c) => `My husband wants me to ${verbPhrase(c)}.`,
  "text pasted after a colon": (c) => `The seller wrote: ${c.message}`,
  "text in double quotes": (c) => `He said "${c.message}" to me.`,
  "text in single quotes": (c) => `'${withoutStop(c.message)}' is what the email says.`,
  "text in curly quotes": (c) => `She wrote “${c.message}”`,
  "quoted lines": (c) => `> ${c.message}`,
  "pasted across lines": (c) => `Here is what I got:\n\n${c.message}\n-- the seller`,
  "another kind of change": (c) =>
    `${c.message} ${c.tool === "offer_replacement" ? "And cancel SU-99999." : "And replace the mugs on SU-99999."}`,
  "too, carried to another order": (c) => `${withoutStop(c.message)} too.`,
};
const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const withoutStop = (text: string) => text.replace(/[.!?]+(?:\s+(?:Thanks!|Thank you\.|Cheers\.))?$/, "");
/** The change's bare verb phrase, as someone would mention it without asking for it. */
function verbPhrase(c: Composed): string {
  const phrases: Partial<Record<string, string>> = {
    cancel_order: `cancel ${c.id}`,
    add_delivery_note: `add a note to ${c.id}: ${String(c.request.deliveryNote)}`,
    start_return: `return the kettle on ${c.id}`,
    offer_replacement: `send a replacement for the kettle on ${c.id}`,
  };
  return phrases[c.tool] ?? `${c.tool} ${c.id}`;
}

describe("anything else is not a request in the closed form, and its change waits for a confirmation", () => {
  for (const [name, bend] of Object.entries(bends)) {
    it(`${name}`, () => {
      fc.assert(
        fc.property(requests, (c) => {
          const message = bend(c);
          const decision = decide(c, message);
          expect(decision, message).toMatchObject({ decision: "confirm" });
          if (decision.decision !== "confirm") return;
          // After a note's colon, one sentence is the note: a bend inside it makes the note other words than the
          // ones proposed (values); anywhere else, the message is not the closed form.
          const form = readRequestForm(message, today);
          if (form.closed) expect([c.tool, decision.failed], message).toEqual(["add_delivery_note", ["values"]]);
          else expect(decision.failed, message).toContain("form");
        }),
        { seed, numRuns: 60 },
      );
    });
  }
});
