/**
 * What each tool's function may do to DynamoDB, by table. The CDK stack grants exactly these actions,
 * and the infra tests hold each function's policy to them. Keep each list to the calls the code makes.
 */
export type DynamoAction =
  | "dynamodb:GetItem"
  | "dynamodb:BatchGetItem"
  | "dynamodb:Query"
  | "dynamodb:PutItem"
  | "dynamodb:UpdateItem"
  | "dynamodb:DeleteItem"
  | "dynamodb:ConditionCheckItem";

export interface TableAccess {
  readonly orders: readonly DynamoAction[];
  /** Index names of the orders table this tool queries. */
  readonly ordersIndexes?: readonly string[];
  readonly idempotency: readonly DynamoAction[];
}

/** Powertools' idempotency persistence layer: conditional put, get, update on success, delete on failure. */
export const idempotencyActions: readonly DynamoAction[] = [
  "dynamodb:PutItem",
  "dynamodb:GetItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
];
