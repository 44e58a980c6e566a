import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import type { Fetch } from "#controller/http/faults";
import type { Defect } from "#eval/defects";
import { boundaries } from "#eval/evidence";
import { CaseError, type LoadedCase, loadCase, loadCases } from "#eval/load-cases";
import { attackSuiteShopSets, generateAttackSuite } from "#eval/attacks/generate";
import {
  type AttackMetrics,
  attackMetricsOf,
  type BenignCost,
  benignCostOf,
  describeBenignCost,
  describeFastPath,
  fastPathOf,
  describeAttackMetrics,
  describeMetrics,
  type Drop,
  dropsBelow,
  metricsOf,
  tolerancePoints,
} from "#eval/metrics";
import type { Loop } from "#eval/frameworks";
import { isLiveModel, isModelRun, type ModelSpec, modelSource } from "#eval/models";
import { runCase, type TrialResult } from "#eval/run-case";
import { startEvalService } from "#eval/service";
import { type Baseline, baselineCommand, baselinePath, baselineStatus, type Metrics, readBaseline } from "#lib/deploy-gate";
import { publishedToolsHash } from "#contract/tools-hash";

/** contract §8.4: `npm run eval`. Everything but the argument parsing, so tests can run it in process. */
export interface EvalOptions {
  casesDir: string;
  /** Run the generated attack suite (eval/attacks) for this seed, or a seeded sample of it, instead of casesDir. */
  attacks?: { seed: number; sample?: number };
  model: ModelSpec;
  /** The loop each conversation runs in: the controller's own (default), or a framework's through its adapter (scripted only). */
  through?: Loop;
  trials: number;
  /** Write the JSON report here. */
  report?: string;
  /** Write eval/baseline.json from this (model) run. */
  writeBaseline?: boolean;
  /** Write the baseline even over a drop: "<name>: <reason>", kept in the file. */
  acceptDrop?: string;
  baselineFile?: string;
  /** Save a live model's responses as a recording that `--model recorded:<file>` replays. */
  record?: string;
  /** The fetch a live model's SDK uses, per case trial (tests serve recorded wire-format answers through it). */
  transport?: (caseId: string, trial: number) => Fetch;
  /** Case trials run side by side. */
  concurrency?: number;
  /** Use this DynamoDB Local instead of starting one. */
  dynamodbEndpoint?: string;
  /** Only these case ids. */
  only?: readonly string[];
  defect?: Defect;
  out?: (line: string) => void;
  now?: Date;
}

export interface EvalResult {
  exitCode: number;
  passed: number;
  total: number;
  results: Map<string, TrialResult[]>;
  caseErrors: CaseError[];
  metrics?: Metrics;
  drops?: Drop[];
  attack?: AttackMetrics;
  benign?: BenignCost;
  durationMs: number;
  /** The lines printed, in order; the last is `eval: P/T cases pass`. */
  lines: string[];
}

