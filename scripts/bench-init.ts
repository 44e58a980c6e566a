/**
 * Where a function's cold module init goes (issue 12's cold-start analysis), three ways, all against the bare
 * DocumentClient bundle built and measured the same way:
 *
 * 1. Layers. Probe bundles (scripts/bench/probes/) that add one layer of a tool function at a time to the bare
 *    client: the zod library alone, the read or the change schemas, the whole tool registry, Powertools' Logger,
 *    Metrics and idempotency, and tools/handler.ts (all a tool loads but its own use case). Timed like the
 *    functions (fresh node, median of rounds): each layer's cost, measured rather than inferred.
 * 2. Composition. Each function's bundle bytes by package (esbuild's metafile, the stacks' build options):
 *    V8 parses and compiles all of it at init.
 * 3. Profile. Each function imported under V8's sampling profiler (scripts/bench/cold-start.ts), samples
 *    charged to the package whose code was running (through the source map). Sampling slows the import, so
 *    read the columns as shares; and it charges a library's time to the library, not to the module whose
 *    top-level code called it: zod's column is schema construction wherever the schemas are declared.
 */
import "#scripts/bench/setup";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "#lib/tool-function";
import { bundleEntries } from "#lib/bundles";
import { baselineName, functionEntries } from "#scripts/bench-bundles";
import { attributeProfile, composition, initTimes, profileImport, runtimeGroup, sdkGroup } from "#scripts/bench/cold-start";
import { median, table, times } from "#scripts/bench/stats";

export interface InitProfileOptions {
  /** Rounds of timed imports, and profiled imports per function (default 9). */
  runs?: number;
  log?: (line: string) => void;
}

const probes = [
  { name: "+ zod library", entry: "scripts/bench/probes/zod-library.ts" },
  { name: "+ read schemas", entry: "scripts/bench/probes/read-schemas.ts" },
  { name: "+ change schemas", entry: "scripts/bench/probes/change-schemas.ts" },
  { name: "+ tool registry", entry: "scripts/bench/probes/registry.ts" },
  { name: "+ Powertools Logger", entry: "scripts/bench/probes/powertools-logger.ts" },
  { name: "+ Powertools Metrics", entry: "scripts/bench/probes/powertools-metrics.ts" },
  { name: "+ Powertools idempotency", entry: "scripts/bench/probes/powertools-idempotency.ts" },
  { name: "+ tools/handler.ts", entry: "scripts/bench/probes/tool-handler.ts" },
];

/** The columns of the composition and profile tables, in order; anything else is summed into "other". */
const shownGroups = ["zod", "Powertools", "order-tools code"];

export async function benchInitProfile(options: InitProfileOptions = {}): Promise<void> {
  const runs = options.runs ?? 9;
  const log = options.log ?? console.log;
  const outdir = join(repoRoot, "cdk.out", "bench-init");
  rmSync(outdir, { recursive: true, force: true });
  // The functions that have a DynamoDB client, against which the bare client is the right baseline.
  const functions = functionEntries.filter((f) => !["catalog", "openapi", "pre-token-generation"].includes(f.name));
  const bundles = bundleEntries([...functions, ...probes], outdir);
  const bare = bundles.find((b) => b.name === baselineName);
  if (!bare) throw new Error("no bare DocumentClient bundle");

  // ——— 1. layers ———
  const layerBundles = [bare, ...probes.map((p) => bundles.find((b) => b.name === p.name)!)];
  const layerMs = initTimes(layerBundles.map((b) => b.file), runs);
  const bareMs = layerMs[0] as number;
  table(
    log,
    ["layer on the bare client", "bundle KB", "init ms", "+ms", "ratio"],
    layerBundles.map((b, i) => [b.name, (b.bytes / 1024).toFixed(1), (layerMs[i] as number).toFixed(1), i === 0 ? "" : `${((layerMs[i] as number) - bareMs).toFixed(1)}`, i === 0 ? "" : times(layerMs[i] as number, bareMs)]),
  );
  log(`median of ${runs} rounds; each probe is the bare client plus that layer alone, so the "+ms" of the layers overlap (the registry includes both schema sets and zod).\n`);

  // ——— 2. composition ———
  const functionBundles = functions.filter((f) => f.name !== baselineName).map((f) => bundles.find((b) => b.name === f.name)!);
  const kb = (bytes: number | undefined) => ((bytes ?? 0) / 1024).toFixed(1);
  const compositions = await Promise.all(functions.filter((f) => f.name !== baselineName).map((f) => composition(f.entry)));
  table(
    log,
    ["bundle KB by package", "total", ...shownGroups, "other"],
    functionBundles.map((b, i) => {
      const groups = compositions[i] as Map<string, number>;
      const other = [...groups.entries()].filter(([g]) => !shownGroups.includes(g)).reduce((sum, [, v]) => sum + v, 0);
      return [b.name, kb([...groups.values()].reduce((a, v) => a + v, 0)), ...shownGroups.map((g) => kb(groups.get(g))), kb(other)];
    }),
  );
  log(`"other": ${[...new Set(compositions.flatMap((c) => [...c.keys()]).filter((g) => !shownGroups.includes(g)))].join(", ")} (minified, before the banner).\n`);

  // ——— 3. profile ———
  const profiled = [bare, ...functionBundles];
  const rows = profiled.map((bundle) => {
    const samples = Array.from({ length: runs }, () => profileImport(bundle.file));
    const perRun = samples.map((s) => attributeProfile(s.profile, bundle.file));
    const groups = [...new Set(perRun.flatMap((m) => [...m.keys()]))];
    return { bundle, ms: median(samples.map((s) => s.ms)), groups: new Map(groups.map((g) => [g, median(perRun.map((m) => m.get(g) ?? 0))])) };
  });
  const columns = [sdkGroup, runtimeGroup, "GC", ...shownGroups];
  table(
    log,
    ["profiled init, ms", "init", ...columns, "other"],
    rows.map((r) => {
      const other = [...r.groups.entries()].filter(([g]) => !columns.includes(g)).reduce((sum, [, v]) => sum + v, 0);
      return [r.bundle.name, r.ms.toFixed(1), ...columns.map((c) => (r.groups.get(c) ?? 0).toFixed(1)), other.toFixed(1)];
    }),
  );
  log(
    `\nmedian of ${runs} profiled imports per function (sampling every 50 µs slows them); each column's median on its own, so a row's columns need not add up to its init. ` +
      `"${runtimeGroup}": Node and V8 with no bundle or SDK frame on the stack (module resolution and reading, parsing and compiling the bundle and the SDK, source maps); "order-tools code" includes every module's top-level statements.`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runsArg = process.argv.indexOf("--runs");
  await benchInitProfile(runsArg > 0 ? { runs: Number(process.argv[runsArg + 1]) } : {});
}
