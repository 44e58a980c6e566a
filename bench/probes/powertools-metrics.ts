/** Init probe: the bare client plus Powertools Metrics made at module scope, as runtime/observability.ts does. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Metrics } from "@aws-lambda-powertools/metrics";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const metrics = new Metrics({ namespace: "OrderTools", serviceName: "order-tools" });
export const handler = async () => [doc, metrics];
