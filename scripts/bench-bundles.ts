/**
 * Bundle size and cold module-init time of every function, against a bare DocumentClient bundle built the
 * same way. `tsx scripts/bench-bundles.ts [--runs N]`, or `benchBundles()` from `npm run bench`.
 *
 * Init time is the time to `import()` the built bundle in a fresh `node` (with `--enable-source-maps`, as in
 * Lambda), median of N runs (default 5). It excludes Node's own start-up, which every function pays alike.
 * `@aws-sdk/*` stays external in the bundles, as in Lambda, where the runtime provides it; here it resolves to
 * the project's node_modules, because the bundles are written under cdk.out/ in the repository.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { serviceFunctions } from "#catalog/service-functions";
import { tools } from "#catalog/tools";
import { type Bundle, bundleBudgetBytes, bundleEntries } from "#lib/bundles";
import { repoRoot } from "#lib/tool-function";

const baselineName = "bare DocumentClient";
const entries = [
  { name: baselineName, entry: "scripts/bench/bare-document-client.ts" },
  ...tools.map((tool) => ({ name: tool.name, entry: tool.entry })),
  ...serviceFunctions.map((fn) => ({ name: fn.name, entry: fn.entry })),
  { name: "pre-token-generation", entry: "functions/auth/pre-token-generation.ts" },
];

const env = {
  PATH: process.env.PATH ?? "",
  AWS_REGION: "eu-west-1",
  ORDERS_TABLE: "bench-orders",
  IDEMPOTENCY_TABLE: "bench-idempotency",
  POWERTOOLS_SERVICE_NAME: "order-tools",
  POWERTOOLS_LOG_LEVEL: "SILENT",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
};

function initMs(bundle: Bundle): number {
  const url = pathToFileURL(bundle.file).href;
  const script = `const t = performance.now(); const m = await import(${JSON.stringify(url)}); const ms = performance.now() - t; if (typeof m.handler !== "function") process.exit(3); process.stdout.write(String(ms));`;
  const result = spawnSync(process.execPath, ["--enable-source-maps", "--input-type=module", "-e", script], { env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${bundle.name}: importing ${bundle.file} failed (${result.status}):\n${result.stderr}`);
  return Number(result.stdout);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Builds every function as the stacks do, then prints size and median cold import time against the bare client. */
export async function benchBundles(options: { runs?: number } = {}): Promise<void> {
  const runs = options.runs ?? 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error("runs must be a whole number of at least 1");
  const outdir = join(repoRoot, "cdk.out", "bench-bundles");
  rmSync(outdir, { recursive: true, force: true });
  const started = performance.now();
  const bundles = bundleEntries(entries, outdir);
  console.log(`bundled ${bundles.length} functions in ${((performance.now() - started) / 1000).toFixed(1)} s (esbuild, as cdk synth does)\n`);

  const rows = bundles.map((bundle) => ({ bundle, ms: median(Array.from({ length: runs }, () => initMs(bundle))) }));
  const baseline = rows.find((r) => r.bundle.name === baselineName)!;

  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(`${"function".padEnd(24)} ${"bundle KB".padStart(10)} ${"init ms".padStart(8)} ${"vs bare".padStart(8)}  budget ${kb(bundleBudgetBytes)} KB`);
  for (const { bundle, ms } of rows) {
    const over = bundle.bytes > bundleBudgetBytes ? "  OVER BUDGET" : "";
    const delta = bundle === baseline.bundle ? "" : `${ms - baseline.ms >= 0 ? "+" : ""}${(ms - baseline.ms).toFixed(1)}`;
    console.log(`${bundle.name.padEnd(24)} ${kb(bundle.bytes).padStart(10)} ${ms.toFixed(1).padStart(8)} ${delta.padStart(8)}${over}`);
  }
  console.log(`\ninit: median of ${runs} fresh node processes each, node ${process.version} on ${process.arch}; Lambda arm64 differs in absolute terms.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runsArg = process.argv.indexOf("--runs");
  await benchBundles(runsArg > 0 ? { runs: Number(process.argv[runsArg + 1]) } : {});
}
