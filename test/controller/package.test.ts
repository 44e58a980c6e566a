import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controllerPackage } from "#controller/package-manifest";
import { seedExampleShop } from "#examples/frameworks/shop";
import { repoRoot } from "#local/stack";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * The controller as an application gets it: the guide's `npm run package` (which builds dist/package/ from nothing
 * and packs it), the tarball installed into empty projects as the package's own README says (`npm install
 * order-tools …`, the tarball standing in for the registry), with no lockfile and no flag: npm resolves each SDK's
 * range afresh, as it does for an application, install scripts on. Then used there with plain Node and no
 * TypeScript loader, its command run with npx, and the framework examples (examples/frameworks/) run against the
 * local stack. A third project holds every optional SDK at its range, for the README's and the guide's examples
 * type-checked against the shipped declarations, and for what an application without one of them is told.
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

/** The optional peers and the range of each, as the package manifest declares them (the one place they are stated). */
const peers: Record<string, string> = controllerPackage.optionalPeers;

let dir: string;
/** The project with every optional SDK, each at its range, and Node's types. */
let app: string;
/** The project the README's first command made (the controller and a model's SDK), and what npm said. */
let guideApp: string;
let guideInstall: Installed;
/** The project the README's second command made (the controller inside both agent frameworks), and what npm said. */
let frameworksApp: string;
let frameworksInstall: Installed;
/** The tarball: its name, the paths it holds (without npm's `package/`), and its integrity as a lockfile writes it. */
let packed: { filename: string; files: string[]; integrity: string };
let manifest: PackedPackage;

interface Installed {
  command: string;
  status: number | null;
  output: string;
  seconds: number;
}

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

/**
 * `npm install <args>` in an empty project (a package.json of ESM and nothing else: no lockfile), as an application
 * runs it: no flag but the two that keep npm's audit and funding notices out of the output.
 */
async function npmInstall(project: string, args: string[]): Promise<Installed> {
  await mkdir(project);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: basename(project), private: true, type: "module" }, null, 2));
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["install", ...args, "--no-audit", "--no-fund"], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), 180_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ command: `npm install ${args.join(" ")}`, status, output, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** The guide's install section, where the install command, the dependency sentence and the embedding example live. */
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

/**
 * The README's install commands: the `npm install order-tools …` lines of its ```sh block under "## Install" — the
 * controller with a model's SDK, then the controller inside the agent frameworks.
 */
