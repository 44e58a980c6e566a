import { describe, expect, it } from "vitest";
import { expectAnswers, runTour, tourGateway, tourIn } from "#test/support/tour";

/**
 * The README's short tour, run as written: every shell block marked `<!-- tour -->` in its Quickstart section, in
 * order, in one bash session, against a gateway on fresh demo data. Its blocks are taken from docs/tour.md, word for
 * word and in order, so the two cannot drift apart; tour.test.ts runs the whole of that one.
 */
const readmeTour = () => tourIn("README.md", "## Quickstart");

describe("the README's short tour", () => {
  const gatewayUrl = tourGateway();

  it("shows what its text says (a read, a replayed change, a stale proposal refused), every curl line with its answer", async () => {
    const { expectations } = await readmeTour();
    expect(expectations.some((e) => e.command.includes("get_order") && e.status === 200)).toBe(true);
    expect(expectations.some((e) => e.replayed)).toBe(true);
    expect(expectations.map((e) => e.code)).toContain("VERSION_CONFLICT");
  });

  it("is taken from docs/tour.md: each of its blocks is one of that tour's, word for word and in the same order", async () => {
    const short = await readmeTour();
    const full = await tourIn("docs/tour.md");
    expect(short.blocks[0], "the short tour starts where the full one does: the token and `call`").toBe(full.blocks[0]);
    let next = 0;
    for (const block of short.blocks) {
      const at = full.blocks.indexOf(block, next);
      expect(at, `README block not in docs/tour.md after its previous one:\n${block}`).toBeGreaterThanOrEqual(0);
      next = at + 1;
    }
  });

  it("runs as written: each call gets the status (and error code) its comment says", async () => {
    const { script, expectations } = await readmeTour();
    const { answers, stderr } = await runTour(script, gatewayUrl());
    expectAnswers(expectations, answers, stderr);
  }, 120_000);
});
