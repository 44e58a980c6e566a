/**
 * The one definition of both tables: key schema, GSIs and TTL attributes.
 * The CDK data stack and the test harness both build their tables from this, so they cannot drift apart.
 * No AWS imports here: CDK maps it to its own types, tests to CreateTable input.
 */

export interface KeyDesign {
  readonly partitionKey: string;
  readonly sortKey?: string;
}

export interface IndexDesign extends KeyDesign {
  readonly indexName: string;
  /** Attributes copied into the index besides the keys; `ALL` copies the whole item. */
  readonly projection: "ALL" | "KEYS_ONLY" | readonly string[];
}

export interface TableDesign extends KeyDesign {
  /** Logical name; the deployed name comes from CloudFormation, the local one from the harness. */
  readonly id: string;
  readonly timeToLiveAttribute?: string;
  readonly indexes: readonly IndexDesign[];
}

/**
 * Single-table design for everything the order domain holds: orders (with items, charges, delivery,
 * activity, returns), customers, sellers, policies, stock, pickup slots and operation records.
 * Each entity owns its key format in `keys.ts`.
 */
export const ordersTable = {
  id: "Orders",
  partitionKey: "PK",
  sortKey: "SK",
  timeToLiveAttribute: "expiresAt",
  indexes: [
    // A customer's orders, newest first: GSI1PK = CUSTOMER#<id>, GSI1SK = <placedAt>#<orderId>.
    { indexName: "byCustomer", partitionKey: "GSI1PK", sortKey: "GSI1SK", projection: "ALL" },
    // Customer records by e-mail address: GSI2PK = EMAIL#<lower-case address>.
    { indexName: "byEmail", partitionKey: "GSI2PK", sortKey: "GSI2SK", projection: "KEYS_ONLY" },
  ],
} as const satisfies TableDesign;

/** The Powertools idempotency table, with Powertools' default attribute names. */
export const idempotencyTable = {
  id: "Idempotency",
  partitionKey: "id",
  timeToLiveAttribute: "expiration",
  indexes: [],
} as const satisfies TableDesign;

export const tableDesigns = [ordersTable, idempotencyTable] as const;

/** Environment variables through which every function learns its table names. */
export const tableEnv = {
  orders: "ORDERS_TABLE",
  idempotency: "IDEMPOTENCY_TABLE",
} as const;
