/**
 * Init probe: the bare client plus the shared field schemas (catalog/fields) and one tool's input schema built
 * from them: about what a tool would construct if its function built only its own input schema.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { expectedVersion, operationId, orderId } from "#catalog/fields";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const input = z.strictObject({ operationId, orderId, expectedVersion: expectedVersion.optional(), reason: z.string().max(500).optional() });
export const handler = async () => [doc, input];
