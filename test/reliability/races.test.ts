import { describe, expect, inject, it } from "vitest";
import { runRaces } from "#test/reliability/races";
import { ciSizes, printReport } from "#test/reliability/sizes";

describe("races: real concurrency and fc.scheduler interleavings", () => {
  it("lookup vs ship, duplicates, conflicting reuse, the last unit, the last slot, the last allowance (a customer's, a seller actor's): no double-apply, no lost update", {
    timeout: 120_000,
  }, async () => {
    const report = await runRaces(inject("dynamodbEndpoint"), { perScenario: ciSizes.racesPerScenario });
    printReport(report);
    expect(report.failures).toEqual([]);
    expect(report.figures.interleavings).toBe(7 * ciSizes.racesPerScenario);
    expect(report.figures.scheduled).toBe(Math.floor((7 * ciSizes.racesPerScenario) / 2));
    expect(report.figures["seller-cap"]).toBe(ciSizes.racesPerScenario);
    expect(report.figures["double-applies"]).toBe(0);
    expect(report.figures["lost updates"]).toBe(0);
  });
});