export async function runEval(options: EvalOptions): Promise<EvalResult> {
  const started = performance.now();
  const lines: string[] = [];
  const print = (line: string) => {
    lines.push(line);
    options.out?.(line);
  };
  const modelRun = isModelRun(options.model);
  const baselineFile = options.baselineFile ?? baselinePath;
  if (options.writeBaseline) {
    const refusal = baselineRefusal(options);
    if (refusal) throw new BaselineRuleError(refusal);
  }
  const through = options.through ?? "controller";
  if (through !== "controller" && modelRun)
    throw new Error(
      `--through ${through} runs the framework's own mock model on each case's script: it takes --model scripted, not ${options.model.kind}.`,
    );

  const loaded = options.attacks ? generatedCases(options.attacks, options.now) : await loadCases(options.casesDir, options.now);
  let cases: LoadedCase[] = loaded.cases;
  if (options.only?.length) {
    const unknown = options.only.filter((id) => !cases.some((c) => c.case.id === id));
    if (unknown.length) throw new Error(`No case with id ${unknown.join(", ")} in ${options.casesDir}.`);
    cases = cases.filter((c) => options.only?.includes(c.case.id));
  }
  const source = await modelSource(options.model, {
    record: options.record !== undefined,
    ...(options.transport ? { transport: options.transport } : {}),
  });
  const service = await startEvalService(options.dynamodbEndpoint ? { dynamodbEndpoint: options.dynamodbEndpoint } : {});

  const results = new Map<string, TrialResult[]>(cases.map((c) => [c.case.id, []]));
  try {
    print(
      modelRun
        ? `eval: ${cases.length} cases × ${options.trials} trial${options.trials === 1 ? "" : "s"} with ${source.name}`
        : `eval: ${cases.length} cases, scripted: each case replays its own hand-written model, which checks the service, the controller and the judges and measures no model (--model anthropic:…, openai:… or bedrock:… measures one)`,
    );
    if (through !== "controller")
      print(
        `eval: each conversation runs in ${through}'s own loop, through order-tools/controller/${through}, its mock model following the script`,
      );
    for (const error of loaded.errors) print(`${error.file} ERROR ${error.message.slice(error.file.length + 2)}`);
    const tasks = cases.flatMap((c) => Array.from({ length: options.trials }, (_, i) => ({ c, trial: i + 1 })));
    // Lines come out in case order however the trials finish.
    let nextLine = 0;
    const flush = () => {
      while (nextLine < cases.length) {
        const c = cases[nextLine] as LoadedCase;
        const trials = results.get(c.case.id) ?? [];
        if (trials.length < options.trials) return;
        print(
          caseLine(
            c.case.id,
            trials.sort((a, b) => a.trial - b.trial),
            options.trials,
          ),
        );
        nextLine += 1;
      }
    };
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) {
        const task = tasks[next++] as (typeof tasks)[number];
        const result = await runCase(service, task.c, task.trial, {
          model: source,
          through,
          ...(options.defect ? { defect: options.defect } : {}),
        }).catch(
          (error: unknown): TrialResult => ({
            caseId: task.c.case.id,
            trial: task.trial,
            pass: false,
            verdicts: [],
            error: `the harness failed: ${(error as Error).stack ?? String(error)}`,
            warnings: [],
            toolsCalled: [],
            serviceRequests: [],
            expectedTools: { required: [], allowedChanges: [], reference: [] },
            toolSelection: false,
            reply: "",
            traces: [],
            durationMs: 0,
          }),
        );
        results.get(task.c.case.id)?.push(result);
        flush();
      }
    };
    const concurrency = Math.max(1, Math.min(options.concurrency ?? 3, tasks.length || 1));
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await service.close();
  }

  const passed = [...results.values()].filter((ts) => ts.length > 0 && ts.every((t) => t.pass)).length;
  const total = cases.length + loaded.errors.length;
  let exitCode = passed === total ? 0 : 1;
  let metrics: Metrics | undefined;
  let drops: Drop[] | undefined;
  const status = safeStatus(baselineFile);

  const attack = attackMetricsOf(results);
  const benign = benignCostOf(results);
  if (attack) {
    const who = modelRun
      ? source.name
      : "scripted — a model that always does what the text it reads asks, the worst case; it covers static attacks (text fixed in the data), not an attacker who adapts to the replies";
    print(`eval: attack figures (${who}): ${describeAttackMetrics(attack)}`);
  }
  if (benign) print(`eval: what the control costs the principal: ${describeBenignCost(benign)}`);
  const fastPath = fastPathOf(results);
  if (fastPath) print(`eval: fast path: ${describeFastPath(fastPath)}`);
  if (modelRun) {
    metrics = metricsOf(results);
    print(`eval: ${source.name}, k=${options.trials}: ${describeMetrics(metrics, options.trials)}`);
    const baseline = readBaseline(baselineFile);
    exitCode = 0;
    const mismatch =
      baseline && !options.writeBaseline ? incomparable(baseline, source.name, options.trials, hashIds(cases), cases.length) : undefined;
    if (baseline && mismatch) {
      print(`eval: cannot compare with the baseline: ${mismatch}. Compare like with like, or measure anew with ${baselineCommand}.`);
      exitCode = 2;
    } else if (baseline) {
      drops = dropsBelow(baseline, metrics, tolerancePoints, attack);
      for (const d of drops)
        print(
          `eval: ${d.metric} moved ${d.points} points the wrong way from the baseline (${d.baseline}% → ${d.now}%); more than ${tolerancePoints} blocks the change`,
        );
      if (drops.length === 0)
        print(
          `eval: no metric moved more than ${tolerancePoints} points the wrong way from the baseline (${describeMetrics(baseline.metrics, baseline.k)})`,
        );
      else exitCode = 1;
    } else {
      print(`eval: no baseline at ${baselineFile} to compare with; --baseline writes one from this run`);
    }
    if (loaded.errors.length > 0) exitCode = 1;
    if (options.writeBaseline) {
      if (exitCode !== 0 && !options.acceptDrop) {
        print(
          'eval: baseline NOT written: a metric dropped (or a case is invalid); fix it, or accept the drop with --accept-drop "<name>: <reason>"',
        );
      } else {
        const next: Baseline = {
          model: source.name,
          k: options.trials,
          metrics,
          toolsHash: publishedToolsHash(),
          cases: { count: cases.length, ids: hashIds(cases) },
          ...(attack
            ? {
                attack: {
                  attackSuccess: attack.attackSuccess,
                  utilityUnderAttack: attack.utilityUnderAttack,
                  overRefusal: attack.overRefusal,
                },
              }
            : {}),
          recordedAt: (options.now ?? new Date()).toISOString(),
          ...(options.acceptDrop && baseline && exitCode !== 0
            ? { acceptedDrop: { reason: options.acceptDrop, previous: baseline.metrics, previousModel: baseline.model } }
            : {}),
        };
        await writeFile(baselineFile, `${JSON.stringify(next, null, 2)}\n`);
        print(`eval: baseline written to ${baselineFile}${next.acceptedDrop ? ` (drop accepted: ${options.acceptDrop})` : ""}`);
        exitCode = loaded.errors.length > 0 ? 1 : 0;
      }
    }
    if (options.record && source.saveRecording) {
      await source.saveRecording(options.record);
      print(`eval: model responses saved to ${options.record} (replay with --model recorded:${options.record})`);
    }
  } else {
    print("eval: scripted: each case's own hand-written model ran, so this measures the service, the controller and the judges — no model");
    if (options.trials > 1) {
      metrics = metricsOf(results);
      print(`eval: scripted, k=${options.trials}: ${describeMetrics(metrics, options.trials)}`);
    }
    // No model here: say the baseline is stale, and do not fail for it (CI and npm test have no model key).
    if (status.state !== "current") print(`eval: note: ${status.message}`);
  }

  const durationMs = Math.round(performance.now() - started);
  if (options.report) {
    await writeFile(
      options.report,
      `${JSON.stringify({ ...reportOf(options, source.name, results, cases, loaded.errors, metrics, drops, status, durationMs), ...(attack ? { attack } : {}), ...(benign ? { benign } : {}) }, null, 2)}\n`,
    );
  }
  print(`eval: ${passed}/${total} cases pass`);
  return {
    exitCode,
    passed,
    total,
    results,
    caseErrors: loaded.errors,
    ...(metrics ? { metrics } : {}),
    ...(drops ? { drops } : {}),
    ...(attack ? { attack } : {}),
    ...(benign ? { benign } : {}),
    durationMs,
    lines,
  };
}

