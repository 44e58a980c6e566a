/**
 * Init probe: the bare client plus what runtime/handler.ts loads for a reading tool, without what only changing
 * tools use (Powertools idempotency with jmespath, the operation ledger): the cost a read tool would have if
 * handler.ts were split in two.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { toolNamed } from "#contract/tools";
import { parseArguments } from "#contract/validate";
import { principalFromClaims } from "#core/principal";
import { depsFromEnv } from "#runtime/deps";
import { spendRequestBudget } from "#store/request-budget";
import { errorResponse, jsonResponse, readBody } from "#runtime/http";
import { recordCall, requestLogger } from "#runtime/observability";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => [
  doc,
  toolNamed,
  parseArguments,
  principalFromClaims,
  depsFromEnv,
  spendRequestBudget,
  errorResponse,
  jsonResponse,
  readBody,
  recordCall,
  requestLogger,
];
