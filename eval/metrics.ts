import type { TrialResult } from "./run-case.ts";
import { type Baseline, type Metrics, metricNames } from "./tool-hash.ts";

/** How far below the baseline a metric may fall, in percentage points, before a model run fails (seed 002). */
export const tolerancePoints = 2;

const percent = (n: number, of: number) => (of === 0 ? 0 : Math.round((1000 * n) / of) / 10);

/**
 * The three metrics of a model run, in percent: tool-selection accuracy and outcome correctness over every
 * case trial, and pass^k — the share of cases that passed all four assertions in all k trials (τ-bench).
 */
export function metricsOf(byCase: ReadonlyMap<string, readonly TrialResult[]>): Metrics {
  const trials = [...byCase.values()].flat();
  const outcomeRight = (t: TrialResult) => t.verdicts.every((v) => (v.boundary === "execution" || v.boundary === "state" ? v.pass : true)) && t.error === undefined;
  return {
    toolSelection: percent(trials.filter((t) => t.toolSelection).length, trials.length),
    outcomeCorrectness: percent(trials.filter(outcomeRight).length, trials.length),
    passK: percent([...byCase.values()].filter((ts) => ts.length > 0 && ts.every((t) => t.pass)).length, byCase.size),
  };
}

export interface Drop {
  metric: keyof Metrics;
  baseline: number;
  now: number;
  points: number;
}

/** Every metric more than `tolerancePoints` below the baseline's. */
export function dropsBelow(baseline: Pick<Baseline, "metrics">, metrics: Metrics, tolerance = tolerancePoints): Drop[] {
  return metricNames
    .map((metric) => ({ metric, baseline: baseline.metrics[metric], now: metrics[metric], points: Math.round((baseline.metrics[metric] - metrics[metric]) * 10) / 10 }))
    .filter((d) => d.points > tolerance);
}

export function describeMetrics(metrics: Metrics, k: number): string {
  return `tool selection ${metrics.toolSelection}%, outcome correctness ${metrics.outcomeCorrectness}%, pass^${k} ${metrics.passK}%`;
}
