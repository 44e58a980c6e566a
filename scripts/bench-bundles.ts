/**
 * Bundle size and cold module-init time of every function, against a bare DocumentClient bundle built the
 * same way. `tsx scripts/bench-bundles.ts [--runs N]`, or `benchBundles()` from `npm run bench`.
 *
 * Init time is the time to `import()` the built bundle in a fresh `node` with a deployed function's
 * environment (NODE_OPTIONS=--enable-source-maps, Powertools settings), median of N rounds (default 9), each
 * round importing every bundle once in turn. It excludes Node's own start-up, which every function pays alike.
 * `@aws-sdk/*` stays external in the bundles, as in Lambda, where the runtime provides it; here it resolves to
 * the project's node_modules, because the bundles are written under cdk.out/ in the repository.
 * The target (issue 12) is init ≤ 1.3× the bare client's; `--only init-profile` shows where the time goes.
 */
import "#scripts/bench/setup";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { serviceFunctions } from "#catalog/service-functions";
import { tools } from "#catalog/tools";
import { bundleBudgetBytes, bundleEntries } from "#lib/bundles";
import { repoRoot } from "#lib/tool-function";
import { initTimes } from "#scripts/bench/cold-start";
import { table, times } from "#scripts/bench/stats";

export const baselineName = "bare DocumentClient";
/** The issue's target for a function's cold init against the bare client's. */
export const initTarget = 1.3;

export const functionEntries = [
  { name: baselineName, entry: "scripts/bench/bare-document-client.ts" },
  ...tools.map((tool) => ({ name: tool.name, entry: tool.entry })),
  ...serviceFunctions.map((fn) => ({ name: fn.name, entry: fn.entry })),
  { name: "pre-token-generation", entry: "functions/auth/pre-token-generation.ts" },
];

/** Builds every function as the stacks do, then prints size and median cold import time against the bare client. */
export async function benchBundles(options: { runs?: number; log?: (line: string) => void } = {}): Promise<void> {
  const runs = options.runs ?? 9;
  const log = options.log ?? console.log;
  if (!Number.isInteger(runs) || runs < 1) throw new Error("runs must be a whole number of at least 1");
  const outdir = join(repoRoot, "cdk.out", "bench-bundles");
  rmSync(outdir, { recursive: true, force: true });
  const started = performance.now();
  const built = bundleEntries(functionEntries, outdir);
  // In the order listed (the template's order is CloudFormation's).
  const bundles = functionEntries.map((f) => built.find((b) => b.name === f.name)!);
  log(`bundled ${bundles.length} functions in ${((performance.now() - started) / 1000).toFixed(1)} s (esbuild, as cdk synth does)\n`);

  const ms = initTimes(bundles.map((b) => b.file), runs);
  const bare = ms[bundles.findIndex((b) => b.name === baselineName)] as number;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  table(
    log,
    ["function", "bundle KB", "init ms", "vs bare", "ratio", `≤ ${initTarget}×`, `≤ ${kb(bundleBudgetBytes)} KB`],
    bundles.map((bundle, i) => {
      const own = ms[i] as number;
      const isBare = bundle.name === baselineName;
      return [
        bundle.name,
        kb(bundle.bytes),
        own.toFixed(1),
        isBare ? "" : `${own - bare >= 0 ? "+" : ""}${(own - bare).toFixed(1)}`,
        isBare ? "" : times(own, bare),
        isBare ? "" : own / bare <= initTarget ? "yes" : "no",
        bundle.bytes > bundleBudgetBytes ? "OVER" : "yes",
      ];
    }),
  );
  log(`\ninit: median of ${runs} rounds of fresh node processes, node ${process.version} on ${process.arch}; Lambda (node 22, arm64) differs in absolute terms.`);
  log("catalog, openapi and pre-token-generation load no DynamoDB client, so they start faster than the bare client.");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runsArg = process.argv.indexOf("--runs");
  await benchBundles(runsArg > 0 ? { runs: Number(process.argv[runsArg + 1]) } : {});
}
