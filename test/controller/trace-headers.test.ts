import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { w3cTraceId } from "#contract/trace-context";
import { createController } from "#controller/controller";
import type { TurnResult } from "#controller/conversation";
import type { Fetch } from "#controller/http/faults";
import { scriptedModel } from "#controller/model/scripted";
import { withTestSeams } from "#controller/testing";
import type { ApplicationTrace } from "#controller/http/trace-context";
import type { TraceEvent } from "#controller/trace/record";
import { type DemoWorld, demoCases } from "#examples/controller-demo/cases";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { dynamoOrderWriter } from "#local/order-writer";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * Contract §8.1: every call the controller makes to the service carries the turn's trace (`traceparent`, and
 * `X-Amzn-Trace-Id` where the application has an X-Ray trace), and the turn's trace records its id, so one id
 * leads from a conversation turn to the service's log lines. Through the real service over HTTP.
 */
let service: ServiceWorld;
/** The local gateway's request lines: the trace it read off each request, as the function's log line has it. */
const requestLines: string[] = [];
beforeAll(async () => {
  service = await startService({ log: (line) => requestLines.push(line) });
});
afterAll(async () => service?.close());

interface Sent {
  path: string;
  headers: Headers;
}

/** A fetch that keeps every request's path and headers as they went on the wire. */
function headerWatchingFetch(): Fetch & { sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: Fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    sent.push({ path: new URL(url).pathname, headers: new Headers(init?.headers) });
    return globalThis.fetch(input, init);
  };
  return Object.assign(fetch, { sent });
}

/** The "lost response" demo case: a read, a change whose answer is lost, and the status lookups that reconcile it. */
async function lostResponseTurn(world: DemoWorld, fetch: Fetch, traceContext?: () => ApplicationTrace | undefined): Promise<TurnResult> {
  const demo = demoCases(world).find((c) => c.id === "lost-response")!;
  const controller = createController(
    withTestSeams(
      {
        service: { baseUrl: service.gatewayUrl, token: await signDevToken(principalClaims({ customer: world.ana.customerId })), fetch },
        model: scriptedModel(demo.script),
        reconcile: { baseDelayMs: 20, maxDelayMs: 200 },
        ...(traceContext ? { traceContext } : {}),
      },
      { faults: demo.faults, orderWriter: dynamoOrderWriter(service.deps) },
    ),
  );
  const [message] = demo.turns;
  if (typeof message !== "string") throw new Error("the demo opens with a button press, not a message");
  return controller.conversation(`trace-${world.tag}-${requestLines.length}`).turn(message);
}

const requestsOf = (events: TraceEvent[]) =>
  events.filter((e): e is Extract<TraceEvent, { type: "http_request" }> => e.type === "http_request");
const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

