/** Init probe: the bare client plus the Powertools Tracer the handlers make at module scope, capturing the client. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Tracer } from "@aws-lambda-powertools/tracer";

const tracer = new Tracer({ serviceName: "order-tools" });
const doc = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({})));
export const handler = async () => [doc, tracer];
