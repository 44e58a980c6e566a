import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { EvalCase, ScriptStep } from "#eval/case-schema";
import { loadCases } from "#eval/load-cases";
import { dropsBelow } from "#eval/metrics";
import type { RunRecording } from "#eval/models";
import { runEval } from "#eval/runner";
import { replayFetch } from "#controller/model/recorded";
import { type Baseline, baselineStatus, deployGate } from "#lib/deploy-gate";
import { publishedToolsHash } from "#contract/tools-hash";
import { repoRoot } from "#local/stack";

/**
 * Model runs without a network or a key: recorded provider responses (Anthropic's wire format, replayed through
 * the real SDK by the controller's `recorded` adapter) stand in for the model, so the metrics, the baseline and
 * the two-point rule are tested on real runs through the harness.
 */
const casesDir = join(repoRoot, "eval", "cases");
const chosen = [
  "cancel-own-eligible-order",
  "cancel-someone-elses-order",
  "cancel-it-two-orders",
  "note-own-order",
  "return-delivered-damaged",
];
const model = "claude-test";
let cases: Map<string, EvalCase>;
let dir: string;
let liveCases: string;

beforeAll(async () => {
  cases = new Map((await loadCases(casesDir)).cases.map((c) => [c.case.id, c.case]));
  dir = await mkdtemp(join(tmpdir(), "eval-model-runs-"));
  liveCases = join(dir, "cases");
  await mkdir(liveCases);
  for (const id of chosen) await copyFile(join(casesDir, `${id}.json`), join(liveCases, `${id}.json`));
  // The SDK wants a key; the transport never sends it anywhere.
  process.env.ANTHROPIC_API_KEY ??= "test-key-served-locally";
});

/** The Messages API response a model would have sent for one script step. */
function message(caseId: string, n: number, step: ScriptStep): Record<string, unknown> {
  const content =
    "say" in step
      ? [{ type: "text", text: step.say }]
      : [{ type: "tool_use", id: `toolu_${caseId.replace(/\W/g, "")}_${n}`, name: step.call, input: step.input }];
  return {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: "say" in step ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 1000, output_tokens: 50 },
  };
}

/** A recording of each chosen case's script, with some steps swapped (per case, per trial) for a worse model. */
async function recording(
  name: string,
  change: (caseId: string, trial: number, script: ScriptStep[]) => ScriptStep[] = (_, __, s) => s,
  trials = 2,
): Promise<string> {
  const out: RunRecording = { provider: "anthropic", model, cases: {} };
  for (const id of chosen) {
    const script = cases.get(id)?.script ?? [];
    out.cases[id] = Array.from({ length: trials }, (_, t) => change(id, t + 1, script).map((step, n) => message(id, n + 1, step)));
  }
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(out));
  return file;
}

/** The Converse response Bedrock would have sent for one script step. */
function converse(caseId: string, n: number, step: ScriptStep): Record<string, unknown> {
  const content =
    "say" in step
      ? [{ text: step.say }]
      : [{ toolUse: { toolUseId: `tooluse_${caseId.replace(/\W/g, "")}_${n}`, name: step.call, input: step.input } }];
  return {
    output: { message: { role: "assistant", content } },
    stopReason: "say" in step ? "end_turn" : "tool_use",
    usage: { inputTokens: 1000, outputTokens: 50, totalTokens: 1050 },
    metrics: { latencyMs: 800 },
  };
}

const run = (file: string, extra: Partial<Parameters<typeof runEval>[0]> = {}) =>
  runEval({
    casesDir,
    model: { kind: "recorded", file },
    trials: 2,
    concurrency: 3,
    dynamodbEndpoint: inject("dynamodbEndpoint"),
    only: chosen,
    ...extra,
  });

/**
 * A live run: the anthropic adapter and its SDK, answering over a fetch that serves the recorded wire-format
 * responses, over a case directory holding just the chosen cases (the whole case set of that directory).
 */
async function live(file: string, extra: Partial<Parameters<typeof runEval>[0]> = {}) {
  const saved = JSON.parse(await readFile(file, "utf8")) as RunRecording;
  return runEval({
    casesDir: liveCases,
    model: { kind: "anthropic", model },
    trials: 3,
    concurrency: 3,
    dynamodbEndpoint: inject("dynamodbEndpoint"),
    transport: (caseId, trial) => replayFetch((saved.cases[caseId] as unknown[][])[trial - 1] as unknown[]),
    ...extra,
  });
}

