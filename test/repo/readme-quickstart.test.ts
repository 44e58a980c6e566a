import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/**
 * The README's Quickstart tells a newcomer what their first commands do before they run them: how long the whole
 * suite takes and how to run one file, and what the warning `npm install` prints first on a Node older than 22 is — the package
 * it names being one the lockfile pins, with the engine it names.
 */
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const quickstart = readme.slice(readme.indexOf("## Quickstart"), readme.indexOf("### A short tour"));
const commands = (/```sh\n([\s\S]*?)\n```/.exec(quickstart)?.[1] ?? "").split("\n").map((line) => {
  const [command = "", comment = ""] = line.split(/\s+#\s+/, 2);
  return { command: command.trim(), comment: comment.trim() };
});

describe("the README's Quickstart", () => {
  it("keeps its two commands, says the whole suite takes minutes, and shows how to run one file", () => {
    expect(commands.map((c) => c.command).slice(0, 2)).toEqual(["npm install && npm start", "npm test"]);
    expect(commands[1]?.comment).toMatch(/\d+–\d+ minutes$/);
    const one = commands.find((c) => /^npm test -- \S+\.test\.ts$/.test(c.command));
    expect(one, "a `npm test -- <file>` line").toBeDefined();
    expect(existsSync(join(repoRoot, one!.command.split(" ").at(-1) as string))).toBe(true);
  });

  it("explains the EBADENGINE warning npm install prints on a Node older than 22, naming a package the lockfile pins with that engine", () => {
    const named = /`npm warn EBADENGINE Unsupported engine` for\s+`([^`@]+)@([^`]+)` \(`required: \{ node: '([^']+)' \}`\)/.exec(
      quickstart,
    );
    expect(named, "the Quickstart names the package and the engine of the EBADENGINE warning").not.toBeNull();
    const [, name, version, engine] = named as unknown as [string, string, string, string];
    const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; engines?: { node?: string } }>;
    };
    const pinned = Object.entries(lock.packages).filter(
      ([path, entry]) => path.endsWith(`node_modules/${name}`) && entry.version === version,
    );
    expect(pinned.map(([, entry]) => entry.engines?.node)).toContain(engine);
    expect(quickstart).toMatch(/Nothing needs doing/);
  });
});
