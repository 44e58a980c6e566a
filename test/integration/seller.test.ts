import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#core/days";
import { budgetKey, orderKey, sellerRateKey } from "#store/keys";
import { createHandler as createNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { createHandler as createGetOrder } from "#tools/get-order";
import { createHandler as createReplace } from "#tools/offer-replacement";
import { createHandler as createSearch } from "#tools/search-orders";
import { createHandler as createReturn } from "#tools/start-return";
import { dynamoOrderWriter } from "#local/order-writer";
import { holdTransactionsOf } from "#test/support/sdk-faults";
import { customer, newOperationId, newWorld, seller, support, type World } from "#test/support/world";

/**
 * The seller principal on the very tools customers and support use: a marketplace seller's user or agent acts on
 * the orders whose sellerId is its own, with search, reads, returns, replacements and its own operations, and
 * learns nothing about any other seller's orders, nor who its buyers are beyond what the order itself says.
 */

const today = new Date().toISOString().slice(0, 10);
const day = (offset: number) => addDays(today, offset);

function order(id: string, customerId: string, sellerId: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    customerId,
    sellerId,
    status,
    version: 3,
    placedAt: `${day(-6)}T09:00:00Z`,
    deliveredAt: status === "delivered" ? `${day(-2)}T15:40:00Z` : null,
    currency: "GBP",
    items: [
      {
        itemId: "ITM-1",
        sku: `SKU-${sellerId}`,
        title: `Shelf from ${sellerId}`,
        quantity: 1,
        unitCents: 5000,
        description: "Solid oak, flat-packed",
      },
    ],
    charges: [{ kind: "item", cents: 5000 }],
    delivery: { carrier: "Parcelline", trackingId: `PL-${id}` },
    deliveryNote: null,
    internal: { warehouseRoutingCode: "W3-B" },
    ...extra,
  };
}

function sellerFixture() {
  // Fragment 777: one order of Ashcombe's among 24 of Corran's, so counts and `truncated` would show the others.
  const corranMany = Array.from({ length: 24 }, (_, i) =>
    order(`SU-777${String(i + 10).padStart(2, "0")}`, "C-2002", "SLR-4400", "placed"),
  );
  return {
    sellers: [
      { id: "SLR-2210", name: "Ashcombe Furniture", type: "marketplace", status: "active" },
      { id: "SLR-3300", name: "Brightwell Lighting", type: "marketplace", status: "suspended" },
      { id: "SLR-4400", name: "Corran Textiles", type: "marketplace", status: "active" },
      { id: "SLR-1", name: "Sundry", type: "sundry", status: "active" },
    ],
    policies: [{ ref: "seller-supp/SLR-2210", returnWindowDays: 14 }],
    customers: [
      { id: "C-1001", email: "ana@example.com", name: "Ana Costa" },
      { id: "C-2002", email: "ben@example.com", name: "Ben Okafor" },
    ],
    stock: [
      { sku: "SKU-SLR-2210", available: 5 },
      { sku: "SKU-SLR-3300", available: 5 },
      { sku: "SKU-SLR-4400", available: 5 },
    ],
    pickupSlots: [{ date: day(1), window: "08:00-12:00", capacity: 50 }],
    orders: [
      order("SU-10001", "C-1001", "SLR-2210", "placed", { deliveryNote: "Ring twice, Ana Costa at flat 3" }),
      order("SU-10005", "C-1001", "SLR-2210", "delivered"),
      order("SU-10006", "C-2002", "SLR-2210", "delivered"),
      order("SU-10007", "C-2002", "SLR-2210", "delivered"),
      order("SU-10008", "C-2002", "SLR-2210", "delivered"),
      order("SU-20001", "C-2002", "SLR-4400", "placed"),
      order("SU-20005", "C-1001", "SLR-4400", "delivered"),
      order("SU-30005", "C-1001", "SLR-3300", "delivered"),
      order("SU-77701", "C-1001", "SLR-2210", "placed"),
      ...corranMany,
      // Date searches: months apart; SU-60004 was placed long ago and delivered only this week.
      order("SU-60001", "C-1001", "SLR-2210", "placed", { placedAt: `${day(-1)}T08:00:00Z` }),
      order("SU-60002", "C-2002", "SLR-2210", "cancelled", { placedAt: `${day(-40)}T08:00:00Z` }),
      order("SU-60003", "C-1001", "SLR-2210", "shipped", { placedAt: `${day(-75)}T08:00:00Z` }),
      order("SU-60004", "C-2002", "SLR-2210", "delivered", { placedAt: `${day(-200)}T08:00:00Z`, deliveredAt: `${day(-3)}T10:00:00Z` }),
      order("SU-60005", "C-1001", "SLR-2210", "delivered", { placedAt: `${day(-120)}T08:00:00Z`, deliveredAt: `${day(-100)}T10:00:00Z` }),
      order("SU-60006", "C-2002", "SLR-4400", "placed", { placedAt: `${day(-40)}T09:00:00Z` }),
      order("SU-60007", "C-2002", "SLR-4400", "delivered", { placedAt: `${day(-30)}T09:00:00Z`, deliveredAt: `${day(-3)}T11:00:00Z` }),
    ],
  };
}