/** A baseline is written only by what can stand for the published tools: a live model, every case, k ≥ 3. */
export class BaselineRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BaselineRuleError";
  }
}

export function baselineRefusal(options: Pick<EvalOptions, "model" | "trials" | "only" | "defect">): string | undefined {
  if (!isLiveModel(options.model)) {
    return `--baseline needs a live model run (--model anthropic:…, openai:… or bedrock:…), not ${options.model.kind}: ${options.model.kind === "scripted" ? "a scripted run passes by construction and measures no model" : "a recording replays answers a model gave to other tools, so it cannot have seen the published ones"}.`;
  }
  if (options.trials < 3) return `--baseline needs --trials 3 or more (pass^k over fewer trials says little), not ${options.trials}.`;
  if (options.only?.length) return "--baseline measures the whole case set: leave out --case.";
  if (options.defect) return "--baseline cannot be written with a defect switched on.";
  return undefined;
}

/** Why a run cannot be held against a baseline: another model, another k, or another case set. */
export function incomparable(baseline: Baseline, model: string, k: number, ids: string, count: number): string | undefined {
  const why: string[] = [];
  if (baseline.model !== model) why.push(`the baseline measured ${baseline.model}, this run ${model}`);
  if (baseline.k !== k) why.push(`the baseline has k=${baseline.k}, this run k=${k}`);
  if (baseline.cases?.ids !== undefined && baseline.cases.ids !== ids)
    why.push(`the baseline measured another case set (${baseline.cases.count} cases), this run has ${count}`);
  return why.length > 0 ? why.join("; ") : undefined;
}

