import type { Intent } from "#controller/intents/intent";

/**
 * The DynamoDB table of the intent store, defined once: the store writes by it, tests create their tables
 * from it, and a CDK user builds theirs from it (partition/sort key strings, one GSI, TTL). It has the shape of
 * functions/store/table-design.ts's TableDesign, so the project's `createTable` takes it as it is.
 *
 * - PK `CONVERSATION#<conversationId>`, SK `INTENT#<createdAt>#<operationId>`: a conversation's intents in one
 *   Query, oldest first.
 * - GSI `resumable`: only intents a restarted controller must finish carry `resumablePartition`, so the index
 *   holds just those (sparse) and one Query lists them. The attribute is removed when the intent settles.
 * - `expiresAt` (epoch seconds) is set once an intent is final; DynamoDB deletes it later.
 * - SK `LEASE`: the conversation's turn lease (holder, until), so one process at a time runs its turns.
 */
export const intentTable = {
  id: "Intents",
  partitionKey: "PK",
  sortKey: "SK",
  timeToLiveAttribute: "expiresAt",
  indexes: [{ indexName: "resumable", partitionKey: "resumablePartition", sortKey: "updatedAt", projection: "ALL" }],
} as const;

/** The one value of the sparse index's partition key. */
export const resumablePartition = "RESUMABLE";

export const conversationPartition = (conversationId: string) => `CONVERSATION#${conversationId}`;

export const intentSortPrefix = "INTENT#";

export const intentKey = (intent: Pick<Intent, "conversationId" | "createdAt" | "operationId">) => ({
  PK: conversationPartition(intent.conversationId),
  SK: `${intentSortPrefix}${intent.createdAt}#${intent.operationId}`,
});

/** A conversation's turn lease sits in its partition, beside (not among) its intents. */
export const leaseKey = (conversationId: string) => ({ PK: conversationPartition(conversationId), SK: "LEASE" });

/** Final intents are kept this long for audit, then expire. */
export const finalIntentRetentionDays = 30;