async function readmeInstalls(): Promise<string[][]> {
  const readme = await packageReadme();
  const section = readme.slice(readme.indexOf("## Install"));
  const block = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? "";
  const lines = [...block.matchAll(/^(npm install [^#\n]+?)\s*(?:#.*)?$/gm)].map((m) => (m[1] as string).split(/\s+/));
  expect(lines, "the package README's Install section has lost its two `npm install order-tools …` lines").toHaveLength(2);
  return lines;
}

/** An install command as run here: the tarball stands in for the registry's `order-tools`. */
const withTarball = (command: string[]) => command.slice(2).map((arg) => (arg === manifest.name ? join(dir, packed.filename) : arg));

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

  // The README's two commands, as written, each in an empty project; and every SDK at its range in a third. The three
  // at once: npm's cache is safe to share.
  const [model, frameworks] = await readmeInstalls();
  guideApp = join(dir, "my-app");
  frameworksApp = join(dir, "frameworks-app");
  app = join(dir, "consumer");
  let everything: Installed;
  [guideInstall, frameworksInstall, everything] = await Promise.all([
    npmInstall(guideApp, withTarball(model!)),
    npmInstall(frameworksApp, withTarball(frameworks!)),
    npmInstall(app, [tarball, ...Object.entries(peers).map(([name, range]) => `${name}@${range}`), "@types/node@^22"]),
  ]);
  for (const installed of [guideInstall, frameworksInstall, everything])
    console.log(`[package] ${installed.command.replace(dir, "…")}: exit ${installed.status} in ${installed.seconds.toFixed(1)} s`);
  if (everything.status !== 0) throw new Error(`${everything.command} failed:\n${everything.output}`);
}, 300_000);

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
      engines: { node: ">=22" },
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
    // Its commands install the controller with a model's SDK, and inside the agent frameworks, each at its range; and
    // it names every optional peer at the range the manifest gives it.
    expect(await readmeInstalls()).toEqual([
      ["npm", "install", manifest.name, `@anthropic-ai/sdk@${peers["@anthropic-ai/sdk"]}`],
      ["npm", "install", manifest.name, `ai@${peers.ai}`, `@openai/agents@${peers["@openai/agents"]}`],
    ]);
    for (const [name, range] of Object.entries(peers)) expect(readme, name).toContain(`\`${name}@${range}\``);
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
      (await readmeInstalls())[0]!.map((arg) => (arg === manifest.name ? packed.filename : arg)),
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
    const names = Object.keys(manifest.peerDependencies ?? {});
    expect(names).toEqual(
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
    for (const peer of names) expect(manifest.peerDependenciesMeta?.[peer], peer).toEqual({ optional: true });
    // Each at the range of controller/package-manifest.ts, the one place it is stated.
    expect(manifest.peerDependencies).toEqual(controllerPackage.optionalPeers);
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
        `openaiModel needs the openai package (${peers.openai}), which is not installed (it is an optional peer dependency of order-tools): npm install openai@${peers.openai}`,
      );
    } finally {
      for (const sdk of sdks) if (existsSync(join(aside, sdk))) await rename(join(aside, sdk), join(app, "node_modules", sdk));
    }
  });

  it("without an adapter's or the DynamoDB store's SDK, importing its subpath names the package, its range and the install command", async () => {
    const sdks = ["ai", "@openai/agents", "@aws-sdk/lib-dynamodb"];
    const aside = join(dir, "aside-peers");
    await mkdir(join(aside, "@aws-sdk"), { recursive: true });
    await mkdir(join(aside, "@openai"), { recursive: true });
    for (const sdk of sdks) await rename(join(app, "node_modules", sdk), join(aside, sdk));
    try {
      const result = node(`
        const failures = {};
        for (const subpath of ["order-tools/controller/ai-sdk", "order-tools/controller/openai-agents", "order-tools/controller/dynamodb"]) {
          try { await import(subpath); failures[subpath] = "imported"; } catch (error) { failures[subpath] = [error.name, error.message]; }
        }
        // The testing subpath needs neither framework; a framework's mock model names its SDK on its first request.
        const { scriptedAiSdkModel, scriptedAgentsModel, scriptedModel } = await import("order-tools/controller/testing");
        const { MissingPeerError } = await import("order-tools/controller");
        const steps = [{ say: "Hello." }];
        for (const [name, request] of [["scriptedAiSdkModel", () => scriptedAiSdkModel(steps).model.doGenerate({ prompt: [] })], ["scriptedAgentsModel", () => scriptedAgentsModel(steps).model.getResponse({})]]) {
          try { await request(); failures[name] = "answered"; } catch (error) { failures[name] = [error instanceof MissingPeerError, error.packageName, error.range]; }
        }
        failures.scriptedModel = typeof scriptedModel(steps).respond;
        console.log(JSON.stringify(failures));
      `);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const needs = (subpath: string, name: string) => [
        "MissingPeerError",
        `${subpath} needs the ${name} package (${peers[name]}), which is not installed (it is an optional peer dependency of order-tools): npm install ${name}@${peers[name]}`,
      ];
      expect(JSON.parse(result.stdout)).toEqual({
        "order-tools/controller/ai-sdk": needs("order-tools/controller/ai-sdk", "ai"),
        "order-tools/controller/openai-agents": needs("order-tools/controller/openai-agents", "@openai/agents"),
        "order-tools/controller/dynamodb": needs("order-tools/controller/dynamodb", "@aws-sdk/lib-dynamodb"),
        scriptedAiSdkModel: [true, "ai", peers.ai],
        scriptedAgentsModel: [true, "@openai/agents", peers["@openai/agents"]],
        scriptedModel: "function",
      });
    } finally {
      for (const sdk of sdks) if (existsSync(join(aside, sdk))) await rename(join(aside, sdk), join(app, "node_modules", sdk));
    }
  });
});

/** A command in an application's project, under plain Node (no loader), run without blocking this process's gateway. */
function runInProject(cwd: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { NODE_OPTIONS: _loader, ...env } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), 90_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * An example of examples/frameworks/ as the application writes it: each `#controller/…` import of a package
 * subpath's source becomes that subpath (`#controller/frameworks/ai-sdk` → `order-tools/controller/ai-sdk`, by
 * controller/package-manifest.ts); nothing else of the repository may be imported but types, which Node strips.
 */
