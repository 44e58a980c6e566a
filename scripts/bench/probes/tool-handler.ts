/** Init probe: the bare client plus what every tool's handler module loads (tools/handler.ts), with no tool of its own. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { changeTool } from "#tools/change-tool";
import { readTool } from "#tools/read-tool";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, readTool, changeTool];
