/**
 * Peer 1 of the benchmark: the read-then-write design most tutorials show, built as well as that design
 * allows, so that the comparison is with the design and not with a careless copy of it.
 *
 * Powertools `makeIdempotent` (keyed by principal and operationId, payload validated, results kept 24 h: the
 * same settings as order-tools') wraps a function that reads the order (consistently), checks in code that the
 * caller owns it, that its status admits the change and that the caller's expectedVersion is current, then
 * writes the change with one UpdateItem conditioned on the version it read, appending an activity entry with
 * the actor to the order. A failed condition means the order changed in between: it reads again and judges
 * again (so an order shipped meanwhile is NOT_ELIGIBLE, not a bare conflict), at most three times. Business
 * rejections are results, so Powertools stores and replays them as it does successes.
 *
 * Everything around the design is order-tools' own: the principal from the verified claims, the registry's
 * schemas and messages, the status rules, the error bodies, the log line and metrics of every call. What it
 * lacks is what the comparison is about: the rules are checked in code, not in the write's condition, and
 * nothing but Powertools' record remembers an operation.
 */
import { createHash } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { AddDeliveryNoteInput } from "#core/add-delivery-note";
import type { CancelOrderInput } from "#core/cancel-order";
import { toolNamed } from "#contract/tools";
import { parseArguments } from "#contract/validate";
import type { Json } from "#core/change";
import { changeRules } from "#core/eligibility";
import {
  IdempotencyKeyReusedError,
  InternalError,
  NotEligibleError,
  OperationInProgressError,
  OrderNotFoundError,
  type ToolError,
  VersionConflictError,
} from "#core/errors";
import type { Order } from "#core/order";
import { actorOf, mayAccessOrder, type Principal, principalFromClaims } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { orderKey, withoutStoreAttributes } from "#store/keys";
import type { ToolHandler } from "#runtime/handler";
import { errorResponse, type HttpResult, jsonResponse, readBody } from "#runtime/http";
import { type CallKeys, principalHash, recordCall, requestLogger } from "#runtime/observability";

export type PeerTool = "cancel_order" | "add_delivery_note";
type PeerArgs = CancelOrderInput | AddDeliveryNoteInput;

/** Powertools' key prefix for the peer: its records never meet order-tools' even in a shared table. */
export const peerKeyPrefix = "peer-read-then-write";
const maxAttempts = 3;

interface Payload {
  key: { sub: string; operationId: string };
  request: { tool: string; fingerprint: string };
}

/** What Powertools stores: the status and the body as JSON text (a DynamoDB map would not keep key order). */
interface Stored {
  httpStatus: number;
  body: string;
  replayed?: boolean;
}

