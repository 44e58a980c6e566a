import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * What a new changing tool takes (docs/adding-a-tool.md), held by the type checker: a copy of the tracked tree
 * gets one more changing tool in the contract, and the files the compiler then refuses must be exactly the ones the
 * document lists. A per-tool table that falls to a default for a tool it does not know is missing from that list,
 * and this test fails until it is typed over the tool names (or the document says why it is not).
 */

/**
 * Where the test tool goes in: the contract's registry, as a copy of the entry of `cloned` under another name, put
 * right after it. Only these name the registry's layout.
 */
const registry = { file: "functions/contract/tools.ts", cloned: "offer_replacement", entryStart: "  {\n", entryEnd: "\n  },\n" };
const testTool = "test_change_tool";
const listedIn = "docs/adding-a-tool.md";

const run = promisify(execFile);
const repo = process.cwd();
const copy = mkdtempSync(join(tmpdir(), "order-tools-new-tool-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** The registry's source with the test tool's entry added. */
function withTestTool(source: string): string {
  const at = source.indexOf(`name: "${registry.cloned}",`);
  if (at < 0) throw new Error(`${registry.file} has no entry named ${registry.cloned}: point \`registry\` at the registry's layout`);
  const start = source.lastIndexOf(registry.entryStart, at);
  const end = source.indexOf(registry.entryEnd, at) + registry.entryEnd.length;
  const entry = source.slice(start, end).replace(`name: "${registry.cloned}",`, `name: "${testTool}",`);
  return source.slice(0, end) + entry + source.slice(end);
}

/** The files the document lists between its markers, as written there (`path` at the start of a list item). */
function documentedFiles(): string[] {
  const doc = readFileSync(join(repo, listedIn), "utf8");
  const section = doc.split("<!-- compiler-listed:start -->")[1]?.split("<!-- compiler-listed:end -->")[0];
  if (section === undefined) throw new Error(`${listedIn} lost its compiler-listed markers`);
  return [...section.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1] as string);
}

/** The files `tsc` reports errors in, in a tree. */
async function filesWithErrors(root: string): Promise<string[]> {
  const tsc = join(repo, "node_modules", ".bin", "tsc");
  const output = await run(tsc, ["--noEmit", "-p", "."], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => r.stdout,
    (error: { stdout?: string }) => error.stdout ?? "",
  );
  return [...new Set([...output.matchAll(/^(\S+?)\(\d+,\d+\): error TS\d+/gm)].map((m) => m[1] as string))].sort();
}

describe("adding a changing tool", () => {
  it("the compiler refuses exactly the files the document says a new tool must be taught, and nothing else", async () => {
    const tracked = (await run("git", ["ls-files", "-z"], { cwd: repo, maxBuffer: 64 * 1024 * 1024 })).stdout.split("\0").filter(Boolean);
    for (const path of tracked) {
      try {
        cpSync(join(repo, path), join(copy, path), { recursive: false });
      } catch (error) {
        // A tracked file deleted in the working tree is not part of the tree being checked.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    symlinkSync(join(repo, "node_modules"), join(copy, "node_modules"), "dir");
    const file = join(copy, registry.file);
    const original = readFileSync(file, "utf8");
    writeFileSync(file, withTestTool(original));
    expect(readFileSync(file, "utf8")).toContain(`name: "${testTool}",`);

    const refused = await filesWithErrors(copy);

    expect(refused).toEqual([...documentedFiles()].sort());
  }, 600_000);
});
