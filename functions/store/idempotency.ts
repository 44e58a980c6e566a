import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { Context } from "aws-lambda";
import { IdempotencyKeyReusedError, OperationInProgressError } from "#core/errors";
import type { StoreDeps } from "#store/client";
import { type OperationContext, type Outcome, readOperationRecord } from "#store/operations";

/** A stable prefix, independent of function names, so a redeploy or rename keeps every key valid. */
export const idempotencyKeyPrefix = "order-tools";
/** Powertools' records serve fast replays; the operation records keep outcomes far longer. */
export const idempotencyRecordSeconds = 24 * 3600;
export const inProgressRetryAfterSeconds = 2;

/** The payload Powertools sees: keyed by principal and operationId, validated over the whole request. */
interface IdempotentPayload {
  key: { sub: string; operationId: string };
  request: { tool: string; fingerprint: string };
}

function newConfig(): IdempotencyConfig {
  return new IdempotencyConfig({
    eventKeyJmesPath: "key",
    payloadValidationJmesPath: "request",
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: idempotencyRecordSeconds,
    // A response Powertools serves from its record is by definition a replay.
    responseHook: (response) => ({ ...(response as object), replayed: true }),
  });
}

/**
 * A Powertools client that also writes the tool's name on each record, so a status lookup can say which
 * tool a pending operation is running.
 */
function persistenceClient(deps: StoreDeps, tool: string): DynamoDBClient {
  const client = new DynamoDBClient(deps.clientConfig);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Item?: Record<string, unknown> };
      if (context.commandName === "PutItemCommand" && input.Item) input.Item.tool = { S: tool };
      return next(args);
    },
    { step: "initialize", name: "orderToolsToolName" },
  );
  deps.observeClient?.(client);
  return client;
}

function persistenceLayer(deps: StoreDeps, tool: string) {
  return new DynamoDBPersistenceLayer({ tableName: deps.tables.idempotency, awsSdkV3Client: persistenceClient(deps, tool) });
}

/** An outcome as Powertools stores it. */
type StoredOutcome = Omit<Outcome, "body"> & { body: string };

export type RunOperation = (lambdaContext: Context, op: OperationContext, execute: () => Promise<Outcome>) => Promise<Outcome>;

/**
 * Wraps a tool's execution in Powertools idempotency: concurrent duplicates get OPERATION_IN_PROGRESS,
 * repeats get the stored outcome, and reuse with other arguments or another tool gets IDEMPOTENCY_KEY_REUSED.
 * Thrown errors (not business outcomes) release the key, so a retry may run again.
 */
export function idempotentOperations(deps: StoreDeps, tool: string): RunOperation {
  const config = newConfig();
  const run = makeIdempotent(
    // Powertools stores the result as a DynamoDB map, which neither keeps key order nor takes undefined values
    // (those would leave the record INPROGRESS); the body travels as JSON text so a replay is the same body.
    async (_payload: IdempotentPayload, execute: () => Promise<Outcome>): Promise<StoredOutcome> => {
      const { body, ...rest } = await execute();
      return { ...rest, body: JSON.stringify(body) };
    },
    { persistenceStore: persistenceLayer(deps, tool), config, keyPrefix: idempotencyKeyPrefix, dataIndexArgument: 0 },
  );
  return async (lambdaContext, op, execute) => {
    config.registerLambdaContext(lambdaContext);
    const payload: IdempotentPayload = {
      key: { sub: op.principal.sub, operationId: op.operationId },
      request: { tool: op.tool, fingerprint: op.fingerprint },
    };
    try {
      const { body, ...rest } = await run(payload, execute);
      return { ...rest, body: JSON.parse(body) };
    } catch (error) {
      if (error instanceof IdempotencyAlreadyInProgressError) {
        throw new OperationInProgressError(op.operationId, inProgressRetryAfterSeconds);
      }
      if (error instanceof IdempotencyValidationError) {
        const stored = error.existingRecord?.responseData as Partial<StoredOutcome> | undefined;
        const originalTool = stored?.tool ?? (await readOperationRecord(deps, op.principal.sub, op.operationId))?.tool;
        throw new IdempotencyKeyReusedError(op.operationId, op.tool, originalTool);
      }
      throw error;
    }
  };
}

export interface InFlight {
  tool: string;
  retryAfterSeconds: number;
}

/** Computes Powertools' own key for a payload, so lookups never re-implement its hashing. */
class KeyedPersistenceLayer extends DynamoDBPersistenceLayer {
  keyFor(data: Pick<IdempotentPayload, "key">): string {
    return this.getHashedIdempotencyKey(data);
  }
}

const keyLayers = new WeakMap<StoreDeps, KeyedPersistenceLayer>();

function keyLayer(deps: StoreDeps): KeyedPersistenceLayer {
  let layer = keyLayers.get(deps);
  if (!layer) {
    layer = new KeyedPersistenceLayer({ tableName: deps.tables.idempotency, clientConfig: deps.clientConfig });
    layer.configure({ config: newConfig(), keyPrefix: idempotencyKeyPrefix });
    keyLayers.set(deps, layer);
  }
  return layer;
}

/** Whether Powertools holds an unexpired in-progress record for this principal's operationId. */
export async function readInFlight(deps: StoreDeps, sub: string, operationId: string): Promise<InFlight | undefined> {
  const id = keyLayer(deps).keyFor({ key: { sub, operationId } });
  const { Item } = await deps.doc.send(new GetCommand({ TableName: deps.tables.idempotency, Key: { id }, ConsistentRead: true }));
  if (Item?.status !== "INPROGRESS") return undefined;
  const expiresAtMs = typeof Item.in_progress_expiration === "number" ? Item.in_progress_expiration : 0;
  if (expiresAtMs && expiresAtMs < Date.now()) return undefined;
  return { tool: String(Item.tool ?? "unknown"), retryAfterSeconds: inProgressRetryAfterSeconds };
}
