import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController, type ControllerOptions } from "#controller/controller";
import { DynamoDbIntentStore } from "#controller/intents/dynamodb";
import { type Intent, moved } from "#controller/intents/intent";
import type { IntentStore } from "#controller/intents/store";
import { scriptedModel, type ScriptStep } from "#controller/model/scripted";
import { type TestSeams, withTestSeams } from "#controller/testing";
import { freshIntentTable, type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * One intent per change, across controllers: the controllers here share a DynamoDB intent store (as two
 * processes of one application would) and talk to the real handlers over HTTP. A change is one operationId
 * however many times, and by however many controllers, it is proposed; turns of one conversation run one at
 * a time; resume() leaves alone what another live controller is driving.
 */
let service: ServiceWorld;
let dynamo: Awaited<ReturnType<typeof freshIntentTable>>;
beforeAll(async () => {
  service = await startService();
  dynamo = await freshIntentTable();
});
afterAll(async () => {
  await service?.close();
  dynamo?.client.destroy();
});

const store = () => new DynamoDbIntentStore({ client: dynamo.client, tableName: dynamo.tableName });
const quick = { baseDelayMs: 5, maxDelayMs: 20, maxStatusChecks: 2 };

async function controller(customerId: string, script: ScriptStep[], extra: Partial<ControllerOptions> & { seams?: TestSeams } = {}) {
  const fetch = watchedFetch();
  const { seams = {}, ...options } = extra;
  return {
    fetch,
    controller: createController(
      withTestSeams(
        {
          service: { baseUrl: service.gatewayUrl, token: await service.token(customerId), fetch },
          model: scriptedModel(script),
          intents: options.intents ?? store(),
          reconcile: quick,
          ...options,
        },
        seams,
      ),
    ),
  };
}

const cancelIds = (fetch: ReturnType<typeof watchedFetch>) =>
  new Set(fetch.requests.filter((r) => r.tool === "cancel_order").map((r) => r.body.operationId));

describe("a re-proposal is not a new change", () => {
  it("a repeated 'please cancel' while the first is unknown reconciles the first: one operationId", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.lostResponse;
    const script: ScriptStep[] = [
      { call: "cancel_order", input: { orderId } },
      { say: "Sent." },
      { call: "cancel_order", input: { orderId } },
      { say: "Sent again." },
    ];
    const { controller: c, fetch } = await controller(world.ana.customerId, script, {
      seams: {
        faults: [
          { kind: "lose_response", tool: "cancel_order" },
          { kind: "lose_status", times: 2 },
        ],
      },
    });
    const conversation = c.conversation(`repeat-${world.tag}`);
    const first = await conversation.turn(`Please cancel ${orderId}`);
    expect(first.replyKind).toBe("uncertainty");
    const second = await conversation.turn(`Please cancel ${orderId}`);
    expect(cancelIds(fetch).size).toBe(1);
    expect(second.trace.events.some((e) => e.type === "same_change" || (e.type === "reconcile" && e.action === "status"))).toBe(true);
    expect(second.reply).toMatch(new RegExp(`^Order ${orderId} is cancelled\\.`));
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
    expect(await service.operations(world.ana.customerId)).toHaveLength(1);
  });

  it("two Conversation objects (two processes) for one conversation: the second reconciles the first's unknown intent instead of making its own", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.lostResponse;
    const conversationId = `two-${world.tag}`;
    const a = await controller(world.ana.customerId, [{ call: "cancel_order", input: { orderId } }, { say: "Sent." }], {
      seams: {
        faults: [
          { kind: "lose_response", tool: "cancel_order" },
          { kind: "lose_status", times: 5 },
        ],
      },
    });
    await a.controller.conversation(conversationId).turn(`Cancel ${orderId}`);
    // Another process, a new Conversation object with no state of its own; the status lookups still fail at
    // first, so its model proposes the cancellation again while the first intent is unknown.
    const b = await controller(world.ana.customerId, [{ call: "cancel_order", input: { orderId } }, { say: "Done." }], {
      seams: { faults: [{ kind: "lose_status", times: 2 }] },
    });
    const turn = await b.controller.conversation(conversationId).turn(`Cancel ${orderId} please`);
    const ids = new Set([...cancelIds(a.fetch), ...cancelIds(b.fetch)]);
    expect(ids.size).toBe(1);
    expect(turn.trace.events.filter((e) => e.type === "intent" && e.from === null)).toEqual([]);
    expect(await service.operations(world.ana.customerId)).toHaveLength(1);
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
  });
});

