/**
 * `npm run eval -- [--cases <dir>] [--model scripted|recorded:<file>|anthropic:<model>|openai:<model>|bedrock:<modelId>]
 * [--trials k] [--report <file.json>] [--baseline]` (contract §8.4): runs every case against its own DynamoDB Local
 * and local stack, prints one line per case and `eval: P/T cases pass` last. Exit 0 only when every case
 * passes (scripted) or no metric fell more than two points below eval/baseline.json (model runs); 2 for bad
 * usage or a missing model key (or, for Bedrock, no AWS credentials or region).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

// Before any handler module loads: their loggers and metrics read these once. The service's own log lines and
// EMF metrics would bury the one line per case.
process.env.POWERTOOLS_LOG_LEVEL ??= "SILENT";
process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
process.env.POWERTOOLS_SERVICE_NAME ??= "order-tools-eval";

const { defects } = await import("#eval/defects");
const defectNames = Object.keys(defects);

const usage = `Usage: npm run eval -- [options]

  --cases <dir>        the case files (default eval/cases)
  --attacks            run the generated attack suite instead (eval/attacks: attacked, mixed and benign cases
                       composed by a seeded grammar; contract §8.4)
  --seed <n>           with --attacks: the grammar's seed (default 1); the same seed gives the same cases;
                       with --replies: the generator's seed (default 20261201, the one npm test samples)
  --sample <n>         with --attacks: a seeded sample of n cases across every kind (default: all)
  --model <spec>       scripted (default: each case's script), recorded:<file.json> (saved provider responses),
                       anthropic:<model> (needs ANTHROPIC_API_KEY), openai:<model> (OPENAI_API_KEY or OPENAI_BASE_URL),
                       bedrock:<modelId> (AWS credentials from the default chain, and a region)
  --through <loop>     run each conversation in controller (default), ai-sdk or openai-agents: the framework's own
                       loop through its adapter (order-tools/controller/<loop>), its mock model following the script
  --trials <k>         run each case k times; model runs report pass^k (default 1)
  --report <file>      write the JSON report: per case and trial, the four verdicts, trace, tools called and expected
  --baseline           write eval/baseline.json from this run: a live model over every case, k ≥ 3 (model, k, the
                       metrics and attack figures, the hash of everything the model is told)
  --accept-drop "<name>: <reason>"   with --baseline: write it even though a metric fell more than 2 points
  --record <file>      with a live model: save its responses, to replay with --model recorded:<file>
  --case <id>          only this case (repeatable)
  --concurrency <n>    case trials side by side (default 3; 2 with a live model)
  --write-schema       rewrite eval/case-schema.json from the zod schema, and stop
  --replies            run the whole generated reply corpus (false and true replies) against the gate and the
                       judge, then the generated questions (six, in eight languages, per language and question),
                       and stop; exit 1 if the gate showed a false reply, the judge passed one, or under 95% of
                       questions had their answer told (or one told more than one fact beyond it)
  --answers            read the generated answer corpus (typed answers to a held change: confirm, decline, neither;
                       eight languages) with the controller and print its confusion matrix; exits 1 on any misread
  --defect <name>      run with one deliberate defect switched on (eval/defects.ts), to see the checks catch it:
                       ${defectNames.join(", ")}
                       (with --replies, only gate-disabled applies)`;

const { readOptions } = await import("#local/command-line");
const { values, refuse: usageError } = readOptions(usage, {
  cases: { type: "string" },
  attacks: { type: "boolean" },
  seed: { type: "string" },
  sample: { type: "string" },
  model: { type: "string" },
  through: { type: "string" },
  trials: { type: "string" },
  report: { type: "string" },
  baseline: { type: "boolean" },
  "accept-drop": { type: "string" },
  record: { type: "string" },
  case: { type: "string", multiple: true },
  concurrency: { type: "string" },
  "write-schema": { type: "boolean" },
  replies: { type: "boolean" },
  answers: { type: "boolean" },
  defect: { type: "string" },
});

const { repoRoot, userPath } = await import("#local/stack");
const defect = (() => {
  if (values.defect === undefined) return undefined;
  const found = Object.values(defects).find((d) => d.name === values.defect);
  if (!found) usageError(`--defect must be one of ${defectNames.join(", ")}, not ${JSON.stringify(values.defect)}.`);
  return found;
})();

if (values["write-schema"]) {
  const { caseJsonSchema } = await import("#eval/case-schema");
  const file = join(repoRoot, "eval", "case-schema.json");
  await writeFile(file, `${JSON.stringify(caseJsonSchema(), null, 2)}\n`);
  console.log(`Wrote ${file}`);
  process.exit(0);
}

if (values.answers) {
  const seed = values.seed === undefined ? 8 : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) usageError(`--seed must be a whole number from 0, not ${JSON.stringify(values.seed)}.`);
  const { runAnswerCorpus } = await import("#eval/attacks/answers");
  process.exit(runAnswerCorpus(seed, (line) => console.log(line)).pass ? 0 : 1);
}

if (values.replies) {
  const { defaultSeed } = await import("#eval/reply-generator");
  const seed = values.seed === undefined ? defaultSeed : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) usageError(`--seed must be a whole number from 0, not ${JSON.stringify(values.seed)}.`);
  const { runGeneratedReplies } = await import("#eval/reply-run");
  if (defect && defect.name !== "gate-disabled")
    usageError(`--replies reads replies with the gate and the judge alone: of the defects only gate-disabled applies, not ${defect.name}.`);
  process.exit(runGeneratedReplies(seed, (line) => console.log(line), { gateDisabled: defect !== undefined }).pass ? 0 : 1);
}

const { isLiveModel, ModelSpecError, missingCredential, parseModelSpec } = await import("#eval/models");
const model = (() => {
  try {
    return parseModelSpec(values.model ?? "scripted");
  } catch (error) {
    if (error instanceof ModelSpecError) usageError(error.message);
    throw error;
  }
})();
const missing = missingCredential(model);
if (missing) {
  console.error(missing);
  process.exit(2);
}
const whole = (name: string, raw: string | undefined, fallback: number, max: number): number => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    usageError(`--${name} must be a whole number from 1 to ${max}, not ${JSON.stringify(raw)}.`);
  return n;
};
const trials = whole("trials", values.trials, 1, 100);
if ((values.seed !== undefined || values.sample !== undefined) && !values.attacks && !values.answers)
  usageError("--seed and --sample go with --attacks.");
if (values.attacks && values.cases !== undefined) usageError("--attacks runs the generated suite: leave out --cases.");
const seed = values.seed === undefined ? 1 : whole("seed", values.seed, 1, 2 ** 31 - 1);
const sample = values.sample === undefined ? undefined : whole("sample", values.sample, 1, 100_000);
const concurrency = whole("concurrency", values.concurrency, isLiveModel(model) ? 2 : 3, 32);
if (values["accept-drop"] !== undefined && !values.baseline) usageError("--accept-drop goes with --baseline.");
const { loops } = await import("#eval/frameworks");
const through = loops.find((loop) => loop === (values.through ?? "controller"));
if (through === undefined) usageError(`--through must be one of ${loops.join(", ")}, not ${JSON.stringify(values.through)}.`);
if (through !== "controller" && model.kind !== "scripted")
  usageError(`--through ${through} runs the framework's own mock model on each case's script: leave out --model (or give scripted).`);
if (values.record !== undefined && !isLiveModel(model))
  usageError("--record saves a live model's responses: use it with --model anthropic:…, openai:… or bedrock:….");

const { BaselineRuleError, baselineRefusal, runEval } = await import("#eval/runner");
if (values.baseline) {
  const refusal = baselineRefusal({ model, trials, ...(values.case ? { only: values.case } : {}), ...(defect ? { defect } : {}) });
  if (refusal) usageError(refusal);
}
try {
  const result = await runEval({
    casesDir: values.cases ? userPath(values.cases) : join(repoRoot, "eval", "cases"),
    ...(values.attacks ? { attacks: { seed, ...(sample !== undefined ? { sample } : {}) } } : {}),
    model: model.kind === "recorded" ? { ...model, file: userPath(model.file) } : model,
    ...(through !== "controller" ? { through } : {}),
    trials,
    concurrency,
    ...(values.report ? { report: userPath(values.report) } : {}),
    ...(values.baseline ? { writeBaseline: true } : {}),
    ...(values["accept-drop"] !== undefined ? { acceptDrop: values["accept-drop"] } : {}),
    ...(values.record ? { record: userPath(values.record) } : {}),
    ...(values.case ? { only: values.case } : {}),
    ...(defect ? { defect } : {}),
    out: (line) => console.log(line),
  });
  process.exit(result.exitCode);
} catch (error) {
  console.error(`eval failed: ${(error as Error).message}`);
  process.exit(error instanceof ModelSpecError || error instanceof BaselineRuleError ? 2 : 1);
}
