import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/**
 * The README is a front door to the guides in docs/: every relative link in it and in them reaches a file that
 * exists, and every `#anchor` a heading of that file, as GitHub names headings. A guide moved or a heading
 * renamed shows up here rather than as a dead link a reader finds.
 */
const parser = new MarkdownIt("default", { html: true });
type Token = ReturnType<typeof parser.parse>[number];

const docsDir = join(repoRoot, "docs");
const documents = [
  "README.md",
  // The package's README and CHANGELOG: npm shows their relative links against the repository's controller/.
  "controller/README.md",
  "controller/CHANGELOG.md",
  ...readdirSync(docsDir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text of an inline token's children, as a heading's anchor is made from it (code spans included). */
const plainText = (tokens: Token[]): string =>
  tokens.map((t) => (t.type === "text" || t.type === "code_inline" ? t.content : plainText(t.children ?? []))).join("");

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, a repeat numbered -1, -2, … */
function anchorsOf(markdown: string): Set<string> {
  const tokens = parser.parse(markdown, {});
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== "heading_open") return;
    const base = plainText(tokens[i + 1]?.children ?? [])
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  return anchors;
}

interface Link {
  from: string;
  target: string;
}

/** Every link and image target in a document that points into the repository (no scheme, no protocol-relative URL). */
function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      const attribute = token.type === "link_open" ? token.attrGet("href") : token.type === "image" ? token.attrGet("src") : null;
      const target = attribute === null ? null : String(attribute);
      if (target !== null && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) links.push({ from: file, target });
      if (token.children) visit(token.children);
    }
  };
  visit(parser.parse(readFileSync(join(repoRoot, file), "utf8"), {}));
  return links;
}

/** Why a link does not resolve, or undefined when it does. */
function brokenBecause({ from, target }: Link): string | undefined {
  const [path = "", fragment] = target.split("#", 2) as [string, string | undefined];
  const file = path === "" ? join(repoRoot, from) : resolve(dirname(join(repoRoot, from)), decodeURIComponent(path));
  if (relative(repoRoot, file).startsWith("..")) return "it points outside the repository";
  if (!existsSync(file)) return `${relative(repoRoot, file)} does not exist`;
  if (fragment === undefined || !file.endsWith(".md") || statSync(file).isDirectory()) return undefined;
  const anchors = anchorsOf(readFileSync(file, "utf8"));
  return anchors.has(fragment) ? undefined : `${relative(repoRoot, file)} has no heading #${fragment}`;
}

describe("links in the README and docs/", () => {
  const links = documents.flatMap(relativeLinks);

  it("every relative link reaches a file that exists, and every #anchor a heading in it", () => {
    // The documents link to each other and to their sections; a checker that found none would check nothing.
    expect(links.length).toBeGreaterThan(40);
    expect(links.some((l) => l.target.includes("#"))).toBe(true);
    const broken = links.flatMap((link) => {
      const why = brokenBecause(link);
      return why ? [`${link.from}: (${link.target}) — ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it("the README links to every guide in docs/", () => {
    const fromReadme = new Set(links.filter((l) => l.from === "README.md").map((l) => l.target.split("#")[0]));
    const unlinked = documents.filter((d) => d.startsWith("docs/") && !fromReadme.has(d));
    expect(unlinked).toEqual([]);
  });

  it("the README stays a front door: at most 300 lines", () => {
    const lines = readFileSync(join(repoRoot, "README.md"), "utf8").split("\n").length - 1;
    expect(lines).toBeLessThanOrEqual(300);
  });
});
