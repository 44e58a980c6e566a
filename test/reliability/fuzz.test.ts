import { describe, expect, inject, it } from "vitest";
import { runFuzz, runSearchFuzz, searchAnswerBoundMs } from "#test/reliability/fuzz";
import { ciSizes, printReport } from "#test/reliability/sizes";

describe("fuzz through the handlers: malformed and hostile inputs per tool", () => {
  it("every invalid input is a 400 with contract §3's INVALID_INPUT body and writes nothing (a seller's cancel or note: 403 before anything is read); notes are kept or refused as the contract's rules say", {
    timeout: 120_000,
  }, async () => {
    const report = await runFuzz(inject("dynamodbEndpoint"), { perTool: ciSizes.fuzzPerTool, notes: ciSizes.fuzzNotes });
    printReport(report);
    expect(report.failures).toEqual([]);
    expect(report.figures["5xx"]).toBe(0);
    expect(report.figures.writes).toBe(0);
    expect(report.figures["seller inputs"]).toBe(7 * Math.ceil(ciSizes.fuzzPerTool / 5));
    expect(report.figures.inputs).toBe(7 * ciSizes.fuzzPerTool + 7 * Math.ceil(ciSizes.fuzzPerTool / 5) + ciSizes.fuzzNotes);
    expect(report.figures["4xx"]).toBe(report.figures.inputs);
  });

  it("every valid search, days at the ends of the four-digit years included, is answered within the function's time budget with what contract §5 finds, or with its specific 400", {
    timeout: 120_000,
  }, async () => {
    const report = await runSearchFuzz(inject("dynamodbEndpoint"), { inputs: ciSizes.searchFuzz });
    printReport(report);
    expect(report.failures).toEqual([]);
    expect(report.figures["search inputs"]).toBe(ciSizes.searchFuzz);
    expect((report.figures["search 200"] as number) + (report.figures["search 400"] as number)).toBe(ciSizes.searchFuzz);
    expect(report.figures["search worst (ms)"]).toBeLessThan(searchAnswerBoundMs);
  });
});
