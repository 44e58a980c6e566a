/**
 * The cold-start baseline for `bench/sections/bundle-sizes.ts`: the least a DynamoDB-backed function can load,
 * a DocumentClient made at module scope, bundled exactly as the tools are.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { orderId: string }) =>
  doc.send(new GetCommand({ TableName: process.env.ORDERS_TABLE, Key: { PK: `ORDER#${event.orderId}`, SK: "ORDER" } }));
