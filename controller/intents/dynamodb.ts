import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient, QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { finalStates, type Intent } from "#controller/intents/intent";
import { byCreation, IntentConflictError, type IntentStore, isResumable } from "#controller/intents/store";
import {
  conversationPartition,
  finalIntentRetentionDays,
  intentKey,
  intentSortPrefix,
  intentTable,
  leaseKey,
  resumablePartition,
} from "#controller/intents/intent-table";
import { importOptionalPeer } from "#controller/optional-peers";

// The AWS SDK's clients are optional peers of the package: without them, importing this subpath names the package
// and range to install.
const { ConditionalCheckFailedException } = await importOptionalPeer(
  "@aws-sdk/client-dynamodb",
  "order-tools/controller/dynamodb",
  () => import("@aws-sdk/client-dynamodb"),
);
const {
  DeleteCommand,
  DynamoDBDocumentClient: DocumentClient,
  PutCommand,
  QueryCommand,
} = await importOptionalPeer("@aws-sdk/lib-dynamodb", "order-tools/controller/dynamodb", () => import("@aws-sdk/lib-dynamodb"));

export interface DynamoDbIntentStoreOptions {
  /** A DynamoDB client (or a DocumentClient made from one). */
  client: DynamoDBClient | DynamoDBDocumentClient;
  tableName: string;
}

/**
 * Intents in DynamoDB (the table: intents/intent-table.ts). The whole intent is kept as one JSON attribute, so what
 * is read back is exactly what was written; the keys, `revision`, `state` and the index attributes sit beside
 * it for conditions and queries. Every put is conditional on the previous revision, and a refused put comes
 * back with the stored item (ReturnValuesOnConditionCheckFailure) to say which revision won.
 */
export class DynamoDbIntentStore implements IntentStore {
  private readonly doc: DynamoDBDocumentClient;
  readonly tableName: string;

  constructor(options: DynamoDbIntentStoreOptions) {
    this.doc = options.client instanceof DocumentClient ? options.client : DocumentClient.from(options.client);
    this.tableName = options.tableName;
  }

  async save(intent: Intent): Promise<void> {
    const final = finalStates.has(intent.state);
    const item: Record<string, unknown> = {
      ...intentKey(intent),
      operationId: intent.operationId,
      revision: intent.revision,
      state: intent.state,
      updatedAt: intent.updatedAt,
      intent: JSON.stringify(intent),
    };
    if (isResumable(intent)) item.resumablePartition = resumablePartition;
    if (final) item[intentTable.timeToLiveAttribute] = Math.floor(Date.parse(intent.updatedAt) / 1000) + finalIntentRetentionDays * 86_400;
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ...(intent.revision === 1
            ? { ConditionExpression: "attribute_not_exists(#pk)", ExpressionAttributeNames: { "#pk": intentTable.partitionKey } }
            : {
                ConditionExpression: "#revision = :previous",
                ExpressionAttributeNames: { "#revision": "revision" },
                ExpressionAttributeValues: { ":previous": intent.revision - 1 },
              }),
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        const stored = error.Item?.revision?.N;
        throw new IntentConflictError(intent.operationId, intent.revision, stored === undefined ? undefined : Number(stored));
      }
      throw error;
    }
  }

  async forConversation(conversationId: string): Promise<Intent[]> {
    return this.query({
      TableName: this.tableName,
      KeyConditionExpression: "#pk = :pk AND begins_with(#sk, :intents)",
      ExpressionAttributeNames: { "#pk": intentTable.partitionKey, "#sk": intentTable.sortKey },
      ExpressionAttributeValues: { ":pk": conversationPartition(conversationId), ":intents": intentSortPrefix },
      ConsistentRead: true,
    });
  }

  async resumable(): Promise<Intent[]> {
    const [index] = intentTable.indexes;
    const found = await this.query({
      TableName: this.tableName,
      IndexName: index.indexName,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": index.partitionKey },
      ExpressionAttributeValues: { ":p": resumablePartition },
    });
    // The index is eventually consistent: an intent that settled a moment ago may still be listed.
    return found.filter(isResumable).sort(byCreation);
  }

  /** One item per conversation beside its intents, written only if free, expired or already the holder's. */
  async acquireLease(conversationId: string, holder: string, untilMs: number, nowMs: number): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...leaseKey(conversationId),
            holder,
            leaseUntil: untilMs,
            [intentTable.timeToLiveAttribute]: Math.ceil(untilMs / 1000) + 3_600,
          },
          ConditionExpression: "attribute_not_exists(#pk) OR #until < :now OR #holder = :holder",
          ExpressionAttributeNames: { "#pk": intentTable.partitionKey, "#until": "leaseUntil", "#holder": "holder" },
          ExpressionAttributeValues: { ":now": nowMs, ":holder": holder },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async releaseLease(conversationId: string, holder: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: leaseKey(conversationId),
          ConditionExpression: "#holder = :holder",
          ExpressionAttributeNames: { "#holder": "holder" },
          ExpressionAttributeValues: { ":holder": holder },
        }),
      );
    } catch (error) {
      // Someone else holds it now (ours expired): theirs is not ours to remove.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  private async query(input: QueryCommandInput): Promise<Intent[]> {
    const intents: Intent[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(new QueryCommand({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) }));
      for (const item of page.Items ?? []) intents.push(JSON.parse(item.intent as string) as Intent);
      start = page.LastEvaluatedKey;
    } while (start);
    return intents;
  }
}
