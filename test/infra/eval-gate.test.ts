import { App, CfnWaitConditionHandle, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { baselinePath, deployGate } from "#lib/deploy-gate";
import { publishedToolsHash } from "#contract/tools-hash";
import { addEvalGate } from "#lib/eval-gate";

function baselineFile(toolsHash: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "eval-gate-")), "baseline.json");
  const metrics = { toolSelection: 95, outcomeCorrectness: 92, passK: 80 };
  writeFileSync(
    path,
    JSON.stringify({
      model: "anthropic:test",
      k: 3,
      metrics,
      toolsHash,
      cases: { count: 1, ids: "x" },
      recordedAt: "2026-11-30T00:00:00Z",
    }),
  );
  return path;
}

function gatedTemplate(path: string, override?: string) {
  const stack = new Stack(new App(), "Gated");
  // A template needs one resource to be valid; the gate adds none.
  new CfnWaitConditionHandle(stack, "Placeholder");
  addEvalGate(stack, deployGate({ path, ...(override ? { override } : {}) }));
  return Template.fromStack(stack).toJSON() as { Rules?: Record<string, { Assertions: { AssertDescription: string }[] }> };
}

describe("the eval gate at deploy time", () => {
  it("tool definitions the baseline measured deploy as they are: no rule", () => {
    expect(gatedTemplate(baselineFile(publishedToolsHash())).Rules?.EvalGate).toBeUndefined();
  });

  it("changed tool definitions get a rule CloudFormation refuses, naming the command to run", () => {
    const rule = gatedTemplate(baselineFile("sha256:measured-other-definitions")).Rules?.EvalGate;
    expect(rule).toBeDefined();
    expect(rule?.Assertions[0]?.AssertDescription).toMatch(/stale.*npm run eval -- --model anthropic:<model> --trials 3 --baseline/);
    expect(JSON.stringify(rule)).toContain('"Fn::Equals":["eval-baseline-not-current","eval-baseline-current"]');
  });

  it("no baseline at all is refused the same way; the owners' override, said with who and why, lets it through", () => {
    const missing = join(mkdtempSync(join(tmpdir(), "eval-gate-")), "baseline.json");
    expect(gatedTemplate(missing).Rules?.EvalGate?.Assertions[0]?.AssertDescription).toMatch(/No eval baseline/);
    expect(gatedTemplate(missing, "Vera Lind: hotfix for the carrier outage, eval run booked for Monday").Rules?.EvalGate).toBeUndefined();
    expect(gatedTemplate(missing, "yes").Rules?.EvalGate).toBeDefined();
  });

  it("names a baseline inside the repository by its path from the root, so the template is the same on every checkout", () => {
    const inRepository = join(dirname(baselinePath), "no-such-baseline.json");
    expect(deployGate({ path: inRepository }).status.message).toMatch(/^No eval baseline \(eval\/no-such-baseline\.json\):/);
    const elsewhere = join(mkdtempSync(join(tmpdir(), "eval-gate-")), "baseline.json");
    expect(deployGate({ path: elsewhere }).status.message).toContain(`No eval baseline (${elsewhere}):`);
  });
});
