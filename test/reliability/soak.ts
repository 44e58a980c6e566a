/**
 * `npm run soak` (or `npx tsx test/reliability/soak.ts`): the reliability suite of test/reliability at its soak sizes,
 * against a DynamoDB Local of its own, printing one table of figures (Markdown, as docs/reliability.md keeps it)
 * and every failure found. Exit code 1 if any part found a failure.
 *
 * Options: `--only <part>[,<part>…]` (authorization, model, races, fuzz, faults, load), `--ci` for the CI sizes,
 * `--seed N` to repeat a run's generated inputs.
 */

export {};

// Before any handler module loads: the handlers' own logs and metrics would bury the table.
process.env.POWERTOOLS_LOG_LEVEL ??= "SILENT";
process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
for (const knob of ["ORDER_TOOLS_HOURLY_CAP", "ORDER_TOOLS_REQUEST_BUDGET", "ORDER_TOOLS_SUPPORT_HOURLY_CAP"]) process.env[knob] ??= "0";

const { startDynamoDbLocal } = await import("#local/dynamodb-local");
const { ciSizes, soakSizes } = await import("#test/reliability/sizes");
type PartReport = import("#test/reliability/harness").PartReport;

const { readOptions } = await import("#local/command-line");
const partNames = ["authorization", "model", "races", "fuzz", "faults", "load"];
const usage = `Usage: npm run soak -- [--only <part>[,<part>…]] [--ci] [--seed N]

  --only <parts>   run only these parts: ${partNames.join(", ")}
  --ci             the sizes npm test runs (seconds), instead of the soak sizes (minutes)
  --seed N         repeat a run's generated inputs (each part prints its seed)`;

const { values, refuse } = readOptions(usage, { only: { type: "string" }, ci: { type: "boolean" }, seed: { type: "string" } });
const sizes = values.ci ? ciSizes : soakSizes;
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && !(/^\d+$/.test(values.seed ?? "") && Number.isSafeInteger(seed)))
  refuse(`--seed takes a whole number, like the one a part printed, not ${JSON.stringify(values.seed)}.`);
const only = values.only?.split(",").map((name) => name.trim());
const unknownParts = only?.filter((name) => !partNames.includes(name)) ?? [];
if (unknownParts.length > 0 || only?.length === 0)
  refuse(`There is no part ${unknownParts.map((name) => JSON.stringify(name)).join(", ")}; the parts are ${partNames.join(", ")}.`);
const withSeed = seed === undefined ? {} : { seed };

interface Part {
  name: string;
  title: string;
  run: (endpoint: string) => Promise<PartReport>;
  /** The table's columns for this part: what was run, and the figures that must be 0 or 100 %. */
  summary: (r: PartReport) => { size: string; result: string };
}

const f = (r: PartReport, key: string) => r.figures[key] ?? "–";

