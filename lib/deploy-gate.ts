import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { publishedToolsHash } from "#contract/tools-hash";

/**
 * The deploy gate over what the catalogue publishes: a change to anything a model is told is a behaviour change,
 * and ships only after a live model run over the evaluation cases measured it and no metric moved more than two
 * points the wrong way (contract §8.4). `eval/baseline.json`, which `npm run eval -- --baseline` writes, keeps
 * the published-tools hash that run saw. Read by the CDK app at synth and by the eval runner; it lives with the
 * CDK code it gates and imports nothing of CDK, so the eval harness reads it without taking in the stacks (the
 * CDK app never imports the eval).
 */

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const baselinePath = join(repoRoot, "eval", "baseline.json");

/** A path inside the repository as it reads from its root, so that a message (and the template it lands in) is the same on every checkout. */
const shown = (path: string) => (path.startsWith(repoRoot + sep) ? relative(repoRoot, path) : path);

/** The command that measures the tools and writes a new baseline: a live model, every case, k ≥ 3. */
export const baselineCommand = "npm run eval -- --model anthropic:<model> --trials 3 --baseline";

export interface Metrics {
  /** % of case trials where the required tools were called and no change tool the case did not expect. */
  toolSelection: number;
  /** % of case trials whose operation outcome and stored state were right (execution and state passed). */
  outcomeCorrectness: number;
  /** % of cases that passed all four assertions in every one of the k trials (τ-bench's pass^k). */
  passK: number;
}

export const metricNames: readonly (keyof Metrics)[] = ["toolSelection", "outcomeCorrectness", "passK"];

export interface Baseline {
  /** The model spec the run used, e.g. anthropic:claude-…. */
  model: string;
  k: number;
  metrics: Metrics;
  /** publishedToolsHash() when the run was made. */
  toolsHash: string;
  cases: { count: number; ids: string };
  /** The attack figures of the run (over its attack cases), when it had any. */
  attack?: { attackSuccess: number; utilityUnderAttack: number; overRefusal: number };
  recordedAt: string;
  /** Set when a baseline was written over a drop on purpose (`--accept-drop`). */
  acceptedDrop?: { reason: string; previous: Metrics; previousModel: string };
}

export function readBaseline(path = baselinePath): Baseline | undefined {
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(
      `${path} is not valid JSON (${(error as Error).message}); restore it from git, or write a new one with ${baselineCommand}.`,
    );
  }
  const b = json as Partial<Baseline>;
  if (
    typeof b.model !== "string" ||
    typeof b.k !== "number" ||
    typeof b.toolsHash !== "string" ||
    typeof b.metrics !== "object" ||
    b.metrics === null
  ) {
    throw new Error(`${path} is not a baseline (it needs model, k, metrics and toolsHash); write a new one with ${baselineCommand}.`);
  }
  return b as Baseline;
}

export type BaselineStatus =
  | { state: "current"; hash: string; baseline: Baseline; message: string }
  | { state: "stale"; hash: string; baseline: Baseline; message: string }
  | { state: "missing"; hash: string; message: string };

/** Whether the published tools are the ones the baseline measured. */
export function baselineStatus(path = baselinePath): BaselineStatus {
  const hash = publishedToolsHash();
  const baseline = readBaseline(path);
  if (!baseline) {
    return {
      state: "missing",
      hash,
      message: `No eval baseline (${shown(path)}): the published tool definitions (${hash.slice(0, 19)}…) have never been measured with a model. Run ${baselineCommand} with a model key.`,
    };
  }
  if (baseline.toolsHash === hash) {
    return {
      state: "current",
      hash,
      baseline,
      message: `The eval baseline (${baseline.model}, k=${baseline.k}, ${baseline.recordedAt}) measured these tool definitions.`,
    };
  }
  return {
    state: "stale",
    hash,
    baseline,
    message: `The eval baseline is stale: the published tool definitions changed since ${baseline.model} measured them on ${baseline.recordedAt} (${baseline.toolsHash.slice(0, 19)}… → ${hash.slice(0, 19)}…). A tool description or schema change is a behaviour change: run ${baselineCommand} with a model key before it ships.`,
  };
}

export interface GateDecision {
  ok: boolean;
  status: BaselineStatus;
  /** What to print: why it refuses, or what it let through and on whose word. */
  message: string;
}

/**
 * The deploy gate: refuses unless the baseline measured the published tools. `override` is the documented
 * way past it ("<who>: <why>"), owned by the service owners; it is printed, never silent.
 */
export function deployGate(options: { override?: string; path?: string } = {}): GateDecision {
  const status = baselineStatus(options.path);
  if (status.state === "current") return { ok: true, status, message: status.message };
  const override = options.override?.trim();
  if (override) {
    if (!/^[^:]{2,}:\s*\S.{4,}$/.test(override)) {
      return {
        ok: false,
        status,
        message: `${status.message}\nThe override must say who and why, as "<name>: <reason>", not ${JSON.stringify(override)}.`,
      };
    }
    return { ok: true, status, message: `EVAL GATE OVERRIDDEN by ${override}. ${status.message}` };
  }
  return {
    ok: false,
    status,
    message: `Deploy refused. ${status.message}\nTo deploy anyway, the service owners pass -c evalGateOverride="<name>: <reason>".`,
  };
}
