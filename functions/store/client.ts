import type { DynamoDBClient, DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export interface TableNames {
  orders: string;
  idempotency: string;
}

/**
 * The store's dependencies as types, and the two client helpers every composition root uses. Nothing here reads
 * configuration: a Lambda function's dependencies are put together in functions/runtime/deps.ts.
 */

/** What every use case gets: a document client, the table names and a clock. Tests pass their own. */
export interface StoreDeps {
  doc: DynamoDBDocumentClient;
  tables: TableNames;
  now: () => Date;
  /** How to reach DynamoDB, for clients that need their own (Powertools' persistence layer). */
  clientConfig: DynamoDBClientConfig;
  /** Cancellations, returns and replacements a customer may make per rolling hour; 0 or absent: no cap. */
  hourlyCap?: number;
  /** Changes a support actor may make per rolling hour; 0 or absent: no cap. */
  supportHourlyCap?: number;
  /** Changes a seller actor (seller and `sub`) may make per rolling hour; 0 or absent: no cap. */
  sellerHourlyCap?: number;
  /** Requests (any tool) one principal may send per minute; 0 or absent: no budget. */
  requestBudget?: number;
  /**
   * The step a deployed orders table is at while its indexes move to the summary ones (`ordersTableAt`,
   * docs/deploy.md); absent: the table as designed. Searches query the index each search has at that step.
   */
  orderIndexStep?: number;
  /** Called with every client the store makes for itself, so tests and benchmarks can count or fault requests. */
  observeClient?: (client: DynamoDBClient) => void;
}

/** Client settings from the environment: `DYNAMODB_ENDPOINT` points at DynamoDB Local when set. */
export function clientConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DynamoDBClientConfig {
  const endpoint = env.DYNAMODB_ENDPOINT;
  if (!endpoint) return {};
  return {
    endpoint,
    region: env.AWS_REGION ?? "eu-west-1",
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? "local", secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? "local" },
  };
}

export function documentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}
