/** Init probe: the bare client plus the changing tools' schemas (catalog/schemas and compound-schemas), built at module scope. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as compoundSchemas from "#catalog/compound-schemas";
import * as schemas from "#catalog/schemas";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, schemas, compoundSchemas];
