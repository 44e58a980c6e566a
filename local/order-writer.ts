import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { OrderWriter } from "#controller/http/faults";
import type { StoreDeps } from "#store/client";
import { deliveredIndexKey, orderKey } from "#store/keys";
import { sellerIndexes } from "#store/table-design";

/** Fields the order system may move on its own; keys and derived index attributes are not among them. */
const settable = new Set(["status", "deliveredAt", "deliveryNote", "delivery", "items", "charges"]);

/**
 * The set_before_dispatch fault's writer (contract §8.3): the order system changes a stored order between the
 * model's proposal and the controller's write. The fields are set and the version goes up by one, in one
 * conditional update, as any change by the order system would. Setting deliveredAt moves the order in the
 * seller's delivered-month index too, as every writer of deliveredAt must (functions/store/table-design.ts).
 */
export function dynamoOrderWriter(deps: Pick<StoreDeps, "doc" | "tables">): OrderWriter {
  return async (orderId, set) => {
    const fields = Object.entries(set);
    if (fields.length === 0) throw new Error("set_before_dispatch needs at least one field in `set`.");
    for (const [name] of fields) {
      if (!settable.has(name))
        throw new Error(
          `set_before_dispatch cannot set ${JSON.stringify(name)}; it may set ${[...settable].join(", ")} (the version goes up by itself).`,
        );
    }
    let index: { set?: [string, string]; remove?: string; sellerId?: string } = {};
    if (Object.hasOwn(set, "deliveredAt")) {
      const { Item } = await deps.doc.send(
        new GetCommand({ TableName: deps.tables.orders, Key: orderKey(orderId), ConsistentRead: true, ProjectionExpression: "sellerId" }),
      );
      const sellerId = typeof Item?.sellerId === "string" ? Item.sellerId : undefined;
      if (!sellerId) throw new Error(`set_before_dispatch: order ${orderId} is not stored, or has no seller.`);
      const deliveredAt = typeof set.deliveredAt === "string" ? set.deliveredAt : null;
      const key = Object.entries(deliveredIndexKey({ sellerId, deliveredAt }))[0];
      index = key ? { set: key, sellerId } : { remove: sellerIndexes.delivered.partitionKey, sellerId };
    }
    const sets = [...fields.map((_, i) => `#f${i} = :v${i}`), "#version = #version + :one", ...(index.set ? ["#index = :index"] : [])];
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tables.orders,
        Key: orderKey(orderId),
        UpdateExpression: `SET ${sets.join(", ")}${index.remove ? " REMOVE #index" : ""}`,
        ConditionExpression: index.sellerId ? "attribute_exists(#version) AND #seller = :seller" : "attribute_exists(#version)",
        ExpressionAttributeNames: {
          ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          "#version": "version",
          ...(index.set || index.remove ? { "#index": index.set?.[0] ?? (index.remove as string) } : {}),
          ...(index.sellerId ? { "#seller": "sellerId" } : {}),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
          ":one": 1,
          ...(index.set ? { ":index": index.set[1] } : {}),
          ...(index.sellerId ? { ":seller": index.sellerId } : {}),
        },
      }),
    );
  };
}
