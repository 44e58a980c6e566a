/**
 * Init probe: the bare client plus one changing tool's input schema written with zod's classic API (method
 * chains), as the catalog was written before it moved to zod/mini: the like-for-like pair of zod-mini-schema.ts.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { orderIdPattern } from "#core/order";
import * as z from "zod";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const orderId = z.string().superRefine((value, ctx) => {
  if (!orderIdPattern.test(value))
    ctx.addIssue({
      code: "custom",
      message: `${JSON.stringify(value)} is not an order id: order ids are SU- followed by five digits, like SU-88421.`,
    });
});
const operationId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{8,128}$/, "operationId must be 8–128 characters from A–Z, a–z, 0–9, '.', '_', ':' and '-'.");
const expectedVersion = z.number().int().min(1);
const input = z.strictObject({ operationId, orderId, expectedVersion: expectedVersion.optional(), reason: z.string().max(500).optional() });
export const handler = async () => [doc, input];
