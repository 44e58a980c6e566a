import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import type { TurnResult } from "#controller/conversation";
import { scriptedModel } from "#controller/model/scripted";
import { traceDirectory } from "#controller/trace/record";
import { traceCommand } from "#controller/trace/command";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * `order-tools-trace` on what `traceDirectory` wrote: a conversation whose first turn held a cancellation and
 * whose second (the application's confirm button) sent it. The send is logged by the service under the second
 * turn's trace id; the second turn's trace names the first, and asking for the first's id finds both.
 */
let service: ServiceWorld;
let dir: string;
let held: TurnResult;
let pressed: TurnResult;
let orderId: string;

beforeAll(async () => {
  service = await startService();
  dir = await mkdtemp(join(tmpdir(), "order-tools-traces-"));
  const world = await service.freshWorld();
  orderId = world.orders.success;
  const controller = createController({
    service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId) },
    model: scriptedModel([{ call: "cancel_order", input: { orderId } }, { say: "Shall I?" }]),
    confirm: { cancel_order: true },
    trace: traceDirectory(dir),
  });
  const conversation = controller.conversation("first-hour");
  held = await conversation.turn(`Cancel ${orderId}, please.`);
  pressed = await conversation.confirm(held.confirmations[0]!.confirmationId);
});
afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await traceCommand(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("order-tools-trace", () => {
  it("prints a directory's turns in order, each under a heading, in the compact view", async () => {
    const { code, out, err } = await run(dir);
    expect(err).toBe("");
    expect(code).toBe(0);
    const headings = out.split("\n").filter((line) => line.startsWith("first-hour · "));
    expect(headings).toEqual([
      expect.stringMatching(new RegExp(`^first-hour · turn 1 · trace ${held.trace.traceId} · .* · scripted$`)),
      expect.stringMatching(new RegExp(`^first-hour · turn 2 · trace ${pressed.trace.traceId} · .* · scripted$`)),
    ]);
    expect(out).toContain(`  customer  "Cancel ${orderId}, please."`);
    expect(out).toContain(`  confirm   confirmed by button ${held.confirmations[0]!.confirmationId}`);
    // The confirming turn's send names the turn that held it.
    expect(out).toMatch(
      new RegExp(`  intent    op-\\S+ awaiting_confirmation → persisted → sent \\(held in turn 1, trace\\s+${held.trace.traceId}\\)`),
    );
    expect(out).toContain(`  reply     Order ${orderId} is cancelled.`);
  });

  it("--trace with the holding turn's id finds it and the turn that sent its change", async () => {
    const { code, out } = await run(dir, "--trace", held.trace.traceId);
    expect(code).toBe(0);
    expect(
      out
        .split("\n")
        .filter((line) => line.startsWith("first-hour · "))
        .map((line) => line.split(" · ")[1]),
    ).toEqual(["turn 1", "turn 2"]);
    const second = await run(dir, "--trace", pressed.trace.traceId);
    expect(second.out.split("\n").filter((line) => line.startsWith("first-hour · "))).toHaveLength(1);
  });

  it("one file prints one turn", async () => {
    const { code, out } = await run(join(dir, "first-hour.2.json"));
    expect(code).toBe(0);
    expect(out.split("\n")[0]).toMatch(/^first-hour · turn 2 · /);
  });

  it("says what is wrong with what it was given, and exits 1", async () => {
    expect(await run()).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^Give a trace file or a directory of them\.\n\nUsage: order-tools-trace/),
    });
    expect(await run(join(dir, "missing.json"))).toMatchObject({
      code: 1,
      err: `${join(dir, "missing.json")}: no such file or directory.`,
    });
    const notATrace = join(dir, "notes.json");
    await writeFile(notATrace, '{"hello": 1}');
    try {
      expect(await run(dir)).toMatchObject({
        code: 1,
        err: `${notATrace} is not a turn's trace: one is the JSON traceDirectory(dir) writes, with conversationId, turn, traceId and events.`,
      });
    } finally {
      await rm(notATrace);
    }
    expect(await run(dir, "--trace", "1-00000000-000000000000000000000000")).toMatchObject({
      code: 1,
      err: `No turn of trace 1-00000000-000000000000000000000000 in ${dir} (2 traces read).`,
    });
    expect(await run(dir, "--turn", "2")).toMatchObject({ code: 1, err: expect.stringMatching(/^Unknown option '--turn'/) });
  });
});
