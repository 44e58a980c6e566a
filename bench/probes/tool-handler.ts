/** Init probe: the bare client plus what every tool's handler module loads (runtime/handler.ts), with no tool of its own. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { changeTool } from "#runtime/change-tool";
import { readTool } from "#runtime/read-tool";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, readTool, changeTool];
