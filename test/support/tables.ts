import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { inject } from "vitest";
import { type TableNames, createTables, localClientConfig } from "#local/create-tables";

/**
 * A new pair of tables, uniquely named, on the run's shared DynamoDB Local: test files run in parallel and
 * must never see each other's items.
 */
export async function freshTables(): Promise<{ client: DynamoDBClient; names: TableNames }> {
  const client = new DynamoDBClient(localClientConfig(inject("dynamodbEndpoint")));
  const suffix = randomUUID().slice(0, 8);
  const names = { orders: `orders-${suffix}`, idempotency: `idem-${suffix}` };
  await createTables(client, names);
  return { client, names };
}
