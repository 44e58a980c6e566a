/**
 * Measuring a function's cold module init: import its bundle in a fresh `node`, as Lambda's runtime does at
 * init, with the environment a deployed function has (Powertools reads it at module scope). Shared by the
 * bundles section (how long) and the init-profile section (where the time goes).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { bundlingFor, repoRoot } from "#lib/tool-function";
import { median } from "#bench/support/stats";

/** The environment of a deployed function, minus AWS. */
export const functionEnv = {
  PATH: process.env.PATH ?? "",
  AWS_REGION: "eu-west-1",
  ORDERS_TABLE: "bench-orders",
  IDEMPOTENCY_TABLE: "bench-idempotency",
  POWERTOOLS_SERVICE_NAME: "order-tools",
  POWERTOOLS_LOG_LEVEL: "INFO",
  NODE_OPTIONS: "--enable-source-maps",
};

/** How a cold import is measured: as deployed, without source maps, or the bundle's parse and compile alone. */
export type InitMode = "deployed" | "no source maps" | "compile only";

/**
 * Milliseconds to `import()` the bundle in a fresh node (Node's own start-up, the same for all, excluded), or
 * in "compile only" mode to parse and compile the bundle's text as a module without linking or running it
 * (vm.SourceTextModule: what V8 does with the bundle itself before any of its code runs).
 */
