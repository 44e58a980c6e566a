import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { type Gateway, startGateway } from "#local/gateway";
import { type localDeps, repoRoot } from "#local/stack";
import { seededLocalTables } from "#test/support/local-tables";

/**
 * A tour as a reader follows it: the shell blocks a Markdown file marks `<!-- tour -->`, in order, run in one bash
 * session. Each curl line carries its expected answer as a comment (`# → 409 VERSION_CONFLICT`, `# → 200
 * replayed`); the only change made to the text is the gateway's address (a free port instead of 3000). The tour's
 * own `call` (curl, then `→ HTTP <status>` on a line of its own) is what tells the answers apart, as it does for a
 * reader.
 */

export interface Expectation {
  command: string;
  status: number;
  code?: string;
  replayed: boolean;
}

export interface Tour {
  /** The marked blocks, each as written. */
  blocks: string[];
  script: string;
  expectations: Expectation[];
}

export interface Answer {
  status: number;
  text: string;
}

const tourBase = `http://127.0.0.1:\${PORT:-3000}`;

/**
 * The tour in `file` (relative to the repository), or in its section `section` (from that heading to the next
 * heading of the same level) when the file holds more than the tour.
 */
export async function tourIn(file: string, section?: string): Promise<Tour> {
  const text = await readFile(join(repoRoot, file), "utf8");
  let part = text;
  if (section !== undefined) {
    const start = text.indexOf(`\n${section}\n`);
    if (start < 0) throw new Error(`${file} has no section "${section}"`);
    const level = /^#+ /.exec(section)?.[0] ?? "## ";
    const end = text.indexOf(`\n${level}`, start + section.length + 1);
    part = text.slice(start, end < 0 ? undefined : end);
  }
  const blocks = [...part.matchAll(/<!-- tour -->\n```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  if (blocks.length === 0) throw new Error(`${file}${section ? `, ${section},` : ""} has no block marked <!-- tour -->`);
  const script = blocks.join("\n");
  // Logical lines: a trailing backslash continues the command on the next line.
  const commands = script
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const expectations = commands
    .filter((line) => /^\s*(curl|call)\s/.test(line))
    .map((line) => {
      const match = /#\s*→\s*(\d{3})(?:\s+([A-Z_]+))?(\s+replayed)?\s*$/.exec(line);
      if (!match) throw new Error(`${file}: tour line has no "# → <status>" comment: ${line}`);
      return { command: line, status: Number(match[1]), ...(match[2] ? { code: match[2] } : {}), replayed: Boolean(match[3]) };
    });
  return { blocks, script, expectations };
}

/** Runs the tour in bash and splits its output at the status line the tour's `call` prints after each answer. */
export function runTour(script: string, baseUrl: string): Promise<{ answers: Answer[]; stderr: string; code: number | null }> {
  const body = script.replaceAll(tourBase, baseUrl);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", body], { cwd: repoRoot, env: { ...process.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      const answers: Answer[] = [];
      let rest = stdout;
      const statusLine = /\n→ HTTP (\d{3})\n/;
      for (let m = statusLine.exec(rest); m; m = statusLine.exec(rest)) {
        answers.push({ status: Number(m[1]), text: rest.slice(0, m.index) });
        rest = rest.slice(m.index + m[0].length);
      }
      resolve({ answers, stderr, code });
    });
  });
}

/** Every call got the status (and error code) its comment says, and a replay says it is one. */
export function expectAnswers(expectations: Expectation[], answers: Answer[], stderr: string): void {
  expect(answers.length, stderr).toBe(expectations.length);
  for (const [i, expected] of expectations.entries()) {
    const answer = answers[i] as Answer;
    const context = `${expected.command}\n→ ${answer.text}`;
    expect(answer.status, context).toBe(expected.status);
    const body = JSON.parse(answer.text.slice(answer.text.indexOf("{"))) as { error?: { code: string }; result?: { isError?: boolean } };
    expect(body.error?.code, context).toBe(expected.code);
    // An MCP tools/call answers 200 even when the tool refuses; the refusal is isError in the result.
    expect(body.result?.isError, context).not.toBe(true);
    if (expected.replayed) expect(answer.text, context).toMatch(/^idempotent-replayed: true\r?$/im);
  }
}

/**
 * A gateway on fresh demo data for the tests of one describe block, started before them and closed after: the URL
 * it serves, once started. A tour uses the named demo orders; the bulk (generated sellers and history) changes none
 * of its answers, so it is left out.
 */
export function tourGateway(): () => string {
  let gateway: Gateway | undefined;
  let deps: ReturnType<typeof localDeps> | undefined;
  beforeAll(async () => {
    deps = await seededLocalTables(splitDemoFixture(demoFixture()).first);
    gateway = await startGateway({ port: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    deps?.client.destroy();
  });
  return () => {
    if (!gateway) throw new Error("The tour's gateway is not started: call tourGateway() inside a describe block, outside its tests.");
    return gateway.url;
  };
}
