import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { access } from "node:fs/promises";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { isProcessAlive, repoRoot, stateFile } from "#local/stack";

/**
 * `npm start` itself, as a developer runs it: a child process on free ports with its own DynamoDB Local. It
 * must answer a tokened request, and SIGTERM (to npm) or Ctrl-C (SIGINT to the process group) must stop the
 * gateway and Java. Java is found by walking this child's own process tree, since other test files run their
 * own Java at the same time.
 */

const startTimeoutMs = 90_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Every process below `root`, with its command line (ps works on Linux and macOS). */
function descendants(root: number): { pid: number; args: string }[] {
  const rows = execFileSync("ps", ["-A", "-o", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] as string }));
  const found: { pid: number; args: string }[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push({ pid: row.pid, args: row.args });
      queue.push(row.pid);
    }
  }
  return found;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Started {
  child: ChildProcess;
  output: () => string;
  /** stderr alone, in its own order. */
  errors: () => string;
  port: number;
  dynamodbPort: number;
  /** Milliseconds from spawning `npm start` to the first answered tokened request. */
  firstAnswerMs: number;
  java: { pid: number; args: string };
  gatewayPids: number[];
}

const started: ChildProcess[] = [];

async function startNpmStart(options: { detached?: boolean } = {}): Promise<Started> {
  const [port, dynamodbPort] = [await freePort(), await freePort()];
  const token = await signDevToken(principalClaims({ customer: "C-1001" }));
  const begin = Date.now();
  const child = spawn("npm", ["start"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DYNAMODB_PORT: String(dynamodbPort), ORDER_TOOLS_FIXTURE: "" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? false,
  });
  started.push(child);
  let output = "";
  let errors = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    errors += chunk;
  });
  const listening = new RegExp(`^order-tools listening on http://127\\.0\\.0\\.1:${port}$`, "m");
  await until(() => listening.test(output) || child.exitCode !== null, startTimeoutMs, "npm start prints its listening line").catch(
    (error: Error) => {
      throw new Error(`${error.message}\n${output}`);
    },
  );
  expect(child.exitCode, output).toBeNull();

  const response = await fetch(`http://127.0.0.1:${port}/v1/tools/get_order`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify({ orderId: "SU-88421" }),
  });
  const firstAnswerMs = Date.now() - begin;
  expect(response.status, await response.clone().text()).toBe(200);
  expect(await response.json()).toMatchObject({
    orderId: "SU-88421",
    seller: { id: "SLR-2210" },
    policy: { ref: "seller-supp/SLR-2210", returnWindowDays: 14 },
  });

  const tree = descendants(child.pid as number);
  const javas = tree.filter((p) => p.args.includes("DynamoDBLocal.jar"));
  expect(javas).toHaveLength(1);
  const java = javas[0] as { pid: number; args: string };
  expect(java.args).toContain(`-port ${dynamodbPort}`);
  const gatewayPids = tree.filter((p) => p.args.includes("local/start.ts")).map((p) => p.pid);
  // The sh, tsx and node processes npm runs: without them the "gateway has exited" check below would hold vacuously.
  expect(gatewayPids.length).toBeGreaterThanOrEqual(2);
  return { child, output: () => output, errors: () => errors, port, dynamodbPort, firstAnswerMs, java, gatewayPids };
}

async function expectAllStopped(stack: Started): Promise<void> {
  await until(() => stack.child.exitCode !== null || stack.child.signalCode !== null, 20_000, "npm exits");
  await until(() => !isProcessAlive(stack.java.pid), 20_000, `DynamoDB Local (pid ${stack.java.pid}) has exited`);
  await until(() => stack.gatewayPids.every((pid) => !isProcessAlive(pid)), 20_000, "the gateway process has exited");
  await expect(fetch(`http://127.0.0.1:${stack.port}/v1/tools/get_order`, { method: "POST", body: "{}" })).rejects.toThrow();
  await expect(access(stateFile(stack.port))).rejects.toThrow();
}

afterEach(() => {
  // A failed test must not leave its stack behind: SIGKILL the whole tree we started, by pid.
  for (const child of started.splice(0)) {
    if (child.pid === undefined) continue;
    for (const { pid } of descendants(child.pid).reverse()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {}
  }
});

describe("npm start", () => {
  it(
    "answers a tokened request, and SIGTERM to npm stops the gateway and DynamoDB Local",
    async () => {
      const stack = await startNpmStart();
      console.log(`npm start: first tokened request answered ${(stack.firstAnswerMs / 1000).toFixed(1)} s after the command`);
      expect(stack.output()).toMatch(/^ {2}TOKEN=[\w-]+\.[\w-]+\.[\w-]+$/m);
      expect(stack.output()).toMatch(/^ {2}curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/tools\//m);
      await access(stateFile(stack.port));

      // oidc-provider (the local OAuth sign-in) prints a notice on a Node older than 22: at start, before the
      // banner, with what it means on the next line, not unexplained amid the request lines of the first sign-in.
      const notice = stack.output().indexOf("oidc-provider WARNING: Unsupported runtime");
      if (Number(process.versions.node.split(".")[0]) < 22) {
        expect(stack.errors()).toMatch(
          /^oidc-provider WARNING: Unsupported runtime\.[^\n]*\n {2}↳ That is the library behind the local OAuth sign-in [^\n]* works on this Node 20\.[^\n]*Nothing to do\.$/m,
        );
        expect(notice).toBeGreaterThan(-1);
        expect(notice).toBeLessThan(stack.output().indexOf("order-tools listening on"));
      } else {
        expect(notice).toBe(-1);
      }

      stack.child.kill("SIGTERM");
      await expectAllStopped(stack);
    },
    startTimeoutMs + 60_000,
  );

  it(
    "Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops everything too",
    async () => {
      const stack = await startNpmStart({ detached: true });
      process.kill(-(stack.child.pid as number), "SIGINT");
      await expectAllStopped(stack);
      expect(stack.output()).toMatch(/SIGINT: stopping the gateway and DynamoDB Local/);
    },
    startTimeoutMs + 60_000,
  );
});
