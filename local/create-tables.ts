/**
 * Creates the tables described in `functions/store/table-design.ts` on DynamoDB Local (or any endpoint the
 * client points at). The design file is the single source of truth, shared with the CDK data stack.
 */
import {
  type AttributeDefinition,
  type CreateTableCommandInput,
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type DynamoDBClientConfig,
  type KeySchemaElement,
  type Projection,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { type IndexDesign, type KeyDesign, type TableDesign, idempotencyTable, ordersTable } from "#store/table-design";

export interface TableNames {
  orders: string;
  idempotency: string;
}

/** Client settings for DynamoDB Local. It ignores the credentials but rejects non-alphanumeric ones. */
export function localClientConfig(endpoint: string) {
  return {
    endpoint,
    region: "eu-west-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  } satisfies DynamoDBClientConfig;
}

/** Creates both tables (indexes, on-demand billing, TTL). A table that already exists is left as it is. */
export async function createTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  await Promise.all([createTable(client, ordersTable, names.orders), createTable(client, idempotencyTable, names.idempotency)]);
}

export async function createTable(client: DynamoDBClient, design: TableDesign, tableName: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(design, tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilActive(client, tableName);
  if (design.timeToLiveAttribute !== undefined) await enableTimeToLive(client, tableName, design.timeToLiveAttribute);
}

export function createTableInput(design: TableDesign, tableName: string): CreateTableCommandInput {
  const keyAttributes = new Set([design, ...design.indexes].flatMap(keyAttributeNames));
  const attributeDefinitions: AttributeDefinition[] = [...keyAttributes].map((name) => ({
    AttributeName: name,
    AttributeType: "S",
  }));
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: attributeDefinitions,
    KeySchema: keySchema(design),
    // DynamoDB rejects an empty index list, so leave it out when there is none.
    ...(design.indexes.length > 0 && {
      GlobalSecondaryIndexes: design.indexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: keySchema(index),
        Projection: projection(index),
      })),
    }),
  };
}

function keyAttributeNames(key: KeyDesign): string[] {
  return key.sortKey === undefined ? [key.partitionKey] : [key.partitionKey, key.sortKey];
}

function keySchema(key: KeyDesign): KeySchemaElement[] {
  const schema: KeySchemaElement[] = [{ AttributeName: key.partitionKey, KeyType: "HASH" }];
  if (key.sortKey !== undefined) schema.push({ AttributeName: key.sortKey, KeyType: "RANGE" });
  return schema;
}

function projection(index: IndexDesign): Projection {
  if (index.projection === "ALL" || index.projection === "KEYS_ONLY") return { ProjectionType: index.projection };
  return { ProjectionType: "INCLUDE", NonKeyAttributes: [...index.projection] };
}

/** DynamoDB Local creates tables ACTIVE at once; the loop is for real endpoints. */
async function waitUntilActive(client: DynamoDBClient, tableName: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === "ACTIVE");
    if (Table?.TableStatus === "ACTIVE" && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} is still ${Table?.TableStatus} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Checked first because UpdateTimeToLive fails when TTL is already on, and an existing table may have it. */
async function enableTimeToLive(client: DynamoDBClient, tableName: string, attributeName: string): Promise<void> {
  const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = TimeToLiveDescription?.TimeToLiveStatus;
  if (status === "ENABLED" || status === "ENABLING") return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { Enabled: true, AttributeName: attributeName },
    }),
  );
}
