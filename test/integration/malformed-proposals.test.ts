import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { createHandler as createAddNote } from "#tools/add-delivery-note";
import { createHandler as createCancel } from "#tools/cancel-order";
import { createHandler as createStatus } from "#tools/get-operation-status";
import { customer, newOperationId, newWorld, type World } from "#test/support/world";

const ana = customer("C-1001");

/** Every malformed proposal is a 400 INVALID_INPUT with issues, and nothing at all is written. */
describe("malformed proposals", () => {
  let world: World;
  let cancel: ReturnType<typeof createCancel>;
  let addNote: ReturnType<typeof createAddNote>;
  let snapshot: string;

  async function everything() {
    const scan = async (TableName: string) => (await world.deps.doc.send(new ScanCommand({ TableName, ConsistentRead: true }))).Items ?? [];
    return JSON.stringify([await scan(world.names.orders), await scan(world.names.idempotency)]);
  }

  beforeAll(async () => {
    world = await newWorld();
    cancel = createCancel(world.deps);
    addNote = createAddNote(world.deps);
    snapshot = await everything();
  });

  async function expectRefused(handler: typeof cancel, body: unknown, path: string, message: RegExp) {
    world.counter.reset();
    const reply = await world.call(handler, ana, body);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: "INVALID_INPUT", retryable: false });
    expect(reply.body.error.issues.length).toBeGreaterThan(0);
    expect(reply.body.error.issues).toContainEqual({ path, message: expect.stringMatching(message) });
    expect(world.counter.total).toBe(0);
    expect(await everything()).toBe(snapshot);
    return reply;
  }

  const note = (deliveryNote: unknown) => ({ operationId: newOperationId(), orderId: "SU-10001", expectedVersion: 1, deliveryNote });

  it("unknown fields such as customerId or status are refused and named", async () => {
    const reply = await expectRefused(
      cancel,
      { operationId: newOperationId(), orderId: "SU-10001", customerId: "C-2002", status: "cancelled" },
      "",
      /unknown fields 'customerId', 'status'/,
    );
    expect(reply.body.error.message).toMatch(/takes only operationId, orderId, expectedVersion, reason/);
    await expectRefused(addNote, { ...note("hi"), status: "placed" }, "", /unknown field 'status'/);
  });

  it("a 4-digit order id names the format and how many digits it has", async () => {
    const reply = await expectRefused(
      cancel,
      { operationId: newOperationId(), orderId: "SU-9941" },
      "orderId",
      /order ids are SU- followed by five digits, and this one has four/,
    );
    expect(reply.body.error.message).toContain("SU-9941");
    await expectRefused(
      cancel,
      { operationId: newOperationId(), orderId: "4821" },
      "orderId",
      /SU- followed by five digits .* no SU- prefix and four digits/,
    );
    await expectRefused(
      cancel,
      { operationId: newOperationId(), orderId: "order-example-88" },
      "orderId",
      /SU- followed by five digits, like SU-88421/,
    );
  });

  it("bad operation ids and versions are refused with what would be right", async () => {
    await expectRefused(cancel, { operationId: "short", orderId: "SU-10001" }, "operationId", /5 characters long; it must be 8–128/);
    await expectRefused(cancel, { operationId: "op with spaces", orderId: "SU-10001" }, "operationId", /" " at character 3/);
    await expectRefused(cancel, { orderId: "SU-10001" }, "operationId", /operationId is required/);
    await expectRefused(addNote, { ...note("hi"), expectedVersion: 0 }, "expectedVersion", /whole number ≥ 1/);
    await expectRefused(addNote, { ...note("hi"), expectedVersion: "3" }, "expectedVersion", /whole number ≥ 1/);
    const { expectedVersion: _, ...withoutVersion } = note("hi");
    await expectRefused(addNote, withoutVersion, "expectedVersion", /required/);
  });

  it("an oversized note, an 11-line note and an empty note are refused", async () => {
    await expectRefused(addNote, note("x".repeat(501)), "deliveryNote", /501 characters long after trimming; the limit is 500/);
    await expectRefused(
      addNote,
      note(Array.from({ length: 11 }, (_, i) => `line ${i}`).join("\n")),
      "deliveryNote",
      /has 11 lines; the limit is 10/,
    );
    await expectRefused(addNote, note("   \n  "), "deliveryNote", /empty after trimming/);
  });

  it("bidi overrides and zero-width characters are refused with their position", async () => {
    await expectRefused(
      addNote,
      note("Leave at door\u202Eroolf dnoces"),
      "deliveryNote",
      /right-to-left override \(U\+202E\) at character 14/,
    );
    await expectRefused(addNote, note("Gate\u200Bcode"), "deliveryNote", /zero-width space \(U\+200B\) at character 5/);
    await expectRefused(addNote, note("a\u2066b"), "deliveryNote", /left-to-right isolate \(U\+2066\) at character 2/);
    await expectRefused(addNote, note("bell\u0007"), "deliveryNote", /U\+0007 at character 5/);
  });

  it("a body that is not JSON, or not an object, is INVALID_INPUT with a non-empty issues list", async () => {
    await expectRefused(cancel, "{not json", "", /not valid JSON/);
    await expectRefused(cancel, "[1,2]", "", /must be a JSON object/);
    await expectRefused(cancel, "", "", /body is empty/);
  });

  it("a body over 16 KiB is refused before it is parsed", async () => {
    await expectRefused(addNote, JSON.stringify(note("x".repeat(17_000))), "", /limit is 16384 bytes/);
  });

  it("the status lookup validates its operationId too", async () => {
    const reply = await world.call(createStatus(world.deps), ana, { operationId: "no" });
    expect(reply.status).toBe(400);
    expect(reply.body.error.issues[0].path).toBe("operationId");
  });
});