export function initMs(file: string, mode: InitMode = "deployed"): number {
  const url = pathToFileURL(file).href;
  const script =
    mode === "compile only"
      ? `import { readFileSync } from "node:fs"; import vm from "node:vm"; const code = readFileSync(${JSON.stringify(file)}, "utf8"); const t = performance.now(); new vm.SourceTextModule(code, { identifier: ${JSON.stringify(url)} }); process.stdout.write(String(performance.now() - t));`
      : `const t = performance.now(); const m = await import(${JSON.stringify(url)}); const ms = performance.now() - t; if (typeof m.handler !== "function") process.exit(3); process.stdout.write(String(ms));`;
  const env = mode === "no source maps" ? { ...functionEnv, NODE_OPTIONS: "" } : functionEnv;
  const flags = mode === "compile only" ? ["--experimental-vm-modules", "--no-warnings"] : [];
  const result = spawnSync(process.execPath, [...flags, "--input-type=module", "-e", script], { env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`importing ${file} (${mode}) failed (${result.status}):\n${result.stderr}`);
  return Number(result.stdout);
}

/**
 * Cold imports of every file (in every mode) over `runs` rounds: `[file][mode][round]` in ms. Each round
 * imports every file once, in turn, so a change in the machine's load falls on all of them alike; and figures
 * compared within a round (a function against the bare client) can be paired, which cancels most of it.
 */
export function initRounds(files: readonly string[], runs: number, modes: readonly InitMode[] = ["deployed"]): number[][][] {
  const times = files.map(() => modes.map(() => [] as number[]));
  for (let round = 0; round < runs; round++) {
    for (const [i, file] of files.entries()) for (const [m, mode] of modes.entries()) times[i]![m]!.push(initMs(file, mode));
  }
  return times;
}

/** The median over rounds of `a[round] − b[round]` (or of the ratio). */
export const pairedDifference = (a: readonly number[], b: readonly number[]) => median(a.map((v, i) => v - (b[i] as number)));
export const pairedRatio = (a: readonly number[], b: readonly number[]) => median(a.map((v, i) => v / (b[i] as number)));

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** One import under V8's sampling profiler (node:inspector, 50 µs), started just before it and stopped just after. */
export function profileImport(file: string): { ms: number; profile: CpuProfile } {
  const url = pathToFileURL(file).href;
  const script = `
    import { Session } from "node:inspector/promises";
    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 50 });
    await session.post("Profiler.start");
    const started = performance.now();
    const m = await import(${JSON.stringify(url)});
    const ms = performance.now() - started;
    const { profile } = await session.post("Profiler.stop");
    if (typeof m.handler !== "function") process.exit(3);
    process.stdout.write(JSON.stringify({ ms, profile }));`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    env: functionEnv,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`profiling ${file} failed (${result.status}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as { ms: number; profile: CpuProfile };
}

/** What a bundled file is, for a breakdown: its npm package, or order-tools' own code. */
export function groupOfSource(source: string): string {
  const modules = source.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const [scope, name] = source.slice(modules + "node_modules/".length).split("/");
    if (scope === "@aws-lambda-powertools") return "Powertools";
    return scope?.startsWith("@") ? `${scope}/${name}` : (scope as string);
  }
  const path = relative(repoRoot, source.replace(/^(\.\.\/)+/, `${repoRoot}/`));
  return path.startsWith("functions/") ? "order-tools code" : path;
}

export const sdkGroup = "AWS SDK (external)";
export const runtimeGroup = "Node/V8: load, parse, compile";

/**
 * Milliseconds of samples per group in one profile. A sample is charged to the innermost frame of the bundle's
 * own code, grouped by the source it maps to; the bundle's top-level function (every module's top-level
 * statements, concatenated by esbuild) counts as order-tools code. Samples with no bundle frame are the AWS
 * SDK's (a frame of it on the stack), GC, or Node and V8 themselves: resolving, reading, parsing and compiling
 * modules, the bundle's and the SDK's alike.
 */
export function attributeProfile(profile: CpuProfile, bundleFile: string): Map<string, number> {
  const bundleUrl = pathToFileURL(bundleFile).href;
  const map = new SourceMap(JSON.parse(readFileSync(`${bundleFile}.map`, "utf8")));
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const cache = new Map<number, string>();
  const classify = (id: number): string => {
    const known = cache.get(id);
    if (known) return known;
    let group: string | undefined;
    let sdk = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      if (frame.url === bundleUrl) {
        const topLevel = frame.functionName === "" && frame.lineNumber <= 1;
        const source = topLevel
          ? undefined
          : (map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string }).originalSource;
        group = source ? groupOfSource(source) : "order-tools code";
        break;
      }
      if (/node_modules\/(@aws-sdk|@smithy|@aws-crypto|@aws\/)/.test(frame.url)) sdk = true;
    }
    const leaf = byId.get(id)?.callFrame.functionName ?? "";
    group ??= sdk ? sdkGroup : leaf === "(garbage collector)" ? "GC" : leaf === "(idle)" ? "idle" : runtimeGroup;
    cache.set(id, group);
    return group;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    // A sample lasts until the next one.
    const us = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    const group = classify(id);
    totals.set(group, (totals.get(group) ?? 0) + us / 1000);
  });
  totals.delete("idle");
  return totals;
}

/** Bytes of a bundle by group (package or order-tools code), from esbuild's metafile of a build with the stacks' options. */
export async function composition(entry: string): Promise<Map<string, number>> {
  // As deployed by default: without the Powertools Tracer, which the define drops.
  const bundling = bundlingFor("lambda");
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: repoRoot,
    bundle: true,
    platform: "node",
    format: "esm",
    target: bundling.target ?? "node22",
    mainFields: bundling.mainFields ?? ["module", "main"],
    minify: bundling.minify ?? true,
    external: bundling.externalModules ?? ["@aws-sdk/*"],
    banner: { js: bundling.banner ?? "" },
    define: bundling.define ?? {},
    metafile: true,
    write: false,
    logLevel: "error",
  });
  const output = Object.values(result.metafile.outputs)[0];
  const groups = new Map<string, number>();
  for (const [path, input] of Object.entries(output?.inputs ?? {})) {
    const group = groupOfSource(path.startsWith("node_modules/") || path.includes("/node_modules/") ? path : `${repoRoot}/${path}`);
    groups.set(group, (groups.get(group) ?? 0) + input.bytesInOutput);
  }
  return groups;
}
