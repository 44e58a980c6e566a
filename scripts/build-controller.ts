/**
 * `npm run build` (and `npm run package`, which packs what it builds): the controller as the package `order-tools`,
 * in dist/package/ — its package.json, README and CHANGELOG, and compiled ESM JavaScript with `.d.ts`
 * declarations for each subpath and command. What the package is, is controller/package-manifest.ts; this script
 * only makes it.
 *
 * - package.json: controller/package-manifest.ts, with the repository's version and its `dependencies` (the
 *   controller's own), each subpath's `types` and `default` file, each command's file, and the SDKs as optional
 *   peers. No scripts, devDependencies, workspaces or `imports`.
 * - JavaScript: esbuild bundles each subpath's and command's source with code splitting (what entries share is one
 *   chunk, so a class is one class whichever subpath it came from) to the same path in dist/package/
 *   (`controller/testing.ts` → `controller/testing.js`). The service modules the controller validates with (the
 *   tool contract and the core errors) are compiled in; the dependencies and the SDKs stay imports of the
 *   application's own copies.
 * - Declarations: TypeScript's own declaration emit, then each `#…` subpath import rewritten to the relative file
 *   it names, since the package carries no `imports` targets.
 * - Checks, failing the build: nothing bundled from outside the controller's allowed sources or from
 *   node_modules, no import in dist/package/ that a consumer could not resolve, and every optional peer one the
 *   repository tests with (a devDependency).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, sep } from "node:path";
import { build, type Metafile } from "esbuild";
import { controllerPackage } from "#controller/package-manifest";
import { repoRoot } from "#local/stack";

/** The package, as npm packs and publishes it. */
const packageDir = join(repoRoot, "dist", "package");

