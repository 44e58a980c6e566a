/** Init probe: the bare client plus the whole tool registry (every tool's input and output schemas, access, routes). */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { tools } from "#contract/tools";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, tools];
