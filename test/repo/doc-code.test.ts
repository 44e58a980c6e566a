import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import MarkdownIt from "markdown-it";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controllerPackage } from "#controller/package-manifest";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { type Gateway, startGateway } from "#local/gateway";
import { repoRoot } from "#local/stack";
import { seededLocalTables } from "#test/support/local-tables";

/**
 * The docs' TypeScript is the code that works. Every ```ts block of the README, docs/ and the package's README is
 * type-checked, strictly, against the package's public face: `order-tools/controller` and each subpath resolve to
 * the source file controller/package-manifest.ts names for it, so a block that imports a name the package does not
 * export, or uses one as it cannot be used, fails here. A block whose fence says `ts runnable` also runs, under tsx,
 * against a local gateway on the demo shop (ORDER_TOOLS_URL, and ORDER_TOOLS_TOKEN as Ana, C-1001), and must exit 0
 * with nothing on stderr. A block that is deliberately a fragment says so in its fence (`ts fragment`) and is not
 * checked; there are few, and the list below names each.
 */
const parser = new MarkdownIt();
const exec = promisify(execFile);

/** The fragments the docs may keep, by file and first line: adding one is a decision. */
const allowedFragments: readonly string[] = [];

interface Block {
  /** Where it is: file and line. */
  where: string;
  kind: "checked" | "runnable" | "fragment";
  code: string;
}

async function documents(): Promise<string[]> {
  const docs = (await readdir(join(repoRoot, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  return ["README.md", "controller/README.md", ...docs.sort()];
}

/**
 * Every TypeScript block of a document, as markdown-it reads its fences; an unknown word after `ts` is an error, and
 * so is a JavaScript block (code an application writes is written as TypeScript here, so that it is checked).
 */
async function blocksOf(file: string): Promise<Block[]> {
  const text = await readFile(join(repoRoot, file), "utf8");
  const fences = parser.parse(text, {}).filter((t) => t.type === "fence");
  const javascript = fences.find((t) => /^(js|javascript|jsx|mjs)\b/.test(t.info.trim()));
  if (javascript) throw new Error(`${file}:${(javascript.map?.[0] ?? 0) + 1}: a JavaScript block; fence it \`\`\`ts so it is type-checked`);
  return fences
    .filter((t) => /^(ts|typescript)\b/.test(t.info.trim()))
    .map((t) => {
      const [, ...words] = t.info.trim().split(/\s+/);
      const where = `${file}:${(t.map?.[0] ?? 0) + 1}`;
      const kind = words.length === 0 ? "checked" : words.join(" ");
      if (kind !== "checked" && kind !== "runnable" && kind !== "fragment")
        throw new Error(`${where}: \`\`\`${t.info.trim()} — after ts, write nothing, \`runnable\` or \`fragment\``);
      return { where, kind, code: t.content };
    });
}

/** A project in a temp dir whose tsconfig maps the package's name to its sources, with the repository's node_modules. */
async function project(dir: string, files: Record<string, string>): Promise<void> {
  const paths = Object.fromEntries(
    Object.entries(controllerPackage.subpaths).map(([subpath, source]) => [`order-tools${subpath.slice(1)}`, [join(repoRoot, source)]]),
  );
  const compilerOptions = {
    target: "ES2023",
    lib: ["ES2023", "DOM"],
    module: "ESNext",
    moduleResolution: "bundler",
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true,
    // The frameworks' own declarations name browser types and a package they do not bring (as the guide says).
    skipLibCheck: true,
    noEmit: true,
    paths,
  };
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  // The controller's own declaration of an untyped dependency comes with its sources, as the build bundles it.
  const own = [join(repoRoot, "controller", "types", "unicode-confusables.d.ts")];
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [...Object.keys(files), ...own] }));
  for (const [name, code] of Object.entries(files)) await writeFile(join(dir, name), code);
}

/** tsc on the project: its output, and whether it passed. */
async function typeCheck(dir: string): Promise<{ ok: boolean; output: string }> {
  try {
    await exec(join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", dir], { cwd: dir, timeout: 180_000 });
    return { ok: true, output: "" };
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: stdout + stderr };
  }
}

