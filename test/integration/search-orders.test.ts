import { beforeAll, describe, expect, it } from "vitest";
import { searchOrdersOutput } from "#contract/read-schemas";
import { customerIndex } from "#store/table-design";
import { createHandler } from "#tools/search-orders";
import { testFixture } from "#test/support/test-shop";
import { type Caller, customer, newWorld, support, type World } from "#test/support/world";

const ana = customer("C-1001");
const ben = customer("C-2002");
const staff = support("S-7");

/**
 * The shared test world (Ana's SU-10001…SU-10006 and Ben's SU-20001, all placed 2026-11-20) plus orders whose
 * ids hold 123 at each position, for three customers.
 */
function searchFixture() {
  const fixture = testFixture() as Record<string, Record<string, unknown>[]>;
  const base = fixture.orders?.[0] as Record<string, unknown>;
  const order = (id: string, customerId: string, placedAt: string, deliveredAt: string | null, extra: Record<string, unknown> = {}) => ({
    ...structuredClone(base),
    id,
    customerId,
    placedAt,
    deliveredAt,
    status: deliveredAt ? "delivered" : "processing",
    ...extra,
  });
  fixture.customers?.push({ id: "C-3003", email: "Cy.Park@Example.com", name: "Cy Park" });
  fixture.orders?.push(
    order("SU-12345", "C-1001", "2026-09-01T10:00:00Z", "2026-09-03T12:00:00Z"),
    order("SU-81234", "C-2002", "2026-10-05T08:00:00Z", "2026-10-07T09:00:00Z", {
      sellerId: "SLR-1",
      currency: "EUR",
      items: ["Kettle", "Toaster", "Mug", "Tea towel"].map((title, i) => ({
        itemId: `ITM-${i + 1}`,
        sku: `SU-${i}`,
        title,
        quantity: 1,
        unitCents: 1000 * (i + 1),
        description: title,
      })),
      charges: [
        { kind: "item", cents: 10000 },
        { kind: "delivery", cents: 499 },
        { kind: "delivery", cents: 499 },
      ],
    }),
    order("SU-99123", "C-1001", "2026-11-10T09:00:00Z", null),
    order("SU-12399", "C-3003", "2026-06-01T07:30:00Z", "2026-06-04T16:00:00Z"),
    order("SU-45678", "C-1001", "2026-08-15T12:00:00Z", null, { status: "shipped" }),
  );
  return fixture;
}

