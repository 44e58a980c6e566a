/**
 * Init probe: the bare client plus one changing tool's input schema written with zod/mini (the tree-shakable
 * build of the same zod 4) instead of zod's classic API: what moving the functions' runtime schemas to it would
 * cost. Same fields and checks as zod-classic-schema.ts.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { orderIdPattern } from "#core/order";
import * as z from "zod/mini";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const orderId = z.string().check(
  z.superRefine((value, ctx) => {
    if (!orderIdPattern.test(value))
      ctx.addIssue({
        code: "custom",
        message: `${JSON.stringify(value)} is not an order id: order ids are SU- followed by five digits, like SU-88421.`,
      });
  }),
);
const operationId = z
  .string()
  .check(z.regex(/^[A-Za-z0-9._:-]{8,128}$/, "operationId must be 8–128 characters from A–Z, a–z, 0–9, '.', '_', ':' and '-'."));
const expectedVersion = z.number().check(z.int(), z.minimum(1));
const input = z.strictObject({
  operationId,
  orderId,
  expectedVersion: z.optional(expectedVersion),
  reason: z.optional(z.string().check(z.maxLength(500))),
});
export const handler = async () => [doc, input];
