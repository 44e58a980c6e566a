import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/**
 * A reader's path: the README is a front door a newcomer finishes before trying the service (1,500 words), the
 * guides in docs/ stay a set one can read (30,000 words in all, counted as `cat docs/*.md | wc -w` counts them),
 * and each guide says in its first line who it is for, so a reader knows whether to go on.
 */
const words = (text: string) => text.split(/\s+/).filter((w) => w !== "").length;
const guides = readdirSync(join(repoRoot, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => ({ file: `docs/${f}`, text: readFileSync(join(repoRoot, "docs", f), "utf8") }));

describe("a reader's path through the docs", () => {
  it("the README stays within 1,500 words", () => {
    expect(words(readFileSync(join(repoRoot, "README.md"), "utf8"))).toBeLessThanOrEqual(1_500);
  });

  it("docs/ stays within 30,000 words in all", () => {
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.reduce((sum, g) => sum + words(g.text), 0)).toBeLessThanOrEqual(30_000);
  });

  it("each guide opens, under its title, with one line saying who it is for", () => {
    const without = guides.filter((g) => !/^# .+\n\n_For [^\n]+_\n/.test(g.text)).map((g) => g.file);
    expect(without).toEqual([]);
  });
});
