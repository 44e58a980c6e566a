/** Init probe: the bare client plus Powertools idempotency (with jmespath) and its DynamoDB persistence layer. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, IdempotencyConfig, makeIdempotent, DynamoDBPersistenceLayer];