describe("search_orders", () => {
  let world: World;
  let search: ReturnType<typeof createHandler>;
  beforeAll(async () => {
    world = await newWorld(searchFixture());
    search = createHandler(world.deps);
  });

  /** Searches and returns the reply with the DynamoDB requests it made; a success must match the output schema. */
  async function find(caller: Caller, body: Record<string, unknown>) {
    world.counter.reset();
    const reply = await world.call(search, caller, body);
    const requests = world.counter.snapshot();
    if (reply.status === 200) expect(searchOrdersOutput.safeParse(reply.body).error).toBeUndefined();
    // A read: nothing is ever written.
    expect(Object.keys(requests).filter((command) => !/^(Query|GetItem|BatchGetItem)Command$/.test(command))).toEqual([]);
    return { ...reply, requests, ids: (reply.body.orders ?? []).map((o: { orderId: string }) => o.orderId) as string[] };
  }

  it("a 3-digit fragment matches several orders, wherever it sits in the id, newest first: three parallel Queries, no Scan", async () => {
    const reply = await find(staff, { orderId: "123" });
    expect(reply.status).toBe(200);
    expect(reply.ids).toEqual(["SU-99123", "SU-81234", "SU-12345", "SU-12399"]);
    expect(reply.body.truncated).toBe(false);
    expect(reply.body.orders[1]).toEqual({
      orderId: "SU-81234",
      status: "delivered",
      placedAt: "2026-10-05T08:00:00Z",
      deliveredAt: "2026-10-07T09:00:00Z",
      sellerName: "Sundry",
      itemTitles: ["Kettle", "Toaster", "Mug"],
      totalCents: 10998,
      currency: "EUR",
    });
    expect(reply.requests).toEqual({ QueryCommand: 3 });
  });

  it("a 4-digit fragment needs only the two positions it can start at", async () => {
    const reply = await find(staff, { orderId: "1234" });
    expect(reply.ids).toEqual(["SU-81234", "SU-12345"]);
    expect(reply.requests).toEqual({ QueryCommand: 2 });
  });

  it("a full id, with or without SU-, is one GetItem", async () => {
    for (const orderId of ["SU-81234", "81234"]) {
      const reply = await find(staff, { orderId });
      expect(reply.ids).toEqual(["SU-81234"]);
      expect(reply.requests).toEqual({ GetItemCommand: 1 });
    }
  });

  it("a customer only ever sees their own orders: the same fragment finds only theirs, another's full id finds nothing", async () => {
    const fragment = await find(ana, { orderId: "123" });
    expect(fragment.ids).toEqual(["SU-99123", "SU-12345"]);
    expect(fragment.requests).toEqual({ QueryCommand: 1 });

    const foreign = await find(ana, { orderId: "SU-81234" });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual({ orders: [], truncated: false });
    expect(await find(ana, { orderId: "SU-88888" })).toMatchObject({ status: 200, body: { orders: [], truncated: false } });
  });

  it("e-mail search across customers is scoped: a customer naming another's address finds nothing; support finds that customer's orders only", async () => {
    const other = await find(ana, { email: "ben@example.com" });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ orders: [], truncated: false });
    // Both lookups go out together: the address's owners and the caller's own partition.
    expect(other.requests).toEqual({ QueryCommand: 2 });

    const own = await find(ana, { email: "ANA@Example.com" });
    expect(own.ids).toEqual(["SU-10006", "SU-10005", "SU-10004", "SU-10003", "SU-10002", "SU-10001", "SU-99123", "SU-12345", "SU-45678"]);

    const bens = await find(staff, { email: "ben@example.com" });
    expect(bens.ids).toEqual(["SU-20001", "SU-81234"]);
    expect(bens.requests).toEqual({ QueryCommand: 2 });
    expect((await find(staff, { email: "cy.park@example.com" })).ids).toEqual(["SU-12399"]);
    expect(await find(staff, { email: "nobody@example.com" })).toMatchObject({
      body: { orders: [], truncated: false },
      requests: { QueryCommand: 1 },
    });
  });

  it("support listing by date alone is refused with 400 saying what to add, before any request", async () => {
    const reply = await find(staff, { dateRange: { dateField: "placed", from: "2026-11-01", to: "2026-11-30" } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: "INVALID_INPUT", retryable: false });
    expect(reply.body.error.issues).toHaveLength(1);
    expect(reply.body.error.message).toMatch(
      /needs an email or an orderId .* Add the customer's e-mail address or the part of the order id they remember/,
    );
    expect(reply.requests).toEqual({});
  });

  it("date ranges on placed or delivered days, both ends included, combine with the other criteria", async () => {
    expect((await find(ana, { dateRange: { dateField: "placed", from: "2026-09-01", to: "2026-09-30" } })).ids).toEqual(["SU-12345"]);
    expect((await find(ana, { dateRange: { dateField: "placed", from: "2026-08-16", to: "2026-09-01" } })).ids).toEqual(["SU-12345"]);
    expect((await find(ana, { dateRange: { dateField: "delivered", from: "2026-09-03", to: "2026-09-03" } })).ids).toEqual(["SU-12345"]);
    expect(
      (await find(staff, { orderId: "123", dateRange: { dateField: "delivered", from: "2026-10-01", to: "2026-10-31" } })).ids,
    ).toEqual(["SU-81234"]);
    const combined = await find(staff, {
      email: "ana@example.com",
      orderId: "123",
      dateRange: { dateField: "placed", from: "2026-09-01", to: "2026-11-30" },
    });
    expect(combined.ids).toEqual(["SU-99123", "SU-12345"]);
    expect(combined.requests).toEqual({ QueryCommand: 2 });
  });

  it.each([
    [
      { dateField: "placed", from: "2026-09-01", to: "2026-12-02" },
      /dateRange covers 93 days \(both ends included\); the limit is 92\. Narrow it, e\.g\. from 2026-09-01 to 2026-12-01/,
    ],
    [
      { dateField: "placed", from: "2026-09-10", to: "2026-09-01" },
      /dateRange\.to \(2026-09-01\) is before dateRange\.from \(2026-09-10\)/,
    ],
    [
      { dateField: "placed", from: "2026-02-30", to: "2026-03-01" },
      /dateRange\.from is "2026-02-30"; it must be a calendar date written YYYY-MM-DD/,
    ],
    [{ dateField: "shipped", from: "2026-09-01", to: "2026-09-02" }, /dateField must be "placed" .* or "delivered"/],
  ])("a bad date range is INVALID_INPUT naming what would be right: %j", async (dateRange, message) => {
    const reply = await find(ana, { dateRange });
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toMatch(message);
    expect(reply.requests).toEqual({});
  });

  it("a range of exactly 92 days is accepted", async () => {
    const reply = await find(ana, { dateRange: { dateField: "placed", from: "2026-09-01", to: "2026-12-01" } });
    expect(reply.status).toBe(200);
    expect(reply.ids).toHaveLength(8);
  });

  it("limit cuts the newest first and says so with truncated; 1–20, default 10", async () => {
    const cut = await find(staff, { orderId: "100", limit: 3 });
    expect(cut.ids).toEqual(["SU-10006", "SU-10005", "SU-10004"]);
    expect(cut.body.truncated).toBe(true);
    expect((await find(staff, { orderId: "100", limit: 6 })).body).toMatchObject({
      truncated: false,
      orders: expect.toSatisfy((o: unknown[]) => o.length === 6),
    });
    expect((await find(staff, { orderId: "100", limit: 5 })).body.truncated).toBe(true);
    expect((await find(ana, { email: "ana@example.com", limit: 20 })).body.truncated).toBe(false);
    expect((await find(ana, { dateRange: { dateField: "placed", from: "2026-08-01", to: "2026-10-31" }, limit: 1 })).body).toMatchObject({
      truncated: true,
    });
    const defaults = await find(ana, { dateRange: { dateField: "placed", from: "2026-08-01", to: "2026-10-31" } });
    expect(defaults.ids).toEqual(["SU-12345", "SU-45678"]);
    for (const limit of [0, 21, 2.5, "10"]) {
      const reply = await find(ana, { orderId: "123", limit });
      expect(reply.status).toBe(400);
      expect(reply.body.error.issues[0]).toMatchObject({
        path: "limit",
        message: expect.stringMatching(/limit must be a whole number from 1 to 20/),
      });
    }
  });

  it.each([
    [{}, "", /Give at least one of email, orderId .* or dateRange/],
    [
      { orderId: "12" },
      "orderId",
      /"12" has two digits, too few to search by; give the full id \(SU- followed by five digits, like SU-88421\) or 3 to 5 consecutive digits of it/,
    ],
    [{ orderId: "SU-884211" }, "orderId", /"SU-884211" has six digits, but order ids have five/],
    [{ orderId: "order 884" }, "orderId", /is not an order id or part of one/],
    [{ email: "ana at example" }, "email", /email must be an e-mail address like ana@example.com/],
    [{ orderId: "123", customerId: "C-2002" }, "", /unknown field 'customerId': search_orders takes only email, orderId, dateRange, limit/],
  ])("a request that says nothing usable is INVALID_INPUT: %j", async (body, path, message) => {
    const reply = await find(staff, body);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("INVALID_INPUT");
    expect(reply.body.error.issues[0].path).toBe(path);
    expect(reply.body.error.message).toMatch(message);
    expect(reply.requests).toEqual({});
  });

  it("a customer may search by date alone; results carry nothing about other customers or the store", async () => {
    const reply = await find(ben, { dateRange: { dateField: "placed", from: "2026-10-01", to: "2026-11-30" } });
    expect(reply.ids).toEqual(["SU-20001", "SU-81234"]);
    expect(JSON.stringify(reply.body)).not.toMatch(/C-2002|ben@example|GSI|DIGITS#|CUSTOMER#|warehouseRoutingCode|internal/);
  });
});

