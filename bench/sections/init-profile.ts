/**
 * Where a function's cold module init goes (the cold-start analysis in docs/benchmarks.md), three ways, all against the bare
 * DocumentClient bundle built and measured the same way:
 *
 * 1. Layers. Probe bundles (bench/probes/) that add one layer of a tool function at a time to the bare
 *    client: zod's classic library alone, one tool's input schema written with zod's classic API and with
 *    zod/mini, cancel_order's input as the catalog builds it (zod/mini), the read or the change schemas, the whole tool registry, Powertools' Logger, Metrics and
 *    idempotency, what handler.ts loads for a read tool without the changing tools' idempotency, and
^ *    runtime/handler.ts (all a tool loads but its own use case).
 *    Timed like the functions (fresh node, median of rounds): each layer's cost, measured rather than inferred.
 *    The Powertools Tracer is one of the layers: the stacks leave it out unless `-c tracer=powertools`.
 * 2. The bundle itself: its bytes by package (esbuild's metafile, the stacks' build options), its init without
 *    NODE_OPTIONS=--enable-source-maps, and V8's parse and compile of its text alone.
 * 3. Profile. Each function imported under V8's sampling profiler (bench/support/cold-start.ts), samples
 *    charged to the package whose code was running (through the source map); each group's share of the samples
 *    times the unprofiled init gives its milliseconds. Sampling charges a library's time to the library, not to
 *    the module whose top-level code called it: zod's share is schema construction wherever it is declared.
 * 4. Tracing. Each function as deployed (X-Ray active tracing alone, no tracing code in the bundle) against the same
 *    function built with the Powertools Tracer (`-c tracer=powertools`), both paired with the bare client by
 *    round: what the Tracer costs at cold start, against the 1.3× budget and the 250 KB bundle budget.
 */
import "#bench/support/setup";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "#lib/tool-function";
import { bundleEntries } from "#lib/bundles";
import { baselineName, functionEntries, initTarget, mcpOnSdkName } from "#bench/sections/bundle-sizes";
import { bundleBudgetBytes } from "#lib/bundles";
import {
  attributeProfile,
  composition,
  initRounds,
  pairedDifference,
  pairedRatio,
  profileImport,
  runtimeGroup,
  sdkGroup,
} from "#bench/support/cold-start";
import { median, table } from "#bench/support/stats";

export interface InitProfileOptions {
  /** Rounds of timed imports, and profiled imports per function (default 9). */
  runs?: number;
  log?: (line: string) => void;
}

const probes = [
  { name: "+ zod classic library", entry: "bench/probes/zod-library.ts" },
  { name: "+ one input schema, zod classic", entry: "bench/probes/zod-classic-schema.ts" },
  { name: "+ one input schema, zod/mini", entry: "bench/probes/zod-mini-schema.ts" },
  { name: "+ cancel_order's input (catalog)", entry: "bench/probes/catalog-fields.ts" },
  { name: "+ read schemas", entry: "bench/probes/read-schemas.ts" },
  { name: "+ change schemas", entry: "bench/probes/change-schemas.ts" },
  { name: "+ tool registry", entry: "bench/probes/registry.ts" },
  { name: "+ Powertools Logger", entry: "bench/probes/powertools-logger.ts" },
  { name: "+ Powertools Metrics", entry: "bench/probes/powertools-metrics.ts" },
  { name: "+ Powertools idempotency", entry: "bench/probes/powertools-idempotency.ts" },
  { name: "+ Powertools Tracer", entry: "bench/probes/powertools-tracer.ts" },
  { name: "+ a read tool's handler.ts", entry: "bench/probes/read-tool-split.ts" },
  { name: "+ runtime/handler.ts", entry: "bench/probes/tool-handler.ts" },
];

/** The columns of the composition and profile tables, in order; anything else is summed into "other". */
const shownGroups = ["zod", "Powertools", "order-tools code"];