describe("the controller's trace headers", () => {
  it("sends one trace on every call of a turn, each with a parent-id of its own, records its id in the turn's trace, and the service reads the same id", async () => {
    const world = await service.freshWorld();
    const fetch = headerWatchingFetch();
    const linesBefore = requestLines.length;
    const turn = await lostResponseTurn(world, fetch);

    expect(turn.replyKind).toBe("confirmation");
    expect(await service.order(world.orders.lostResponse)).toMatchObject({ status: "cancelled" });
    const { traceId } = turn.trace;
    expect(traceId).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    // A trace the controller starts carries its start time in its first 8 hex digits, which X-Ray requires.
    expect(Math.abs(Number.parseInt(traceId.slice(2, 10), 16) - Date.now() / 1000)).toBeLessThan(120);

    expect(fetch.sent.map((s) => s.path.split("/").at(-1))).toEqual(["get_order", "cancel_order", "get_operation_status"]);
    const parts = fetch.sent.map((s) => traceparentPattern.exec(s.headers.get("traceparent") ?? ""));
    expect(parts.every((p) => p !== null)).toBe(true);
    expect(new Set(parts.map((p) => p?.[1]))).toEqual(new Set([w3cTraceId(traceId)]));
    expect(new Set(parts.map((p) => p?.[2])).size).toBe(fetch.sent.length);
    expect(parts.map((p) => p?.[3])).toEqual(["01", "01", "01"]);
    // No X-Ray trace was given, so no X-Ray header is made up.
    expect(fetch.sent.map((s) => s.headers.get("x-amzn-trace-id"))).toEqual([null, null, null]);

    // The turn's trace records what each request carried.
    expect(requestsOf(turn.trace.events).map((e) => e.traceparent)).toEqual(fetch.sent.map((s) => s.headers.get("traceparent")));
    // The service saw the same trace on each request (the gateway's line names it as the function logs it).
    const lines = requestLines.slice(linesBefore);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(new RegExp(`trace 1-[0-9a-f]{8}-[0-9a-f]{24} \\(caller's trace ${traceId}\\)$`));

    // The next turn, with no application trace, starts a trace of its own.
    const other = await lostResponseTurn(await service.freshWorld(), headerWatchingFetch());
    expect(other.trace.traceId).not.toBe(traceId);
  });

  it("joins the application's X-Ray trace: the turn takes its id and every call passes the X-Amzn-Trace-Id on", async () => {
    const world = await service.freshWorld();
    const fetch = headerWatchingFetch();
    const root = "1-6750a1b2-0123456789abcdef01234567";
    const header = `Root=${root};Parent=53995c3f42cd8ad8;Sampled=1`;
    const turn = await lostResponseTurn(world, fetch, () => ({ xrayTraceHeader: header }));

    expect(turn.trace.traceId).toBe(root);
    expect(fetch.sent.map((s) => s.headers.get("x-amzn-trace-id"))).toEqual([header, header, header]);
    for (const s of fetch.sent) expect(s.headers.get("traceparent")).toMatch(new RegExp(`^00-${w3cTraceId(root)}-[0-9a-f]{16}-01$`));
  });

  it("joins the application's traceparent, keeping its sampling decision; an invalid one is ignored", async () => {
    const fetch = headerWatchingFetch();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const turn = await lostResponseTurn(await service.freshWorld(), fetch, () => ({
      traceparent: `00-${traceId}-00f067aa0ba902b7-00`,
    }));
    expect(turn.trace.traceId).toBe("1-4bf92f35-77b34da6a3ce929d0e0e4736");
    for (const s of fetch.sent) expect(s.headers.get("traceparent")).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));

    const invalid = await lostResponseTurn(await service.freshWorld(), headerWatchingFetch(), () => ({
      traceparent: `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
      xrayTraceHeader: "Root=not-a-trace",
    }));
    expect(invalid.trace.traceId).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(invalid.trace.traceId).not.toBe(`1-00000000-${"0".repeat(24)}`);
  });
});

describe("a button press's trace", () => {
  it("confirm() is a turn of its own: it joins the application's trace, and the held change's send carries it", async () => {
    const world = await service.freshWorld();
    const demo = demoCases(world).find((c) => c.id === "seller-return")!;
    const fetch = headerWatchingFetch();
    const root = "1-6750a1b2-89abcdef0123456789abcdef";
    const header = `Root=${root};Parent=53995c3f42cd8ad8;Sampled=1`;
    const controller = createController(
      withTestSeams(
        {
          service: { baseUrl: service.gatewayUrl, token: await signDevToken(principalClaims({ seller: world.seller.sellerId })), fetch },
          model: scriptedModel(demo.script),
          traceContext: () => ({ xrayTraceHeader: header }),
        },
        { orderWriter: dynamoOrderWriter(service.deps) },
      ),
    );
    const conversation = controller.conversation(`press-${world.tag}`);
    const [message] = demo.turns;
    if (typeof message !== "string") throw new Error("the seller-return demo opens with a message");
    const held = await conversation.turn(message);
    const waiting = held.confirmations.find((c) => c.tool === "start_return");
    expect(waiting, "the seller's return waits for a press").toBeDefined();
    const sentBefore = fetch.sent.length;

    const pressed = await conversation.confirm(waiting!.confirmationId);

    expect(pressed.trace.traceId).toBe(root);
    const sends = fetch.sent.slice(sentBefore);
    expect(sends.map((s) => s.path.split("/").at(-1))).toContain("start_return");
    for (const s of sends) {
      expect(s.headers.get("x-amzn-trace-id")).toBe(header);
      expect(s.headers.get("traceparent")).toMatch(new RegExp(`^00-${w3cTraceId(root)}-[0-9a-f]{16}-01$`));
    }
  });
});
