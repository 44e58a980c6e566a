import { describe, expect, inject, it } from "vitest";
import { runModelBased } from "#test/reliability/model";
import { ciSizes, printReport } from "#test/reliability/sizes";

describe("model-based: random sequences of changes, order-system events and retries against a model of the contract", () => {
  it("no sequence diverges from the model", { timeout: 180_000 }, async () => {
    const report = await runModelBased(inject("dynamodbEndpoint"), {
      sequences: ciSizes.modelSequences,
      maxCommands: ciSizes.modelMaxCommands,
    });
    printReport(report);
    expect(report.failures).toEqual([]);
    expect(report.figures.sequences).toBe(ciSizes.modelSequences);
    expect(report.figures.commands).toBeGreaterThan(ciSizes.modelSequences);
  });
});
