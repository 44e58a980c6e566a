/** Init probe: the bare client plus the read tools' schemas (contract/read-schemas), built at module scope. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as readSchemas from "#contract/read-schemas";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, readSchemas];
