import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import { type ScriptStep, scriptedModel } from "#controller/model/scripted";
import { traceDirectory } from "#controller/trace/record";
import { traceCommand } from "#controller/trace/command";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { type Gateway, startGateway } from "#local/gateway";
import { repoRoot } from "#local/stack";
import { seededLocalTables } from "#test/support/local-tables";
import { readFileSync } from "node:fs";
import { demoCases, demoWorld } from "#examples/controller-demo/cases";

/**
 * What docs/controller.md shows a newcomer is what the controller does: its scripted two-turn conversation runs as
 * written against the demo shop, its `problem` is the shape a turn with an expired token returns, and its
 * `order-tools-trace` lines are commands the trace command takes.
 */
const guide = readFileSync(join(repoRoot, "docs", "controller.md"), "utf8");

/** The text of a section of the guide: from its `## ` heading to the next. */
function section(heading: string): string {
  const start = guide.indexOf(`\n## ${heading}`);
  expect(start, `docs/controller.md has lost its section "${heading}"`).toBeGreaterThan(0);
  const end = guide.indexOf("\n## ", start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

/** The first fenced block of a language in a text. */
function block(text: string, language: string): string {
  const found = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\``).exec(text)?.[1];
  expect(found, `no \`\`\`${language} block`).toBeDefined();
  return found as string;
}

let gateway: Gateway;
let token: string;
beforeAll(async () => {
  await seededLocalTables(splitDemoFixture(demoFixture()).first);
  gateway = await startGateway({ port: 0 });
  token = await signDevToken(principalClaims({ customer: "C-1001" }));
});
afterAll(async () => gateway?.close());

describe("docs/controller.md, as a newcomer reads it", () => {
  it("its scripted model's two turns run as written against the demo shop, the message of each turn in its comment", async () => {
    const script = block(section("Scripted models"), "ts runnable");
    const steps = new Function(`return ${/scriptedModel\((\[[\s\S]*?\])\);/.exec(script)?.[1]}`)() as ScriptStep[];
    const messages = [...script.matchAll(/\/\/ turn \d: "([^"]+)"/g)].map((m) => m[1] as string);
    expect(messages).toHaveLength(2);
    const controller = createController({ service: { baseUrl: gateway.url, token }, model: scriptedModel(steps) });
    const conversation = controller.conversation("guide-script");
    const replies = [];
    for (const message of messages) {
      const turn = await conversation.turn(message);
      expect(turn.problem).toBeUndefined();
      replies.push(turn.reply);
    }
    // Each turn shows the script's own reply: the gate let every sentence through.
    expect(replies).toEqual(steps.flatMap((step) => ("say" in step ? [step.say] : [])));
  });

  it("counts the conversations `npm run demo` runs as the demo has them", () => {
    const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    const said = /`npm run demo` runs (\w+) scripted conversations/.exec(guide)?.[1];
    expect(said, "the guide says how many conversations `npm run demo` runs").toBeDefined();
    expect(words.indexOf(said as string)).toBe(demoCases(demoWorld(0)).length);
  });

  it("its problem is the shape, code and message a turn with an expired token returns", async () => {
    const shown = JSON.parse(block(section("When a turn cannot do its work"), "json")) as Record<string, unknown>;
    const expired = await signDevToken({ ...principalClaims({ customer: "C-1001" }), exp: Math.floor(Date.now() / 1000) - 60 });
    const controller = createController({
      service: { baseUrl: gateway.url, token: expired },
      model: scriptedModel([{ call: "get_order", input: { orderId: "SU-88421" } }, { say: "It was delivered." }]),
    });
    const { problem } = await controller.conversation("guide-problem").turn("Where is my order SU-88421?");
    expect(Object.keys(shown).sort()).toEqual(Object.keys(problem ?? {}).sort());
    const { message, ...rest } = problem ?? { message: "" };
    const { message: shownMessage, ...shownRest } = shown;
    expect(shownRest).toEqual(rest);
    // The service's own words quoted inside the message name a time; the rest is word for word.
    const without = (text: string) => text.replace(/\("[^"]*"\)/, '("…")');
    expect(without(String(shownMessage))).toBe(without(message));
  });

  it("its order-tools-trace lines are commands the trace command takes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guide-traces-"));
    try {
      const controller = createController({
        service: { baseUrl: gateway.url, token },
        model: scriptedModel([{ say: "Hello." }]),
        trace: traceDirectory(dir),
      });
      const turn = await controller.conversation("chat-C-1001").turn("Hi");
      const lines = block(section("Seeing what happened"), "sh")
        .split("\n")
        .map((line) => line.replace(/#.*$/, "").trim())
        .filter((line) => line.startsWith("npx order-tools-trace "));
      expect(lines).toHaveLength(3);
      for (const line of lines) {
        const args = line
          .split(/\s+/)
          .slice(2)
          .map((arg) => (arg === ".data/traces" ? dir : arg.endsWith("…") ? turn.trace.traceId : arg));
        const err: string[] = [];
        const code = await traceCommand(args, { out: () => undefined, err: (text) => err.push(text) });
        expect([line, code, err]).toEqual([line, 0, []]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
