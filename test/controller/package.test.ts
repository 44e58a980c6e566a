import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controllerPackage } from "#controller/package-manifest";
import { repoRoot } from "#local/stack";

/**
 * The controller as an application gets it: the guide's `npm run package` (which builds dist/package/ from nothing
 * and packs it), the tarball installed into an empty project as the package's own README says (`npm install
 * order-tools …`, the tarball standing in for the registry), install scripts on, then used there with plain Node
 * and no TypeScript loader, its command run with npx. A second project holds every optional SDK, for the README's
 * and the guide's examples type-checked against the shipped declarations; it installs offline: its lockfile takes
 * every version from this repository's (already in npm's cache after `npm ci`), so that install needs no registry
 * lookups.
 */
interface PackedPackage {
  name: string;
  version: string;
  description?: string;
  license?: string;
  repository?: { type: string; url: string; directory?: string };
  type?: string;
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bundleDependencies?: string[] | boolean;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  exports: Record<string, { types: string; default: string }>;
  engines?: Record<string, string>;
}

interface LockEntry {
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/** The SDKs the application installs beside the package (every optional peer, so all declarations can be read), and Node's types. */
const alongside = [
  "@anthropic-ai/sdk",
  "openai",
  "@aws-sdk/client-bedrock-runtime",
  "@aws-sdk/client-dynamodb",
  "@aws-sdk/lib-dynamodb",
  "ai",
  "@openai/agents",
  "@types/node",
];

let dir: string;
let app: string;
/** The project the guide's install command made, and what npm said. */
let guideApp: string;
let guideInstall: { command: string; status: number | null; output: string };
/** The tarball: its name, the paths it holds (without npm's `package/`), and its integrity as a lockfile writes it. */
let packed: { filename: string; files: string[]; integrity: string };
let manifest: PackedPackage;

const node = (script: string, env: NodeJS.ProcessEnv = {}, cwd = app) => {
  // No NODE_OPTIONS: whatever loader the test runner has must not reach the application.
  const { NODE_OPTIONS: _loader, ...inherited } = process.env;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd,
    encoding: "utf8",
    env: { ...inherited, ...env },
    timeout: 60_000,
  });
};

