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

/** What a search result is made from; the id-digits indexes project only these attributes of an order. */
export const orderSummaryAttributes = [
  "orderId",
  "customerId",
  "sellerId",
  "sellerName",
  "status",
  "placedAt",
  "deliveredAt",
  "currency",
  "items",
  "charges",
] as const;

/**
 * The id-digits indexes: orders by the three digits at one position of their five-digit id (`firstDigit`
 * 0-based), so search_orders finds a half-remembered id fragment of 3+ digits wherever it sits, with no Scan.
 *
 * Why this shape: a fragment of 3–5 digits starts with three digits at position 0, 1 or 2 of the id. One index
 * per position, keyed `DIGITS#<ddd>` and sorted like byCustomer (GSI1SK = <placedAt>#<orderId>, the same
 * attribute), finds every order that contains it with at most three Queries sent in parallel, each filtered
 * by the whole fragment, newest first. A partition never holds more than 100 orders (that many five-digit
 * ids share three digits at one position), so none runs hot or long.
 * Chosen over inverted-index items (one item per 3-, 4- and 5-digit substring, six per order): those would
 * have to be written in the same transaction as every order, and either copy the fields a change moves
 * (status, deliveredAt — stale after each change) or cost a second round trip to read the orders. Index
 * attributes live on the order item itself, so DynamoDB keeps them current, and every writer that uses
 * `orderIndexKeys` (keys.ts) gets them. The projection is the summary only: `internal`, activity and the rest
 * are not copied. Deploying: CloudFormation adds one GSI per table update, so an existing table takes three.
 */
export const idDigitsIndexes = [
  { indexName: "byIdDigits1to3", partitionKey: "GSI3PK", firstDigit: 0 },
  { indexName: "byIdDigits2to4", partitionKey: "GSI4PK", firstDigit: 1 },
  { indexName: "byIdDigits3to5", partitionKey: "GSI5PK", firstDigit: 2 },
] as const;

/**
 * The seller indexes: a marketplace seller's orders by month, newest first, so that a seller's date search reads
 * only its own orders of the months the range touches, with no Scan. `bySellerPlaced` holds every order under
 * `SELLER#<sellerId>#PLACED#<YYYY-MM>` of its placedAt; `bySellerDelivered` is sparse, holding delivered orders
 * under `SELLER#<sellerId>#DELIVERED#<YYYY-MM>` of their deliveredAt. Both sort like byCustomer (GSI1SK =
 * <placedAt>#<orderId>), so within a partition the orders come newest placed first and a search stops reading as
 * soon as it has enough, whichever date it filters on.
 *
 * Why months: one partition per seller would grow without end (a busy seller's whole history under one key, its
 * writes all on one partition); one per day would take up to 92 Queries for one date range. A range of at most
 * 92 days touches at most five months: five Queries in parallel, each partition one seller's month.
 * Why a second index for delivery: deliveredAt is not in the placed key, and an order may be delivered long after
 * it was placed, so no bounded set of placed months is sure to hold every order delivered in a range.
 * Every writer that sets deliveredAt sets the delivered key with it (`orderIndexKeys`, `deliveredIndexKey`).
 * Deploying: CloudFormation adds one GSI per table update, so an existing table takes two.
 */
export const sellerIndexes = {
  placed: { indexName: "bySellerPlaced", partitionKey: "GSI6PK" },
  delivered: { indexName: "bySellerDelivered", partitionKey: "GSI7PK" },
} as const;

/**
 * Single-table design for everything the order domain holds: orders (with items, charges, delivery, returns;
 * their activity entries beside them in the order's partition), customers, sellers, policies, stock, pickup
 * slots, operation records, and the hourly caps' and request budget's counters.
 * Each entity owns its key format in `keys.ts`.
 */
export const ordersTable = {
  id: "Orders",
  partitionKey: "PK",
  sortKey: "SK",
  timeToLiveAttribute: "expiresAt",
  indexes: [
    // A customer's orders, newest first: GSI1PK = CUSTOMER#<id>, GSI1SK = <placedAt>#<orderId>. Only what a
    // search result is made from is copied: every write to an order would otherwise be paid again in full here.
    { indexName: "byCustomer", partitionKey: "GSI1PK", sortKey: "GSI1SK", projection: orderSummaryAttributes },
    // Customer records by e-mail address: GSI2PK = EMAIL#<lower-case address>.
    { indexName: "byEmail", partitionKey: "GSI2PK", sortKey: "GSI2SK", projection: "KEYS_ONLY" },
    // Orders by three digits of their id, one index per position: GSI3PK/GSI4PK/GSI5PK = DIGITS#<ddd>, GSI1SK.
    ...idDigitsIndexes.map(({ indexName, partitionKey }) => ({
      indexName,
      partitionKey,
      sortKey: "GSI1SK",
      projection: orderSummaryAttributes,
    })),
    // A seller's orders by month of placing and (sparse) of delivery: GSI6PK / GSI7PK = SELLER#<id>#<date field>#<YYYY-MM>, GSI1SK.
    ...Object.values(sellerIndexes).map(({ indexName, partitionKey }) => ({
      indexName,
      partitionKey,
      sortKey: "GSI1SK",
      projection: orderSummaryAttributes,
    })),
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
