/** Init probe: the bare client plus the Powertools Logger the handlers make at module scope. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Logger } from "@aws-lambda-powertools/logger";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const logger = new Logger({ serviceName: "order-tools" });
export const handler = async () => [doc, logger];
