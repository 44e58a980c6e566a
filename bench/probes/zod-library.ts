/** Init probe: the bare client plus the zod library, no schema built. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [doc, z.string];
