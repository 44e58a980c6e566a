/**
 * Init probe: the bare client plus one tool's input schema exactly as its function builds it: cancel_order's,
 * from the catalog (zod/mini, built from the shared fields; the bundle keeps only the schemas it uses).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { cancelOrderInput } from "#contract/schemas";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, cancelOrderInput];
