import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ControllerOptions, createController } from "#controller/controller";
import { ConfirmationError } from "#controller/changes/settlement";
import { FileIntentStore } from "#controller/intents/file";
import { scriptedModel, type ScriptStep } from "#controller/model/scripted";
import type { ConversationState } from "#controller/state/conversation";
import type { DemoWorld } from "#examples/controller-demo/cases";
import { type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * A change held in one process and answered in the next: on the default store (MemoryIntentStore) the new process
 * has no such change, and the refusal says why and which stores keep changes across a restart; on a FileIntentStore
 * the same press sends the change once. Nothing is sent on the refused press.
 */
let service: ServiceWorld;
let dir: string;
beforeAll(async () => {
  service = await startService();
  dir = await mkdtemp(join(tmpdir(), "order-tools-restart-"));
});
afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One process of the application: its controller (the store the options give, or the default) and what it sent. */
async function process(world: DemoWorld, script: ScriptStep[], intents?: ControllerOptions["intents"]) {
  const fetch = watchedFetch();
  const controller = createController({
    service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId), fetch },
    model: scriptedModel(script),
    confirm: { cancel_order: true },
    ...(intents ? { intents } : {}),
  });
  return { controller, fetch };
}

/** The first process holds the cancellation and the application keeps the conversation's state as JSON. */
async function held(world: DemoWorld, orderId: string, intents?: ControllerOptions["intents"]) {
  const before = await process(world, [{ call: "cancel_order", input: { orderId } }, { say: `I've cancelled ${orderId}.` }], intents);
  const chat = before.controller.conversation(`restart-${world.tag}`);
  const first = await chat.turn(`Please cancel ${orderId}`);
  expect(first.replyKind).toBe("confirmation_request");
  const confirmationId = first.confirmations[0]?.confirmationId as string;
  expect(confirmationId).toBeTruthy();
  return { confirmationId, kept: JSON.stringify(chat.state()) };
}

const restartAdvice =
  "If the process restarted since the change was held, it is gone: the intent store is a MemoryIntentStore (the default when the options name no `intents`), which keeps changes in the process that held them. Keep them where they outlive a restart: `intents: await new FileIntentStore(path).open()` (order-tools/controller) or `intents: new DynamoDbIntentStore({ client, tableName })` (order-tools/controller/dynamodb).";

describe("a held change answered after a restart", () => {
  it("on the default in-memory store: refused, naming the store and the durable ones, and nothing is sent", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { confirmationId, kept } = await held(world, orderId);

    const after = await process(world, []);
    const chat = after.controller.conversation(`restart-${world.tag}`, JSON.parse(kept) as ConversationState);
    const pressed = chat.confirm(confirmationId);
    await expect(pressed).rejects.toBeInstanceOf(ConfirmationError);
    await expect(pressed).rejects.toThrow(
      `There is no change waiting for confirmation ${confirmationId} in conversation restart-${world.tag}: it was settled already, or belongs to another conversation. Use the confirmationId of a change this conversation's last turn returned. ${restartAdvice}`,
    );
    expect(after.fetch.requests).toEqual([]);
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
    expect(await service.operations(world.ana.customerId)).toEqual([]);
  });

  it("a press on a change the same in-memory store settled already is refused without the restart advice", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const one = await process(world, [{ call: "cancel_order", input: { orderId } }, { say: `I've cancelled ${orderId}.` }]);
    const chat = one.controller.conversation(`twice-${world.tag}`);
    const first = await chat.turn(`Please cancel ${orderId}`);
    const confirmationId = first.confirmations[0]?.confirmationId as string;
    await chat.decline(confirmationId);
    const again = chat.confirm(confirmationId);
    await expect(again).rejects.toThrow(/it was settled already/);
    await expect(again).rejects.not.toThrow(/MemoryIntentStore|FileIntentStore/);
    expect(one.fetch.requests.filter((r) => r.tool === "cancel_order")).toEqual([]);
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });

  it("on a FileIntentStore the new process finds the change and sends it once", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const path = join(dir, `intents-${world.tag}`);
    const first = await new FileIntentStore(path).open();
    const { confirmationId, kept } = await held(world, orderId, first);
    await first.close();

    const second = await new FileIntentStore(path).open();
    const after = await process(world, [{ say: `Order ${orderId} is cancelled.` }], second);
    const chat = after.controller.conversation(`restart-${world.tag}`, JSON.parse(kept) as ConversationState);
    const turn = await chat.confirm(confirmationId);
    expect(turn.reply).toBe(`Order ${orderId} is cancelled.`);
    expect(after.fetch.requests.filter((r) => r.tool === "cancel_order")).toHaveLength(1);
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
    expect(await service.operations(world.ana.customerId)).toHaveLength(1);
    await second.close();
  });
});