function asApplicationWrites(source: string): string {
  const publicPaths = new Map(
    Object.entries(controllerPackage.subpaths).map(([subpath, file]) => [
      `#${file.replace(/\.ts$/, "")}`,
      `${manifest.name}/${subpath.replace(/^\.\//, "")}`,
    ]),
  );
  const rewritten = source.replace(/from "(#[^"]+)"/g, (whole, specifier: string) =>
    publicPaths.has(specifier) ? `from "${publicPaths.get(specifier)}"` : whole,
  );
  const repositoryImports = [...rewritten.matchAll(/^import (?!type )[^;]*?from "(#[^"]+)"/gm)].map((m) => m[1]);
  expect(repositoryImports, "an example imports the repository, not the package").toEqual([]);
  return rewritten;
}

describe("inside the agent frameworks, installed as the README says", { timeout: 120_000 }, () => {
  let service: ServiceWorld;
  beforeAll(async () => {
    service = await startService();
  }, 60_000);
  afterAll(async () => service?.close());

  it("npm install <tarball> ai@<range> @openai/agents@<range> succeeds in an empty project with no flag, and npm finds every peer in range", () => {
    expect(frameworksInstall.output).not.toMatch(/ERESOLVE|npm error|EBADENGINE/);
    expect(frameworksInstall.status).toBe(0);
    // npm ls checks what it resolved against every range, the package's optional peers among them.
    const listed = spawnSync("npm", ["ls", "--all", "--json"], { cwd: frameworksApp, encoding: "utf8", timeout: 60_000 });
    expect(listed.stderr).toBe("");
    expect(listed.status).toBe(0);
    const tree = JSON.parse(listed.stdout) as { dependencies: Record<string, { version: string }> };
    expect(Object.keys(tree.dependencies).sort()).toEqual(["@openai/agents", "ai", manifest.name].sort());
    const installed = JSON.parse(readFileSync(join(frameworksApp, "node_modules", ".package-lock.json"), "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    // The one openai the Agents SDK brings is the one the package's openai peer takes.
    expect(Object.keys(installed.packages).filter((path) => path.endsWith("node_modules/openai"))).toEqual(["node_modules/openai"]);
  });

  for (const name of ["ai-sdk", "openai-agents"] as const)
    it(`examples/frameworks/${name}.ts runs there under plain Node: both changes held, the customer's approved and sent once, the seller's never`, async () => {
      const source = await readFile(join(repoRoot, "examples", "frameworks", `${name}.ts`), "utf8");
      await writeFile(join(frameworksApp, `${name}.ts`), asApplicationWrites(source));
      await writeFile(
        join(frameworksApp, "run-example.mjs"),
        [
          'import { aiSdkExample } from "./ai-sdk.ts";',
          'import { agentsExample } from "./openai-agents.ts";',
          "const [name, setup] = process.argv.slice(2);",
          "const { service, shop } = JSON.parse(setup);",
          'await { "ai-sdk": aiSdkExample, "openai-agents": agentsExample }[name](service, shop, (line) => console.log(line));',
        ].join("\n"),
      );
      if (!existsSync(join(frameworksApp, "ai-sdk.ts")) || !existsSync(join(frameworksApp, "openai-agents.ts"))) {
        const other = name === "ai-sdk" ? "openai-agents" : "ai-sdk";
        const otherSource = await readFile(join(repoRoot, "examples", "frameworks", `${other}.ts`), "utf8");
        await writeFile(join(frameworksApp, `${other}.ts`), asApplicationWrites(otherSource));
      }
      const shop = await seedExampleShop(service);
      const setup = { service: { baseUrl: service.gatewayUrl, token: shop.token }, shop };
      const ran = await runInProject(frameworksApp, ["run-example.mjs", name, JSON.stringify(setup)]);
      expect(ran.stderr).toBe("");
      expect(ran.status).toBe(0);
      expect(ran.stdout.split("\n").filter((line) => line.startsWith("assistant: "))).toEqual([
        `assistant: Shall I cancel order ${shop.towel}? Reply yes to confirm. Shall I cancel order ${shop.kettle}? Reply yes to confirm.`,
        `assistant: Order ${shop.towel} is cancelled. All right, order ${shop.kettle} stays as it is.`,
      ]);
      if (name === "openai-agents") expect(ran.stdout).toContain("(the application restarts)");
      expect(await service.order(shop.towel)).toMatchObject({ status: "cancelled", version: 2 });
      expect(await service.order(shop.kettle)).toMatchObject({ status: "placed", version: 1 });
      expect(await service.order(shop.lamp)).toMatchObject({ status: "delivered", version: 1 });
      expect(await service.operations(shop.customerId)).toHaveLength(1);
    });
});
