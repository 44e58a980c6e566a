import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DescribeTableCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DynamoDbIntentStore } from "#controller/intents/dynamodb";
import { FileIntentStore } from "#controller/intents/file";
import { type Intent, IntentTransitionError, moved, newOperationId } from "#controller/intents/intent";
import { MemoryIntentStore } from "#controller/intents/memory";
import { IntentConflictError, type IntentStore } from "#controller/intents/store";
import { intentTable } from "#controller/intents/intent-table";
import { freshIntentTable } from "#test/controller/support/service-world";

/** The same contract for the three intent stores, and what each adds (fsync'd lines and torn tails; conditional puts). */
let dir: string;
let dynamo: { client: DynamoDBClient; tableName: string };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "intent-stores-"));
  dynamo = await freshIntentTable();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  dynamo?.client.destroy();
});

/**
 * Every file store a test opens, closed after it. A test that plays a restarted controller leaves the first
 * instance open, as a crash would; closing it afterwards keeps Node from closing its file handle on garbage
 * collection (which warns, and is deprecated: DEP0137).
 */
const fileStores: FileIntentStore[] = [];
const fileStore = (path: string) => {
  const store = new FileIntentStore(path);
  fileStores.push(store);
  return store;
};
afterEach(async () => {
  // allSettled: a store whose load failed (the damaged file) has no handle, and its close rejects with that failure.
  await Promise.allSettled(fileStores.splice(0).map((store) => store.close()));
});

let files = 0;
const stores: { name: string; make: () => IntentStore; reopen?: (store: IntentStore) => IntentStore }[] = [
  { name: "memory", make: () => new MemoryIntentStore() },
  {
    name: "file",
    make: () => fileStore(join(dir, `contract-${++files}.jsonl`)),
    reopen: (store) => fileStore((store as FileIntentStore).path),
  },
  {
    name: "DynamoDB",
    make: () => new DynamoDbIntentStore({ client: dynamo.client, tableName: dynamo.tableName }),
    reopen: () => new DynamoDbIntentStore({ client: dynamo.client, tableName: dynamo.tableName }),
  },
];

function proposed(conversationId: string, orderId = "SU-10234", at = new Date()): Intent {
  return {
    operationId: newOperationId(),
    conversationId,
    toolUseId: "toolu_1",
    tool: "cancel_order",
    orderId,
    request: { operationId: "set below", orderId },
    state: "proposed",
    revision: 0,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    sends: 0,
  };
}

const persisted = (conversationId: string, orderId?: string, at?: Date) => {
  const intent = proposed(conversationId, orderId, at);
  return moved({ ...intent, request: { ...intent.request, operationId: intent.operationId } }, "persisted");
};

let conversations = 0;
const newConversation = () => `conv-${Date.now()}-${++conversations}`;

for (const { name, make, reopen } of stores) {
  describe(`${name} intent store`, () => {
    it("keeps each revision, lists a conversation's intents oldest first, and lists only open ones as resumable", async () => {
      const store = make();
      const conversation = newConversation();
      const first = persisted(conversation, "SU-10001", new Date("2026-01-01T10:00:00Z"));
      const second = persisted(conversation, "SU-10002", new Date("2026-01-01T10:00:01Z"));
      await store.save(second);
      await store.save(first);
      const sent = moved(first, "sent", { sends: 1 });
      await store.save(sent);
      const done = moved(sent, "completed", {
        outcome: { status: "completed", body: { status: "completed", orderId: "SU-10001" }, recorded: true, via: "response" },
      });
      await store.save(done);

      expect((await store.forConversation(conversation)).map((i) => [i.orderId, i.state, i.revision])).toEqual([
        ["SU-10001", "completed", 3],
        ["SU-10002", "persisted", 1],
      ]);
      expect((await store.forConversation(conversation))[0]).toEqual(done);
      const resumable = (await store.resumable()).filter((i) => i.conversationId === conversation);
      expect(resumable.map((i) => i.operationId)).toEqual([second.operationId]);
      expect(await store.forConversation(`${conversation}-other`)).toEqual([]);
    });

    it("refuses a write that is not the next revision, so two controllers cannot overwrite each other", async () => {
      const store = make();
      const intent = persisted(newConversation());
      await store.save(intent);
      await expect(store.save(intent)).rejects.toThrow(IntentConflictError);
      const sent = moved(intent, "sent", { sends: 1 });
      await store.save(sent);
      // Another controller still holding revision 1 tries to move it on too.
      await expect(store.save(moved(intent, "sent", { sends: 1 }))).rejects.toThrow(/revision 2 cannot be written over revision 2/);
      await expect(store.save({ ...moved(sent, "unknown"), revision: 5 })).rejects.toThrow(IntentConflictError);
      expect((await store.forConversation(intent.conversationId))[0]).toMatchObject({ state: "sent", revision: 2 });
    });

    if (reopen) {
      it("what one instance wrote, a new instance (a restarted controller) reads", async () => {
        const store = make();
        const intent = persisted(newConversation());
        await store.save(intent);
        await store.save(moved(intent, "sent", { sends: 1 }));
        const again = reopen(store);
        expect(await again.forConversation(intent.conversationId)).toEqual([
          expect.objectContaining({ operationId: intent.operationId, state: "sent", revision: 2 }),
        ]);
        expect((await again.resumable()).map((i) => i.operationId)).toContain(intent.operationId);
      });
    }
  });
}