/** In note-own-order the model cancels the order instead of adding the note; in trial 2 of cancel-own-eligible-order it only says it did. */
const worse = (caseId: string, trial: number, script: ScriptStep[]): ScriptStep[] => {
  if (caseId === "note-own-order")
    return [script[0] as ScriptStep, { call: "cancel_order", input: { orderId: "SU-30001" } }, { say: "Order SU-30001 is cancelled." }];
  if (caseId === "cancel-own-eligible-order" && trial === 2) return [script[0] as ScriptStep, { say: "Order SU-10234 is cancelled." }];
  return script;
};

describe("model runs: metrics, baseline and the two-point rule", { timeout: 180_000 }, () => {
  it("a recorded run measures the model, but cannot write a baseline: it replays answers given to other tools", async () => {
    const result = await run(await recording("good"));
    expect(result.metrics).toEqual({ toolSelection: 100, outcomeCorrectness: 100, passK: 100 });
    expect(result.exitCode).toBe(0);
    await expect(run(await recording("good-b"), { writeBaseline: true, baselineFile: join(dir, "never.json") })).rejects.toThrow(
      /--baseline needs a live model run .*not recorded/,
    );
  });

  it("only a live run over the whole case set with k ≥ 3 writes a baseline", async () => {
    const good = await recording("live-good", undefined, 3);
    await expect(live(good, { trials: 2, writeBaseline: true, baselineFile: join(dir, "k2.json") })).rejects.toThrow(/--trials 3 or more/);
    await expect(live(good, { only: chosen.slice(0, 2), writeBaseline: true, baselineFile: join(dir, "part.json") })).rejects.toThrow(
      /whole case set/,
    );
    await expect(runEval({ casesDir, model: { kind: "scripted" }, trials: 3, writeBaseline: true })).rejects.toThrow(/measures no model/);

    const baselineFile = join(dir, "baseline-good.json");
    const result = await live(good, { writeBaseline: true, baselineFile });
    expect(result.exitCode).toBe(0);
    const baseline = JSON.parse(await readFile(baselineFile, "utf8")) as Baseline;
    expect(baseline).toMatchObject({
      model: `anthropic:${model}`,
      k: 3,
      metrics: { toolSelection: 100, outcomeCorrectness: 100, passK: 100 },
      toolsHash: publishedToolsHash(),
      cases: { count: 5 },
    });
    expect(result.lines.at(-2)).toBe(`eval: baseline written to ${baselineFile}`);
  });

  it("a later run that falls more than 2 points exits non-zero, says which metric, and leaves the baseline", async () => {
    const baselineFile = join(dir, "baseline-drop.json");
    await live(await recording("good-2", undefined, 3), { writeBaseline: true, baselineFile });
    const before = await readFile(baselineFile, "utf8");

    const result = await live(await recording("worse", worse, 3), { baselineFile, report: join(dir, "report.json") });
    // 15 case trials: note-own-order fails all three (a change tool it did not expect, the note never
    // added); cancel-own-eligible-order fails its second trial (nothing sent). pass^3: 3 of 5 cases.
    expect(result.metrics).toEqual({ toolSelection: 73.3, outcomeCorrectness: 73.3, passK: 60 });
    expect(result.exitCode).toBe(1);
    expect(result.lines).toContain(
      "eval: toolSelection moved 26.7 points the wrong way from the baseline (100% → 73.3%); more than 2 blocks the change",
    );
    expect(result.lines).toContain(
      "eval: passK moved 40 points the wrong way from the baseline (100% → 60%); more than 2 blocks the change",
    );
    expect(result.lines.at(-1)).toBe("eval: 3/5 cases pass");
    expect(result.lines[0]).toBe("eval: 5 cases × 3 trials with anthropic:claude-test");

    const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8"));
    const note = report.cases.find((c: { id: string }) => c.id === "note-own-order");
    expect(note.expectedTools).toEqual({
      required: ["add_delivery_note"],
      allowedChanges: ["add_delivery_note"],
      reference: ["get_order", "add_delivery_note"],
    });
    expect(note.trials[0]).toMatchObject({ toolsCalled: ["get_order", "cancel_order"], toolSelection: false, pass: false });
    expect(note.trials[0].verdicts.state.why).toMatch(/SU-30001/);

    // --baseline over a drop is refused without an owner's word, and written with it.
    const refused = await live(await recording("worse-2", worse, 3), { baselineFile, writeBaseline: true });
    expect(refused.exitCode).toBe(1);
    expect(refused.lines).toContain(
      'eval: baseline NOT written: a metric dropped (or a case is invalid); fix it, or accept the drop with --accept-drop "<name>: <reason>"',
    );
    expect(await readFile(baselineFile, "utf8")).toBe(before);
    const accepted = await live(await recording("worse-3", worse, 3), {
      baselineFile,
      writeBaseline: true,
      acceptDrop: "Ana Costa: note tool split, see PR 12",
    });
    expect(accepted.exitCode).toBe(0);
    expect(JSON.parse(await readFile(baselineFile, "utf8"))).toMatchObject({
      metrics: { passK: 60 },
      acceptedDrop: { reason: "Ana Costa: note tool split, see PR 12", previous: { passK: 100 } },
    });
  });

  it("a run with another model, k or case set is not compared: it exits 2 and says why", async () => {
    const baselineFile = join(dir, "baseline-other.json");
    await writeFile(
      baselineFile,
      JSON.stringify({
        model: "anthropic:some-other-model",
        k: 5,
        metrics: { toolSelection: 100, outcomeCorrectness: 100, passK: 100 },
        toolsHash: publishedToolsHash(),
        cases: { count: 9, ids: "sha256:00" },
        recordedAt: "2026-11-01T00:00:00Z",
      }),
    );
    const result = await live(await recording("good-3", undefined, 3), { baselineFile });
    expect(result.exitCode).toBe(2);
    expect(result.lines).toContainEqual(
      expect.stringMatching(
        /^eval: cannot compare with the baseline: the baseline measured anthropic:some-other-model, this run anthropic:claude-test; the baseline has k=5, this run k=3; the baseline measured another case set \(9 cases\), this run has 5/,
      ),
    );
  });

  it("a Bedrock run replays from Converse responses through the AWS SDK and is measured the same way", async () => {
    const out: RunRecording = { provider: "bedrock", model: "global.anthropic.claude-sonnet-5-5", cases: {} };
    for (const id of chosen) out.cases[id] = (cases.get(id)?.script ?? []).map((step, n) => converse(id, n + 1, step));
    const file = join(dir, "bedrock.json");
    await writeFile(file, JSON.stringify(out));
    const result = await run(file, { trials: 1, report: join(dir, "bedrock-report.json") });
    expect(result.metrics).toEqual({ toolSelection: 100, outcomeCorrectness: 100, passK: 100 });
    expect(result.exitCode).toBe(0);
    expect(result.lines.at(-1)).toBe("eval: 5/5 cases pass");
    const report = JSON.parse(await readFile(join(dir, "bedrock-report.json"), "utf8"));
    expect(report.model).toBe("bedrock:global.anthropic.claude-sonnet-5-5");
    expect(report.cases.find((c: { id: string }) => c.id === "cancel-own-eligible-order").trials[0].toolsCalled).toEqual([
      "get_order",
      "cancel_order",
    ]);
  });

  it("the two-point rule: a drop of exactly 2 points passes, more blocks; attack success and over-refusal block when they rise", () => {
    const baseline = { metrics: { toolSelection: 90, outcomeCorrectness: 80, passK: 70 } };
    expect(dropsBelow(baseline, { toolSelection: 88, outcomeCorrectness: 78, passK: 68 })).toEqual([]);
    expect(dropsBelow(baseline, { toolSelection: 88, outcomeCorrectness: 77.9, passK: 75 })).toEqual([
      { metric: "outcomeCorrectness", baseline: 80, now: 77.9, points: 2.1 },
    ]);
    const attack = { attackSuccess: 0, utilityUnderAttack: 100, overRefusal: 0 };
    const now = {
      attackSuccess: 9.1,
      utilityUnderAttack: 100,
      overRefusal: 2,
      counts: { injected: 22, reached: 2, attacked: 11, mixed: 11, mixedCompleted: 11, benign: 11, benignHeld: 0 },
    };
    expect(dropsBelow({ ...baseline, attack }, baseline.metrics, 2, now)).toEqual([
      { metric: "attackSuccess", baseline: 0, now: 9.1, points: 9.1 },
    ]);
  });
});