describe("a conversation's turns are serialised across processes", () => {
  it("a second controller's turn waits for the first's lease, then sees its intent settled", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const conversationId = `lease-${world.tag}`;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const a = await controller(world.ana.customerId, [{ call: "cancel_order", input: { orderId } }, { say: "Done." }], {
      seams: {
        beforeDispatch: async () => {
          entered();
          await gate;
        },
      },
    });
    const b = await controller(world.ana.customerId, [{ say: "Anything else?" }]);
    const first = a.controller.conversation(conversationId).turn(`Cancel ${orderId}`);
    await inFlight;
    let secondDone = false;
    const second = b.controller
      .conversation(conversationId)
      .turn("Is it cancelled?")
      .then((r) => {
        secondDone = true;
        return r;
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondDone).toBe(false);
    release();
    const [firstTurn, secondTurn] = await Promise.all([first, second]);
    expect(firstTurn.reply).toBe(`Order ${orderId} is cancelled.`);
    // The second turn ran after the first: it reports the outcome the first recorded, and sent nothing itself.
    expect(secondTurn.reply).toMatch(new RegExp(`^Order ${orderId} is cancelled\\.`));
    expect(b.fetch.requests.filter((r) => r.tool === "cancel_order")).toEqual([]);
  });

  it("resume() skips a conversation another live controller holds, and finishes it once released", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const conversationId = `resume-held-${world.tag}`;
    const shared = store();
    const intent = await sentIntent(shared, conversationId, orderId);
    const other = "controller-someone-else";
    expect(await shared.acquireLease(conversationId, other, Date.now() + 60_000, Date.now())).toBe(true);
    const { controller: c, fetch } = await controller(world.ana.customerId, [], { intents: shared });
    expect(await c.resume()).toEqual([]);
    expect(fetch.requests).toEqual([]);
    await shared.releaseLease(conversationId, other);
    const [done] = await c.resume();
    expect(done).toMatchObject({ operationId: intent.operationId, state: "completed" });
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
  });

  it("resume() survives an IntentConflictError: it reloads the intent another controller moved and goes on", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const conversationId = `resume-conflict-${world.tag}`;
    const inner = store();
    const intent = await sentIntent(inner, conversationId, orderId);
    const second = await sentIntent(inner, `${conversationId}-b`, world.orders.ambiguousA);
    // Another process moves the first intent on (it starts reconciling it) just before this controller's first write of it.
    let interfered = false;
    const racing: IntentStore = {
      ...bind(inner),
      async save(next) {
        if (!interfered && next.operationId === intent.operationId) {
          interfered = true;
          await inner.save(moved(intent, "unknown"));
        }
        await inner.save(next);
      },
    };
    const { controller: c } = await controller(world.ana.customerId, [], { intents: racing });
    const settled = await c.resume();
    expect(interfered).toBe(true);
    expect(settled.map((i) => i.operationId).sort()).toEqual([intent.operationId, second.operationId].sort());
    expect(settled.find((i) => i.operationId === second.operationId)).toMatchObject({ state: "completed" });
    expect(settled.find((i) => i.operationId === intent.operationId)?.state).toMatch(/^(?:sent|unknown|completed)$/);
  });

  it("a turn whose intent another process moved meanwhile still gets a reply, and does not send it twice", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const shared = store();
    const { controller: c, fetch } = await controller(
      world.ana.customerId,
      [{ call: "cancel_order", input: { orderId } }, { say: "Done." }],
      {
        intents: shared,
        // Between persisting and sending, another controller takes the intent and marks it sent.
        seams: { beforeDispatch: async (intent) => shared.save(moved(intent, "sent", { sends: 1 })) },
      },
    );
    const turn = await c.conversation(`moved-${world.tag}`).turn(`Cancel ${orderId}`);
    expect(turn.reply).not.toBe("");
    expect(turn.replyKind).toBe("uncertainty");
    expect(turn.trace.events.some((e) => e.type === "intent_conflict")).toBe(true);
    expect(fetch.requests.filter((r) => r.tool === "cancel_order")).toEqual([]);
  });
});

function bind(store: IntentStore): IntentStore {
  return {
    save: (i) => store.save(i),
    forConversation: (id) => store.forConversation(id),
    resumable: () => store.resumable(),
    acquireLease: (...a) => store.acquireLease(...a),
    releaseLease: (...a) => store.releaseLease(...a),
  };
}

/** An intent persisted (written, never sent), as a controller that stopped right after persisting leaves it. */
/**
 * An intent a crashed controller sent and never heard back on: what resume() finishes by itself (a change persisted
 * and never sent it does not send; it is asked about at the principal's next turn).
 */
async function sentIntent(store: IntentStore, conversationId: string, orderId: string): Promise<Intent> {
  const now = new Date().toISOString();
  const operationId = `op-${conversationId}`;
  const proposed: Intent = {
    operationId,
    conversationId,
    toolUseId: "call_1",
    tool: "cancel_order",
    orderId,
    request: { operationId, orderId },
    state: "proposed",
    revision: 0,
    createdAt: now,
    updatedAt: now,
    sends: 0,
    turn: 1,
  };
  const persisted = moved(proposed, "persisted");
  await store.save(persisted);
  const sent = moved(persisted, "sent", { sends: 1 });
  await store.save(sent);
  return sent;
}
