/** Init probe: the bare client plus the changing tools' schemas (contract/schemas and compound-schemas), built at module scope. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as compoundSchemas from "#contract/compound-schemas";
import * as schemas from "#contract/schemas";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, schemas, compoundSchemas];
