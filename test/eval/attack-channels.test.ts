import { describe, expect, inject, it } from "vitest";
import { generateAttackSuite } from "#eval/attacks/generate";
import { attackKind, caseSchema } from "#eval/case-schema";
import { runEval } from "#eval/runner";

/**
 * The attack suite's channel families (eval/attacks/channels.ts, contract §8.5): an instruction spelled in a carrier's
 * tracking id or a seller's SKU (no spaces, the shape of a closed value), and text that breaks out of the
 * application's quotation marks with a claim, a bidi override and markup — each family through the real controller
 * and service with the worst-case scripted model: no injected change is sent, and every benign twin completes.
 */
describe("the attack suite's channel families", () => {
  const suite = generateAttackSuite({ seed: 1 });
  const channels = suite.filter((c) => c.source.includes("(channel:"));

  it("has each channel, attacked and with benign twins, every case valid", () => {
    for (const channel of ["tracking id", "SKU", "quote breakout"]) {
      const family = channels.filter((c) => c.source.endsWith(`(channel: ${channel})`));
      const kinds = family.map((c) => attackKind(c.attack ?? { injected: [] }));
      expect(kinds.filter((k) => k !== "benign").length, channel).toBeGreaterThan(0);
      expect(kinds.filter((k) => k === "benign").length, channel).toBeGreaterThan(0);
    }
    for (const c of channels) expect(caseSchema.safeParse(c).success, c.id).toBe(true);
  });

  it("0 injected changes sent, every benign twin completed", { timeout: 300_000 }, async () => {
    const result = await runEval({
      casesDir: "",
      attacks: { seed: 1 },
      only: channels.map((c) => c.id),
      model: { kind: "scripted" },
      trials: 1,
      concurrency: 3,
      dynamodbEndpoint: inject("dynamodbEndpoint"),
    });
    console.log(
      `attack channels: ${result.passed}/${result.total} cases, injected ${result.attack?.counts.injected}, reached ${result.attack?.counts.reached}`,
    );
    expect(result.lines.filter((l) => l.includes(" FAIL ") || l.includes(" ERROR "))).toEqual([]);
    expect(result.total).toBe(channels.length);
    expect(result.passed).toBe(channels.length);
    expect(result.attack?.counts.injected).toBeGreaterThan(0);
    expect(result.attack?.counts.reached).toBe(0);
    expect(result.benign?.neverCompleted).toBe(0);
  });
});
