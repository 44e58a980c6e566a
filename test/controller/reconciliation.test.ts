import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createController, type ControllerOptions } from "#controller/controller";
import type { Fault } from "#controller/http/faults";
import { type TestSeams, withTestSeams } from "#controller/testing";
import { FileIntentStore } from "#controller/intents/file";
import { MemoryIntentStore } from "#controller/intents/memory";
import type { IntentStore } from "#controller/intents/store";
import { scriptedModel, type ScriptStep } from "#controller/model/scripted";
import { DynamoDbIntentStore } from "#controller/intents/dynamodb";
import {
  claimsSuccess,
  crashingStore,
  freshIntentTable,
  type ServiceWorld,
  SimulatedCrash,
  startService,
  watchedFetch,
} from "#test/controller/support/service-world";

/**
 * Unknown outcomes (contract §8.1 steps 3–4): a lost response after commit, status lookups that time out too,
 * a 503 before commit, and crashes around the send. In each: exactly one change, one operationId throughout,
 * and no confirmation before the outcome is known.
 */
let service: ServiceWorld;
let dir: string;
let dynamo: Awaited<ReturnType<typeof freshIntentTable>>;
beforeAll(async () => {
  service = await startService();
  dir = await mkdtemp(join(tmpdir(), "controller-intents-"));
  dynamo = await freshIntentTable();
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
  dynamo?.client.destroy();
});

/** The order each test cancels: the lost-response order of the test's own fresh world. */
let orderId: string;
const cancelScript = (): ScriptStep[] => [
  { call: "cancel_order", input: { orderId } },
  // A model that believes its own call: the gate must stop this unless the outcome is known.
  { say: `Order ${orderId} is cancelled.` },
];

async function freshWorld() {
  const world = await service.freshWorld();
  orderId = world.orders.lostResponse;
  return world;
}

async function controllerFor(customerId: string, options: Partial<ControllerOptions> & { script?: ScriptStep[]; seams?: TestSeams } = {}) {
  const fetch = watchedFetch();
  const progress: string[] = [];
  const { seams = {}, script, ...rest } = options;
  const controller = createController(
    withTestSeams(
      {
        service: { baseUrl: service.gatewayUrl, token: await service.token(customerId), fetch },
        model: scriptedModel(script ?? cancelScript()),
        intents: options.intents ?? new MemoryIntentStore(),
        reconcile: { baseDelayMs: 5, maxDelayMs: 20, maxStatusChecks: 3 },
        ...rest,
      },
      seams,
    ),
  );
  return { controller, fetch, progress };
}

/** Exactly one change on the order, one completed operation record, and every request carrying its id. */
async function expectOneChange(customerId: string, fetch: ReturnType<typeof watchedFetch>) {
  expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
  const operations = await service.operations(customerId);
  expect(operations).toHaveLength(1);
  expect(operations[0]).toMatchObject({ status: "completed", tool: "cancel_order" });
  const operationId = operations[0]?.PK.split("#").at(-1);
  const ids = new Set(fetch.requests.filter((r) => r.tool !== "get_order").map((r) => r.body.operationId));
  expect(ids).toEqual(new Set([operationId]));
  return operationId as string;
}