const parts: Part[] = [
  {
    name: "authorization",
    title: "Authorization matrix",
    run: async (endpoint) => (await import("#test/reliability/authorization-matrix")).runAuthorizationMatrix(endpoint),
    summary: (r) => ({
      size: `${f(r, "cases")} cases (7 tools × 10 principals, 4 of them sellers' rows, × 4 id kinds)`,
      result: `${f(r, "identical")} denies byte-identical to not-found, ${f(r, "replays")} replays`,
    }),
  },
  {
    name: "model",
    title: "Model-based (fc.commands)",
    run: async (endpoint) =>
      (await import("#test/reliability/model")).runModelBased(endpoint, {
        sequences: sizes.modelSequences,
        maxCommands: sizes.modelMaxCommands,
        ...withSeed,
      }),
    summary: (r) => ({
      size: `${f(r, "sequences")} sequences, ${f(r, "commands")} commands`,
      result: `${f(r, "divergences")} divergences (completed ${f(r, "completed")}, rejected ${f(r, "rejected")}, replays ${f(r, "replays")}, lookups ${f(r, "status lookups")}, reuses ${f(r, "reuses")}; from the seller: ${f(r, "seller changes")} changes, ${f(r, "seller refusals")} FORBIDDEN)`,
    }),
  },
  {
    name: "races",
    title: "Races",
    run: async (endpoint) =>
      (await import("#test/reliability/races")).runRaces(endpoint, { perScenario: sizes.racesPerScenario, ...withSeed }),
    summary: (r) => ({
      size: `${f(r, "interleavings")} interleavings (${f(r, "scheduled")} under fc.scheduler; ${f(r, "seller-cap")} for a seller actor's cap)`,
      result: `${f(r, "double-applies")} double-applies, ${f(r, "lost updates")} lost updates`,
    }),
  },
  {
    name: "fuzz",
    title: "Fuzz through the handlers",
    run: async (endpoint) => {
      const { runFuzz, runSearchFuzz } = await import("#test/reliability/fuzz");
      // One seed for both, so the seed the table prints repeats the whole part.
      const partSeed = seed ?? Date.now() % 2 ** 31;
      const invalid = await runFuzz(endpoint, { perTool: sizes.fuzzPerTool, notes: sizes.fuzzNotes, seed: partSeed });
      const searches = await runSearchFuzz(endpoint, { inputs: sizes.searchFuzz, seed: partSeed });
      return {
        part: invalid.part,
        figures: { ...invalid.figures, ...searches.figures },
        failures: [...invalid.failures, ...searches.failures],
        failureCount: invalid.failureCount + searches.failureCount,
        seconds: invalid.seconds + searches.seconds,
      };
    },
    summary: (r) => ({
      size: `${f(r, "inputs")} inputs (${sizes.fuzzPerTool} per tool, ${f(r, "seller inputs")} again from a seller, + ${sizes.fuzzNotes} notes); ${f(r, "search inputs")} valid searches`,
      result: `${f(r, "5xx")} 5xx, ${f(r, "writes")} writes, ${f(r, "4xx")} 4xx; notes kept ${f(r, "notes kept")} / refused ${f(r, "notes refused")}; searches ${f(r, "search 200")} 200 / ${f(r, "search 400")} 400, worst ${f(r, "search worst (ms)")} ms`,
    }),
  },
  {
    name: "faults",
    title: "Fault injection",
    run: async (endpoint) =>
      (await import("#test/reliability/fault-injection")).runFaultInjection(endpoint, { runs: sizes.faultRuns, ...withSeed }),
    summary: (r) => ({
      size: `${f(r, "runs")} runs, ${f(r, "faults injected")} faults`,
      result: `${f(r, "reconciled (%)")} % reconciled (at once ${f(r, "definite at once")}, retry ${f(r, "reconciled by retry")}, lookup ${f(r, "reconciled by status lookup")}), ${f(r, "double-applies")} double-applies, ${f(r, "false VERSION_CONFLICTs")} false VERSION_CONFLICTs`,
    }),
  },
  {
    name: "load",
    title: "Load through the local gateway",
    run: async (endpoint) =>
      (await import("#test/reliability/load")).runLoad(endpoint, {
        requests: sizes.loadRequests,
        concurrency: sizes.loadConcurrency,
        ...withSeed,
      }),
    summary: (r) => ({
      size: `${f(r, "requests")} requests (${f(r, "seller requests")} from a seller), ${f(r, "concurrency")} in flight`,
      result: `${f(r, "5xx")} 5xx, ${f(r, "throughput (req/s)")} req/s, p50 ${f(r, "p50 (ms)")} ms, p95 ${f(r, "p95 (ms)")} ms, p99 ${f(r, "p99 (ms)")} ms; invariants checked on ${f(r, "operation records (completed)")} completed operations`,
    }),
  },
];

if (parts.map((p) => p.name).join() !== partNames.join()) throw new Error("soak.ts: partNames must list the parts, in order.");
const chosen = only ? parts.filter((p) => only.includes(p.name)) : parts;

const dynamo = await startDynamoDbLocal();
const rows: { part: Part; report?: PartReport; error?: unknown }[] = [];
const started = performance.now();
try {
  for (const part of chosen) {
    process.stderr.write(`soak: ${part.title}…\n`);
    try {
      const report = await part.run(dynamo.endpoint);
      rows.push({ part, report });
      process.stderr.write(`soak: ${part.title} done in ${report.seconds.toFixed(0)} s, ${report.failureCount} failures\n`);
    } catch (error) {
      rows.push({ part, error });
      process.stderr.write(`soak: ${part.title} stopped: ${(error as Error).stack ?? String(error)}\n`);
    }
  }
} finally {
  await dynamo.stop();
}

const minutes = ((performance.now() - started) / 60_000).toFixed(1);
console.log(
  `\nReliability ${sizes === soakSizes ? "soak" : "CI-size"} run, ${new Date().toISOString().slice(0, 16)}Z, ${minutes} min, node ${process.version}\n`,
);
console.log("| part | size | result | failures | time |");
console.log("|---|---|---|---|---|");
for (const { part, report, error } of rows) {
  if (!report) {
    console.log(`| ${part.title} | – | stopped: ${String((error as Error)?.message ?? error).replaceAll("|", "/")} | – | – |`);
    continue;
  }
  const { size, result } = part.summary(report);
  console.log(`| ${part.title} | ${size} | ${result} | ${report.failureCount} | ${report.seconds.toFixed(0)} s |`);
}
const seeds = rows.filter((r) => r.report?.figures.seed !== undefined).map((r) => `${r.part.name} ${r.report?.figures.seed}`);
if (seeds.length) console.log(`\nSeeds (repeat one with --only <part> --seed N): ${seeds.join(", ")}`);

let failed = false;
for (const { part, report, error } of rows) {
  if (error || (report && report.failureCount > 0)) failed = true;
  if (report && report.failures.length > 0) {
    console.log(`\n${part.title}: ${report.failureCount} failures; the first ${report.failures.length}:`);
    for (const failure of report.failures) console.log(`- ${failure}`);
  }
}
process.exitCode = failed ? 1 : 0;
