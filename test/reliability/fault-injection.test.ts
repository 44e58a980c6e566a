import { describe, expect, inject, it } from "vitest";
import { runFaultInjection } from "#test/reliability/fault-injection";
import { ciSizes, printReport } from "#test/reliability/sizes";

describe("fault injection: lost responses, throttling, a Powertools failure after commit, a failing status lookup", () => {
  it("every run is reconciled to exactly one change, with no double-apply and no false VERSION_CONFLICT", {
    timeout: 120_000,
  }, async () => {
    const report = await runFaultInjection(inject("dynamodbEndpoint"), { runs: ciSizes.faultRuns });
    printReport(report);
    expect(report.failures).toEqual([]);
    expect(report.figures.runs).toBe(ciSizes.faultRuns);
    expect(report.figures["faults injected"]).toBeGreaterThanOrEqual(ciSizes.faultRuns);
    expect(report.figures["reconciled (%)"]).toBe(100);
    expect(report.figures["double-applies"]).toBe(0);
    expect(report.figures["false VERSION_CONFLICTs"]).toBe(0);
  });
});