const tsc = (project: string) =>
  spawnSync(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", project], { cwd: app, encoding: "utf8", timeout: 120_000 });

/** The controller's guide, where the install command, the dependency sentence and the embedding example live. */
const guide = "docs/controller.md";

/** The ```ts block after the marker that names this file, in a document's text. */
function markedExample(text: string, where: string): string {
  const marker = text.indexOf("<!-- test/controller/package.test.ts type-checks this block");
  expect(marker, `${where} has lost the marker before its example`).toBeGreaterThan(0);
  const block = /```ts\n([\s\S]*?)\n```/.exec(text.slice(marker));
  expect(block, `${where} has no \`\`\`ts block after the marker`).not.toBeNull();
  return `${block![1]}\n`;
}

/** The guide's embedding example. */
const guideExample = async () => markedExample(await readFile(join(repoRoot, guide), "utf8"), guide);

/** The guide's framework adapter examples: each ```ts block after a marker that names this file and an adapter block. */
async function guideAdapterExamples(): Promise<string[]> {
  const text = await readFile(join(repoRoot, guide), "utf8");
  return text
    .split("<!-- test/controller/package.test.ts type-checks this adapter block")
    .slice(1)
    .map((after) => `${/```ts\n([\s\S]*?)\n```/.exec(after)?.[1] ?? ""}\n`);
}

/** The package README's example, as the tarball carries it. */
const readmeExample = async () => markedExample(await packageReadme(), "the package's README");

/** The guide's install section: its ```sh block's two commands, and the sentence naming the package's dependencies. */
async function guideInstallSection(): Promise<{ build: string; npmInstall: string[]; dependencies: string[] }> {
  const text = await readFile(join(repoRoot, guide), "utf8");
  const start = text.indexOf("**Install.**");
  expect(start, `${guide} has lost its **Install.** paragraph`).toBeGreaterThanOrEqual(0);
  const section = text.slice(start);
  const block = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? "";
  const build = /^(npm run package)\b/m.exec(block)?.[1];
  expect(build, "the install block has lost its `npm run package` line").toBeDefined();
  const line = /^cd \S+ && (npm install [^#\n]+?)\s*$/m.exec(block)?.[1];
  expect(line, "the install block has lost its `cd <app> && npm install <tarball> …` line").toBeDefined();
  const sentence = /Its dependencies are ([^:]+?), and nothing else/.exec(section)?.[1];
  expect(sentence, 'the install paragraph has lost the sentence "Its dependencies are …, and nothing else"').toBeDefined();
  // The names in backticks; a parenthesis says what one is for.
  const dependencies = [...sentence!.replace(/\([^)]*\)/g, "").matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
  return { build: build!, npmInstall: line!.split(/\s+/), dependencies };
}

/** The package's README, as the tarball carries it. */
const packageReadme = () => readFile(join(dir, "package", "README.md"), "utf8");

/** The README's install command: the `npm install order-tools …` line of its ```sh block under "## Install". */
async function readmeInstall(): Promise<string[]> {
  const readme = await packageReadme();
  const section = readme.slice(readme.indexOf("## Install"));
  const line = /^(npm install [^#\n]+?)\s*(?:#.*)?$/m.exec(/```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? "")?.[1];
  expect(line, "the package README's Install section has lost its `npm install order-tools …` line").toBeDefined();
  return line!.split(/\s+/);
}

/** A lockfile for the project: the tarball, and each package it needs at the version this repository's lockfile has. */
async function projectLockfile(dependencies: Record<string, string>): Promise<unknown> {
  const repoLock = JSON.parse(await readFile(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const packages = repoLock.packages;
  // Node's lookup: the nearest node_modules/<name> from the requiring package's own folder up to the root.
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ; ) {
      const path = `${base === "" ? "" : `${base}/`}node_modules/${name}`;
      if (packages[path]) return path;
      if (base === "") return undefined;
      const up = base.lastIndexOf("/node_modules/");
      base = up < 0 ? "" : base.slice(0, up);
    }
  };
  const needed = new Set<string>();
  const visit = (path: string) => {
    if (needed.has(path)) return;
    needed.add(path);
    const entry = packages[path]!;
    const optional = {
      ...entry.optionalDependencies,
      ...Object.fromEntries(Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional)),
    };
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
      const found = resolve(path, name);
      if (found) visit(found);
      else if (!(name in optional)) throw new Error(`${path} needs ${name}, which this repository's lockfile does not have`);
    }
  };
  for (const name of Object.keys(dependencies)) if (name !== manifest.name) visit(`node_modules/${name}`);
  // The package's own dependencies: found only if the tarball declares them, as npm would install them.
  for (const name of Object.keys(manifest.dependencies ?? {})) visit(`node_modules/${name}`);

  const lock: Record<string, unknown> = { "": { name: "consumer", dependencies } };
  for (const path of [...needed].sort()) {
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = packages[path]!;
    lock[path] = entry;
  }
  lock[`node_modules/${manifest.name}`] = {
    version: manifest.version,
    resolved: `file:../${packed.filename}`,
    integrity: packed.integrity,
    ...(manifest.dependencies ? { dependencies: manifest.dependencies } : {}),
    ...(manifest.peerDependencies ? { peerDependencies: manifest.peerDependencies } : {}),
    ...(manifest.peerDependenciesMeta ? { peerDependenciesMeta: manifest.peerDependenciesMeta } : {}),
    ...(manifest.engines ? { engines: manifest.engines } : {}),
  };
  return { name: "consumer", lockfileVersion: 3, requires: true, packages: lock };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "order-tools-package-"));
  // From nothing, with the guide's command: it must build dist/package/ itself, then pack it.
  await rm(join(repoRoot, "dist"), { recursive: true, force: true });
  const { build } = await guideInstallSection();
  const out = execFileSync("npm", ["run", "--silent", ...build.split(/\s+/).slice(2)], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  // npm pack names the tarball it wrote on the last line of its output, in the repository's root.
  const filename = out.trim().split("\n").at(-1) as string;
  await rename(join(repoRoot, filename), join(dir, filename));
  const tarball = join(dir, filename);
  const bytes = readFileSync(tarball);
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((path) => path.replace(/^package\//, ""));
  packed = { filename, files, integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}` };
  execFileSync("tar", ["-xzf", tarball, "-C", dir]);
  manifest = JSON.parse(await readFile(join(dir, "package", "package.json"), "utf8")) as PackedPackage;

  // The README's command, as written, in an empty project: the tarball stands in for the registry's
  // `order-tools`. The one flag added lets npm take what its cache already holds; scripts run, as they do for every
  // application.
  const npmInstall = await readmeInstall();
  guideApp = join(dir, "my-app");
  await mkdir(guideApp);
  await writeFile(join(guideApp, "package.json"), JSON.stringify({ name: "my-app", private: true, type: "module" }, null, 2));
  const args = npmInstall.slice(1).map((arg) => (arg === manifest.name ? tarball : arg));
  guideInstall = { command: npmInstall.join(" "), status: null, output: "" };
  const installed = spawnSync("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd: guideApp,
    encoding: "utf8",
    timeout: 150_000,
  });
  guideInstall = { ...guideInstall, status: installed.status, output: `${installed.stdout}${installed.stderr}` };

  app = join(dir, "consumer");
  await mkdir(app);
  const repoLock = JSON.parse(await readFile(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const dependencies = Object.fromEntries([
    [manifest.name, `file:../${packed.filename}`],
    ...alongside.map((name) => [name, repoLock.packages[`node_modules/${name}`]!.version]),
  ]);
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }, null, 2));
  await writeFile(join(app, "package-lock.json"), JSON.stringify(await projectLockfile(dependencies), null, 2));
  const install = spawnSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd: app,
    encoding: "utf8",
    timeout: 150_000,
  });
  if (install.status !== 0) throw new Error(`npm ci in the consumer project failed:\n${install.stdout}${install.stderr}`);
}, 240_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the controller as a package", { timeout: 120_000 }, () => {
  it("npm run package ships only the compiled package: JavaScript, declarations, its package.json, README and CHANGELOG", () => {
    const paths = packed.files;
    expect(paths.filter((p) => !/^(controller|functions\/(contract|core))\//.test(p)).sort()).toEqual([
      "CHANGELOG.md",
      "README.md",
      "package.json",
    ]);
    expect(paths.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))).toEqual([]);
    for (const target of Object.values(manifest.exports)) {
      expect(paths).toContain(target.default.replace(/^\.\//, ""));
      expect(paths).toContain(target.types.replace(/^\.\//, ""));
    }
    // The subpaths applications import stay; a new one is a line in controller/package-manifest.ts.
    expect(Object.keys(manifest.exports)).toEqual(
      expect.arrayContaining([
        "./controller",
        "./controller/testing",
        "./controller/dynamodb",
        "./controller/ai-sdk",
        "./controller/openai-agents",
      ]),
    );
    // Nothing of the service's handlers, store operations or CDK code came along.
    expect(paths.filter((p) => /^(lib|functions\/(tools|store|runtime|deploy|service))\//.test(p))).toEqual([]);
  });

  it("its manifest is built for publishing: the package's own fields, and nothing of the repository's", () => {
    const repository = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(manifest).sort()).toEqual(
      [
        "name",
        "version",
        "description",
        "keywords",
        "license",
        "repository",
        "engines",
        "type",
        "exports",
        "bin",
        "dependencies",
        "peerDependencies",
        "peerDependenciesMeta",
      ].sort(),
    );
    expect(manifest).toMatchObject({
      name: "order-tools",
      version: repository.version,
      type: "module",
      license: controllerPackage.license,
      engines: { node: ">=20" },
      repository: { type: "git", url: expect.stringMatching(/^git\+https:\/\/.+\.git$/), directory: "controller" },
      dependencies: repository.dependencies,
    });
    expect(manifest.description?.length).toBeGreaterThan(40);
    // Each subpath and command is the one controller/package-manifest.ts names, built from its source.
    expect(Object.keys(manifest.exports)).toEqual(Object.keys(controllerPackage.subpaths));
    expect(manifest.bin).toEqual({ "order-tools-trace": "controller/bin/order-tools-trace.js" });
    expect(readFileSync(join(dir, "package", manifest.bin!["order-tools-trace"]!), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it("npm publish --dry-run is clean, and the same check sees a manifest npm would correct or refuse", () => {
    // Offline, to a registry of no one's with a token of no one's: nothing leaves the machine, and npm does all
    // it does before an upload (it looks the name up when it can, which offline it skips).
    const publish = (folder: string) =>
      spawnSync(
        "npm",
        ["publish", "--dry-run", folder, "--offline", "--registry", "http://127.0.0.1:9/", "--//127.0.0.1:9/:_authToken=dry-run"],
        {
          cwd: dir,
          encoding: "utf8",
          timeout: 60_000,
        },
      );
    const clean = publish(join(dir, "package"));
    expect(clean.stderr.split("\n").filter((line) => /^npm (warn|error)/.test(line))).toEqual([]);
    expect(clean.stdout).toBe(`+ ${manifest.name}@${manifest.version}\n`);
    expect(clean.status).toBe(0);

    const mended = join(dir, "mended");
    cpSync(join(dir, "package"), mended, { recursive: true });
    writeFileSync(
      join(mended, "package.json"),
      JSON.stringify({ ...manifest, bin: { "order-tools-trace": "./controller/bin/order-tools-trace.js" } }),
    );
    expect(publish(mended).stderr).toMatch(/npm warn publish npm auto-corrected some errors in your package\.json/);
    writeFileSync(join(mended, "package.json"), JSON.stringify({ ...manifest, name: "Order Tools" }));
    const refused = publish(mended);
    expect(refused.stderr).toMatch(/npm error Invalid name: "Order Tools"/);
    expect(refused.status).not.toBe(0);
  });

  it("npm pack in the repository's root refuses, saying which command makes the package", () => {
    const refused = spawnSync("npm", ["pack", "--dry-run"], { cwd: repoRoot, encoding: "utf8", timeout: 60_000 });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("npm pack here would pack the repository, not the package. `npm run package` builds");
  });

  it("its README is the package's: install, the example, the guarantees, and links that lead to the docs", async () => {
    const readme = await packageReadme();
    expect(readme).toBe(readFileSync(join(repoRoot, "controller", "README.md"), "utf8"));
    expect(readme).not.toMatch(/npm install && npm start/);
    expect([...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual([
      "Install",
      "Example",
      "What it guarantees",
      "See what happened",
      "Documentation",
    ]);
    expect(await readmeInstall()).toEqual(["npm", "install", manifest.name, "@anthropic-ai/sdk"]);
    // npm shows relative links against the repository's folder the package comes from: each must lead to a file there.
    const links = [...readme.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(existsSync(join(repoRoot, manifest.repository!.directory!, link)), link).toBe(true);
    // The example is about ten lines of code, and it is type-checked below.
    expect((await readmeExample()).split("\n").filter((line) => line.trim() !== "").length).toBeLessThanOrEqual(14);
  });

  it("its CHANGELOG names this version first", async () => {
    const changelog = await readFile(join(dir, "package", "CHANGELOG.md"), "utf8");
    expect(/^## (\S+)/m.exec(changelog)?.[1]).toBe(manifest.version);
  });

  it("installs as the README says, install scripts and all, and brings no Node binary or anything else the guide does not name", async () => {
    expect(guideInstall.output).not.toMatch(/npm error|EBADENGINE/);
    expect(guideInstall.status).toBe(0);
    // The guide's command from a checkout installs the same packages, from the tarball.
    const { npmInstall } = await guideInstallSection();
    expect(npmInstall.map((arg) => (arg.endsWith(".tgz") ? basename(arg) : arg))).toEqual(
      (await readmeInstall()).map((arg) => (arg === manifest.name ? packed.filename : arg)),
    );
    const installed = JSON.parse(readFileSync(join(guideApp, "node_modules", ".package-lock.json"), "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    const own = installed.packages[`node_modules/${manifest.name}`];
    expect(own?.version).toBe(manifest.version);
    expect(Object.keys(own?.dependencies ?? {}).sort()).toEqual(Object.keys(manifest.dependencies ?? {}).sort());
    expect(own?.optionalDependencies).toBeUndefined();
    expect(Object.keys(installed.packages).filter((path) => /node-linux|(^|\/)node$/.test(path))).toEqual([]);
    expect(existsSync(join(guideApp, "node_modules", ".bin", "node"))).toBe(false);

    // And the application runs it: plain Node, the README's SDK.
    const result = node(
      `
      import { anthropicModel, createController } from "order-tools/controller";
      import { scriptedModel } from "order-tools/controller/testing";
      const controller = createController({ service: { baseUrl: "http://127.0.0.1:9", token: "unused" }, model: scriptedModel([{ say: "Which order?" }]) });
      const turn = await controller.conversation("c-1").turn("Hello");
      console.log(JSON.stringify({ reply: turn.reply, model: anthropicModel({ model: "claude-sonnet-5-5", apiKey: "k" }).name }));
    `,
      {},
      guideApp,
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ reply: "Which order?", model: "anthropic:claude-sonnet-5-5" });
  });

  it("a turn that cannot reach the service says so, and npx order-tools-trace prints what happened", () => {
    const result = node(
      `
      import { createController, traceDirectory } from "order-tools/controller";
      import { scriptedModel } from "order-tools/controller/testing";
      const controller = createController({
        service: { baseUrl: "http://127.0.0.1:9", token: "t" },
        model: scriptedModel([{ call: "get_order", input: { orderId: "SU-10234" } }, { say: "It has shipped." }]),
        trace: traceDirectory("traces"),
      });
      const turn = await controller.conversation("c-1").turn("Where is SU-10234?");
      console.log(JSON.stringify({ reply: turn.reply, problem: turn.problem.code }));
    `,
      {},
      guideApp,
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ reply: "Your orders could not be reached right now.", problem: "unreachable" });
    const { NODE_OPTIONS: _loader, ...env } = process.env;
    const trace = spawnSync("npx", ["--no-install", "order-tools-trace", "traces"], {
      cwd: guideApp,
      encoding: "utf8",
      env,
      timeout: 60_000,
    });
    expect(trace.stderr).toBe("");
    expect(trace.status).toBe(0);
    expect(trace.stdout).toMatch(/^c-1 · turn 1 · trace 1-[0-9a-f]{8}-[0-9a-f]{24} · /);
    expect(trace.stdout).toContain(
      "  problem   unreachable: No connection to the service at http://127.0.0.1:9 (POST /v1/tools/get_order:",
    );
    expect(trace.stdout).toContain("  reply     Your orders could not be reached right now.");
  });

  it("the tarball the guide's `npm run package` writes in the repository is git-ignored, so it is never committed", () => {
    const checked = spawnSync("git", ["check-ignore", "--no-index", "--verbose", packed.filename], { cwd: repoRoot, encoding: "utf8" });
    expect(checked.stdout).toMatch(/^\.gitignore:\d+:/);
    expect(checked.status).toBe(0);
  });

  it("its packed manifest runs nothing at install and depends on exactly what the guide names", async () => {
    const { dependencies } = await guideInstallSection();
    expect(dependencies.length).toBeGreaterThan(0);
    const installScripts = ["preinstall", "install", "postinstall", "prepare"].filter((name) => manifest.scripts?.[name] !== undefined);
    expect(installScripts, "npm runs these in every application that installs the package").toEqual([]);
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual([...dependencies].sort());
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.bundleDependencies ?? []).toEqual([]);
  });

  it("the model SDKs, the AWS SDK clients and the agent frameworks are optional peers", () => {
    const peers = Object.keys(manifest.peerDependencies ?? {});
    expect(peers).toEqual(
      expect.arrayContaining([
        "@anthropic-ai/sdk",
        "openai",
        "@aws-sdk/client-bedrock-runtime",
        "@aws-sdk/client-dynamodb",
        "@aws-sdk/lib-dynamodb",
        "ai",
        "@openai/agents",
      ]),
    );
    for (const peer of peers) expect(manifest.peerDependenciesMeta?.[peer], peer).toEqual({ optional: true });
  });

  it("plain Node imports createController and runs a turn; the testing subpath replays a Converse response through the installed AWS SDK", () => {
    const result = node(`
      import { createController, bedrockModel } from "order-tools/controller";
      import { scriptedModel, recordedModel } from "order-tools/controller/testing";
      import { DynamoDbIntentStore } from "order-tools/controller/dynamodb";
      const controller = createController({ service: { baseUrl: "http://127.0.0.1:9", token: "unused" }, model: scriptedModel([{ say: "Which order is it about?" }]) });
      const turn = await controller.conversation("c-1").turn("Hello");
      const converse = { output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_1", name: "get_order", input: { orderId: "SU-10234" } } }] } }, stopReason: "tool_use", usage: { inputTokens: 9, outputTokens: 9, totalTokens: 18 }, metrics: { latencyMs: 9 } };
      const model = recordedModel({ provider: "bedrock", model: "global.anthropic.claude-sonnet-5-5", responses: [converse] });
      const response = await model.respond({ system: "s", messages: [{ role: "customer", text: "Where is SU-10234?" }], tools: [] });
      console.log(JSON.stringify({ reply: turn.reply, kind: turn.replyKind, response, url: model.requests[0].url, bedrock: bedrockModel({ modelId: "m" }).name, store: typeof DynamoDbIntentStore }));
    `);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      reply: "Which order is it about?",
      kind: "information",
      response: { text: "", toolCalls: [{ id: "tooluse_1", name: "get_order", input: { orderId: "SU-10234" } }], stopReason: "tool_use" },
      url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/global.anthropic.claude-sonnet-5-5/converse",
      bedrock: "bedrock:m",
      store: "function",
    });
  });

  it("the framework adapters: plain Node imports each subpath beside its framework, and runs a turn on the framework's own mock model", () => {
    const result = node(`
      import { orderToolsForAiSdk } from "order-tools/controller/ai-sdk";
      import { orderToolsForAgents } from "order-tools/controller/openai-agents";
      import { MockLanguageModelV3 } from "ai/test";
      import { Runner } from "@openai/agents";
      import { assistantMessage, ScriptedModel } from "@openai/agents/testing";
      const service = { baseUrl: "http://127.0.0.1:9", token: "unused" };
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      const model = new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: "text", text: "Which order is it about?" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }) });
      const ai = await orderToolsForAiSdk({ service }).conversation("c-1").generateText({ model, messages: [{ role: "user", content: "Hello" }] });
      const orders = orderToolsForAgents({ service });
      const agent = orders.agent({ name: "Shop assistant", model: new ScriptedModel([[assistantMessage("Which order is it about?")]]) });
      const agents = await orders.conversation("c-2").run(agent, "Hello", { runner: new Runner({ tracingDisabled: true }) });
      console.log(JSON.stringify({ ai: [ai.reply, ai.replyKind, ai.approvals.length], agents: [agents.reply, agents.replyKind, agents.interruptions.length] }));
    `);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      ai: ["Which order is it about?", "information", 0],
      agents: ["Which order is it about?", "information", 0],
    });
  });

  it("the guide's and the README's examples type-check against the shipped declarations, strictly and with skipLibCheck off", async () => {
    const example = await guideExample();
    expect(example).toMatch(/from "order-tools\/controller"/);
    const readme = await readmeExample();
    expect(readme).toMatch(/from "order-tools\/controller"/);
    const compilerOptions = {
      target: "ES2023",
      lib: ["ES2023"],
      module: "nodenext",
      moduleResolution: "nodenext",
      types: ["node"],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      noEmit: true,
    };
    await writeFile(join(app, "consumer.ts"), example);
    await writeFile(join(app, "readme.ts"), readme);
    await writeFile(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts", "readme.ts"] }));
    const checked = tsc("tsconfig.json");
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.status).toBe(0);

    // The same check sees a mistake: the declarations are read, not taken as `any`.
    await writeFile(
      join(app, "mistaken.ts"),
      example.replace(
        `anthropicModel({ model: "claude-sonnet-5-5" })`,
        `anthropicModel({ model: "claude-sonnet-5-5", maxTokens: "many" })`,
      ),
    );
    await writeFile(join(app, "tsconfig.mistaken.json"), JSON.stringify({ compilerOptions, files: ["mistaken.ts"] }));
    const mistaken = tsc("tsconfig.mistaken.json");
    expect(mistaken.status).not.toBe(0);
    expect(mistaken.stdout).toMatch(/mistaken\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });

  it("the guide's framework adapter examples type-check against the shipped declarations, as the frameworks' own types need them", async () => {
    const adapters = await guideAdapterExamples();
    expect(adapters.map((a) => /from "order-tools\/controller\/([a-z-]+)"/.exec(a)?.[1])).toEqual(["ai-sdk", "openai-agents"]);
    // The frameworks' own declarations name browser types (fetch's HeadersInit, WebSocket, WebRTC) and, for `ai`, a
    // JSON Schema package they do not bring: the DOM lib, and skipLibCheck as `tsc --init` writes it.
    const compilerOptions = {
      target: "ES2023",
      lib: ["ES2023", "DOM"],
      module: "nodenext",
      moduleResolution: "nodenext",
      types: ["node"],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
    };
    const files = adapters.map((_, i) => `adapter-${i}.ts`);
    for (const [i, adapter] of adapters.entries()) await writeFile(join(app, `adapter-${i}.ts`), adapter);
    await writeFile(join(app, "tsconfig.adapters.json"), JSON.stringify({ compilerOptions, files }));
    const checked = tsc("tsconfig.adapters.json");
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.status).toBe(0);

    // The same check sees a mistake in each: the adapters' declarations are read, not taken as `any`.
    await writeFile(join(app, "adapter-mistaken-0.ts"), adapters[0]!.replace("turn.approvals.map", "turn.approval.map"));
    await writeFile(join(app, "adapter-mistaken-1.ts"), adapters[1]!.replace("turn.state?.toString()", "turn.runState?.toString()"));
    await writeFile(
      join(app, "tsconfig.adapters-mistaken.json"),
      JSON.stringify({ compilerOptions, files: ["adapter-mistaken-0.ts", "adapter-mistaken-1.ts"] }),
    );
    const mistaken = tsc("tsconfig.adapters-mistaken.json");
    expect(mistaken.status).not.toBe(0);
    expect(mistaken.stdout).toMatch(
      /adapter-mistaken-0\.ts\(\d+,\d+\): error TS2551: Property 'approval' does not exist on type 'AiSdkTurn'/,
    );
    expect(mistaken.stdout).toMatch(
      /adapter-mistaken-1\.ts\(\d+,\d+\): error TS2339: Property 'runState' does not exist on type 'AgentsTurn'/,
    );
  });

  it("with no SDK installed, the controller still imports, and each adapter names the package its first request needs", async () => {
    const sdks = ["@anthropic-ai/sdk", "openai", "@aws-sdk/client-bedrock-runtime"];
    const aside = join(dir, "aside");
    await mkdir(join(aside, "@aws-sdk"), { recursive: true });
    await mkdir(join(aside, "@anthropic-ai"), { recursive: true });
    for (const sdk of sdks) await rename(join(app, "node_modules", sdk), join(aside, sdk));
    try {
      expect(sdks.some((sdk) => existsSync(join(app, "node_modules", sdk)))).toBe(false);
      const result = node(`
        import { anthropicModel, bedrockModel, MissingModelSdkError, openaiModel } from "order-tools/controller";
        const request = { system: "s", messages: [{ role: "customer", text: "Hello" }], tools: [] };
        const failures = [];
        for (const model of [anthropicModel({ model: "claude-sonnet-5-5", apiKey: "k" }), openaiModel({ model: "gpt-x", apiKey: "k" }), bedrockModel({ modelId: "m", clientConfig: { region: "us-east-1" } })]) {
          try { await model.respond(request); failures.push("answered"); } catch (error) { failures.push({ missing: error instanceof MissingModelSdkError && error.packageName, message: error.message }); }
        }
        console.log(JSON.stringify(failures));
      `);
      expect(result.status).toBe(0);
      const failures = JSON.parse(result.stdout) as { missing: string; message: string }[];
      expect(failures.map((f) => f.missing)).toEqual(sdks);
      expect(failures[1]?.message).toBe(
        "openaiModel needs the openai package, which is not installed (it is an optional peer dependency of order-tools): npm install openai",
      );
    } finally {
      for (const sdk of sdks) if (existsSync(join(aside, sdk))) await rename(join(aside, sdk), join(app, "node_modules", sdk));
    }
  });
});
