/**
 * `npm run build` (and `prepack`, so `npm pack` always ships a fresh build): the controller as a package —
 * compiled ESM JavaScript and `.d.ts` declarations in `dist/`, one entry per `exports` subpath of package.json.
 *
 * The entries are package.json's `exports`, and nothing else: each subpath's `default` file is the bundle of the
 * source at the same path (`./dist/controller/testing.js` ← `controller/testing.ts`), its `types` file that
 * source's declarations. A new public module is one more line in `controller/index.ts`; a new subpath is one more
 * `exports` entry.
 *
 * - JavaScript: esbuild bundles each entry with code splitting (what entries share is one chunk, so a class is
 *   one class whichever subpath it came from). The service modules the controller validates with (the tool contract
 *   and the core errors) are compiled in; zod, the model SDKs and the AWS SDK stay imports of the application's
 *   own copies (zod is a dependency, the rest optional peers).
 * - Declarations: TypeScript's own declaration emit, then each `#…` subpath import rewritten to the relative file
 *   it names, since the tarball carries no `imports` targets.
 * - Checks, failing the build: nothing bundled from outside the controller's allowed sources or from
 *   node_modules, and no import in `dist/` that a consumer could not resolve.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, sep } from "node:path";
import { build, type Metafile } from "esbuild";
import { repoRoot } from "#local/stack";

const dist = join(repoRoot, "dist");

/** What the bundles may import at run time: Node, the dependencies (zod, unicode-confusables, markdown-it, intl-messageformat) and the optional peers. */
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const externalPackages = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)];

/**
 * Sources the bundles may contain. The controller reaches the service only for validation: the tool contract
 * (its schemas, errors and model-facing tools) and the domain it builds on (core's errors and rules).
 */
const allowedSources = [/^controller\//, /^functions\/contract\//, /^functions\/core\//];

interface PackageJson {
  exports: Record<string, { types: string; default: string }>;
  imports: Record<string, string>;
  peerDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

const pkg = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as PackageJson;

/** `./dist/controller/x.js` → `controller/x.ts`. */
function sourceOf(subpath: string, target: string): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(target);
  const source = match ? `${match[1]}.ts` : undefined;
  if (!source || !existsSync(join(repoRoot, source))) {
    throw new Error(`package.json exports["${subpath}"].default is ${target}: it must be ./dist/<path>.js for a source file <path>.ts.`);
  }
  const types = target.replace(/\.js$/, ".d.ts");
  if (pkg.exports[subpath]?.types !== types)
    throw new Error(`package.json exports["${subpath}"].types must be ${types}, beside its JavaScript.`);
  return source;
}

const entries = Object.entries(pkg.exports).map(([subpath, target]) => sourceOf(subpath, target.default));
const started = performance.now();
await rm(dist, { recursive: true, force: true });

// ——— JavaScript ———
const result = await build({
  absWorkingDir: repoRoot,
  entryPoints: entries,
  outbase: ".",
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
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
      outDir: dist,
      typeRoots: [join(repoRoot, "node_modules", "@types")],
    },
    include: [],
    // The entries, and the ambient declarations the sources lean on (for packages that ship no types).
    files: [...entries.map((entry) => join(repoRoot, entry)), join(repoRoot, "controller", "types", "unicode-confusables.d.ts")],
  }),
);
const tsc = spawnSync(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", config], { cwd: repoRoot, encoding: "utf8" });
await rm(dirname(config), { recursive: true, force: true });
if (tsc.status !== 0) throw new Error(`Declaration emit failed:\n${tsc.stdout}${tsc.stderr}`);

const declarations = (await filesUnder(dist)).filter((file) => file.endsWith(".d.ts"));
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
if (problems.length > 0) throw new Error(`dist/ imports what a consumer cannot resolve:\n  ${problems.join("\n  ")}`);

const jsFiles = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js")).length;
console.log(
  `Built ${entries.length} entries (${jsFiles} JavaScript files, ${declarations.length} declaration files) in dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
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
      const [pattern, mapped] = Object.entries(pkg.imports).find(([key]) => specifier.startsWith(key.replace(/\*$/, ""))) ?? [];
      if (!pattern || !mapped)
        throw new Error(`${relative(repoRoot, file)} imports ${specifier}, which package.json's imports does not map.`);
      const source = mapped.replace("*", specifier.slice(pattern.length - 1)).replace(/^\.\//, "");
      target = relative(dirname(relative(dist, file)), source)
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
    return candidates.some((candidate) => existsSync(candidate)) ? undefined : `${specifier} is not in dist/`;
  }
  if (specifier.startsWith("node:") || builtinModules.includes(specifier)) return undefined;
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] as string);
  if (name in (pkg.dependencies ?? {}) || name in (pkg.peerDependencies ?? {})) return undefined;
  return `${specifier} is neither a dependency nor a peer dependency of the package`;
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) found.push(join(entry.parentPath, entry.name));
  return found;
}
