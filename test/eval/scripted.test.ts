import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { runEval } from "#eval/runner";
import { repoRoot } from "#local/stack";

/**
 * Scripted mode (contract §8.4, `npm run eval`): every case of eval/cases through the real controller, the local
 * gateway and the real handlers on fresh tables per case, judged by the four judges. All must pass.
 * What this proves and what it does not: docs/eval.md, "What scripted mode proves" (scripted runs prove the
 * harness, the service and the controller's plumbing; they measure no model).
 */
describe("npm run eval, scripted", () => {
  it("every case passes all four assertions", { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const result = await runEval({
      casesDir: join(repoRoot, "eval", "cases"),
      model: { kind: "scripted" },
      trials: 1,
      concurrency: 3,
      dynamodbEndpoint: inject("dynamodbEndpoint"),
      out: (line) => lines.push(line),
    });
    console.log(`eval (scripted): ${result.passed}/${result.total} cases in ${(result.durationMs / 1000).toFixed(1)} s`);
    expect(lines[0]).toBe(
      `eval: ${result.total} cases, scripted: each case replays its own hand-written model, which checks the service, the controller and the judges and measures no model (--model anthropic:…, openai:… or bedrock:… measures one)`,
    );
    expect(lines.filter((l) => !l.endsWith(" PASS") && !l.startsWith("eval: "))).toEqual([]);
    expect(result.caseErrors).toEqual([]);
    expect(result.total).toBeGreaterThanOrEqual(120);
    expect(lines.at(-1)).toBe(`eval: ${result.total}/${result.total} cases pass`);
    expect(result.exitCode).toBe(0);
  });
});
