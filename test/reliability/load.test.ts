import { describe, expect, inject, it } from "vitest";
import { runLoad } from "#test/reliability/load";
import { ciSizes, printReport } from "#test/reliability/sizes";

describe("load through the local gateway", () => {
  it("hundreds of concurrent requests of every tool, duplicates and conflicting reuse: 0 5xx, and the tables hold every invariant", {
    timeout: 120_000,
  }, async () => {
    const report = await runLoad(inject("dynamodbEndpoint"), { requests: ciSizes.loadRequests, concurrency: ciSizes.loadConcurrency });
    printReport(report);
    expect(report.failures).toEqual([]);
    expect(report.figures.requests).toBe(ciSizes.loadRequests);
    expect(report.figures.concurrency).toBeGreaterThanOrEqual(200);
    expect(report.figures["5xx"]).toBe(0);
    expect(report.figures.duplicates).toBeGreaterThan(0);
    expect(report.figures.reuses).toBeGreaterThan(0);
    expect(report.figures["seller requests"]).toBeGreaterThan(0);
  });
});
