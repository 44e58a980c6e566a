import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import type { TurnResult } from "#controller/conversation";
import type { Fetch } from "#controller/http/faults";
import { MemoryIntentStore } from "#controller/intents/memory";
import { type ScriptStep, scriptedModel } from "#controller/model/scripted";
import { withTestSeams } from "#controller/seams";
import { traceCollector } from "#controller/trace/record";
import type { DemoWorld } from "#examples/controller-demo/cases";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * A newcomer's first conversation, as someone embedding the controller writes it: two turns (a question, then a
 * change) against the local service, with the token, baseUrl and service they configured. When the calls fail for
 * a reason the application must act on, the turn says so as a typed `problem`, and the principal is told their
 * orders could not be reached — never the model's text, and never "nothing changed" as if all were well.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

const unreachable = "Your orders could not be reached right now.";

/** The two turns: "what is its status?" (a read), then "cancel it" (a change). */
function twoTurns(orderId: string): ScriptStep[] {
  return [
    { call: "get_order", input: { orderId } },
    { say: `Order ${orderId} has been placed and is waiting to be processed.` },
    { call: "cancel_order", input: { orderId, reason: "Ordered by mistake" } },
    { say: `Order ${orderId} is cancelled.` },
  ];
}

async function converse(
  world: DemoWorld,
  service_: { baseUrl: string; token: string | (() => string); fetch?: Fetch },
): Promise<{ turns: TurnResult[]; fetch: ReturnType<typeof watchedFetch> }> {
  const orderId = world.orders.success;
  const fetch = watchedFetch(service_.fetch);
  const controller = createController({
    service: { ...service_, fetch },
    model: scriptedModel(twoTurns(orderId)),
    intents: new MemoryIntentStore(),
    // Reconciliation's waits kept short: an unknown outcome is looked up a few times within the turn.
    reconcile: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  const conversation = controller.conversation(`first-hour-${world.tag}`);
  const turns = [await conversation.turn(`What's the status of ${orderId}?`), await conversation.turn(`Please cancel ${orderId}.`)];
  return { turns, fetch };
}

const expiredToken = (customerId: string) =>
  signDevToken({ ...principalClaims({ customer: customerId }), exp: Math.floor(Date.now() / 1000) - 60 });

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a turn's service calls fail for a reason the application must act on", () => {
  it("with a good token the two turns read and cancel, and neither has a problem", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { turns } = await converse(world, { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId) });
    expect(turns.map((t) => t.reply)).toEqual([
      `Order ${orderId} has been placed and is waiting to be processed.`,
      `Order ${orderId} is cancelled.`,
    ]);
    expect(turns.map((t) => t.problem)).toEqual([undefined, undefined]);
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
  });

  it("an expired token: each turn's problem names the 401, and the principal is told their orders could not be reached", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    const { turns, fetch } = await converse(world, { baseUrl: service.gatewayUrl, token: await expiredToken(world.ana.customerId) });

    expect(turns.map((t) => t.problem?.code)).toEqual(["unauthenticated", "unauthenticated"]);
    expect(turns[0]?.problem).toMatchObject({ tool: "get_order", status: 401, errorCode: "UNAUTHENTICATED", count: 1 });
    expect(turns[0]?.problem?.message).toMatch(
      /^POST \/v1\/tools\/get_order was refused with HTTP 401 UNAUTHENTICATED \("The bearer token expired/,
    );
    expect(turns[0]?.problem?.message).toMatch(/service\.token must give the signed-in principal's current token/);
    expect(turns[1]?.problem).toMatchObject({ tool: "cancel_order", status: 401 });
    // Neither the model's claims nor a "nothing changed" as if all were well: the one sentence, in both turns.
    expect(turns.map((t) => t.reply)).toEqual([unreachable, unreachable]);
    expect(turns[1]?.trace.flags).toContain("problem:unauthenticated");
    expect(turns[1]?.trace.events.filter((e) => e.type === "problem")).toEqual([
      expect.objectContaining({ code: "unauthenticated", message: turns[1]?.problem?.message }),
    ]);
    // The calls went out and were refused: nothing changed.
    expect(fetch.requests.map((r) => r.tool)).toEqual(["get_order", "cancel_order"]);
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });

  it("a token the principal's controller function returns empty gets the same 401 problem", async () => {
    const world = await service.freshWorld();
    const { turns } = await converse(world, { baseUrl: service.gatewayUrl, token: () => "" });
    expect(turns.map((t) => [t.problem?.code, t.problem?.status, t.reply])).toEqual([
      ["unauthenticated", 401, unreachable],
      ["unauthenticated", 401, unreachable],
    ]);
  });

  it("a baseUrl where nothing listens: unreachable, naming the refused connection", async () => {
    const world = await service.freshWorld();
    const port = await closedPort();
    const { turns } = await converse(world, { baseUrl: `http://127.0.0.1:${port}`, token: await service.token(world.ana.customerId) });
    expect(turns.map((t) => t.problem?.code)).toEqual(["unreachable", "unreachable"]);
    expect(turns[0]?.problem?.message).toBe(
      `No connection to the service at http://127.0.0.1:${port} (POST /v1/tools/get_order: fetch failed: connect ECONNREFUSED 127.0.0.1:${port}): check service.baseUrl, and that the service is running and reachable from here.`,
    );
    expect(turns[0]?.reply).toBe(unreachable);
    // The cancellation could not be sent, so its outcome is honestly unknown, and the sentence follows.
    expect(turns[1]?.reply).toMatch(
      new RegExp(`^I've asked to cancel order ${world.orders.success}, but I can't confirm yet .* ${unreachable}$`),
    );
    expect(await service.order(world.orders.success)).toMatchObject({ status: "placed", version: 1 });
  });

  it("a baseUrl with a path (another route): incompatible, naming the 404 the gateway gave", async () => {
    const world = await service.freshWorld();
    const { turns } = await converse(world, { baseUrl: `${service.gatewayUrl}/api`, token: await service.token(world.ana.customerId) });
    expect(turns[0]?.problem).toMatchObject({ code: "incompatible", tool: "get_order", status: 404, errorCode: "NOT_FOUND" });
    expect(turns[0]?.problem?.message).toMatch(
      /^POST \/v1\/tools\/get_order was answered with HTTP 404 NOT_FOUND, which get_order never answers with \(there is no such route\): what answers at service\.baseUrl \(http:\/\/127\.0\.0\.1:\d+\/api\)/,
    );
    expect(turns[0]?.reply.endsWith(unreachable)).toBe(true);
    // What answered the first read was no error the service has: its text is no one's the controller knows, so the
    // conversation is tainted (contract §8.5) and the cancellation waits for a yes; nothing was sent.
    expect(turns[1]).toMatchObject({
      replyKind: "confirmation_request",
      confirmations: [expect.objectContaining({ tool: "cancel_order" })],
    });
    expect(await service.order(world.orders.success)).toMatchObject({ status: "placed", version: 1 });
  });

  it("a service whose answer departs from the tool's output schema (another version): incompatible", async () => {
    const world = await service.freshWorld();
    // The service answers get_order without the order's status, as a service of another version might.
    const olderService: Fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith("/get_order") || response.status !== 200) return response;
      const { status: _status, ...body } = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    };
    const { turns } = await converse(world, {
      baseUrl: service.gatewayUrl,
      token: await service.token(world.ana.customerId),
      fetch: olderService,
    });
    expect(turns[0]?.problem).toMatchObject({ code: "incompatible", tool: "get_order", status: 200 });
    expect(turns[0]?.problem?.message).toMatch(/HTTP 200 and a body that does not match get_order's output schema \(status: /);
    expect(turns[0]?.reply).toBe(unreachable);
    // The second turn's calls were answered as the contract says: no problem, and the change is told.
    expect(turns[1]?.problem).toBeUndefined();
    expect(turns[1]?.reply).toBe(`Order ${world.orders.success} is cancelled.`);
  });

  it("a token without the write scope: forbidden, naming the scope; a read-only turn before it has no problem", async () => {
    const world = await service.freshWorld();
    const token = await signDevToken(principalClaims({ customer: world.ana.customerId }, "orders:read"));
    const { turns } = await converse(world, { baseUrl: service.gatewayUrl, token });
    expect(turns[0]?.problem).toBeUndefined();
    expect(turns[1]?.problem).toMatchObject({ code: "forbidden", tool: "cancel_order", status: 403, errorCode: "FORBIDDEN" });
    expect(turns[1]?.problem?.message).toMatch(/the token lacks a scope this call needs \(orders:write\)/);
    expect(turns[1]?.reply).toBe(unreachable);
    expect(await service.order(world.orders.success)).toMatchObject({ status: "placed", version: 1 });
  });

  it("a seller's cancel_order, a tool not for sellers (403 naming allowedPrincipals), is a rejection, not a problem", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.sellerReturn;
    const controller = createController({
      service: { baseUrl: service.gatewayUrl, token: await signDevToken(principalClaims({ seller: world.seller.sellerId })) },
      principal: "seller",
      model: scriptedModel([{ call: "cancel_order", input: { orderId } }, { say: "Done." }]),
      confirm: {},
    });
    const turn = await controller.conversation(`seller-${world.tag}`).turn(`Cancel order ${orderId}.`);
    expect(turn.problem).toBeUndefined();
    expect(turn.outcomes).toEqual([expect.objectContaining({ kind: "rejected", code: "FORBIDDEN" })]);
  });

  it("a held change confirmed with the application's button after the token expired says the same, and names the holding turn", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.success;
    let token = await service.token(world.ana.customerId);
    const traces = traceCollector();
    const controller = createController({
      service: { baseUrl: service.gatewayUrl, token: () => token },
      model: scriptedModel([{ call: "cancel_order", input: { orderId } }, { say: "Shall I?" }]),
      confirm: { cancel_order: true },
      trace: traces.sink,
    });
    const conversation = controller.conversation(`held-${world.tag}`);
    const held = await conversation.turn(`Cancel ${orderId}, please.`);
    expect(held.confirmations).toHaveLength(1);
    token = await expiredToken(world.ana.customerId);

    const pressed = await conversation.confirm(held.confirmations[0]!.confirmationId);
    expect(pressed.problem).toMatchObject({ code: "unauthenticated", tool: "cancel_order", status: 401 });
    expect(pressed.reply).toBe(unreachable);
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
    // The send is the confirming turn's; its trace names the turn that held it, and that turn's trace id.
    const moves = pressed.trace.events.filter((e) => e.type === "intent");
    expect(moves[0]).toMatchObject({ from: "awaiting_confirmation", to: "persisted", heldIn: { turn: 1, traceId: held.trace.traceId } });
    expect(traces.traces.map((t) => t.traceId)).toEqual([held.trace.traceId, pressed.trace.traceId]);
  });

  it("tells the principal in their own language, in each of the eight", async () => {
    const sentences: Record<string, string> = {
      en: "Your orders could not be reached right now.",
      de: "Auf Ihre Bestellungen konnte gerade nicht zugegriffen werden.",
      fr: "Vos commandes n’ont pas pu être consultées pour le moment.",
      es: "No se ha podido acceder a sus pedidos en este momento.",
      it: "Al momento non è stato possibile accedere ai suoi ordini.",
      pt: "Não foi possível acessar seus pedidos neste momento.",
      nl: "Uw bestellingen waren op dit moment niet bereikbaar.",
      pl: "W tej chwili nie udało się uzyskać dostępu do Twoich zamówień.",
    };
    const world = await service.freshWorld();
    const token = await expiredToken(world.ana.customerId);
    for (const [locale, sentence] of Object.entries(sentences)) {
      const controller = createController({
        service: { baseUrl: service.gatewayUrl, token },
        model: scriptedModel([{ call: "get_order", input: { orderId: world.orders.success } }, { say: "Sure." }]),
        locale,
      });
      const turn = await controller.conversation(`locale-${locale}-${world.tag}`).turn("?");
      expect([locale, turn.reply, turn.problem?.code]).toEqual([locale, sentence, "unauthenticated"]);
    }
  });
});