describe("reconciliation of unknown outcomes", () => {
  it("a response lost after commit is reconciled through get_operation_status; progress never claims success", async () => {
    const world = await freshWorld();
    const { controller, fetch } = await controllerFor(world.ana.customerId, {
      seams: { faults: [{ kind: "lose_response", tool: "cancel_order" }] },
    });
    const progress: string[] = [];
    const seen: string[] = [];
    const turn = await controller.conversation("lost").turn(`Cancel ${orderId}`, {
      onProgress: (text) => {
        progress.push(text);
        seen.push("progress");
      },
      onReply: () => seen.push("reply"),
    });

    const operationId = await expectOneChange(world.ana.customerId, fetch);
    expect(fetch.requests.map((r) => r.tool)).toEqual(["cancel_order", "get_operation_status"]);
    expect(turn.replyKind).toBe("confirmation");
    expect(turn.reply).toBe(`Order ${orderId} is cancelled.`);
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(claimsSuccess(line)).toBe(false);
    expect(seen.at(-1)).toBe("reply");
    expect(seen.filter((s) => s === "reply")).toHaveLength(1);
    expect(turn.trace.events.filter((e) => e.type === "fault")).toEqual([
      expect.objectContaining({ kind: "lose_response", tool: "cancel_order" }),
    ]);
    expect((await controller.store.forConversation("lost"))[0]).toMatchObject({
      operationId,
      state: "completed",
      sends: 1,
      outcome: { via: "reconciliation" },
    });
  });

  it("status lookups that time out too: the turn ends uncertain, the next turn reconciles first and only then confirms", async () => {
    const world = await freshWorld();
    const faults: Fault[] = [
      { kind: "lose_response", tool: "cancel_order" },
      { kind: "lose_status", times: 3 },
    ];
    const { controller, fetch } = await controllerFor(world.ana.customerId, {
      seams: { faults },
      script: [...cancelScript(), { say: `Order ${orderId} is cancelled.` }],
    });
    const conversation = controller.conversation("lost-status");
    const first = await conversation.turn(`Cancel ${orderId}`);

    // The model said "cancelled"; the outcome is unknown, so the customer is told exactly that.
    expect(first.replyKind).toBe("uncertainty");
    expect(first.reply).not.toMatch(/is cancelled/);
    expect(claimsSuccess(first.reply)).toBe(false);
    expect(first.trace.flags).toContain("claim_mismatch");
    expect(fetch.requests.map((r) => r.tool)).toEqual([
      "cancel_order",
      "get_operation_status",
      "get_operation_status",
      "get_operation_status",
    ]);
    const [intent] = await controller.store.forConversation("lost-status");
    expect(intent).toMatchObject({ state: "unknown", sends: 1 });
    // The change did happen: the service committed it; only the controller does not know yet.
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });

    const second = await conversation.turn("Did that go through?");
    const kinds = second.trace.events.map((e) => e.type);
    expect(kinds.indexOf("http_request")).toBeLessThan(kinds.indexOf("model_request"));
    expect(second.trace.events.find((e) => e.type === "http_request")).toMatchObject({
      tool: "get_operation_status",
      operationId: intent?.operationId,
    });
    expect(second.replyKind).toBe("confirmation");
    expect(second.reply).toBe(`Order ${orderId} is cancelled.`);
    await expectOneChange(world.ana.customerId, fetch);
    expect((await controller.store.forConversation("lost-status"))[0]).toMatchObject({
      operationId: intent?.operationId,
      state: "completed",
    });
  });

  it("a 503 before commit: not found on lookup, resent with the same operationId, applied once", async () => {
    const world = await freshWorld();
    const { controller, fetch } = await controllerFor(world.ana.customerId, {
      seams: { faults: [{ kind: "service_error_before_commit", tool: "cancel_order" }] },
    });
    const turn = await controller.conversation("503").turn(`Cancel ${orderId}`);

    const operationId = await expectOneChange(world.ana.customerId, fetch);
    // The controller sent three requests; the first never reached the service (the 503 came from in between).
    const sent = turn.trace.events.filter((e) => e.type === "http_request");
    expect(sent.map((e) => [e.tool, e.operationId])).toEqual([
      ["cancel_order", operationId],
      ["get_operation_status", operationId],
      ["cancel_order", operationId],
    ]);
    expect(fetch.requests.map((r) => r.tool)).toEqual(["get_operation_status", "cancel_order"]);
    expect(sent[0]?.body).toEqual(sent[2]?.body);
    const reconcile = turn.trace.events.filter((e) => e.type === "reconcile").map((e) => (e as { action: string }).action);
    expect(reconcile).toEqual(["wait", "status", "resend"]);
    expect(turn.replyKind).toBe("confirmation");
    expect((await controller.store.forConversation("503"))[0]).toMatchObject({ state: "completed", sends: 2 });
  });
});

