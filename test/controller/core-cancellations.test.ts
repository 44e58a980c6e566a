import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traceDirectory, type TurnTrace } from "#controller/trace";
import type { TraceEvent } from "#controller/trace";
import { type DemoWorld, demoCases } from "#examples/controller-demo/cases";
import { runDemoCase } from "#examples/controller-demo/run";
import { claimsSuccess, type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * The five core cancellation cases, each a scripted conversation through the controller and the real service over HTTP:
 * what the customer is told, what the trace shows, and what is stored.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

const caseNamed = (world: DemoWorld, id: string) => {
  const found = demoCases(world).find((c) => c.id === id);
  if (!found) throw new Error(`no demo case ${id}`);
  return found;
};
const types = (events: TraceEvent[]) => events.map((e) => e.type);
const of = <T extends TraceEvent["type"]>(events: TraceEvent[], type: T) =>
  events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);

describe("the core cancellation cases through the controller", () => {
  it("a customer cancels their own eligible order: the service records it, the reply confirms that order", async () => {
    const world = await service.freshWorld();
    const fetch = watchedFetch();
    const run = await runDemoCase(service, world, caseNamed(world, "success"), { fetch });
    const [turn] = run.turns;

    expect(turn?.reply).toBe(`Order ${world.orders.success} is cancelled.`);
    expect(turn?.replyKind).toBe("confirmation");
    expect(await service.order(world.orders.success)).toMatchObject({ status: "cancelled", version: 2 });
    const [operation, ...others] = await service.operations(world.ana.customerId);
    expect(others).toEqual([]);
    expect(operation).toMatchObject({ tool: "cancel_order", status: "completed", orderVersion: 2 });

    const events = turn?.trace.events ?? [];
    // Validation and the guard before the intent; the intent persisted before the request left; the gate before the reply.
    const order = types(events);
    expect(order.indexOf("provenance")).toBeLessThan(order.findIndex((t, i) => t === "intent" && (events[i] as any).to === "persisted"));
    const persistedAt = events.findIndex((e) => e.type === "intent" && e.to === "persisted");
    const cancelSentAt = events.findIndex((e) => e.type === "http_request" && e.tool === "cancel_order");
    expect(persistedAt).toBeGreaterThan(-1);
    expect(persistedAt).toBeLessThan(cancelSentAt);
    expect(order.indexOf("gate")).toBeLessThan(order.indexOf("reply"));
    expect(of(events, "intent").map((e) => e.to)).toEqual(["proposed", "persisted", "sent", "completed"]);
    expect(of(events, "gate")[0]).toMatchObject({ decision: "accepted", replyKind: "confirmation" });
    const cancel = fetch.requests.filter((r) => r.tool === "cancel_order");
    expect(cancel).toHaveLength(1);
    expect(cancel[0]?.body).toEqual({
      operationId: operation?.PK.split("#").at(-1),
      orderId: world.orders.success,
      reason: "Ordered by mistake",
    });
    expect(turn?.trace.counts.httpRequests).toBe(2);
  });

  it("a customer names someone else's order: the service refuses, nothing changes, nothing about it is disclosed", async () => {
    const world = await service.freshWorld();
    const run = await runDemoCase(service, world, caseNamed(world, "someone-elses-order"));
    const [turn] = run.turns;

    expect(turn?.replyKind).toBe("rejection");
    // The application's sentence once, then what the model adds: not the same news twice.
    expect(turn?.reply).toBe(
      `I couldn't find order ${world.orders.otherCustomers}, so nothing was changed. Please check the order number. Is there anything else I can help you with?`,
    );
    expect(await service.order(world.orders.otherCustomers)).toMatchObject({
      status: "placed",
      version: 1,
      customerId: world.ben.customerId,
    });
    // Recorded as Ana's rejected operation: ORDER_NOT_FOUND, the same answer as for an order that does not exist.
    const operations = await service.operations(world.ana.customerId);
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ status: "rejected", tool: "cancel_order" });
    const response = of(turn?.trace.events ?? [], "http_response")[0];
    expect(response).toMatchObject({ status: 404, body: { error: { code: "ORDER_NOT_FOUND" } } });
    // The reply says nothing the 404 did not: no status, no owner, no items of Ben's order.
    expect(turn?.reply).not.toMatch(/placed|stool|Ben/i);
    expect(turn?.outcomes).toEqual([
      expect.objectContaining({ kind: "rejected", code: "ORDER_NOT_FOUND", orderId: world.orders.otherCustomers }),
    ]);
  });

  it("“cancel it” after two orders came up: a clarification naming both, and no cancellation is attempted", async () => {
    const world = await service.freshWorld();
    const fetch = watchedFetch();
    const run = await runDemoCase(service, world, caseNamed(world, "cancel-it-two-orders"), { fetch });
    const second = run.turns[1];

    expect(second?.replyKind).toBe("clarification");
    expect(second?.reply).toContain(world.orders.ambiguousA);
    expect(second?.reply).toContain(world.orders.ambiguousB);
    expect(claimsSuccess(second?.reply ?? "")).toBe(false);
    expect(fetch.requests.map((r) => r.tool)).toEqual(["get_order", "get_order"]);
    expect(of(second?.trace.events ?? [], "provenance")[0]).toMatchObject({ decision: "clarify" });
    expect(of(second?.trace.events ?? [], "intent")).toEqual([]);
    expect(await service.order(world.orders.ambiguousA)).toMatchObject({ status: "placed", version: 1 });
    expect(await service.order(world.orders.ambiguousB)).toMatchObject({ status: "processing", version: 1 });
    expect(await service.operations(world.ana.customerId)).toEqual([]);
  });

  it("the order ships before the change commits: the service rejects it, and the model's false “cancelled” never reaches the customer", async () => {
    const world = await service.freshWorld();
    const run = await runDemoCase(service, world, caseNamed(world, "ships-before-commit"));
    const [turn] = run.turns;

    expect(turn?.replyKind).toBe("rejection");
    expect(turn?.reply).toBe(
      `Order ${world.orders.shipsBeforeCommit} has already shipped, so it can no longer be cancelled. Once it is delivered, a return is possible.`,
    );
    expect(turn?.trace.flags).toContain("claim_mismatch");
    expect(of(turn?.trace.events ?? [], "gate")[0]).toMatchObject({ decision: "claim_mismatch", replyKind: "rejection" });
    // The fault's own change only: shipped, version 2; the cancellation changed nothing.
    expect(await service.order(world.orders.shipsBeforeCommit)).toMatchObject({ status: "shipped", version: 2 });
    expect(run.changes).toBe(0);
    const operations = await service.operations(world.ana.customerId);
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ status: "rejected" });
    expect(JSON.parse(operations[0]?.body)).toMatchObject({ error: { code: "NOT_ELIGIBLE", reason: "ALREADY_SHIPPED" } });
    const events = turn?.trace.events ?? [];
    expect(events.findIndex((e) => e.type === "fault")).toBeLessThan(
      events.findIndex((e) => e.type === "http_request" && e.tool === "cancel_order"),
    );
  });

  it("the response to a committed cancellation is lost: the controller reconciles it with the same operationId and confirms", async () => {
    const world = await service.freshWorld();
    const fetch = watchedFetch();
    const run = await runDemoCase(service, world, caseNamed(world, "lost-response"), { fetch });
    const [turn] = run.turns;

    expect(turn?.replyKind).toBe("confirmation");
    expect(turn?.reply).toBe(`Order ${world.orders.lostResponse} is cancelled.`);
    expect(await service.order(world.orders.lostResponse)).toMatchObject({ status: "cancelled", version: 2 });
    const operations = await service.operations(world.ana.customerId);
    expect(operations).toHaveLength(1);
    const operationId = operations[0]?.PK.split("#").at(-1);
    expect(fetch.requests.filter((r) => r.tool !== "get_order")).toEqual([
      { tool: "cancel_order", body: { operationId, orderId: world.orders.lostResponse } },
      { tool: "get_operation_status", body: { operationId } },
    ]);
    const outcomes = of(turn?.trace.events ?? [], "outcome");
    expect(outcomes.map((o) => o.classification)).toEqual(["unknown", "definite"]);
    expect(of(turn?.trace.events ?? [], "intent").map((e) => e.to)).toEqual(["proposed", "persisted", "sent", "unknown", "completed"]);
  });

  it("each turn's trace is written where the caller asks, as JSON with every event contract §8.1 lists", async () => {
    const world = await service.freshWorld();
    const dir = await mkdtemp(join(tmpdir(), "traces-"));
    try {
      await runDemoCase(service, world, caseNamed(world, "lost-response"), { trace: traceDirectory(dir), conversationId: "traced" });
      await runDemoCase(service, world, caseNamed(world, "cancel-it-two-orders"), {
        trace: traceDirectory(dir),
        conversationId: "traced-two-turns",
      });
      expect((await readdir(dir)).sort()).toEqual(["traced-two-turns.1.json", "traced-two-turns.2.json", "traced.1.json"]);
      const trace = JSON.parse(await readFile(join(dir, "traced.1.json"), "utf8")) as TurnTrace;
      expect(trace).toMatchObject({
        kind: "turn",
        conversationId: "traced",
        turn: 1,
        customerMessage: `Please cancel ${world.orders.lostResponse}.`,
        replyKind: "confirmation",
      });
      const kinds = new Set(trace.events.map((e) => e.type));
      for (const kind of [
        "customer_message",
        "model_proposal",
        "validation",
        "provenance",
        "intent",
        "http_request",
        "http_response",
        "http_failure",
        "fault",
        "outcome",
        "reconcile",
        "gate",
        "reply",
      ]) {
        expect({ kind, present: kinds.has(kind as never) }).toEqual({ kind, present: true });
      }
      expect(trace.events.find((e) => e.type === "http_response")).toHaveProperty("idempotentReplayed", false);
      expect(trace.events.at(-1)).toMatchObject({ type: "reply", text: trace.reply });
      const second = JSON.parse(await readFile(join(dir, "traced-two-turns.2.json"), "utf8")) as TurnTrace;
      expect(second).toMatchObject({ turn: 2, replyKind: "clarification", counts: { httpRequests: 0 } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
