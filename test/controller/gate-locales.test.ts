import { notEligibleReasons } from "#core/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changeToolNames, tools } from "#contract/tools";
import { gate } from "#controller/gate/gate";
import { composeOutcomes, type TurnOutcome } from "#controller/outcomes";
import { boundTemplate, noChangeFor, templateFor } from "#controller/gate/templates";
import { gateMessages } from "#controller/i18n/gate-messages";
import { type Locale, supportedLocales } from "#controller/i18n/locale";

/**
 * The status sentences in every locale the controller speaks (contract §8.2): whatever the record holds, each
 * outcome renders to a whole sentence in the principal's language that names the order, with nothing left of
 * the pattern. Generated, so a select branch or a plural form that only some records reach is rendered too.
 */

const toolNames = tools.map((t) => t.name);
const orderId = fc.integer({ min: 10000, max: 99999 }).map((n) => `SU-${n}`);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const date = fc
  .date({ min: new Date("2026-01-01"), max: new Date("2027-12-31"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const itemId = fc.integer({ min: 1, max: 9 }).map((n) => `I-${n}`);
// Every reason contract §3 lists, and one it does not (the generic sentence).
const reasons = [...notEligibleReasons, "SOME_NEW_REASON"];
const codes = [
  "NOT_ELIGIBLE",
  "ORDER_NOT_FOUND",
  "VERSION_CONFLICT",
  "SELLER_SUSPENDED",
  "OUT_OF_STOCK",
  "NO_PICKUP_SLOT",
  "RATE_LIMITED",
  "FORBIDDEN",
];

const outcome: fc.Arbitrary<TurnOutcome> = fc.oneof(
  fc.record({
    kind: fc.constant("completed" as const),
    tool: fc.constantFrom(...changeToolNames),
    orderId,
    operationId: fc.uuid(),
    body: fc.record(
      {
        return: fc.record(
          {
            itemIds: fc.array(itemId, { maxLength: 3 }),
            pickup: fc.record({ date, window: fc.constantFrom("08:00–12:00", "12:00–18:00") }, { requiredKeys: [] }),
            labelRef: fc.constantFrom("LBL-4411", ""),
          },
          { requiredKeys: [] },
        ),
        replacement: fc.record({ itemId, replacementItemId: fc.constantFrom("I-1-R1", "") }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    kind: fc.constant("rejected" as const),
    tool: fc.constantFrom(...toolNames),
    orderId,
    operationId: fc.uuid(),
    code: fc.constantFrom(...codes),
    reason: maybe(fc.constantFrom(...reasons)),
    body: fc.record({
      error: fc.record(
        { availableDates: fc.array(date, { maxLength: 7 }), retryAfterSeconds: maybe(fc.integer({ min: 0, max: 7200 })) },
        { requiredKeys: [] },
      ),
    }),
  }),
  fc.record({
    kind: fc.constantFrom("unknown" as const, "declined" as const),
    tool: fc.constantFrom(...toolNames),
    orderId,
    operationId: fc.uuid(),
  }),
  fc.record({
    kind: fc.constant("mismatch" as const),
    tool: fc.constantFrom(...toolNames),
    orderId,
    operationId: fc.uuid(),
    why: fc.constant("another operation"),
  }),
  orderId.chain((id) =>
    fc.record({
      kind: fc.constant("clarification" as const),
      tool: fc.constantFrom(...toolNames),
      orderId: fc.constant(id),
      candidates: fc
        .array(orderId, { minLength: 0, maxLength: 3 })
        .map((others) => [id, ...others].map((o) => ({ orderId: o, status: "delivered", itemTitles: ["Kettle"] }))),
    }),
  ),
);
const locale = fc.constantFrom(...supportedLocales);

/** What is left of a pattern when a value or a branch was not rendered. */
const unrendered = /[{}#]/;

describe("status sentences in the principal's language", () => {
  it("every outcome in every locale renders a whole sentence that names the order, with no placeholder left", () => {
    fc.assert(
      fc.property(outcome, locale, (o, l) => {
        const sentence = templateFor(o, l);
        expect(sentence.trim()).not.toBe("");
        expect(sentence).toContain(o.orderId);
        expect(sentence).not.toMatch(unrendered);
        expect(sentence).toMatch(/[.?]$/);
      }),
      { seed: 20261201, numRuns: 4000 },
    );
  });

  it("a bound or a turn that changed nothing is told in the locale too", () => {
    fc.assert(
      fc.property(
        fc.array(outcome, { maxLength: 2 }),
        fc.constantFrom("tool_calls" as const, "time" as const),
        fc.integer({ min: 1, max: 600 }),
        locale,
        (os, kind, value, l) => {
          const reply = boundTemplate({ kind, value }, os, l);
          expect(reply).toContain(String(value));
          expect(reply).not.toMatch(unrendered);
          for (const o of composeOutcomes(os)) expect(reply).toContain(o.orderId);
          if (os.length === 0) expect(reply.endsWith(noChangeFor(l))).toBe(true);
        },
      ),
      { seed: 20261201, numRuns: 500 },
    );
  });

  it("no locale shows another locale's sentence: each language's templates are its own", () => {
    const refused: TurnOutcome = {
      kind: "rejected",
      tool: "cancel_order",
      orderId: "SU-10387",
      operationId: "op",
      code: "NOT_ELIGIBLE",
      reason: "ALREADY_SHIPPED",
      body: {},
    };
    const rendered = supportedLocales.map((l: Locale) => templateFor(refused, l));
    expect(new Set(rendered).size).toBe(supportedLocales.length);
    expect(Object.keys(gateMessages).sort()).toEqual([...supportedLocales].sort());
  });

  it("a gate decision in German shows the German template, and neither the model's claim nor English", () => {
    const decision = gate({
      candidate: "Ihre Rücksendung ist gebucht, der Kurier kommt morgen.",
      outcomes: [
        {
          kind: "completed",
          tool: "start_return",
          orderId: "SU-51234",
          operationId: "op-r",
          body: { return: { itemIds: ["I-1"], pickup: { date: "2026-12-02", window: "08:00–12:00" }, labelRef: "LBL-4411" } },
        },
      ],
      orders: [{ orderId: "SU-51234", read: true, status: "delivered" }],
      today: "2026-12-01",
      locale: "de",
    });
    expect(decision.decision).toBe("claim_mismatch");
    expect(decision.kept).toEqual([]);
    expect(decision.reply).toBe(
      "Eine Rücksendung von I-1 aus Bestellung SU-51234 ist gebucht: Der Zusteller holt sie am 2026-12-02 im Zeitfenster 08:00–12:00 ab. Ihr Rücksendeetikett ist LBL-4411.",
    );
  });

  it("a rate limit's wait follows the locale's plural rules", () => {
    const limited = (seconds: number): TurnOutcome => ({
      kind: "rejected",
      tool: "cancel_order",
      orderId: "SU-10387",
      operationId: "op",
      code: "RATE_LIMITED",
      body: { error: { code: "RATE_LIMITED", retryAfterSeconds: seconds } },
    });
    expect(templateFor(limited(60), "en")).toContain("about 1 minute.");
    expect(templateFor(limited(180), "pl")).toContain("około 3 minuty.");
    expect(templateFor(limited(300), "pl")).toContain("około 5 minut.");
    expect(templateFor(limited(120), "de")).toContain("etwa 2 Minuten erneut.");
  });
});
