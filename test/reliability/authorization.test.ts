import { describe, expect, inject, it } from "vitest";
import { matrixCaseCount, runAuthorizationMatrix } from "#test/reliability/authorization-matrix";
import { printReport } from "#test/reliability/sizes";

describe("authorization matrix (authorization-matrix.json)", () => {
  it("every tool × principal × kind of order id: the named outcome, nothing leaks, nothing changes, a deny is not-found byte for byte", {
    timeout: 120_000,
  }, async () => {
    const report = await runAuthorizationMatrix(inject("dynamodbEndpoint"));
    printReport(report);
    expect(report.failures).toEqual([]);
    // 7 tools × 10 principals (4 of them the seller rows) × 4 kinds of id, every one of them run.
    expect(matrixCaseCount()).toBe(280);
    expect(report.figures.cases).toBe(280);
    expect(report.figures.identical).toBeGreaterThanOrEqual(90);
  });
});