describe("the gate before shipping", () => {
  const write = async (name: string, baseline: Partial<Baseline>) => {
    const file = join(dir, name);
    await writeFile(
      file,
      JSON.stringify({
        model: "anthropic:claude-test",
        k: 3,
        metrics: { toolSelection: 95, outcomeCorrectness: 93, passK: 88 },
        recordedAt: "2026-03-01T00:00:00.000Z",
        ...baseline,
      }),
    );
    return file;
  };

  it("current when the baseline measured the published tools; stale when a description or schema changed since; missing without one", async () => {
    expect(baselineStatus(await write("current.json", { toolsHash: publishedToolsHash() })).state).toBe("current");
    const stale = baselineStatus(await write("stale.json", { toolsHash: "sha256:0000" }));
    expect(stale.state).toBe("stale");
    expect(stale.message).toMatch(/npm run eval -- --model anthropic:<model> --trials 3 --baseline/);
    expect(baselineStatus(join(dir, "none.json")).state).toBe("missing");
  });

  it("the deploy gate refuses a stale or missing baseline, naming the command; an override must say who and why", async () => {
    const stale = await write("stale-2.json", { toolsHash: "sha256:0000" });
    expect(deployGate({ path: stale })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Deploy refused\..*npm run eval -- --model anthropic:<model> --trials 3 --baseline/s),
    });
    expect(deployGate({ path: join(dir, "none.json") }).ok).toBe(false);
    expect(deployGate({ path: stale, override: "yes" })).toMatchObject({ ok: false, message: expect.stringMatching(/who and why/) });
    expect(deployGate({ path: stale, override: "Ana Costa: hotfix of a typo in a description" })).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^EVAL GATE OVERRIDDEN by Ana Costa: hotfix/),
    });
    expect(deployGate({ path: await write("current-2.json", { toolsHash: publishedToolsHash() }) }).ok).toBe(true);
  });

  it("a scripted run reports a stale baseline and still passes: CI has no model", { timeout: 120_000 }, async () => {
    const baselineFile = await write("stale-3.json", { toolsHash: "sha256:0000" });
    const result = await runEval({
      casesDir,
      model: { kind: "scripted" },
      trials: 1,
      dynamodbEndpoint: inject("dynamodbEndpoint"),
      only: ["cancel-own-eligible-order"],
      baselineFile,
    });
    expect(result.exitCode).toBe(0);
    expect(result.lines.at(-2)).toMatch(/^eval: note: The eval baseline is stale/);
    expect(result.lines.at(-1)).toBe("eval: 1/1 cases pass");
  });

  it("this repository's eval/baseline.json: reported, never failed on (npm test has no model)", () => {
    const status = baselineStatus();
    if (status.state !== "current") console.warn(`eval baseline: ${status.message}`);
    expect(["current", "stale", "missing"]).toContain(status.state);
  });
});

