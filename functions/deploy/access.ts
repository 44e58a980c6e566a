import { budgetKey, operationKey, orderKey, pickupSlotsPartition, rateKey, sellerKey, stockKey, supportRateKey } from "#store/keys";

/**
 * What each tool's function may do to DynamoDB, by table. The CDK stack grants exactly this, and the infra
 * tests hold each function's policy to it and run every tool against a policy check to show it is enough.
 *
 * - Reads of the orders table (GetItem, BatchGetItem, Query) carry no key condition. Every reading path needs
 *   orders by any id (support acts on any order), and an order already holds what the other items hold about a
 *   customer, so a key condition would narrow little of what a misused function could read; it cannot change
 *   anything by reading.
 * - Writes to the orders table carry a `dynamodb:LeadingKeys` condition: each write action only on the key
 *   prefixes this tool writes (see `keyPatterns`). DynamoDB authorises each action of a TransactWriteItems by
 *   itself (Put as PutItem, Update as UpdateItem, ConditionCheck as ConditionCheckItem), so the condition holds
 *   inside transactions too.
 * - The idempotency table is Powertools' alone and its keys are `order-tools#<hash>` for every tool (a reused
 *   operationId is recognised across tools by that), so a key condition there could not tell tools apart.
 */

export type ReadAction = "dynamodb:GetItem" | "dynamodb:BatchGetItem" | "dynamodb:Query";
export type WriteAction = "dynamodb:PutItem" | "dynamodb:UpdateItem" | "dynamodb:DeleteItem" | "dynamodb:ConditionCheckItem";
export type DynamoAction = ReadAction | WriteAction;

/** IAM `StringLike` patterns (`*` matches any run of characters) of the partition keys a write may touch. */
export type KeyedWrites = Readonly<Partial<Record<WriteAction, readonly string[]>>>;

export interface TableAccess {
  /** Reads of the orders table itself (not its indexes), on any key. */
  readonly orders: readonly ReadAction[];
  /** Indexes of the orders table this tool queries: Query on exactly these, which does not imply Query on the table. */
  readonly ordersIndexes?: readonly string[];
  /** Writes to the orders table, each action only on items whose partition key matches one of its patterns. */
  readonly ordersWrites: KeyedWrites;
  readonly idempotency: readonly DynamoAction[];
}

const any = "*";

/**
 * The orders table's partition-key prefixes that tools write, made by the key functions of `#store/keys` with
 * a wildcard for the variable part, so a prefix renamed there is renamed in the grants.
 */
export const keyPatterns = {
  /** `ORDER#<orderId>`: the order's state item, which every change updates (its content item is written once, by the order system). */
  order: orderKey(any).PK,
  /** `OPERATION#<sub>#<operationId>`: operation records. */
  operation: operationKey(any, any).PK,
  /**
   * `RATE#<customerId>`, `RATE#SUPPORT#<sub>` and `RATE#SELLER#<sellerId>#<sub>`: the hourly caps of customers,
   * support actors and seller actors (only returns and replacements, the tools that cap customers, serve sellers).
   */
  rate: rateKey(any).PK,
  /** `RATE#SUPPORT#<sub>` alone: the support actors' cap. */
  supportRate: supportRateKey(any).PK,
  /** `BUDGET#<sub>`: the per-principal request budget, one item per minute. */
  budget: budgetKey(any, any).PK,
  /** `STOCK#<sku>`: stock that offer_replacement reserves. */
  stock: stockKey(any).PK,
  /** `SELLER#<sellerId>`: offer_replacement checks the seller is active inside its transaction. */
  seller: sellerKey(any).PK,
  /** `PICKUP`, exactly: the one partition of pickup slots that start_return books. */
  pickupSlots: pickupSlotsPartition,
} as const;

/** Powertools' idempotency persistence layer: conditional put, get, update on success, delete on failure. */
export const idempotencyActions: readonly DynamoAction[] = [
  "dynamodb:PutItem",
  "dynamodb:GetItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
];

/** Every tool call, reads and rejections included, counts against the caller's budget (`#store/request-budget`). */
export const requestBudgetWrites: KeyedWrites = { "dynamodb:UpdateItem": [keyPatterns.budget] };

/** The union of several write grants, each pattern once per action. */
export function mergeWrites(...grants: KeyedWrites[]): KeyedWrites {
  const merged: Partial<Record<WriteAction, string[]>> = {};
  for (const grant of grants) {
    for (const [action, patterns] of Object.entries(grant) as [WriteAction, readonly string[]][]) {
      merged[action] = [...new Set([...(merged[action] ?? []), ...patterns])];
    }
  }
  return merged;
}

/** A reading tool: its reads, and no write but the caller's request budget. */
export function readAccess(options: {
  orders: readonly ReadAction[];
  ordersIndexes?: readonly string[];
  idempotency?: readonly DynamoAction[];
}): TableAccess {
  return {
    orders: options.orders,
    ...(options.ordersIndexes ? { ordersIndexes: options.ordersIndexes } : {}),
    ordersWrites: requestBudgetWrites,
    idempotency: options.idempotency ?? [],
  };
}

/**
 * A changing tool (`#store/operations`): one transaction that updates the order's state, puts its operation record
 * (which is also the order's history entry) and, when a cap is on, replaces the actor's cap item; a rejection
 * decided before the write (a proposal made against another version than the one read, a plan's refusal) recorded
 * in one transaction with a ConditionCheck of the order, or one found by the write recorded with a plain put; plus
 * the request budget and Powertools' idempotency records.
 */
export function changeAccess(options: {
  orders: readonly ReadAction[];
  /**
   * Counts against the customer's hourly cap (RATE#<customerId>) and is a tool sellers may use (their cap is
   * under RATE# too); every change counts against support's.
   */
  capsCustomers: boolean;
  /** Writes to other items that join the order's transaction (slots, stock, the seller check). */
  linked?: KeyedWrites;
}): TableAccess {
  return {
    orders: options.orders,
    ordersWrites: mergeWrites(
      requestBudgetWrites,
      {
        "dynamodb:UpdateItem": [keyPatterns.order],
        "dynamodb:PutItem": [keyPatterns.operation, options.capsCustomers ? keyPatterns.rate : keyPatterns.supportRate],
      },
      { "dynamodb:ConditionCheckItem": [keyPatterns.order] },
      options.linked ?? {},
    ),
    idempotency: idempotencyActions,
  };
}
