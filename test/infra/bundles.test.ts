import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bedrockAgentFunction, serviceFunctions } from "#deploy/service-functions";
import { tools } from "#contract/tools";
import { type Bundle, bundleBudgetBytes, bundleEntries, bundlesOf } from "#lib/bundles";
import { withoutBundlingProgress } from "#lib/bundling-progress";
import { repoRoot } from "#lib/tool-function";
import { removeSynthesizedOutput, synthesized } from "#test/infra/synthesized-app";

/** The deployed bundles: the API stack synthesized once with real esbuild bundling. */
let bundles: Bundle[];

beforeAll(() => {
  const { outdir, apiTemplate } = synthesized({ bundle: true });
  bundles = bundlesOf(outdir, apiTemplate.toJSON());
  // `@aws-sdk/*` is external (the Lambda runtime provides it); the project's copy stands in for it here.
  const modules = join(outdir, "node_modules");
  if (!existsSync(modules)) symlinkSync(join(repoRoot, "node_modules"), modules, "dir");
}, 120_000);
afterAll(removeSynthesizedOutput);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe("function bundles", () => {
  it("bundles one function per tool, the catalogue, OpenAPI and MCP functions, the Bedrock action group, plus the token trigger of each user pool", () => {
    expect(bundles.map((b) => b.name)).toEqual(expect.arrayContaining(tools.map((t) => `order-tools ${t.name}`)));
    expect(bundles.map((b) => b.name)).toEqual(
      expect.arrayContaining([...serviceFunctions, bedrockAgentFunction].map((f) => f.description)),
    );
    expect(bundles.filter((b) => /pre-token-generation trigger \((customers|staff|sellers) pool\)$/.test(b.name))).toHaveLength(3);
    expect(bundles).toHaveLength(tools.length + serviceFunctions.length + 1 + 3);
  });

  it(`keeps every bundle within ${kb(bundleBudgetBytes)} minified`, () => {
    const over = bundles.filter((b) => b.bytes > bundleBudgetBytes).map((b) => `${b.name}: ${kb(b.bytes)}`);
    expect(over, `over the ${kb(bundleBudgetBytes)} budget (see \`npm run bench\` for the breakdown)`).toEqual([]);
  });

  it("ships an ESM bundle with a source map, and imports nothing at run time but Node built-ins and the runtime's AWS SDK", () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    for (const bundle of bundles) {
      expect(existsSync(`${bundle.file}.map`), `${bundle.name} source map`).toBe(true);
      const code = readFileSync(bundle.file, "utf8");
      // Static `import … from "x"`, bare `import "x"` and dynamic `import("x")`, as esbuild writes them.
      const specifiers = [...code.matchAll(/\bimport\s*(?:\(\s*|[\w$*{},\s]+?from\s*)?["']([^"'\n]+)["']/g)].map((m) => m[1]!);
      const foreign = specifiers.filter((s) => !builtins.has(s) && !s.startsWith("@aws-sdk/"));
      expect(foreign, bundle.name).toEqual([]);
    }
  });

  it("builds in each tool's function only its own input schema, with zod/mini: not the registry, no output schema, no zod classic (cold start)", () => {
    const sources = (tool: string) =>
      (JSON.parse(readFileSync(`${bundles.find((b) => b.name === `order-tools ${tool}`)!.file}.map`, "utf8")) as { sources: string[] })
        .sources;
    const code = (tool: string) => readFileSync(bundles.find((b) => b.name === `order-tools ${tool}`)!.file, "utf8");
    for (const tool of tools) {
      const files = sources(tool.name);
      expect(
        files.filter((f) => /functions\/catalog\/tools\.ts$|zod\/v4\/classic\//.test(f)),
        tool.name,
      ).toEqual([]);
      expect(
        files.some((f) => /zod\/v4\/mini\//.test(f)),
        tool.name,
      ).toBe(true);
      // Every other tool's description (the registry's) and this tool's output descriptions stay out.
      for (const other of tools)
        if (other.name !== tool.name)
          expect(code(tool.name), `${tool.name} holds ${other.name}'s description`).not.toContain(other.description.slice(0, 60));
    }
    expect(code("cancel_order")).not.toContain("The cancellation was applied.");
    expect(code("get_order")).not.toContain("What is on the order: items, charges");
    expect(code("cancel_order")).toContain("Cancel an order that has not shipped.");
  });

  it("keeps Powertools idempotency and the operation ledger out of the reads that never change an order (cold start)", () => {
    const code = (tool: string) => readFileSync(bundles.find((b) => b.name === `order-tools ${tool}`)!.file, "utf8");
    for (const tool of ["search_orders", "get_order"]) {
      // From @aws-lambda-powertools/idempotency and functions/store/operations.ts.
      expect(code(tool), tool).not.toMatch(/IdempotencyAlreadyInProgressError|TransactWriteItems/);
    }
    expect(code("cancel_order")).toMatch(/IdempotencyAlreadyInProgressError/);
  });

  it("builds into the MCP function the token verifier it uses deployed, and nothing of the local stack or the MCP SDKs; the metadata function neither (nor zod nor the registry)", () => {
    const sources = (name: string) =>
      (JSON.parse(readFileSync(`${bundles.find((b) => b.name === name)!.file}.map`, "utf8")) as { sources: string[] }).sources;
    const mcp = sources(serviceFunctions.find((f) => f.name === "mcp")!.description);
    expect(mcp.some((f) => /node_modules\/aws-jwt-verify\//.test(f))).toBe(true);
    expect(mcp.filter((f) => /node_modules\/(jose|oidc-provider|koa|@modelcontextprotocol)\/|scripts\/local\//.test(f))).toEqual([]);
    const metadata = sources(serviceFunctions.find((f) => f.name === "oauth-metadata")!.description);
    expect(metadata.filter((f) => /node_modules\/(aws-jwt-verify|zod)\/|functions\/catalog\/tools\.ts$/.test(f))).toEqual([]);
  });

  it("builds no tracing code into any function by default: Lambda's active tracing needs none, and -c tracer=powertools builds the Powertools Tracer in", () => {
    const sources = (bundle: Bundle) => (JSON.parse(readFileSync(`${bundle.file}.map`, "utf8")) as { sources: string[] }).sources;
    const tracing = /node_modules\/(aws-xray-sdk-core|@aws-lambda-powertools\/tracer|cls-hooked)\//;
    for (const bundle of bundles)
      expect(
        sources(bundle).filter((f) => tracing.test(f)),
        bundle.name,
      ).toEqual([]);

    // The same function built with the setting: esbuild keeps the import it would otherwise drop as dead code.
    const outdir = mkdtempSync(join(tmpdir(), "order-tools-traced-"));
    try {
      const [traced] = withoutBundlingProgress(() =>
        bundleEntries([{ name: "cancel_order, traced", entry: "functions/tools/cancel-order.ts", tracer: "powertools" }], outdir),
      );
      expect(sources(traced!).filter((f) => tracing.test(f)).length).toBeGreaterThan(0);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it("holds nothing of the controller, and no model SDK: the service never imports the application half", () => {
    for (const bundle of bundles) {
      const { sources } = JSON.parse(readFileSync(`${bundle.file}.map`, "utf8")) as { sources: string[] };
      expect(
        sources.filter((source) => /(^|\/)controller\/|@anthropic-ai|\/openai\/|client-bedrock-runtime/.test(source)),
        bundle.name,
      ).toEqual([]);
    }
  });

  it("loads in a fresh Node process and exports a handler function", () => {
    for (const bundle of bundles) {
      const script = `const m = await import(${JSON.stringify(pathToFileURL(bundle.file).href)}); if (typeof m.handler !== "function") process.exit(3);`;
      const result = spawnSync(process.execPath, ["--enable-source-maps", "--input-type=module", "-e", script], {
        encoding: "utf8",
        env: {
          PATH: process.env.PATH ?? "",
          AWS_REGION: "eu-west-1",
          ORDERS_TABLE: "t",
          IDEMPOTENCY_TABLE: "t",
          POWERTOOLS_LOG_LEVEL: "SILENT",
        },
      });
      expect(result.status, `${bundle.name}: ${result.stderr}`).toBe(0);
    }
  });
});
