import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/**
 * The layer order the README's Layout section states, checked on every tracked source file's imports: what runs
 * in Lambda never imports the application half, the local stack, the eval or the tests; the CDK app imports
 * only what it deploys; the controller needs only the tool contract and the domain. And no file imports itself
 * back through a chain of others.
 */

const aliases: Record<string, string> = {
  "#core": "functions/core",
  "#store": "functions/store",
  "#contract": "functions/contract",
  "#deploy": "functions/deploy",
  "#tools": "functions/tools",
  "#runtime": "functions/runtime",
  "#service": "functions/service",
  "#lib": "lib",
  "#local": "local",
  "#bench": "bench",
  "#examples": "examples",
  "#test": "test",
  "#controller": "controller",
  "#eval": "eval",
};

/**
 * Each area and the areas it may import, lowest first. bench/ and test/ sit on top and may import anything. The
 * domain (core) imports nothing; the tool contract and the store each build on the domain alone and not on each
 * other; the deployment manifest (deploy) names the contract's tools' functions, routes and the IAM patterns of the
 * store's keys; the entry points run on all of these. The controller takes the contract and the domain only.
 */
const allowed: Record<string, readonly string[]> = {
  "functions/core": [],
  "functions/contract": ["functions/core"],
  "functions/store": ["functions/core"],
  "functions/deploy": ["functions/core", "functions/contract", "functions/store"],
  "functions/runtime": ["functions/core", "functions/contract", "functions/store", "functions/deploy"],
  "functions/tools": ["functions/core", "functions/contract", "functions/store", "functions/runtime"],
  "functions/service": ["functions/core", "functions/contract", "functions/store", "functions/deploy", "functions/runtime"],
  controller: ["functions/core", "functions/contract"],
  lib: ["functions/core", "functions/contract", "functions/store", "functions/deploy", "functions/runtime", "functions/service"],
  bin: ["lib"],
  eval: ["controller", "functions/core", "functions/contract", "functions/store", "functions/deploy", "functions/runtime", "local", "lib"],
  local: [
    "controller",
    "functions/core",
    "functions/contract",
    "functions/store",
    "functions/deploy",
    "functions/runtime",
    "functions/service",
    "functions/tools",
  ],
  examples: ["controller", "local", "functions/core", "functions/contract", "functions/store"],
  scripts: ["controller", "functions/contract", "functions/store", "lib", "local"],
};

/**
 * The controller's own areas, lowest first: each may import only those before it. A folder is an area, and so is
 * each file at the controller's root. At the bottom the texts and the shared model (what a turn comes to,
 * outcomes.ts); then what a turn works with (intents, the service over HTTP, the trace, the platforms' tool
 * formats, the model's context and the model adapters); the guard that decides whether a change may be sent, and
 * the gate that decides what a reply may say; the conversation's and the running turn's state; what becomes of a
 * change; a turn's steps (resume.ts among them: a restart's); and on top a conversation, the controller that runs
 * its turns, its face and its commands.
 */
const controllerAreas = [
  "package-manifest.ts",
  "optional-peers.ts",
  "types",
  "i18n",
  "text",
  "outcomes.ts",
  "intents",
  "http",
  "trace",
  "platforms",
  "context",
  "model",
  "guard",
  "gate",
  "state",
  "seams.ts",
  "changes",
  "turn",
  "options.ts",
  "conversation.ts",
  "controller.ts",
  "frameworks",
  "testing.ts",
  "index.ts",
  "bin",
] as const;

const controllerAreaOf = (file: string): string | undefined => {
  const [top, second] = file.split("/");
  return top === "controller" ? second : undefined;
};

const areaOf = (file: string): string => {
  const [top, second] = file.split("/");
  return top === "functions" ? `functions/${second}` : (top ?? file);
};

function resolve(from: string, specifier: string): string | undefined {
  if (specifier.startsWith("#")) {
    const [alias, ...rest] = specifier.split("/");
    const base = aliases[alias ?? ""];
    return base === undefined ? undefined : `${base}/${rest.join("/")}.ts`;
  }
  if (!specifier.startsWith(".")) return undefined;
  const path = normalize(join(dirname(from), specifier));
  return /\.(m?[jt]s|json)$/.test(path) ? path.replace(/\.js$/, ".ts") : `${path}.ts`;
}

const sources = execFileSync("git", ["ls-files", "*.ts", "*.mts", "*.mjs"], { cwd: repoRoot, encoding: "utf8" })
  .split("\n")
  .filter((file) => file !== "" && !file.endsWith(".d.ts"));

const imports = new Map<string, string[]>(
  sources.map((file) => {
    const text = readFileSync(join(repoRoot, file), "utf8");
    const targets = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm)]
      .map((m) => resolve(file, (m[1] ?? m[2]) as string))
      .filter((target): target is string => target !== undefined);
    return [file, targets];
  }),
);

describe("the layers", () => {
  it("reads the imports of every source file (a parser that found nothing would prove nothing)", () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(imports.get("functions/tools/cancel-order.ts")).toContain("functions/runtime/change-tool.ts");
    expect(imports.get("lib/app.ts")?.length).toBeGreaterThan(0);
  });

  it("each area imports only the areas below it", () => {
    const wrong: string[] = [];
    for (const [file, targets] of imports) {
      const from = areaOf(file);
      if (from === "bench" || from === "test") continue;
      for (const target of targets) {
        const to = areaOf(target);
        if (to === from) continue;
        if (!(allowed[from] ?? []).includes(to)) wrong.push(`${file} imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("inside the controller, each area imports only the areas below it", () => {
    const known = new Set<string>(controllerAreas);
    const strays = [...imports.keys()].filter((file) => file.startsWith("controller/") && !known.has(controllerAreaOf(file) ?? ""));
    expect(strays).toEqual([]);
    const wrong: string[] = [];
    for (const [file, targets] of imports) {
      const from = controllerAreaOf(file);
      if (from === undefined) continue;
      for (const target of targets) {
        const to = controllerAreaOf(target);
        if (to === undefined || to === from) continue;
        if (controllerAreas.indexOf(to as never) >= controllerAreas.indexOf(from as never))
          wrong.push(`${file} (${from}) imports ${target} (${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has no import cycle between files", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "open");
      for (const target of imports.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, "done");
    };
    for (const file of imports.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