const ashcombe = seller("SLR-2210");
const corran = seller("SLR-4400");
const brightwell = seller("SLR-3300");
const ana = customer("C-1001");

let world: World;
let handlers: {
  search: ReturnType<typeof createSearch>;
  get: ReturnType<typeof createGetOrder>;
  cancel: ReturnType<typeof createCancel>;
  note: ReturnType<typeof createNote>;
  ret: ReturnType<typeof createReturn>;
  replace: ReturnType<typeof createReplace>;
  status: ReturnType<typeof createStatus>;
};

beforeAll(async () => {
  world = await newWorld(sellerFixture());
  handlers = {
    search: createSearch(world.deps),
    get: createGetOrder(world.deps),
    cancel: createCancel(world.deps),
    note: createNote(world.deps),
    ret: createReturn(world.deps),
    replace: createReplace(world.deps),
    status: createStatus(world.deps),
  };
});

/** A reply with the one order id it names replaced, to compare a deny with the nonexistent id's answer. */
const withoutId = (text: string, ...ids: string[]) => ids.reduce((t, id) => t.replaceAll(id, "<id>"), text);

describe("a seller reads the orders it sold", () => {
  it("get_order: the order with no customer identity anywhere, the customer's note marked as theirs, only a seller's actions", async () => {
    const reply = await world.call(handlers.get, ashcombe, { orderId: "SU-10001" });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      orderId: "SU-10001",
      seller: { id: "SLR-2210" },
      delivery: { note: { origin: "customer", text: "Ring twice, Ana Costa at flat 3" } },
    });
    // The buyer's words are theirs to write; nothing the service adds names the buyer.
    expect(withoutId(reply.text, "Ring twice, Ana Costa at flat 3")).not.toMatch(
      /C-1001|Ana|ana@example|customerId|customer_id|"name":"Ana/,
    );
    // Placed: a customer could cancel or leave a note, a seller can do neither, so nothing is offered.
    expect(reply.body.allowedActions).toEqual([]);
    expect((await world.call(handlers.get, ana, { orderId: "SU-10001" })).body.allowedActions).toEqual([
      "cancel_order",
      "add_delivery_note",
    ]);

    const delivered = await world.call(handlers.get, ashcombe, { orderId: "SU-10005" });
    expect(delivered.body.allowedActions).toEqual(["start_return", "offer_replacement"]);
  });

  it("another seller's order is ORDER_NOT_FOUND, byte for byte the answer for an order that does not exist", async () => {
    const foreign = await world.call(handlers.get, ashcombe, { orderId: "SU-20001" });
    const absent = await world.call(handlers.get, ashcombe, { orderId: "SU-99999" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("ORDER_NOT_FOUND");
    expect(withoutId(foreign.text, "SU-20001")).toBe(withoutId(absent.text, "SU-99999"));
    expect(foreign.headers).toEqual(absent.headers);
    // The search it suggests is one a seller may make.
    expect(foreign.body.error.message).toMatch(/search_orders \(an id fragment of 3 or more digits, or a date range\)/);
    expect(foreign.body.error.message).not.toMatch(/e-mail/);
  });

  it("search by a fragment finds only its own orders; the other seller's matches move neither the count nor truncated", async () => {
    const own = await world.call(handlers.search, ashcombe, { orderId: "777", limit: 5 });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      orders: [expect.objectContaining({ orderId: "SU-77701", sellerName: "Ashcombe Furniture" })],
      truncated: false,
    });
    // The same fragment from the seller who has 24 matching orders: a full page and truncated.
    const other = await world.call(handlers.search, corran, { orderId: "777", limit: 5 });
    expect(other.body.orders).toHaveLength(5);
    expect(other.body.truncated).toBe(true);
    expect(other.body.orders.every((o: { orderId: string }) => o.orderId !== "SU-77701")).toBe(true);
    // No customer identity in results either.
    expect(own.text).not.toMatch(/C-1001|customerId|ana@example/);
    // A full id of another seller's order finds nothing, exactly like an id no order has.
    expect((await world.call(handlers.search, ashcombe, { orderId: "SU-20001" })).text).toBe(
      JSON.stringify({ orders: [], truncated: false }),
    );
  });

  it("search by placed days reads its own orders across months, newest first, and nothing of other sellers'", async () => {
    const reply = await world.call(handlers.search, ashcombe, { dateRange: { dateField: "placed", from: day(-90), to: day(0) } });
    expect(reply.status).toBe(200);
    const ids = reply.body.orders.map((o: { orderId: string }) => o.orderId);
    // Every one of Ashcombe's orders placed in those three months, and not one of Corran's in the same months.
    expect([...ids].sort()).toEqual([
      "SU-10001",
      "SU-10005",
      "SU-10006",
      "SU-10007",
      "SU-10008",
      "SU-60001",
      "SU-60002",
      "SU-60003",
      "SU-77701",
    ]);
    expect(ids[0]).toBe("SU-60001");
    expect(ids.at(-1)).toBe("SU-60003");
    expect(reply.body.truncated).toBe(false);
    // Newest first, as placed.
    const placed = reply.body.orders.map((o: { placedAt: string }) => o.placedAt);
    expect([...placed].sort().reverse()).toEqual(placed);

    const page = await world.call(handlers.search, ashcombe, { dateRange: { dateField: "placed", from: day(-90), to: day(0) }, limit: 3 });
    expect(page.body.orders).toHaveLength(3);
    expect(page.body.truncated).toBe(true);

    const narrow = await world.call(handlers.search, ashcombe, { dateRange: { dateField: "placed", from: day(-80), to: day(-30) } });
    expect(narrow.body).toMatchObject({ orders: [{ orderId: "SU-60002" }, { orderId: "SU-60003" }], truncated: false });
  });

  it("search by delivered days finds an order placed long before the range, and leaves out one delivered outside it", async () => {
    const reply = await world.call(handlers.search, ashcombe, {
      dateRange: { dateField: "delivered", from: day(-4), to: day(-3) },
      limit: 20,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ orders: [expect.objectContaining({ orderId: "SU-60004", status: "delivered" })], truncated: false });
    const older = await world.call(handlers.search, ashcombe, { dateRange: { dateField: "delivered", from: day(-100), to: day(-100) } });
    expect(older.body.orders.map((o: { orderId: string }) => o.orderId)).toEqual(["SU-60005"]);
  });

  it("search by e-mail is INVALID_INPUT saying what a seller may search by, and reads nothing", async () => {
    world.counter.reset();
    const reply = await world.call(handlers.search, ashcombe, { email: "ana@example.com" });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: "INVALID_INPUT", issues: [{ path: "email" }] });
    expect(reply.body.error.message).toMatch(/orderId .* or by dateRange/);
    expect(reply.body.error.message).toMatch(/Leave email out/);
    // Only the request budget's counter (when it is on); no order, customer or index was read.
    expect(world.counter.snapshot().QueryCommand ?? 0).toBe(0);
    expect(world.counter.snapshot().GetItemCommand ?? 0).toBe(0);
    const combined = await world.call(handlers.search, ashcombe, { email: "ana@example.com", orderId: "SU-10005" });
    expect(combined.status).toBe(400);
  });
});

