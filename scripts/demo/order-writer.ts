import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { OrderWriter } from "#controller/http/faults";
import type { StoreDeps } from "#store/client";
import { orderKey } from "#store/keys";

/** Fields the order system may move on its own; keys and derived index attributes are not among them. */
const settable = new Set(["status", "deliveredAt", "deliveryNote", "delivery", "items", "charges"]);

/**
 * The set_before_dispatch fault's writer (SPEC §8.3): the order system changes a stored order between the
 * model's proposal and the controller's write. The fields are set and the version goes up by one, in one
 * conditional update, as any change by the order system would.
 */
export function dynamoOrderWriter(deps: Pick<StoreDeps, "doc" | "tables">): OrderWriter {
  return async (orderId, set) => {
    const fields = Object.entries(set);
    if (fields.length === 0) throw new Error("set_before_dispatch needs at least one field in `set`.");
    for (const [name] of fields) {
      if (!settable.has(name)) throw new Error(`set_before_dispatch cannot set ${JSON.stringify(name)}; it may set ${[...settable].join(", ")} (the version goes up by itself).`);
    }
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tables.orders,
        Key: orderKey(orderId),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(", ")}, #version = #version + :one`,
        ConditionExpression: "attribute_exists(#version)",
        ExpressionAttributeNames: { ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])), "#version": "version" },
        ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])), ":one": 1 },
      }),
    );
  };
}
