import { describe, expect, it } from "vitest";
import { expectAnswers, runTour, tourGateway, tourIn } from "#test/support/tour";

/**
 * docs/tour.md, the whole 5-minute tour, run as written: every shell block marked `<!-- tour -->`, in order, in one
 * bash session, against a gateway on fresh demo data. The README's short tour (its first steps) is run by
 * readme-tour.test.ts, in a process of its own, so each starts from a fresh shop.
 */
describe("the tour (docs/tour.md)", () => {
  const gatewayUrl = tourGateway();

  it("every curl line has an expected answer, and the tour covers what a newcomer should see", async () => {
    const { expectations } = await tourIn("docs/tour.md");
    expect(expectations.length).toBeGreaterThanOrEqual(15);
    const codes = new Set(expectations.map((e) => e.code));
    for (const code of [
      "VERSION_CONFLICT",
      "ORDER_NOT_FOUND",
      "OPERATION_NOT_FOUND",
      "INVALID_INPUT",
      "NOT_ELIGIBLE",
      "SELLER_SUSPENDED",
      "OUT_OF_STOCK",
      "NO_PICKUP_SLOT",
      "UNAUTHENTICATED",
      "FORBIDDEN",
    ]) {
      expect(codes, code).toContain(code);
    }
    for (const tool of [
      "search_orders",
      "get_order",
      "cancel_order",
      "add_delivery_note",
      "start_return",
      "offer_replacement",
      "get_operation_status",
      "operations/",
    ]) {
      expect(
        expectations.some((e) => e.command.includes(tool)),
        tool,
      ).toBe(true);
    }
    expect(expectations.some((e) => e.replayed)).toBe(true);
  });

  it("runs as written: each call gets the status (and error code) its comment says", async () => {
    const { script, expectations } = await tourIn("docs/tour.md");
    const { answers, stderr } = await runTour(script, gatewayUrl());
    expectAnswers(expectations, answers, stderr);
  }, 120_000);
});