/** The file a block is written to: named for where it is, a module (so each may declare its own names). */
const fileName = (block: Block) => `${block.where.replace(/[/.:]/g, "_")}.ts`;
const asModule = (block: Block) => `${block.code}\nexport {};\n`;

let dir: string;
let blocks: Block[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "doc-code-"));
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  blocks = (await Promise.all((await documents()).map(blocksOf))).flat();
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the TypeScript in the README, docs/ and the package's README", () => {
  it("finds the blocks: the guide's, the package README's, the framework adapters' and a runnable one", () => {
    // A reader that found nothing would check nothing.
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(blocks.some((b) => b.where.startsWith("controller/README.md"))).toBe(true);
    expect(blocks.some((b) => b.code.includes('from "order-tools/controller/openai-agents"'))).toBe(true);
    expect(blocks.some((b) => b.kind === "runnable")).toBe(true);
  });

  it("keeps its fragments few, each one named here", () => {
    const fragments = blocks.filter((b) => b.kind === "fragment").map((b) => `${b.where.split(":")[0]}: ${b.code.split("\n")[0]}`);
    expect(fragments).toEqual(allowedFragments);
  });

  it("type-checks every block that is not a fragment against the package's public face", { timeout: 180_000 }, async () => {
    const checked = blocks.filter((b) => b.kind !== "fragment");
    await project(dir, Object.fromEntries(checked.map((b) => [fileName(b), asModule(b)])));
    const { ok, output } = await typeCheck(dir);
    // Name the block each error is in, by its document and line.
    const named = checked.reduce((text, b) => text.replaceAll(fileName(b), b.where), output);
    expect(named).toBe("");
    expect(ok).toBe(true);
  });

  it("fails on a block that uses a name the package does not export (the check reads the package, not `any`)", {
    timeout: 180_000,
  }, async () => {
    const block = blocks.find((b) => b.code.includes("createController") && b.code.includes('from "order-tools/controller"'));
    expect(block, "a block that imports createController").toBeDefined();
    const renamed = asModule(block!).replaceAll("createController", "createOrderController");
    const mistaken = await mkdtemp(join(tmpdir(), "doc-code-mistaken-"));
    try {
      await symlink(join(repoRoot, "node_modules"), join(mistaken, "node_modules"), "dir");
      await project(mistaken, { "mistaken.ts": renamed });
      const { ok, output } = await typeCheck(mistaken);
      expect(ok).toBe(false);
      expect(output).toMatch(
        /mistaken\.ts\(\d+,\d+\): error TS2724: '"order-tools\/controller"' has no exported member named 'createOrderController'/,
      );
    } finally {
      await rm(mistaken, { recursive: true, force: true });
    }
  });
});

describe("the runnable blocks, against the local gateway on the demo shop", () => {
  let gateway: Gateway;
  let token: string;
  beforeAll(async () => {
    await seededLocalTables(splitDemoFixture(demoFixture()).first);
    gateway = await startGateway({ port: 0 });
    token = await signDevToken(principalClaims({ customer: "C-1001" }));
  });
  afterAll(async () => gateway?.close());

  it("each runs as written under tsx, exits 0 and writes nothing to stderr", { timeout: 180_000 }, async () => {
    const runnable = blocks.filter((b) => b.kind === "runnable");
    await project(dir, Object.fromEntries(runnable.map((b) => [fileName(b), asModule(b)])));
    // No NODE_OPTIONS: the test runner's loader must not reach the block.
    const { NODE_OPTIONS: _loader, ...inherited } = process.env;
    for (const block of runnable) {
      const ran = await exec(join(repoRoot, "node_modules", ".bin", "tsx"), [fileName(block)], {
        cwd: dir,
        timeout: 120_000,
        env: { ...inherited, ORDER_TOOLS_URL: gateway.url, ORDER_TOOLS_TOKEN: token },
      }).catch((error: { stdout?: string; stderr?: string; code?: number }) => ({
        stdout: error.stdout ?? "",
        stderr: `${block.where} exited ${error.code}: ${error.stderr ?? ""}`,
      }));
      expect({ where: block.where, stderr: ran.stderr }).toEqual({ where: block.where, stderr: "" });
      expect(ran.stdout, `${block.where} printed nothing`).not.toBe("");
    }
  });
});