interface RepositoryManifest {
  name: string;
  version: string;
  imports: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const repository = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as RepositoryManifest;
const peers: Record<string, string> = controllerPackage.optionalPeers;

/** What the bundles may import at run time: Node, the dependencies and the optional peers. */
const externalPackages = [...Object.keys(repository.dependencies), ...Object.keys(peers)];

/**
 * Sources the bundles may contain. The controller reaches the service only for validation: the tool contract
 * (its schemas, errors and model-facing tools) and the domain it builds on (core's errors and rules).
 */
const allowedSources = [/^controller\//, /^functions\/contract\//, /^functions\/core\//];

/** `controller/x.ts` → `./controller/x.js` (or `.d.ts`), its path in the package. */
const builtPath = (source: string, extension: ".js" | ".d.ts") => `./${source.replace(/\.ts$/, extension)}`;

const subpaths = Object.entries(controllerPackage.subpaths) as [string, string][];
const commands = Object.entries(controllerPackage.bin) as [string, string][];
const entries = [...subpaths, ...commands].map(([, source]) => source);
for (const source of entries) {
  if (!/^controller\/.+\.ts$/.test(source) || !existsSync(join(repoRoot, source)))
    throw new Error(
      `controller/package-manifest.ts names ${source}: a subpath or command is built from a source file controller/<path>.ts.`,
    );
}
const untested = Object.keys(peers).filter((peer) => repository.devDependencies[peer] === undefined);
if (untested.length > 0)
  throw new Error(`Optional peers the repository does not test with (add each to devDependencies): ${untested.join(", ")}.`);

const started = performance.now();
await rm(join(repoRoot, "dist"), { recursive: true, force: true });

// ——— JavaScript ———
const result = await build({
  absWorkingDir: repoRoot,
  entryPoints: entries,
  outbase: ".",
  outdir: packageDir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  chunkNames: "controller/chunks/[name]-[hash]",
  external: externalPackages.flatMap((name) => [name, `${name}/*`]),
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});
checkBundleInputs(result.metafile);

// ——— Declarations ———
const config = join(await mkdtemp(join(tmpdir(), "order-tools-build-")), "tsconfig.json");
await writeFile(
  config,
  JSON.stringify({
    extends: join(repoRoot, "tsconfig.json"),
    compilerOptions: {
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      rootDir: repoRoot,
      outDir: packageDir,
      typeRoots: [join(repoRoot, "node_modules", "@types")],
    },
    include: [],
    // The subpaths (a command has no declarations), and the ambient declarations the sources lean on (for
    // packages that ship no types).
    files: [...subpaths.map(([, source]) => join(repoRoot, source)), join(repoRoot, "controller", "types", "unicode-confusables.d.ts")],
  }),
);
const tsc = spawnSync(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", config], { cwd: repoRoot, encoding: "utf8" });
await rm(dirname(config), { recursive: true, force: true });
if (tsc.status !== 0) throw new Error(`Declaration emit failed:\n${tsc.stdout}${tsc.stderr}`);

const declarations = (await filesUnder(packageDir)).filter((file) => file.endsWith(".d.ts"));
for (const file of declarations) await writeFile(file, rewriteSpecifiers(file, await readFile(file, "utf8")));

// ——— What a consumer will resolve ———
// The bundles' imports as esbuild wrote them; the declarations' as tsc did, outside their doc comments.
const problems: string[] = [];
const imported = Object.entries(result.metafile.outputs).flatMap(([file, output]) =>
  output.imports.filter((i) => i.external).map((i) => ({ file: join(repoRoot, file), specifier: i.path })),
);
for (const file of declarations) {
  const code = (await readFile(file, "utf8")).replace(/\/\*[\s\S]*?\*\//g, "");
  for (const specifier of specifiersIn(code)) imported.push({ file, specifier });
}
for (const { file, specifier } of imported) {
  const problem = unresolvable(file, specifier);
  if (problem) problems.push(`${relative(repoRoot, file)}: ${problem}`);
}
if (problems.length > 0) throw new Error(`dist/package/ imports what a consumer cannot resolve:\n  ${problems.join("\n  ")}`);

// ——— package.json, README, CHANGELOG ———
const { subpaths: _subpaths, bin: _bin, optionalPeers: _peers, ...described } = controllerPackage;
const manifest = {
  name: repository.name,
  version: repository.version,
  ...described,
  type: "module",
  exports: Object.fromEntries(
    subpaths.map(([subpath, source]) => [subpath, { types: builtPath(source, ".d.ts"), default: builtPath(source, ".js") }]),
  ),
  // npm's own form for a bin's path: no leading "./" (npm publish rewrites one, and says so).
  bin: Object.fromEntries(commands.map(([name, source]) => [name, builtPath(source, ".js").slice(2)])),
  dependencies: repository.dependencies,
  peerDependencies: peers,
  peerDependenciesMeta: Object.fromEntries(Object.keys(peers).map((peer) => [peer, { optional: true }])),
};
await writeFile(join(packageDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
for (const file of ["README.md", "CHANGELOG.md"]) await copyFile(join(repoRoot, "controller", file), join(packageDir, file));

const jsFiles = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js")).length;
console.log(
  `Built ${manifest.name}@${manifest.version} in dist/package/: ${subpaths.length} subpaths and ${commands.length} command${commands.length === 1 ? "" : "s"} (${jsFiles} JavaScript files, ${declarations.length} declaration files) in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);

function checkBundleInputs(metafile: Metafile): void {
  const foreign = Object.keys(metafile.inputs).filter((input) => !allowedSources.some((allowed) => allowed.test(input)));
  if (foreign.length > 0) {
    throw new Error(
      `The controller's bundles took in files it must not carry (the controller never uses functions/store, functions/deploy, functions/tools or lib/, and packages stay imports):\n  ${foreign.join("\n  ")}`,
    );
  }
}

/** `#contract/tools` → `../../functions/contract/tools.js` (its declarations), by package.json's `imports`; `./x.ts` → `./x.js`. */
function rewriteSpecifiers(file: string, text: string): string {
  return text.replace(/(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)"([^"]+)"/g, (whole, lead: string, specifier: string) => {
    let target: string | undefined;
    if (specifier.startsWith("#")) {
      const [pattern, mapped] = Object.entries(repository.imports).find(([key]) => specifier.startsWith(key.replace(/\*$/, ""))) ?? [];
      if (!pattern || !mapped)
        throw new Error(`${relative(repoRoot, file)} imports ${specifier}, which package.json's imports does not map.`);
      const source = mapped.replace("*", specifier.slice(pattern.length - 1)).replace(/^\.\//, "");
      target = relative(dirname(relative(packageDir, file)), source)
        .split(sep)
        .join(posix.sep);
      if (!target.startsWith(".")) target = `./${target}`;
    } else if (specifier.startsWith(".") && specifier.endsWith(".ts")) {
      target = specifier;
    }
    return target === undefined ? whole : `${lead}"${target.replace(/\.ts$/, ".js")}"`;
  });
}

function specifiersIn(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["']([^"'\n]+)["']/g)].map((match) => match[1] as string);
}

function unresolvable(file: string, specifier: string): string | undefined {
  if (specifier.startsWith(".")) {
    const path = join(dirname(file), specifier);
    const candidates = file.endsWith(".d.ts") ? [path.replace(/\.js$/, ".d.ts")] : [path];
    return candidates.some((candidate) => existsSync(candidate)) ? undefined : `${specifier} is not in dist/package/`;
  }
  if (specifier.startsWith("node:") || builtinModules.includes(specifier)) return undefined;
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] as string);
  if (name in repository.dependencies || name in peers) return undefined;
  return `${specifier} is neither a dependency nor a peer dependency of the package`;
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) found.push(join(entry.parentPath, entry.name));
  return found;
}