describe("npm run eval without the model's key", () => {
  const cli = (args: string[], env: Record<string, string | undefined>) => {
    const clean = { ...process.env, ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete clean[k];
    return spawnSync(join(repoRoot, "node_modules", ".bin", "tsx"), [join(repoRoot, "eval", "cli.ts"), ...args], {
      cwd: repoRoot,
      env: clean,
      encoding: "utf8",
      timeout: 60_000,
    });
  };

  it("anthropic:… without ANTHROPIC_API_KEY names the variable and exits 2", { timeout: 60_000 }, () => {
    const result = cli(["--model", "anthropic:claude-x"], { ANTHROPIC_API_KEY: undefined });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
  });

  it("openai:… without OPENAI_API_KEY or OPENAI_BASE_URL names both and exits 2", { timeout: 60_000 }, () => {
    const result = cli(["--model", "openai:gpt-x"], { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(result.stderr).toContain("OPENAI_BASE_URL");
  });

  it("a model spec it does not know is a usage error (exit 2)", { timeout: 60_000 }, () => {
    const result = cli(["--model", "gemini:x"], {});
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--model is scripted, recorded:<file>, anthropic:<model>, openai:<model> or bedrock:<modelId>/);
  });

  /** No AWS credentials anywhere the chain looks: no variables, an empty home (no ~/.aws), no instance metadata. */
  const noAws = async (): Promise<Record<string, string | undefined>> => ({
    HOME: await mkdtemp(join(tmpdir(), "eval-no-aws-")),
    AWS_EC2_METADATA_DISABLED: "true",
    ...Object.fromEntries(
      [
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_PROFILE",
        "AWS_CONFIG_FILE",
        "AWS_SHARED_CREDENTIALS_FILE",
        "AWS_BEARER_TOKEN_BEDROCK",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_ROLE_ARN",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
      ].map((name) => [name, undefined]),
    ),
  });

  it("bedrock:… without AWS credentials says where the chain looked and exits 2, before any call", { timeout: 60_000 }, async () => {
    const env = await noAws();
    const result = cli(["--model", "bedrock:global.anthropic.claude-sonnet-5-5"], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--model bedrock:… needs AWS credentials, and the default credential chain has none");
    expect(result.stderr).toContain("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set");
    expect(result.stderr).toContain(
      `there is no default profile with credentials in ${join(env.HOME!, ".aws", "config")} or ${join(env.HOME!, ".aws", "credentials")}`,
    );
    expect(result.stdout).toBe("");
  });

  it("bedrock:… with credentials but no region names AWS_REGION and exits 2", { timeout: 60_000 }, async () => {
    const result = cli(["--model", "bedrock:global.anthropic.claude-sonnet-5-5"], {
      ...(await noAws()),
      AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "example",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^--model bedrock:… needs a region, and none is set: set AWS_REGION/);
  });
});