describe("the intent state machine", () => {
  it("refuses moves the machine does not have: nothing is sent before it is persisted, nothing leaves a final state", () => {
    const intent = proposed("c");
    expect(() => moved(intent, "sent")).toThrow(IntentTransitionError);
    const done = moved(moved(moved(intent, "persisted"), "sent"), "completed");
    expect(() => moved(done, "sent")).toThrow(/cannot move from completed to sent/);
    expect(moved(moved(intent, "awaiting_confirmation"), "declined").state).toBe("declined");
  });

  it("makes operationIds the service accepts: 8–128 characters of [A-Za-z0-9._:-], a new one each time", () => {
    const ids = new Set(Array.from({ length: 100 }, newOperationId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  });
});

describe("file intent store: append-only JSON lines, fsync'd, safe after a crash mid-write", () => {
  it("appends one line per write and never rewrites earlier lines", async () => {
    const path = join(dir, "append.jsonl");
    const store = fileStore(path);
    const intent = persisted("c-append");
    await store.save(intent);
    const afterFirst = await readFile(path, "utf8");
    await store.save(moved(intent, "sent", { sends: 1 }));
    const afterSecond = await readFile(path, "utf8");
    expect(afterSecond.startsWith(afterFirst)).toBe(true);
    expect(
      afterSecond
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).state),
    ).toEqual(["persisted", "sent"]);
    await store.close();
  });

  it("ignores a torn last line, cuts it off, and appends cleanly after it", async () => {
    const path = join(dir, "torn.jsonl");
    const intent = persisted("c-torn");
    const sent = moved(intent, "sent", { sends: 1 });
    await writeFile(path, `${JSON.stringify(intent)}\n${JSON.stringify(sent).slice(0, 40)}`);
    const store = await fileStore(path).open();

    expect(store.tornTail?.text).toBe(JSON.stringify(sent).slice(0, 40));
    expect(await store.forConversation("c-torn")).toEqual([intent]);
    // The torn write never happened, so the same revision can be written again.
    await store.save(sent);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines.slice(0, 2).map((line) => JSON.parse(line).revision)).toEqual([1, 2]);
    expect(lines[2]).toBe("");
    expect(await fileStore(path).forConversation("c-torn")).toEqual([sent]);
  });

  it("a last line that is complete but not JSON (a torn write padded by the file system) is ignored too", async () => {
    const path = join(dir, "padded.jsonl");
    const intent = persisted("c-padded");
    await writeFile(path, `${JSON.stringify(intent)}\n`);
    await appendFile(path, "\u0000\u0000\u0000\n");
    const store = await fileStore(path).open();
    expect(await store.forConversation("c-padded")).toEqual([intent]);
    expect((await readFile(path, "utf8")).endsWith(`${JSON.stringify(intent)}\n`)).toBe(true);
  });

  it("a bad line before the last is damage, not a torn write: loading fails and names the line", async () => {
    const path = join(dir, "damaged.jsonl");
    const intent = persisted("c-damaged");
    await writeFile(path, `${JSON.stringify(intent)}\nnot json\n${JSON.stringify(moved(intent, "sent"))}\n`);
    await expect(fileStore(path).open()).rejects.toThrow(/damaged\.jsonl line 2 is not an intent \("not json"\).*damaged/);
  });
});

describe("DynamoDB intent store: the table comes from the one design in controller/", () => {
  it("the table has the design's keys, the sparse resumable index and TTL attribute name", async () => {
    const { Table } = await dynamo.client.send(new DescribeTableCommand({ TableName: dynamo.tableName }));
    expect(Table?.KeySchema).toEqual([
      { AttributeName: intentTable.partitionKey, KeyType: "HASH" },
      { AttributeName: intentTable.sortKey, KeyType: "RANGE" },
    ]);
    expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(["resumable"]);
  });

  it("a final intent leaves the resumable index and gets an expiry", async () => {
    const store = new DynamoDbIntentStore({ client: dynamo.client, tableName: dynamo.tableName });
    const intent = persisted(newConversation());
    await store.save(intent);
    expect((await store.resumable()).map((i) => i.operationId)).toContain(intent.operationId);
    const done = moved(moved(intent, "sent"), "rejected", {
      outcome: { status: "rejected", body: { error: { code: "NOT_ELIGIBLE" } }, recorded: true, via: "response" },
    });
    await store.save(moved(intent, "sent"));
    await store.save(done);
    expect((await store.resumable()).map((i) => i.operationId)).not.toContain(intent.operationId);
    expect(await store.forConversation(intent.conversationId)).toEqual([done]);
  });
});
