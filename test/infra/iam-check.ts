import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoGrant } from "#test/infra/synthesized-app";

/**
 * A small model of how IAM authorises DynamoDB calls, enough to hold the stack's policies to what the code
 * really sends: each API call becomes the authorisation requests DynamoDB makes for it (one per item action of
 * a transaction, one per table of a batch), each with the partition-key values IAM sees as
 * `dynamodb:LeadingKeys`, and each request is allowed when some grant names its action and resource and, if the
 * grant has a key condition, every leading key matches one of its `StringLike` patterns.
 */

export interface AccessRequest {
  /** `dynamodb:PutItem`, …, as IAM names the action. */
  action: string;
  /** `orders`, `idempotency` or `orders/index/<name>`, as `tableArnNames` names the resources. */
  resource: string;
  /** The partition-key values, where the request names items; undefined for Query and Scan (not modelled). */
  leadingKeys?: string[];
}

export interface TableModel {
  /** Resource name of a physical table name, or undefined for a table the stack does not grant. */
  nameOf(tableName: string): string | undefined;
  /** The partition-key attribute of a table, by resource name. */
  partitionKeyOf(resource: string): string;
}

type AttributeMap = Record<string, Record<string, unknown>>;

const stringOf = (value: Record<string, unknown> | undefined): string => {
  if (!value || typeof value.S !== "string") throw new Error(`Only string partition keys are modelled, not ${JSON.stringify(value)}`);
  return value.S;
};

/** The authorisation requests of one DynamoDB API call, from the JSON body sent on the wire. */
export function accessRequestsOf(operation: string, body: Record<string, any>, tables: TableModel): AccessRequest[] {
  const resourceOf = (tableName: string) => tables.nameOf(tableName) ?? `unknown:${tableName}`;
  const item = (action: string, tableName: string, key: AttributeMap): AccessRequest => {
    const resource = resourceOf(tableName);
    return { action: `dynamodb:${action}`, resource, leadingKeys: [stringOf(key[tables.partitionKeyOf(resource)])] };
  };
  switch (operation) {
    case "GetItem":
    case "UpdateItem":
    case "DeleteItem":
      return [item(operation, body.TableName, body.Key)];
    case "PutItem":
      return [item(operation, body.TableName, body.Item)];
    case "Query":
    case "Scan": {
      const table = resourceOf(body.TableName);
      return [{ action: `dynamodb:${operation}`, resource: body.IndexName ? `${table}/index/${body.IndexName}` : table }];
    }
    case "BatchGetItem":
      return Object.entries(body.RequestItems as Record<string, { Keys: AttributeMap[] }>).map(([tableName, { Keys }]) => {
        const resource = resourceOf(tableName);
        return {
          action: "dynamodb:BatchGetItem",
          resource,
          leadingKeys: Keys.map((key) => stringOf(key[tables.partitionKeyOf(resource)])),
        };
      });
    case "BatchWriteItem":
      return Object.entries(
        body.RequestItems as Record<string, Array<{ PutRequest?: { Item: AttributeMap }; DeleteRequest?: { Key: AttributeMap } }>>,
      ).map(([tableName, requests]) => {
        const resource = resourceOf(tableName);
        const keys = requests.map((r) => stringOf((r.PutRequest?.Item ?? r.DeleteRequest?.Key)?.[tables.partitionKeyOf(resource)]));
        return { action: "dynamodb:BatchWriteItem", resource, leadingKeys: keys };
      });
    case "TransactWriteItems":
      return (body.TransactItems as Array<Record<string, Record<string, any>>>).map((entry) => {
        const [kind, action] = entry.Put
          ? ["Put", "PutItem"]
          : entry.Update
            ? ["Update", "UpdateItem"]
            : entry.Delete
              ? ["Delete", "DeleteItem"]
              : ["ConditionCheck", "ConditionCheckItem"];
        const request = entry[kind!]!;
        return item(action!, request.TableName, kind === "Put" ? request.Item : request.Key);
      });
    case "TransactGetItems":
      return (body.TransactItems as Array<{ Get: Record<string, any> }>).map(({ Get }) => item("GetItem", Get.TableName, Get.Key));
    default:
      return [{ action: `dynamodb:${operation}`, resource: body.TableName ? resourceOf(body.TableName) : "*" }];
  }
}

/** IAM's `StringLike`: `*` any run of characters, `?` any one character, everything else literally. */
export function stringLike(pattern: string, value: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "s").test(value);
}

/** The grant that allows the request, if any. A key condition never allows a request whose keys are unknown. */
export function grantFor(grants: readonly DynamoGrant[], request: AccessRequest): DynamoGrant | undefined {
  return grants.find(
    (grant) =>
      grant.action === request.action &&
      grant.resource === request.resource &&
      (grant.leadingKeys === undefined ||
        request.leadingKeys?.every((key) => grant.leadingKeys!.some((pattern) => stringLike(pattern, key)))),
  );
}

/**
 * The serialized body as text. The SDK's JSON codec now serializes to bytes (a Uint8Array that still answers
 * string methods, with a deprecation warning on stderr), so decode it rather than treating it as a string.
 */
function bodyText(body: string | Uint8Array | undefined): string {
  if (body === undefined) return "{}";
  return typeof body === "string" ? body : new TextDecoder().decode(body);
}

/**
 * Reports every DynamoDB call a client sends, as authorisation requests, while `enabled()` says so. It reads the
 * serialized request (build step), so it sees exactly what goes on the wire whichever client built it. It only
 * observes: the call goes ahead as sent.
 */
export function observeAccess(
  client: DynamoDBClient,
  tables: TableModel,
  report: (requests: AccessRequest[]) => void,
  enabled: () => boolean,
): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      if (enabled()) {
        const request = args.request as { headers: Record<string, string>; body?: string | Uint8Array };
        const target = Object.entries(request.headers).find(([name]) => name.toLowerCase() === "x-amz-target")?.[1] ?? "";
        report(accessRequestsOf(target.split(".")[1] ?? target, JSON.parse(bodyText(request.body)), tables));
      }
      return next(args);
    },
    { step: "build", name: "observeIamAccess" },
  );
}
