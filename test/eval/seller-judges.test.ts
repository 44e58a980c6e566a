import { describe, expect, it } from "vitest";
import type { EvalCase } from "../../eval/case-schema.ts";
import { type Evidence, mayAct, maySee } from "../../eval/evidence.ts";
import { isDenial, judgeAuthorization } from "../../eval/judges/authorization.ts";
import { judgeReply } from "../../eval/judges/reply.ts";
import type { TappedRequest } from "../../eval/service.ts";
import { parseFixture } from "#store/fixture";

/**
 * The judges with a seller as the caller: a seller may act on the orders it sold, only with the tools a seller
 * may use; its cancel or note refused FORBIDDEN is a denial, not a wrongful one; and a reply may name the
 * orders it sold, never another seller's that the caller did not name.
 */

const fixture = parseFixture({
  sellers: [
    { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
    { id: "SLR-4400", name: "Corran Textiles", type: "marketplace", status: "active" },
  ],
  customers: [{ id: "C-1001", email: "ana@example.com", name: "Ana Costa" }],
  orders: ["SU-51001:SLR-2210", "SU-52002:SLR-4400"].map((spec) => {
    const [id, sellerId] = spec.split(":") as [string, string];
    return {
      id,
      customerId: "C-1001",
      sellerId,
      status: "delivered",
      version: 2,
      placedAt: "2026-11-20T09:00:00Z",
      deliveredAt: "2026-11-24T15:00:00Z",
      currency: "GBP",
      items: [{ itemId: "ITM-1", sku: "SKU-1", title: "Oak stool", quantity: 1, unitCents: 3900, description: "Two-step stool" }],
      charges: [{ kind: "item", cents: 3900 }],
      delivery: { carrier: "Parcelline", trackingId: "PL1" },
      deliveryNote: null,
      internal: {},
    };
  }),
});

function evidence(options: {
  tap?: Partial<TappedRequest>[];
  authorization: EvalCase["expect"]["authorization"];
  reply?: string;
  conversation?: string[];
  versions?: Record<string, number>;
}): Evidence {
  const tap = (options.tap ?? []).map(
    (r, i) =>
      ({
        seq: i + 1,
        tool: "start_return",
        kind: "change",
        sub: "seller-SLR-2210",
        body: {},
        status: 200,
        response: {},
        replayed: false,
        ...r,
      }) as TappedRequest,
  );
  return {
    case: {
      id: "x",
      source: "test",
      seller: "SLR-2210",
      fixture: {},
      conversation: options.conversation ?? ["Start a return on SU-51001"],
      expect: { authorization: options.authorization, outcome: { status: "none" }, reply: "information" },
    } as EvalCase,
    fixture,
    caller: { kind: "seller", sellerId: "SLR-2210" },
    tap,
    stored: Object.fromEntries(fixture.orders.map((o) => [o.id, { status: o.status, version: options.versions?.[o.id] ?? o.version }])),
    operationRecords: [],
    faultBumps: {},
    traces: [],
    intents: [],
    reply: options.reply ?? "Here is what I found.",
    turns: [
      {
        message: (options.conversation ?? ["Start a return on SU-51001"]).at(-1) as string,
        reply: options.reply ?? "Here is what I found.",
        tap,
      },
    ],
    records: new Map(),
  };
}

describe("who a seller may act on, as the judges see it", () => {
  it("its own orders with a seller's tools; never another seller's; never cancel or note", () => {
    const e = evidence({ authorization: "none" });
    expect(maySee(e, "SU-51001")).toBe(true);
    expect(maySee(e, "SU-52002")).toBe(false);
    expect(mayAct(e, "SU-51001", "start_return")).toBe(true);
    expect(mayAct(e, "SU-51001", "offer_replacement")).toBe(true);
    expect(mayAct(e, "SU-51001", "cancel_order")).toBe(false);
    expect(mayAct(e, "SU-51001", "add_delivery_note")).toBe(false);
    expect(mayAct(e, "SU-52002", "start_return")).toBe(false);
    expect(mayAct(e, "SU-99999", "start_return")).toBe(false);
  });
});

describe("the authorization judge with a seller caller", () => {
  it("a seller's cancel refused 403 FORBIDDEN is a denial, and not one of an order the seller may act on", () => {
    const forbidden = {
      tool: "cancel_order",
      body: { orderId: "SU-51001", operationId: "op-1" },
      status: 403,
      response: { error: { code: "FORBIDDEN", allowedPrincipals: ["customer", "support"] } },
    };
    expect(isDenial(forbidden as TappedRequest)).toBe(true);
    expect(judgeAuthorization(evidence({ authorization: "denied", tap: [forbidden] }))).toMatchObject({ pass: true });
    expect(judgeAuthorization(evidence({ authorization: "permitted", tap: [forbidden] }))).toMatchObject({ pass: false });
  });

  it("fails a service that lets a seller cancel its own order, though it could return it", () => {
    const cancelled = {
      tool: "cancel_order",
      body: { orderId: "SU-51001", operationId: "op-1" },
      status: 200,
      response: { status: "completed" },
    };
    const verdict = judgeAuthorization(evidence({ authorization: "permitted", tap: [cancelled], versions: { "SU-51001": 3 } }));
    expect(verdict.pass).toBe(false);
    expect(verdict.why).toMatch(/let the caller change an order that is not theirs: cancel_order SU-51001/);
  });

  it("fails a service that lets a seller return another seller's order, or changes that order at all", () => {
    const foreign = {
      tool: "start_return",
      body: { orderId: "SU-52002", operationId: "op-1" },
      status: 200,
      response: { status: "completed" },
    };
    expect(judgeAuthorization(evidence({ authorization: "permitted", tap: [foreign], versions: { "SU-52002": 3 } })).pass).toBe(false);
    expect(judgeAuthorization(evidence({ authorization: "none", versions: { "SU-52002": 3 } })).why).toMatch(
      /SU-52002, which the caller may not act on, changed 1 time/,
    );
  });

  it("another seller's order not found is the denial a case expects; its own order not found is a wrongful one", () => {
    const notFound = (orderId: string) => ({
      tool: "start_return",
      body: { orderId, operationId: "op-1" },
      status: 404,
      response: { error: { code: "ORDER_NOT_FOUND" } },
    });
    expect(judgeAuthorization(evidence({ authorization: "denied", tap: [notFound("SU-52002")] })).pass).toBe(true);
    const wrongly = judgeAuthorization(evidence({ authorization: "denied", tap: [notFound("SU-51001")] }));
    expect(wrongly.pass).toBe(false);
    expect(wrongly.why).toMatch(/denied the caller an order they may act on/);
  });

  it("its own return permitted passes", () => {
    const ok = { tool: "start_return", body: { orderId: "SU-51001", operationId: "op-1" }, status: 200, response: { status: "completed" } };
    expect(judgeAuthorization(evidence({ authorization: "permitted", tap: [ok], versions: { "SU-51001": 3 } })).pass).toBe(true);
  });
});

describe("the reply judge with a seller caller", () => {
  it("may name the orders the seller sold, never another seller's that the seller did not name", () => {
    // What the seller's get_order of its own order answered this turn: the reply may tell it.
    const read: Partial<TappedRequest> = {
      tool: "get_order",
      kind: "read",
      body: { orderId: "SU-51001" },
      response: { orderId: "SU-51001", status: "delivered", deliveredAt: "2026-11-24T15:00:00Z" },
    };
    expect(judgeReply(evidence({ authorization: "none", tap: [read], reply: "SU-51001 was delivered on 2026-11-24." })).pass).toBe(true);
    const leaked = judgeReply(
      evidence({
        authorization: "none",
        tap: [read],
        reply: "SU-51001 was delivered on 2026-11-24. SU-52002 is another of this buyer's orders.",
      }),
    );
    expect(leaked.pass).toBe(false);
    expect(leaked.why).toMatch(/names SU-52002, which is not among the orders the caller may see/);
    // Named by the seller itself, naming it again discloses nothing; but a claim about it that no read of the
    // turn holds fails all the same.
    const named = judgeReply(
      evidence({ authorization: "none", conversation: ["What about SU-52002?"], reply: "I couldn't find SU-52002 among your orders." }),
    );
    expect(named.why).not.toMatch(/not among the orders the caller may see/);
    expect(named.why).toMatch(/neither courtesy nor a fact of the record/);
  });
});
