import { describe, expect, inject, it } from "vitest";
import { runRaces } from "#test/reliability/races";
import { ciSizes, printReport } from "#test/reliability/sizes";

describe("races: real concurrency and fc.scheduler interleavings", () => {
  it("lookup vs ship, duplicates, conflicting reuse, the last unit, the last slot, the last allowance: no double-apply, no lost update", { timeout: 120_000 }, async () => {
    const report = await runRaces(inject("dynamodbEndpoint"), { perScenario: ciSizes.racesPerScenario });
    printReport(report);
    expect(report.failures).toEqual([]);
    expect(report.figures.interleavings).toBe(6 * ciSizes.racesPerScenario);
    expect(report.figures.scheduled).toBe(3 * ciSizes.racesPerScenario);
    expect(report.figures["double-applies"]).toBe(0);
    expect(report.figures["lost updates"]).toBe(0);
  });
});