describe("what is not a problem", () => {
  it("a lost response the controller reconciles within the turn: the service answered after all", async () => {
    const world = await service.freshWorld();
    const orderId = world.orders.lostResponse;
    const controller = createController(
      withTestSeams(
        {
          service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId) },
          model: scriptedModel([{ call: "cancel_order", input: { orderId } }, { say: `Order ${orderId} is cancelled.` }]),
          reconcile: { baseDelayMs: 5, maxDelayMs: 20 },
        },
        { faults: [{ kind: "lose_response", tool: "cancel_order" }] },
      ),
    );
    const turn = await controller.conversation(`lost-${world.tag}`).turn(`Please cancel ${orderId}.`);
    expect(turn.problem).toBeUndefined();
    expect(turn.reply).toBe(`Order ${orderId} is cancelled.`);
  });

  it("a model that fails is the turn's model_failed problem, and the principal's reply stays the honest one", async () => {
    const world = await service.freshWorld();
    const controller = createController({
      service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId) },
      model: scriptedModel([{ say: "Hello!" }]),
    });
    const conversation = controller.conversation(`model-${world.tag}`);
    expect((await conversation.turn("Hi")).problem).toBeUndefined();
    const second = await conversation.turn("And my orders?");
    expect(second.problem).toEqual({
      code: "model_failed",
      count: 1,
      message:
        'The model (scripted) failed: the script has 1 step and the controller asked for step 2. One script runs across all the turns of a conversation, and each turn ends at a {"say": …} step (a real model would have replied here): add the steps this turn needs.',
    });
    expect(second.reply).toBe("I couldn't finish working on that just now. I haven't changed anything on your orders.");
  });
});