/** The peer's handler for `tool`, on the store's tables, with a Powertools client the bench can observe. */
export function readThenWriteHandler(deps: StoreDeps, tool: PeerTool): ToolHandler {
  const definition = toolNamed(tool);
  const rule = changeRules[tool];
  const client = new DynamoDBClient(deps.clientConfig);
  deps.observeClient?.(client);
  const config = new IdempotencyConfig({
    eventKeyJmesPath: "key",
    payloadValidationJmesPath: "request",
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: 24 * 3600,
    responseHook: (response) => ({ ...(response as unknown as Stored), replayed: true }),
  });

  /** Read, check in code, write conditioned on the version read; again from the read if the write finds it moved. */
  async function change(args: PeerArgs, principal: Principal): Promise<Stored> {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const { Item } = await deps.doc.send(
        new GetCommand({ TableName: deps.tables.orders, Key: orderKey(args.orderId), ConsistentRead: true }),
      );
      const order = Item ? (withoutStoreAttributes(Item) as unknown as Order) : undefined;
      if (!order || !mayAccessOrder(principal, order)) return rejected(args, new OrderNotFoundError(args.orderId));
      const ineligible = rule.rejection(order.status);
      if (ineligible || !rule.allowedStatuses.includes(order.status)) {
        return rejected(
          args,
          new NotEligibleError(
            ineligible?.message ?? `The order is ${order.status}.`,
            ineligible?.reason ?? "DISPATCH_STARTED",
            order.status,
          ),
        );
      }
      if (args.expectedVersion !== undefined && args.expectedVersion !== order.version) {
        return rejected(args, new VersionConflictError(args.orderId, args.expectedVersion, order.version));
      }
      const now = deps.now();
      const orderVersion = order.version + 1;
      const { set, result } =
        tool === "cancel_order" ? cancellation(args as CancelOrderInput, now) : deliveryNote(args as AddDeliveryNoteInput);
      const names: Record<string, string> = { "#version": "version", "#updatedAt": "updatedAt", "#activity": "activity" };
      const values: Record<string, unknown> = {
        ":read": order.version,
        ":next": orderVersion,
        ":now": now.toISOString(),
        ":entry": [{ version: orderVersion, at: now.toISOString(), tool, operationId: args.operationId, actor: actorOf(principal) }],
        ":none": [],
      };
      const assignments = Object.entries(set).map(([attribute, value], i) => {
        names[`#s${i}`] = attribute;
        values[`:s${i}`] = value;
        return `#s${i} = :s${i}`;
      });
      try {
        await deps.doc.send(
          new UpdateCommand({
            TableName: deps.tables.orders,
            Key: orderKey(args.orderId),
            UpdateExpression: `SET ${[...assignments, "#version = :next", "#updatedAt = :now", "#activity = list_append(if_not_exists(#activity, :none), :entry)"].join(", ")}`,
            ConditionExpression: "#version = :read",
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
      } catch (error) {
        if ((error as Error).name === "ConditionalCheckFailedException") continue;
        throw error;
      }
      return {
        httpStatus: 200,
        body: JSON.stringify({ operationId: args.operationId, status: "completed", orderId: args.orderId, orderVersion, ...result }),
      };
    }
    throw new InternalError(`Order ${args.orderId} kept changing while ${tool} ran; retry it with the same operationId.`);
  }

  const run = makeIdempotent(async (_payload: Payload, args: PeerArgs, principal: Principal) => change(args, principal), {
    persistenceStore: new DynamoDBPersistenceLayer({ tableName: deps.tables.idempotency, awsSdkV3Client: client }),
    config,
    keyPrefix: peerKeyPrefix,
    dataIndexArgument: 0,
  });

  return async (event, context) => {
    const startedAt = Date.now();
    const keys: CallKeys = {};
    const log = requestLogger(tool, event, keys);
    let result: HttpResult;
    let failure: unknown;
    try {
      const jwt = event.requestContext?.authorizer?.jwt;
      const principal = principalFromClaims(jwt?.claims, jwt?.scopes ?? undefined, definition.scope);
      keys.principal = principalHash(principal.sub);
      const args = parseArguments(definition.input, tool, readBody(event)) as PeerArgs;
      Object.assign(keys, { operationId: args.operationId, orderId: args.orderId });
      config.registerLambdaContext(context);
      const fingerprint = createHash("sha256")
        .update(JSON.stringify({ tool, arguments: args }))
        .digest("base64url");
      const outcome = await run(
        { key: { sub: principal.sub, operationId: args.operationId }, request: { tool, fingerprint } },
        args,
        principal,
      ).catch((error: unknown) => {
        if (error instanceof IdempotencyAlreadyInProgressError) throw new OperationInProgressError(args.operationId, 2);
        if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError(args.operationId, tool, undefined);
        throw error;
      });
      result = jsonResponse(outcome.httpStatus, JSON.parse(outcome.body), outcome.replayed ? { "idempotent-replayed": "true" } : {});
    } catch (error) {
      failure = error;
      result = errorResponse(error, tool, true, log);
    }
    recordCall(log, tool, true, result, startedAt, failure);
    return result;
  };
}

function rejected(args: PeerArgs, error: ToolError): Stored {
  return {
    httpStatus: error.httpStatus,
    body: JSON.stringify({ ...error.toJSON(), operationId: args.operationId, status: "rejected", orderId: args.orderId }),
  };
}

function cancellation(args: CancelOrderInput, now: Date): { set: Record<string, unknown>; result: Json } {
  return {
    set: {
      status: "cancelled",
      cancellation: { at: now.toISOString(), ...(args.reason ? { reason: { origin: "customer", text: args.reason } } : {}) },
    },
    result: { orderStatus: "cancelled" },
  };
}

function deliveryNote(args: AddDeliveryNoteInput): { set: Record<string, unknown>; result: Json } {
  return { set: { deliveryNote: args.deliveryNote }, result: { deliveryNote: { origin: "customer", text: args.deliveryNote } } };
}