describe("search_orders reads a customer's partition only as far as the answer needs", () => {
  const dee = customer("C-4004");
  let world: World;
  let search: ReturnType<typeof createHandler>;
  const queries: Array<{ index: string; limit: number | undefined; items: number }> = [];

  beforeAll(async () => {
    // Dee has 150 orders, one a day from 2026-05-01; every third was delivered two days later.
    const fixture = testFixture() as Record<string, Record<string, unknown>[]>;
    const base = fixture.orders?.[0] as Record<string, unknown>;
    fixture.customers?.push({ id: "C-4004", email: "dee@example.com", name: "Dee" });
    for (let i = 0; i < 150; i++) {
      const placed = new Date(Date.UTC(2026, 4, 1 + i, 9));
      const delivered = i % 3 === 0 ? new Date(placed.getTime() + 2 * 86_400_000).toISOString() : null;
      fixture.orders?.push({
        ...structuredClone(base),
        id: `SU-${60000 + i}`,
        customerId: "C-4004",
        placedAt: placed.toISOString(),
        deliveredAt: delivered,
        status: delivered ? "delivered" : "processing",
      });
    }
    world = await newWorld(fixture);
    search = createHandler(world.deps);
    world.client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const input = args.input as { IndexName?: string; Limit?: number };
        if (context.commandName === "QueryCommand" && input.IndexName === customerIndex.indexName) {
          queries.push({
            index: input.IndexName,
            limit: input.Limit,
            items: ((result.output as { Items?: unknown[] }).Items ?? []).length,
          });
        }
        return result;
      },
      { step: "initialize", name: "recordCustomerQueries" },
    );
  });

  async function find(caller: Caller, body: Record<string, unknown>) {
    queries.length = 0;
    const reply = await world.call(search, caller, body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return {
      ids: (reply.body.orders as Array<{ orderId: string }>).map((o) => o.orderId),
      truncated: reply.body.truncated,
      queries: [...queries],
    };
  }

  it("by e-mail or placed days alone, one Query of limit + 1 orders answers, truncated included", async () => {
    const byEmail = await find(dee, { email: "dee@example.com", limit: 5 });
    expect(byEmail.ids).toEqual(["SU-60149", "SU-60148", "SU-60147", "SU-60146", "SU-60145"]);
    expect(byEmail.truncated).toBe(true);
    expect(byEmail.queries).toEqual([{ index: customerIndex.indexName, limit: 6, items: 6 }]);

    const bySupport = await find(support("S-7"), { email: "dee@example.com" });
    expect(bySupport.ids).toHaveLength(10);
    expect(bySupport.queries).toEqual([{ index: customerIndex.indexName, limit: 11, items: 11 }]);

    const byDays = await find(dee, { dateRange: { dateField: "placed", from: "2026-05-01", to: "2026-05-04" }, limit: 20 });
    expect(byDays.ids).toEqual(["SU-60003", "SU-60002", "SU-60001", "SU-60000"]);
    expect(byDays.truncated).toBe(false);
    expect(byDays.queries).toEqual([{ index: customerIndex.indexName, limit: 21, items: 4 }]);
  });

  it("a filter the index cannot apply (delivered days) still pages on, in full pages, until it has enough", async () => {
    // Delivered by 2026-06-15: only orders placed by 2026-06-13 (SU-60000…SU-60043, every third), none of them
    // among the newest 100 that the first page holds.
    const delivered = await find(dee, { dateRange: { dateField: "delivered", from: "2026-05-01", to: "2026-06-15" }, limit: 3 });
    expect(delivered.ids).toEqual(["SU-60042", "SU-60039", "SU-60036"]);
    expect(delivered.truncated).toBe(true);
    expect(delivered.queries.map((q) => q.limit)).toEqual([100, 100]);
  });
});
