import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { type Gateway, startGateway } from "#local/gateway";
import { type localDeps, repoRoot } from "#local/stack";
import { seededLocalTables } from "#test/support/local-tables";

/**
 * The README's 5-minute tour, run as written: every shell block marked `<!-- tour -->` in the Quickstart
 * section, in order, in one bash session, against a gateway on fresh demo data. Each curl line carries its
 * expected answer as a comment (`# → 409 VERSION_CONFLICT`, `# → 200 replayed`); the only change made to the
 * text is the gateway's address (a free port instead of 3000). The tour's own `call` (curl, then `→ HTTP <status>`
 * on a line of its own) is what tells the answers apart, as it does for a reader.
 */

interface Expectation {
  command: string;
  status: number;
  code?: string;
  replayed: boolean;
}

const readmeBase = `http://127.0.0.1:\${PORT:-3000}`;

async function tourFromReadme(): Promise<{ script: string; expectations: Expectation[] }> {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quickstart"), readme.indexOf("## Operation semantics"));
  const blocks = [...section.matchAll(/<!-- tour -->\n```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
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
      if (!match) throw new Error(`README tour line has no "# → <status>" comment: ${line}`);
      return { command: line, status: Number(match[1]), ...(match[2] ? { code: match[2] } : {}), replayed: Boolean(match[3]) };
    });
  return { script, expectations };
}

interface Answer {
  status: number;
  text: string;
}

/** Runs the tour in bash and splits its output at the status line the tour's `call` prints after each answer. */
function runTour(script: string, baseUrl: string): Promise<{ answers: Answer[]; stderr: string; code: number | null }> {
  const body = script.replaceAll(readmeBase, baseUrl);
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

describe("the README tour", () => {
  let gateway: Gateway;
  let deps: ReturnType<typeof localDeps>;
  beforeAll(async () => {
    // The tour uses the named demo orders; the bulk (generated sellers and history) changes none of its answers.
    deps = await seededLocalTables(splitDemoFixture(demoFixture()).first);
    gateway = await startGateway({ port: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    deps?.client.destroy();
  });

  it("every curl line has an expected answer, and the tour covers what a newcomer should see", async () => {
    const { expectations } = await tourFromReadme();
    expect(expectations.length).toBeGreaterThanOrEqual(15);
    const codes = new Set(expectations.map((e) => e.code));
    for (const code of [
      "VERSION_CONFLICT",
      "ORDER_NOT_FOUND",
      "OPERATION_NOT_FOUND",
      "INVALID_INPUT",
      "NOT_ELIGIBLE",
      "SELLER_SUSPENDED",
      "OUT_OF_STOCK",
      "NO_PICKUP_SLOT",
      "UNAUTHENTICATED",
      "FORBIDDEN",
    ]) {
      expect(codes, code).toContain(code);
    }
    for (const tool of [
      "search_orders",
      "get_order",
      "cancel_order",
      "add_delivery_note",
      "start_return",
      "offer_replacement",
      "get_operation_status",
      "operations/",
    ]) {
      expect(
        expectations.some((e) => e.command.includes(tool)),
        tool,
      ).toBe(true);
    }
    expect(expectations.some((e) => e.replayed)).toBe(true);
  });

  it("runs as written: each call gets the status (and error code) its comment says", async () => {
    const { script, expectations } = await tourFromReadme();
    const { answers, stderr } = await runTour(script, gateway.url);
    expect(answers.length, stderr).toBe(expectations.length);
    for (const [i, expected] of expectations.entries()) {
      const answer = answers[i] as Answer;
      const json = answer.text.slice(answer.text.indexOf("{"));
      const context = `${expected.command}\n→ ${answer.text}`;
      expect(answer.status, context).toBe(expected.status);
      const body = JSON.parse(json) as { error?: { code: string }; result?: { isError?: boolean } };
      expect(body.error?.code, context).toBe(expected.code);
      // An MCP tools/call answers 200 even when the tool refuses; the refusal is isError in the result.
      expect(body.result?.isError, context).not.toBe(true);
      if (expected.replayed) expect(answer.text, context).toMatch(/^idempotent-replayed: true\r?$/im);
    }
  }, 120_000);
});
