/**
 * The sizes of the reliability suite: small enough for `npm test` on a 2-core machine (about 90 s for the
 * whole suite), large enough in `npm run soak` to mean something. One place, so the two never drift apart.
 */
import type { PartReport } from "#test/reliability/harness";

export interface Sizes {
  /** Model-based sequences (fc.commands) and the most commands in one. */
  modelSequences: number;
  modelMaxCommands: number;
  /** Interleavings per race scenario (six scenarios). */
  racesPerScenario: number;
  /** Generated invalid inputs per tool, and classified hostile notes. */
  fuzzPerTool: number;
  fuzzNotes: number;
  /** Generated valid searches, extreme days included, each answered within the function's time budget. */
  searchFuzz: number;
  /** Fault-injection runs (each injects at least one fault). */
  faultRuns: number;
  /** Requests through the local gateway, and how many are in flight at once. */
  loadRequests: number;
  loadConcurrency: number;
}

export const ciSizes: Sizes = {
  modelSequences: 12,
  modelMaxCommands: 12,
  racesPerScenario: 4,
  fuzzPerTool: 150,
  fuzzNotes: 150,
  searchFuzz: 300,
  faultRuns: 30,
  loadRequests: 240,
  loadConcurrency: 240,
};

export const soakSizes: Sizes = {
  modelSequences: 1_000,
  modelMaxCommands: 12,
  racesPerScenario: 170,
  fuzzPerTool: 10_000,
  fuzzNotes: 5_000,
  searchFuzz: 5_000,
  faultRuns: 1_000,
  loadRequests: 3_000,
  loadConcurrency: 200,
};

/** One line per figure, for the test log: the CI-size figures are worth seeing, not only a pass. */
export function printReport(report: PartReport): void {
  const figures = Object.entries(report.figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  console.log(`[reliability] ${report.part}: ${figures}; failures=${report.failureCount}; ${report.seconds.toFixed(1)} s`);
}