describe("a seller changes the orders it sold, under the customer's rules", () => {
  it("start_return completes, and the activity entry records the seller, its sub and its seller id", async () => {
    const operationId = newOperationId();
    const reply = await world.call(handlers.ret, ashcombe, { operationId, orderId: "SU-10006", itemIds: ["ITM-1"], reason: "damaged" });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: "completed",
      orderId: "SU-10006",
      orderVersion: 4,
      return: { itemIds: ["ITM-1"], pickup: { date: day(1) } },
    });
    const stored = await world.order("SU-10006");
    expect(stored?.activity.at(-1)).toMatchObject({
      tool: "start_return",
      actor: { kind: "seller", sub: "seller-SLR-2210", sellerId: "SLR-2210" },
    });
    expect(await world.operation(ashcombe, operationId)).toMatchObject({
      status: "completed",
      actor: { kind: "seller", sellerId: "SLR-2210" },
    });
    // Its own operation, by id; another caller with the same id finds nothing.
    const status = await world.call(handlers.status, ashcombe, { operationId });
    expect(status.body).toMatchObject({ status: "completed", tool: "start_return", orderId: "SU-10006" });
    const elsewhere = await world.call(handlers.status, corran, { operationId });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ status: "not_found", error: { code: "OPERATION_NOT_FOUND" } });
  });

  it("offer_replacement completes with the stock reserved, and a second one for the same item is ITEM_ALREADY_REPLACED", async () => {
    const reply = await world.call(handlers.replace, ashcombe, {
      operationId: newOperationId(),
      orderId: "SU-10007",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: "completed", replacement: { itemId: "ITM-1", replacementItemId: "ITM-2" } });
    const again = await world.call(handlers.replace, ashcombe, {
      operationId: newOperationId(),
      orderId: "SU-10007",
      expectedVersion: 4,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(again.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "ITEM_ALREADY_REPLACED" });
    // The replacement line is a person's to handle, for a seller too.
    const line = await world.call(handlers.ret, ashcombe, {
      operationId: newOperationId(),
      orderId: "SU-10007",
      itemIds: ["ITM-2"],
      reason: "damaged",
    });
    expect(line.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "REPLACEMENT_LINE" });
  });

  it("not delivered is NOT_DELIVERED, as for the customer", async () => {
    const reply = await world.call(handlers.ret, ashcombe, {
      operationId: newOperationId(),
      orderId: "SU-10001",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({ code: "NOT_ELIGIBLE", reason: "NOT_DELIVERED" });
  });

  it("a suspended seller gets SELLER_SUSPENDED for a replacement and may still start a return", async () => {
    const refused = await world.call(handlers.replace, brightwell, {
      operationId: newOperationId(),
      orderId: "SU-30005",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "SELLER_SUSPENDED", sellerId: "SLR-3300" });
    expect(refused.body.error.message).toMatch(/start_return still works/);
    const returned = await world.call(handlers.ret, brightwell, {
      operationId: newOperationId(),
      orderId: "SU-30005",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(returned.status).toBe(200);
  });

  it("another seller's order is ORDER_NOT_FOUND for every change, identical to a nonexistent one, and changes nothing", async () => {
    const before = await world.orderItem("SU-20005");
    for (const [handler, body] of [
      [handlers.ret, { itemIds: ["ITM-1"], reason: "damaged" }],
      [handlers.replace, { expectedVersion: 3, itemId: "ITM-1", reason: "damaged" }],
    ] as const) {
      const foreignOp = newOperationId();
      const absentOp = newOperationId();
      const foreign = await world.call(handler, ashcombe, { operationId: foreignOp, orderId: "SU-20005", ...body });
      const absent = await world.call(handler, ashcombe, { operationId: absentOp, orderId: "SU-99999", ...body });
      expect(foreign.status).toBe(404);
      expect(withoutId(foreign.text, "SU-20005", foreignOp)).toBe(withoutId(absent.text, "SU-99999", absentOp));
    }
    expect(await world.orderItem("SU-20005")).toEqual(before);
  });

  it("ownership is judged in the write itself: an order moved to another seller between read and write is not found, and unchanged", async () => {
    const operationId = newOperationId();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { reached } = holdTransactionsOf(world, operationId, released);
    const pending = world.call(handlers.ret, ashcombe, { operationId, orderId: "SU-10008", itemIds: ["ITM-1"], reason: "damaged" });
    await reached;
    // The order system reassigns the order while the return is on its way; its version stays as read.
    await world.deps.doc.send(
      new UpdateCommand({
        TableName: world.names.orders,
        Key: orderKey("SU-10008"),
        UpdateExpression: "SET sellerId = :other",
        ExpressionAttributeValues: { ":other": "SLR-4400" },
      }),
    );
    release();
    const reply = await pending;
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("ORDER_NOT_FOUND");
    expect(await world.orderItem("SU-10008")).toMatchObject({ version: 3, sellerId: "SLR-4400" });
    expect((await world.order("SU-10008"))?.activity).toEqual([]);
  });

  it("cancel_order and add_delivery_note are FORBIDDEN naming who may, on its own order too, and record nothing", async () => {
    const budgeted = { ...world.deps, requestBudget: 100 };
    const cancel = createCancel(budgeted);
    const note = createNote(budgeted);
    const started = new Date().toISOString().slice(0, 16);
    world.counter.reset();
    for (const [handler, body, tool] of [
      [cancel, { orderId: "SU-10001" }, "cancel_order"],
      [note, { orderId: "SU-10001", expectedVersion: 3, deliveryNote: "Leave at the gate" }, "add_delivery_note"],
    ] as const) {
      const operationId = newOperationId();
      const reply = await world.call(handler, ashcombe, { operationId, ...body });
      expect(reply.status).toBe(403);
      expect(reply.body.error).toMatchObject({ code: "FORBIDDEN", allowedPrincipals: ["customer", "support"] });
      expect(reply.body.error.message).toMatch(new RegExp(`^${tool} is for the order's customer and for support staff, not for sellers`));
      expect(reply.body.error.message).toMatch(/search_orders, get_order, start_return, offer_replacement, get_operation_status/);
      expect(await world.operation(ashcombe, operationId)).toBeUndefined();
      const lookup = await world.call(handlers.status, ashcombe, { operationId });
      expect(lookup.body.status).toBe("not_found");
    }
    // Nothing at all reached DynamoDB for the two refusals but the two status lookups' reads.
    expect(world.counter.snapshot()).not.toHaveProperty("UpdateItemCommand");
    expect(world.counter.snapshot()).not.toHaveProperty("TransactWriteItemsCommand");
    for (const minute of new Set([started, new Date().toISOString().slice(0, 16)])) {
      const budget = await world.deps.doc.send(
        new GetCommand({ TableName: world.names.orders, Key: budgetKey(ashcombe.claims.sub as string, minute), ConsistentRead: true }),
      );
      expect(budget.Item).toBeUndefined();
    }
    // A call a seller may make does count against its budget, as every principal's calls do.
    const minutes = [new Date().toISOString().slice(0, 16)];
    const read = await world.call(createGetOrder(budgeted), ashcombe, { orderId: "SU-10001" });
    expect(read.status).toBe(200);
    minutes.push(new Date().toISOString().slice(0, 16));
    let spent = 0;
    for (const m of new Set(minutes)) {
      const item = await world.deps.doc.send(
        new GetCommand({ TableName: world.names.orders, Key: budgetKey(ashcombe.claims.sub as string, m), ConsistentRead: true }),
      );
      spent += Number(item.Item?.requests ?? 0);
    }
    expect(spent).toBe(1);
    expect(await world.orderItem("SU-10001")).toMatchObject({ status: "placed", version: 3 });
    // Support may, as ever.
    expect((await world.call(handlers.cancel, support("S-7"), { operationId: newOperationId(), orderId: "SU-77701" })).status).toBe(200);
  });
});

describe("who a seller token is", () => {
  it("both customer_id and seller_id, or a malformed seller_id, is FORBIDDEN and never falls through to support", async () => {
    const both = {
      claims: { sub: "x", customer_id: "C-1001", seller_id: "SLR-2210", scope: "orders:read orders:write orders:support" },
      scopes: ["orders:read", "orders:write", "orders:support"],
    };
    const reply = await world.call(handlers.get, both, { orderId: "SU-10001" });
    expect(reply.status).toBe(403);
    expect(reply.body.error.message).toMatch(/both a customer_id and a seller_id claim/);
    for (const value of ["slr-2210", "SLR-", "2210", "SLR-2210 ", "SLR-1234567890123"]) {
      const malformed = seller(value, "orders:read orders:write orders:support");
      const answer = await world.call(handlers.get, malformed, { orderId: "SU-20001" });
      expect(answer.status, value).toBe(403);
      expect(answer.body.error.message, value).toMatch(
        /seller_id claim is .+, which is not a seller id\. A valid claim is SLR- followed by 1 to 12 digits/,
      );
    }
  });

  it("a read-only seller token reads but changes nothing, and allowedActions offers nothing", async () => {
    const reader = seller("SLR-2210", "orders:read");
    expect((await world.call(handlers.get, reader, { orderId: "SU-10005" })).body.allowedActions).toEqual([]);
    const refused = await world.call(handlers.ret, reader, {
      operationId: newOperationId(),
      orderId: "SU-10005",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", requiredScope: "orders:write" });
  });
});

describe("the seller cap", () => {
  it("a seller actor's changes per rolling hour are capped; another user of the same seller has an allowance of its own", async () => {
    const capped = { ...world.deps, sellerHourlyCap: 1 };
    const ret = createReturn(capped);
    const agent = seller("SLR-2210", "orders:read orders:write", "agent-ashcombe-1");
    const first = await world.call(ret, agent, {
      operationId: newOperationId(),
      orderId: "SU-10005",
      itemIds: ["ITM-1"],
      reason: "damaged",
    });
    expect(first.status).toBe(200);
    const replace = createReplace(capped);
    const second = await world.call(replace, agent, {
      operationId: newOperationId(),
      orderId: "SU-60004",
      expectedVersion: 3,
      itemId: "ITM-1",
      reason: "damaged",
    });
    expect(second.status).toBe(429);
    expect(second.body.error).toMatchObject({ code: "RATE_LIMITED" });
    expect(second.headers["retry-after"]).toBe(String(second.body.error.retryAfterSeconds));
    expect(second.body.error.message).toMatch(
      /^You have made 1 order changes for seller SLR-2210 in the past hour; the limit is 1\. Try again in \d+ s\.$/,
    );
    expect(await world.orderItem("SU-60004")).toMatchObject({ version: 3 });
    const rate = await world.deps.doc.send(
      new GetCommand({ TableName: world.names.orders, Key: sellerRateKey("SLR-2210", "agent-ashcombe-1"), ConsistentRead: true }),
    );
    expect(rate.Item?.recent).toHaveLength(1);
    const colleague = seller("SLR-2210", "orders:read orders:write", "agent-ashcombe-2");
    expect(
      (
        await world.call(replace, colleague, {
          operationId: newOperationId(),
          orderId: "SU-60004",
          expectedVersion: 3,
          itemId: "ITM-1",
          reason: "damaged",
        })
      ).status,
    ).toBe(200);
  });
});

describe("the order system delivering an order", () => {
  it("moves it into the seller's delivered months: a delivered search finds it the moment deliveredAt is set", async () => {
    const range = { dateRange: { dateField: "delivered", from: day(-1), to: day(-1) } };
    expect((await world.call(handlers.search, ashcombe, range)).body.orders).toEqual([]);
    await dynamoOrderWriter(world.deps)("SU-60003", { status: "delivered", deliveredAt: `${day(-1)}T12:00:00Z` });
    const found = await world.call(handlers.search, ashcombe, range);
    expect(found.body.orders.map((o: { orderId: string }) => o.orderId)).toEqual(["SU-60003"]);
    // And the seller may now return what was delivered.
    expect((await world.call(handlers.get, ashcombe, { orderId: "SU-60003" })).body.allowedActions).toEqual([
      "start_return",
      "offer_replacement",
    ]);
  });
});
