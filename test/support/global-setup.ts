/**
 * Vitest global setup: one DynamoDB Local for the whole run, on a free port. Test files reach it through
 * `inject('dynamodbEndpoint')` (see `freshTables` in ./tables.ts) or `process.env.DYNAMODB_ENDPOINT`.
 */
import type { TestProject } from "vitest/node";
import { type DynamoDbLocal, startDynamoDbLocal } from "#local/dynamodb-local";

declare module "vitest" {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

let dynamoDb: DynamoDbLocal | undefined;

export async function setup(project: TestProject): Promise<void> {
  dynamoDb = await startDynamoDbLocal();
  try {
    project.provide("dynamodbEndpoint", dynamoDb.endpoint);
    // Workers are forked after global setup and inherit this process's environment.
    process.env.DYNAMODB_ENDPOINT = dynamoDb.endpoint;
  } catch (error) {
    await teardown();
    throw error;
  }
}

export async function teardown(): Promise<void> {
  const running = dynamoDb;
  dynamoDb = undefined;
  await running?.stop();
}
