/**
 * Bundle size and cold module-init time of every function, against a bare DocumentClient bundle built the
 * same way. `tsx bench/sections/bundle-sizes.ts [--runs N]`, or `benchBundles()` from `npm run bench`.
 *
 * Init time is the time to `import()` the built bundle in a fresh `node` with a deployed function's
 * environment (NODE_OPTIONS=--enable-source-maps, Powertools settings), median of N rounds (default 9), each
 * round importing every bundle once in turn. It excludes Node's own start-up, which every function pays alike.
 * `@aws-sdk/*` stays external in the bundles, as in Lambda, where the runtime provides it; here it resolves to
 * the project's node_modules, because the bundles are written under cdk.out/ in the repository.
 * The target is init ≤ 1.3× the bare client's; `--only init-profile` shows where the time goes.
 */
import "#bench/support/setup";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { serviceFunctions } from "#deploy/service-functions";
import { deployedTools as tools } from "#deploy/tool-functions";
import { bundleBudgetBytes, bundleEntries } from "#lib/bundles";
import { repoRoot } from "#lib/tool-function";
import { initRounds, pairedDifference, pairedRatio } from "#bench/support/cold-start";
import { median, percentile, table } from "#bench/support/stats";

export const baselineName = "bare DocumentClient";
/** The target for a function's cold init against the bare client's. */
export const initTarget = 1.3;

/** The MCP function as it would be on the official server SDK: measured beside the one deployed, not deployed. */
export const mcpOnSdkName = "mcp on the MCP server SDK (not deployed)";

export const functionEntries = [
  { name: baselineName, entry: "bench/support/bare-document-client.ts" },
  ...tools.map((tool) => ({ name: tool.name, entry: tool.entry })),
  ...serviceFunctions.map((fn) => ({ name: fn.name, entry: fn.entry })),
  { name: "pre-token-generation", entry: "functions/service/pre-token-generation.ts" },
  { name: mcpOnSdkName, entry: "bench/probes/mcp-sdk.ts" },
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

  const rounds = initRounds(
    bundles.map((b) => b.file),
    runs,
  ).map((byMode) => byMode[0] as number[]);
  const bareIndex = bundles.findIndex((b) => b.name === baselineName);
  const bare = rounds[bareIndex] as number[];
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  table(
    log,
    ["function", "bundle KB", "init ms", "p25–p75", "vs bare", "ratio", `≤ ${initTarget}×`, `≤ ${kb(bundleBudgetBytes)} KB`],
    bundles.map((bundle, i) => {
      const own = rounds[i] as number[];
      const isBare = i === bareIndex;
      const ratio = pairedRatio(own, bare);
      const difference = pairedDifference(own, bare);
      return [
        bundle.name,
        kb(bundle.bytes),
        median(own).toFixed(1),
        `${percentile(own, 25).toFixed(0)}–${percentile(own, 75).toFixed(0)}`,
        isBare ? "" : `${difference >= 0 ? "+" : ""}${difference.toFixed(1)}`,
        isBare ? "" : `${ratio.toFixed(2)}×`,
        isBare ? "" : ratio <= initTarget ? "yes" : "no",
        bundle.bytes > bundleBudgetBytes ? "OVER" : "yes",
      ];
    }),
  );
  log(
    `\ninit: median of ${runs} rounds of fresh node processes (every bundle once per round); "vs bare" and "ratio": the median over rounds of the function against the bare client of the same round. node ${process.version} on ${process.arch}; Lambda (node 22, arm64) differs in absolute terms.`,
  );
  log("catalog, openapi, oauth-metadata and pre-token-generation load no DynamoDB client, so they start faster than the bare client.");
  log(
    `"${mcpOnSdkName}": the MCP function's registry, invoker and token verifier under @modelcontextprotocol/server's createMcpHandler instead of functions/service/mcp.ts, for the choice between them (not deployed).`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runsArg = process.argv.indexOf("--runs");
  await benchBundles(runsArg > 0 ? { runs: Number(process.argv[runsArg + 1]) } : {});
}
