import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from "@aws-sdk/client-dynamodb";
import { beforeAll, describe, expect, inject, test } from "vitest";
import { type IndexDesign, idempotencyTable, ordersTable } from "#store/table-design";
import type { TableNames } from "#local/create-tables";
import { freshTables } from "#test/support/tables";

describe("the test harness", () => {
  let client: DynamoDBClient;
  let names: TableNames;

  beforeAll(async () => {
    ({ client, names } = await freshTables());
    return () => client.destroy();
  });

  test("shares one DynamoDB Local endpoint through inject() and the environment", () => {
    expect(inject("dynamodbEndpoint")).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(process.env.DYNAMODB_ENDPOINT).toBe(inject("dynamodbEndpoint"));
  });

  test("creates the orders table with the keys and indexes of the table design", async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: names.orders }));

    expect(Table?.TableStatus).toBe("ACTIVE");
    expect(Table?.BillingModeSummary?.BillingMode).toBe("PAY_PER_REQUEST");
    expect(Table?.KeySchema).toEqual([
      { AttributeName: ordersTable.partitionKey, KeyType: "HASH" },
      { AttributeName: ordersTable.sortKey, KeyType: "RANGE" },
    ]);
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      keys: index.KeySchema,
      projection: index.Projection?.ProjectionType,
      copied: index.Projection?.NonKeyAttributes ?? [],
    }));
    const designed = ordersTable.indexes.map((index: IndexDesign) => ({
      name: index.indexName,
      keys: [
        { AttributeName: index.partitionKey, KeyType: "HASH" },
        ...(index.sortKey === undefined ? [] : [{ AttributeName: index.sortKey, KeyType: "RANGE" }]),
      ],
      projection: typeof index.projection === "string" ? index.projection : "INCLUDE",
      copied: typeof index.projection === "string" ? [] : expect.arrayContaining([...index.projection]),
    }));
    expect(indexes).toEqual(expect.arrayContaining(designed));
    expect(indexes).toHaveLength(designed.length);
  });

  test("creates the idempotency table with a partition key only and no indexes", async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: names.idempotency }));

    expect(Table?.KeySchema).toEqual([{ AttributeName: idempotencyTable.partitionKey, KeyType: "HASH" }]);
    expect(Table?.GlobalSecondaryIndexes ?? []).toEqual([]);
  });

  test.each([
    ["orders", ordersTable.timeToLiveAttribute],
    ["idempotency", idempotencyTable.timeToLiveAttribute],
  ] as const)("turns on time to live for the %s table", async (table, attribute) => {
    const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: names[table] }));

    expect(TimeToLiveDescription).toEqual({ TimeToLiveStatus: "ENABLED", AttributeName: attribute });
  });

  test("stores an item and reads it back", async () => {
    const item = { PK: { S: "ORDER#O-1" }, SK: { S: "ORDER" }, status: { S: "PLACED" }, total: { N: "42.5" } };

    await client.send(new PutItemCommand({ TableName: names.orders, Item: item, ConditionExpression: "attribute_not_exists(PK)" }));
    const { Item } = await client.send(
      new GetItemCommand({ TableName: names.orders, Key: { PK: item.PK, SK: item.SK }, ConsistentRead: true }),
    );

    expect(Item).toEqual(item);
  });

  test("gives each caller its own tables", async () => {
    const other = await freshTables();
    try {
      expect(other.names.orders).not.toBe(names.orders);
      expect(other.names.idempotency).not.toBe(names.idempotency);
      const { Item } = await other.client.send(
        new GetItemCommand({ TableName: other.names.orders, Key: { PK: { S: "ORDER#O-1" }, SK: { S: "ORDER" } } }),
      );
      expect(Item).toBeUndefined();
    } finally {
      other.client.destroy();
    }
  });
});