export async function benchInitProfile(options: InitProfileOptions = {}): Promise<void> {
  const runs = options.runs ?? 9;
  const log = options.log ?? console.log;
  const outdir = join(repoRoot, "cdk.out", "bench-init");
  rmSync(outdir, { recursive: true, force: true });
  // The functions that have a DynamoDB client, against which the bare client is the right baseline.
  const functions = functionEntries.filter((f) => !["catalog", "openapi", "oauth-metadata", "pre-token-generation"].includes(f.name));
  const bundles = bundleEntries([...functions, ...probes], outdir);
  const bare = bundles.find((b) => b.name === baselineName);
  if (!bare) throw new Error("no bare DocumentClient bundle");

  // ——— 1. layers ———
  const layerBundles = [bare, ...probes.map((p) => bundles.find((b) => b.name === p.name)!)];
  const layerRounds = initRounds(
    layerBundles.map((b) => b.file),
    runs,
  ).map((byMode) => byMode[0] as number[]);
  const bareRounds = layerRounds[0] as number[];
  table(
    log,
    ["layer on the bare client", "bundle KB", "init ms", "+ms", "ratio"],
    layerBundles.map((b, i) => {
      const own = layerRounds[i] as number[];
      return [
        b.name,
        (b.bytes / 1024).toFixed(1),
        median(own).toFixed(1),
        i === 0 ? "" : pairedDifference(own, bareRounds).toFixed(1),
        i === 0 ? "" : `${pairedRatio(own, bareRounds).toFixed(2)}×`,
      ];
    }),
  );
  log(
    `median of ${runs} rounds ("+ms" and "ratio" paired with the bare client's import in the same round); each probe is the bare client plus that layer alone, so the layers overlap (the registry includes both schema sets, and they include zod).\n`,
  );

  // ——— 2. composition, and the bundle's own costs ———
  const functionBundles = functions.filter((f) => f.name !== baselineName).map((f) => bundles.find((b) => b.name === f.name)!);
  const measured = [bare, ...functionBundles];
  const kb = (bytes: number | undefined) => ((bytes ?? 0) / 1024).toFixed(1);
  const compositions = await Promise.all(measured.map((b) => composition(functions.find((f) => f.name === b.name)!.entry)));
  const modes = ["deployed", "no source maps", "compile only"] as const;
  const measuredRounds = initRounds(
    measured.map((b) => b.file),
    runs,
    modes,
  );
  const byMode = measuredRounds.map((perMode) => perMode.map((rounds) => median(rounds)));
  table(
    log,
    ["bundle and its costs", "KB", ...shownGroups.map((g) => `${g} KB`), "other KB", "init ms", "source maps +ms", "compile only ms"],
    measured.map((b, i) => {
      const groups = compositions[i] as Map<string, number>;
      const other = [...groups.entries()].filter(([g]) => !shownGroups.includes(g)).reduce((sum, [, v]) => sum + v, 0);
      const [deployed, withoutMaps, compileOnly] = measuredRounds[i] as number[][];
      return [
        b.name,
        kb(b.bytes),
        ...shownGroups.map((g) => kb(groups.get(g))),
        kb(other),
        median(deployed!).toFixed(1),
        pairedDifference(deployed!, withoutMaps!).toFixed(1),
        median(compileOnly!).toFixed(1),
      ];
    }),
  );
  log(
    `KB by package from esbuild's metafile (minified; "other": ${[...new Set(compositions.flatMap((c) => [...c.keys()]).filter((g) => !shownGroups.includes(g)))].join(", ") || "none"}). ` +
      `"source maps +ms": the import as deployed (NODE_OPTIONS=--enable-source-maps, as the stacks set it) against the same import without, paired by round. "compile only": V8 parsing and compiling the bundle's text as a module, nothing run. Medians of ${runs} rounds.\n`,
  );

  // ——— 3. profile ———
  const rows = measured.map((bundle, i) => {
    const samples = Array.from({ length: runs }, () => profileImport(bundle.file));
    const perRun = samples.map((s) => attributeProfile(s.profile, bundle.file));
    // Shares of each profiled import, so the sampler's own slowing cancels out; applied to the unprofiled init.
    const shares = perRun.map((m) => {
      const total = [...m.values()].reduce((a, v) => a + v, 0);
      return new Map([...m.entries()].map(([g, v]) => [g, total > 0 ? v / total : 0]));
    });
    const groups = [...new Set(perRun.flatMap((m) => [...m.keys()]))];
    const init = (byMode[i] as number[])[0] as number;
    return { bundle, init, share: new Map(groups.map((g) => [g, median(shares.map((m) => m.get(g) ?? 0))])) };
  });
  const columns = [sdkGroup, runtimeGroup, "GC", ...shownGroups];
  const bareRow = rows[0]!;
  table(
    log,
    ["init ≈ ms by profile share", "init", ...columns, "other"],
    rows.map((r) => {
      const other = [...r.share.entries()].filter(([g]) => !columns.includes(g)).reduce((sum, [, v]) => sum + v, 0);
      return [
        r.bundle.name,
        r.init.toFixed(1),
        ...columns.map((c) => ((r.share.get(c) ?? 0) * r.init).toFixed(1)),
        (other * r.init).toFixed(1),
      ];
    }),
  );
  log("");
  table(
    log,
    ["over the bare client, ≈ ms", "+init", ...columns],
    rows
      .slice(1)
      .map((r) => [
        r.bundle.name,
        (r.init - bareRow.init).toFixed(1),
        ...columns.map((c) => ((r.share.get(c) ?? 0) * r.init - (bareRow.share.get(c) ?? 0) * bareRow.init).toFixed(1)),
      ]),
  );
  log(
    `\nEach function imported ${runs} times under V8's sampling profiler (50 µs); a group's share of the samples (median over the imports) times the function's unprofiled init. ` +
      `"${runtimeGroup}": Node and V8 with no bundle or SDK frame on the stack (resolving and reading modules, parsing and compiling the bundle and the SDK, reading source maps); ` +
      `"order-tools code": functions/ and every module's top-level statements; zod's share is schema construction wherever the schemas are declared.`,
  );

  // ——— 4. tracing ———
  const deployedBundles = functionBundles.filter((b) => b.name !== mcpOnSdkName);
  const tracedBundles = bundleEntries(
    functions
      .filter((f) => f.name !== baselineName && f.name !== mcpOnSdkName)
      .map((f) => ({ ...f, name: `${f.name} + Powertools Tracer`, tracer: "powertools" as const })),
    join(outdir, "traced"),
  );
  const tracingRounds = initRounds([bare.file, ...deployedBundles.map((b) => b.file), ...tracedBundles.map((b) => b.file)], runs).map(
    (byMode) => byMode[0] as number[],
  );
  const [bareTracing, ...others] = tracingRounds as [number[], ...number[][]];
  const deployedRounds = others.slice(0, deployedBundles.length);
  const tracedRounds = others.slice(deployedBundles.length);
  log("");
  table(
    log,
    [
      "function",
      "KB",
      "+ Tracer KB",
      "ratio",
      "+ Tracer ratio",
      "Tracer +ms",
      `≤ ${initTarget}×`,
      `≤ ${(bundleBudgetBytes / 1024).toFixed(0)} KB`,
    ],
    deployedBundles.map((b, i) => {
      const deployed = deployedRounds[i] as number[];
      const traced = tracedRounds[i] as number[];
      const tracedBundle = tracedBundles[i] as (typeof tracedBundles)[number];
      const ratio = pairedRatio(traced, bareTracing);
      return [
        b.name,
        kb(b.bytes),
        kb(tracedBundle.bytes),
        `${pairedRatio(deployed, bareTracing).toFixed(2)}×`,
        `${ratio.toFixed(2)}×`,
        pairedDifference(traced, deployed).toFixed(1),
        ratio <= initTarget ? "yes" : "no",
        tracedBundle.bytes <= bundleBudgetBytes ? "yes" : "OVER",
      ];
    }),
  );
  log(
    `\nEach function as deployed (X-Ray active tracing alone: Lambda's segments, no tracing code) and built with -c tracer=powertools (the Powertools Tracer and the X-Ray SDK it brings), ${runs} rounds; ratios paired with the bare client's import in the same round, "Tracer +ms" the Tracer build against the deployed one. The last two columns judge the Tracer build.`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runsArg = process.argv.indexOf("--runs");
  await benchInitProfile(runsArg > 0 ? { runs: Number(process.argv[runsArg + 1]) } : {});
}