describe("a controller that crashes resumes its persisted intents with the same operationId", () => {
  // Each "open" is a new instance on the same file or table: what a restarted process would make. The crashed
  // instance's file is left open, as a crash leaves it, until the test is over; then each is closed, so that Node
  // does not close the handles on garbage collection (a warning, and deprecated: DEP0137).
  const fileStores: FileIntentStore[] = [];
  afterEach(async () => {
    await Promise.allSettled(fileStores.splice(0).map((store) => store.close()));
  });
  const openFile = (path: string) => {
    const store = new FileIntentStore(path);
    fileStores.push(store);
    return store;
  };
  const storeKinds: { name: string; open: (path: string) => IntentStore }[] = [
    { name: "file", open: openFile },
    { name: "DynamoDB", open: () => new DynamoDbIntentStore({ client: dynamo.client, tableName: dynamo.tableName }) },
  ];

  for (const { name, open } of storeKinds) {
    it(`crash between persisting the intent and sending it (${name} store): a new controller never sends it unseen; it asks again, and a yes sends it once`, async () => {
      const world = await freshWorld();
      const path = join(dir, `crash-before-send-${world.tag}.jsonl`);
      const { controller, fetch } = await controllerFor(world.ana.customerId, { intents: crashingStore(open(path), "sent", "before") });
      const crashed = controller.conversation("crash-1");
      await expect(crashed.turn(`Cancel ${orderId}`)).rejects.toThrow(SimulatedCrash);
      expect(fetch.requests).toEqual([]);
      // The failed turn left the conversation as it was before it.
      expect(crashed.state()).toMatchObject({ turns: 0, messages: [] });
      expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });

      const restarted = await controllerFor(world.ana.customerId, {
        intents: open(path),
        script: [{ say: "Shall I?" }, { say: `Order ${orderId} is cancelled.` }],
      });
      const [persisted] = await restarted.controller.store.resumable();
      expect(persisted).toMatchObject({ state: "persisted", orderId, sends: 0 });
      const [held] = await restarted.controller.resume();

      // Persisted and never sent: resume() holds it, and the principal is asked at their next turn.
      expect(held).toMatchObject({ operationId: persisted?.operationId, state: "awaiting_confirmation", sends: 0 });
      expect(restarted.fetch.requests).toEqual([]);
      expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
      const conversation = restarted.controller.conversation("crash-1", crashed.state());
      const asked = await conversation.turn("Hello?");
      expect(asked.replyKind).toBe("confirmation_request");
      expect(asked.confirmations).toEqual([
        expect.objectContaining({ operationId: persisted?.operationId, tool: "cancel_order", orderId }),
      ]);
      expect(restarted.fetch.requests).toEqual([]);

      const confirmed = await conversation.turn("Yes, please.");
      expect(confirmed.replyKind).toBe("confirmation");
      const operationId = await expectOneChange(world.ana.customerId, restarted.fetch);
      expect(operationId).toBe(persisted?.operationId);
      expect(restarted.fetch.requests.map((r) => r.tool)).toEqual(["cancel_order"]);
      expect(await restarted.controller.store.resumable()).toEqual([]);
    });

    it(`crash after sending, before the outcome was recorded (${name} store): a new controller reconciles it without resending`, async () => {
      const world = await freshWorld();
      const path = join(dir, `crash-after-send-${world.tag}.jsonl`);
      const { controller, fetch } = await controllerFor(world.ana.customerId, {
        intents: crashingStore(open(path), "completed", "before"),
      });
      await expect(controller.conversation("crash-2").turn(`Cancel ${orderId}`)).rejects.toThrow(SimulatedCrash);
      expect(fetch.requests.map((r) => r.tool)).toEqual(["cancel_order"]);
      expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });

      const restarted = await controllerFor(world.ana.customerId, {
        intents: open(path),
        script: [{ say: `Order ${orderId} is cancelled.` }],
      });
      const [sent] = await restarted.controller.store.resumable();
      expect(sent).toMatchObject({ state: "sent", sends: 1 });
      const [finished] = await restarted.controller.resume();

      expect(finished).toMatchObject({ operationId: sent?.operationId, state: "completed", sends: 1, outcome: { via: "reconciliation" } });
      expect(restarted.fetch.requests).toEqual([{ tool: "get_operation_status", body: { operationId: sent?.operationId } }]);
      await expectOneChange(world.ana.customerId, { requests: [...fetch.requests, ...restarted.fetch.requests] } as ReturnType<
        typeof watchedFetch
      >);

      // The conversation, continued on the new controller, hears the outcome first and confirms it.
      const next = await restarted.controller.conversation("crash-2").turn("Did it work?");
      expect(next.outcomes).toEqual([expect.objectContaining({ kind: "completed", operationId: sent?.operationId })]);
      expect(next.replyKind).toBe("confirmation");
      expect(next.reply).toBe(`Order ${orderId} is cancelled.`);
    });
  }
});