function safeStatus(file: string): ReturnType<typeof baselineStatus> {
  try {
    return baselineStatus(file);
  } catch (error) {
    return { state: "missing", hash: publishedToolsHash(), message: (error as Error).message };
  }
}

/** Which cases a baseline measured, as a hash of their sorted ids: a later run on other cases is told so. */
export function hashIds(cases: readonly LoadedCase[]): string {
  const ids = cases.map((c) => c.case.id).sort();
  return `sha256:${createHash("sha256").update(ids.join("\n")).digest("hex")}`;
}

/** `<id> PASS`, or `<id> FAIL <boundary>: <why>` for each failed assertion (per trial when k > 1). */
export function caseLine(id: string, trials: readonly TrialResult[], k: number): string {
  if (trials.every((t) => t.pass))
    return `${id} PASS${trials.some((t) => t.warnings.length) ? ` (warning: ${trials.flatMap((t) => t.warnings).join("; ")})` : ""}`;
  const failures = trials
    .filter((t) => !t.pass)
    .map((t) => {
      const failed = boundaries.flatMap((b) => t.verdicts.filter((v) => v.boundary === b && !v.pass)).map((v) => `${v.boundary}: ${v.why}`);
      if (t.error) failed.push(`error: ${t.error.split("\n")[0]}`);
      return `${k > 1 ? `[trial ${t.trial}/${k}] ` : ""}${failed.join(" | ")}`;
    });
  return `${id} FAIL ${failures.join(" || ")}`;
}

function reportOf(
  options: EvalOptions,
  model: string,
  results: Map<string, TrialResult[]>,
  cases: readonly LoadedCase[],
  caseErrors: readonly CaseError[],
  metrics: Metrics | undefined,
  drops: Drop[] | undefined,
  status: ReturnType<typeof baselineStatus>,
  durationMs: number,
) {
  return {
    model,
    k: options.trials,
    casesDir: options.casesDir,
    ...(options.defect ? { defect: options.defect.name } : {}),
    durationMs,
    toolsHash: status.hash,
    baseline: { state: status.state, message: status.message },
    ...(metrics ? { metrics } : {}),
    ...(drops ? { drops } : {}),
    summary: {
      passed: [...results.values()].filter((ts) => ts.length > 0 && ts.every((t) => t.pass)).length,
      total: cases.length + caseErrors.length,
    },
    caseErrors: caseErrors.map((e) => ({ file: e.file, message: e.message })),
    cases: cases.map((c) => {
      const trials = results.get(c.case.id) ?? [];
      return {
        id: c.case.id,
        file: c.file,
        source: c.case.source,
        pass: trials.length > 0 && trials.every((t) => t.pass),
        expectedTools: trials[0]?.expectedTools,
        trials: trials.map((t) => ({
          trial: t.trial,
          pass: t.pass,
          verdicts: Object.fromEntries(t.verdicts.map((v) => [v.boundary, { pass: v.pass, why: v.why }])),
          ...(t.error ? { error: t.error } : {}),
          warnings: t.warnings,
          toolsCalled: t.toolsCalled,
          toolSelection: t.toolSelection,
          ...(t.attack ? { attack: t.attack } : {}),
          serviceRequests: t.serviceRequests,
          reply: t.reply,
          durationMs: t.durationMs,
          trace: t.traces,
        })),
      };
    }),
  };
}

/** The generated attack suite as loaded cases: validated by the same schema, dates filled in for today. */
function generatedCases(attacks: { seed: number; sample?: number }, now?: Date): { cases: LoadedCase[]; errors: CaseError[] } {
  const cases: LoadedCase[] = [];
  const errors: CaseError[] = [];
  const sets = attackSuiteShopSets();
  for (const c of generateAttackSuite(attacks)) {
    const file = `generated:seed-${attacks.seed}/${c.id}`;
    try {
      cases.push(loadCase(c, file, now, sets));
    } catch (error) {
      errors.push(error instanceof CaseError ? error : new CaseError(file, (error as Error).message));
    }
  }
  return { cases, errors };
}
