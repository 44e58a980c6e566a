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
 * What a search result is made from, all on an order's state item (functions/store/order-items.ts): the order's
 * indexes project only these. `itemTitles` (the first three lines' titles) and `totalCents` are kept there for the
 * indexes alone, so that an index entry is a few hundred bytes, not the whole order.
 */
export const orderSummaryAttributes = [
  "orderId",
  "customerId",
  "sellerId",
  "sellerName",
  "status",
  "placedAt",
  "deliveredAt",
  "currency",
  "itemTitles",
  "totalCents",
] as const;

/**
 * Where the previous layout kept what the summary is made from: the whole lines and charges on the one order item.
 * Projected too, so that an order not yet migrated (or written in that layout by an order system that has not
 * switched) still has its summary in the indexes; a migrated order's state item has neither, so they cost nothing.
 */
export const previousLayoutSummaryAttributes = ["items", "charges"] as const;

const summaryProjection = [...orderSummaryAttributes, ...previousLayoutSummaryAttributes] as const;

/**
 * The id-digits indexes: orders by the three digits at one position of their five-digit id (`firstDigit`
 * 0-based), so search_orders finds a half-remembered id fragment of 3+ digits wherever it sits, with no Scan.
 *
 * Why this shape: a fragment of 3–5 digits starts with three digits at position 0, 1 or 2 of the id. One index
 * per position, keyed `DIGITS#<ddd>` and sorted like the customer index (GSI1SK = <placedAt>#<orderId>, the same
 * attribute), finds every order that contains it with at most three Queries sent in parallel, each filtered
 * by the whole fragment, newest first. A partition never holds more than 100 orders (that many five-digit
 * ids share three digits at one position), so none runs hot or long.
 * Chosen over inverted-index items (one item per 3-, 4- and 5-digit substring, six per order): those would
 * have to be written in the same transaction as every order, and either copy the fields a change moves
 * (status, deliveredAt — stale after each change) or cost a second round trip to read the orders. Index
 * attributes live on the order's state item, so DynamoDB keeps them current, and every writer that uses
 * `orderIndexKeys` (keys.ts) gets them. The projection is the summary only: the lines, `internal` and the rest
 * are not copied. Deploying: CloudFormation adds one GSI per table update, so an existing table takes three.
 */
export const idDigitsIndexes = [
  { indexName: "byIdDigits1to3Summary", partitionKey: "GSI3PK", firstDigit: 0 },
  { indexName: "byIdDigits2to4Summary", partitionKey: "GSI4PK", firstDigit: 1 },
  { indexName: "byIdDigits3to5Summary", partitionKey: "GSI5PK", firstDigit: 2 },
] as const;

/**
 * The seller indexes: a marketplace seller's orders by month, newest first, so that a seller's date search reads
 * only its own orders of the months the range touches, with no Scan. `bySellerPlaced` holds every order under
 * `SELLER#<sellerId>#PLACED#<YYYY-MM>` of its placedAt; `bySellerDelivered` is sparse, holding delivered orders
 * under `SELLER#<sellerId>#DELIVERED#<YYYY-MM>` of their deliveredAt. Both sort like the customer index (GSI1SK =
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
  placed: { indexName: "bySellerPlacedSummary", partitionKey: "GSI6PK" },
  delivered: { indexName: "bySellerDeliveredSummary", partitionKey: "GSI7PK" },
} as const;

/** A customer's orders, newest first: GSI1PK = CUSTOMER#<id>, GSI1SK = <placedAt>#<orderId>. */
export const customerIndex = { indexName: "byCustomerSummary", partitionKey: "GSI1PK" } as const;

/** The order indexes, each over its key attributes (GSI1SK the sort key of all), projecting the summary. */
const orderIndexes: readonly IndexDesign[] = [customerIndex, ...idDigitsIndexes, ...Object.values(sellerIndexes)].map(
  ({ indexName, partitionKey }) => ({ indexName, partitionKey, sortKey: "GSI1SK", projection: summaryProjection }),
);

/**
 * The order indexes of the previous layout: the same keys, projecting the whole lines and charges (an order's item
 * held everything then, so a status change rewrote about 2 KB in each). A GSI's projection cannot be changed in
 * place, so the summary indexes above are new ones beside them; `ordersTableAt` steps a deployed table from these
 * to those one index at a time, and the layout migration moves the data (docs/deploy.md). In the same order as
 * `orderIndexes`: the previous index of each search, then the summary one that replaces it.
 */
export const previousOrderIndexes: readonly IndexDesign[] = [
  "byCustomer",
  "byIdDigits1to3",
  "byIdDigits2to4",
  "byIdDigits3to5",
  "bySellerPlaced",
  "bySellerDelivered",
].map((indexName, i) => ({
  indexName,
  partitionKey: orderIndexes[i]!.partitionKey,
  sortKey: "GSI1SK",
  projection: [...orderSummaryAttributes.filter((a) => a !== "itemTitles" && a !== "totalCents"), ...previousLayoutSummaryAttributes],
}));

/**
 * Single-table design for everything the order domain holds: orders (with items, charges, delivery, returns;
 * their activity entries beside them in the order's partition), customers, sellers, policies, stock, pickup
 * slots, operation records, and the hourly caps' and request budget's counters.
 * Each entity owns its key format in `keys.ts`.
 */
const emailIndex: IndexDesign = { indexName: "byEmail", partitionKey: "GSI2PK", sortKey: "GSI2SK", projection: "KEYS_ONLY" };

export const ordersTable = {
  id: "Orders",
  partitionKey: "PK",
  sortKey: "SK",
  timeToLiveAttribute: "expiresAt",
  indexes: [
    // Customer records by e-mail address: GSI2PK = EMAIL#<lower-case address>.
    emailIndex,
    // A customer's orders (GSI1PK); orders by three digits of their id, one index per position (GSI3PK/GSI4PK/GSI5PK
    // = DIGITS#<ddd>); a seller's orders by month of placing and (sparse) of delivery (GSI6PK / GSI7PK =
    // SELLER#<id>#<date field>#<YYYY-MM>); all sorted by GSI1SK. Only what a search result is made from is
    // copied: each status change rewrites every entry of its order, so an entry's size is paid on every one.
    ...orderIndexes,
  ],
} as const satisfies TableDesign;

/** How many table updates take a deployed table from the previous order indexes to the summary ones (docs/deploy.md). */
export const orderIndexSteps = 2 * orderIndexes.length;

const checkStep = (step: number) => {
  if (!Number.isInteger(step) || step < 0 || step > orderIndexSteps)
    throw new Error(`The order index step is a whole number from 0 to ${orderIndexSteps}, not ${step}.`);
};

/**
 * The orders table at one step of moving a deployed table's indexes from the previous layout's to the summary ones,
 * one search at a time: step 2i + 1 adds the summary index of the i-th search (`orderIndexes`) beside its previous
 * one, and step 2i + 2 removes the previous one. Step 0 is the table as the previous layout deployed it; step 12 is
 * `ordersTable`. Each step differs from the one before by exactly one index, since CloudFormation creates or deletes
 * one GSI per table update. Why one search at a time rather than all six summary indexes first: DynamoDB allows 100
 * projected attributes in all of a table's indexes, counting an attribute once per index that projects it, and the
 * previous six (60) and the summary six (72) together would be 132; this way no step holds more than 82.
 */
export function ordersTableAt(step: number): TableDesign {
  checkStep(step);
  const indexes = orderIndexes.flatMap((present, i) => [
    ...(step < 2 * i + 2 ? [previousOrderIndexes[i]!] : []),
    ...(step >= 2 * i + 1 ? [present] : []),
  ]);
  return { ...ordersTable, indexes: [emailIndex, ...indexes] };
}

/**
 * The index a search queries at a step of that move, given the index it queries in the table as designed: the
 * summary index once its step has added it, the previous one before (whose projection a query must keep to: DynamoDB
 * refuses a ProjectionExpression naming an attribute an index does not project). Without a step, the index as
 * designed. The functions are deployed at every step with it (context `orderIndexStep`, `orderIndexStepEnv`), so a
 * search moves to its summary index as soon as the index is there, and before its previous one is removed.
 */
export function orderIndexAt(indexName: string, step: number | undefined): IndexDesign {
  const i = orderIndexes.findIndex((index) => index.indexName === indexName);
  if (i < 0) throw new Error(`${indexName} is not one of the order indexes (${orderIndexes.map((index) => index.indexName).join(", ")}).`);
  if (step !== undefined) checkStep(step);
  return step !== undefined && step < 2 * i + 1 ? previousOrderIndexes[i]! : orderIndexes[i]!;
}

/** Whether an index is one of the order indexes, which `orderIndexAt` moves (byEmail is not). */
export const isOrderIndex = (indexName: string) => orderIndexes.some((index) => index.indexName === indexName);

/** The environment variable that tells a function the step of the move its table is at; unset: as designed. */
export const orderIndexStepEnv = "ORDER_TOOLS_ORDER_INDEX_STEP";

/** DynamoDB's limit on the attributes a table's indexes project, an attribute counted once per index projecting it. */
export const maxProjectedAttributes = 100;

/**
 * The attributes a table's indexes project, as DynamoDB counts them against `maxProjectedAttributes`: summed over the
 * indexes (CDK's own check counts each name once, so it lets through tables DynamoDB refuses).
 */
export function projectedAttributes(design: TableDesign): number {
  return design.indexes.reduce((sum, index) => sum + (Array.isArray(index.projection) ? index.projection.length : 0), 0);
}

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
