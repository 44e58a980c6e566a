import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { OrderWriter } from "#controller/http/faults";
import { linesOf, replacementsOf } from "#core/item-eligibility";
import type { Charge, OrderItem } from "#core/order";
import type { StoreDeps } from "#store/client";
import { deliveredIndexKey, orderContentKey, orderKey } from "#store/keys";
import { contentAttributes, orderOf, readStoredOrder, summaryOf } from "#store/order-items";
import { sellerIndexes } from "#store/table-design";

/** Fields the order system may move on its own; keys and derived index attributes are not among them. */
const settable = new Set(["status", "deliveredAt", "deliveryNote", "delivery", "items", "charges"]);

/**
 * The set_before_dispatch fault's writer (contract §8.3): the order system changes a stored order between the
 * model's proposal and the controller's write. The fields are set and the version goes up by one, in one
 * transaction, as any change by the order system would: on the order's state item, and for its lines or charges on
 * its content item too, with the search summary the state keeps of them (functions/store/order-items.ts). Setting
 * deliveredAt moves the order in the seller's delivered-month index too, as every writer of deliveredAt must
 * (functions/store/table-design.ts).
 */
export function dynamoOrderWriter(deps: StoreDeps): OrderWriter {
  return async (orderId, set) => {
    const fields = Object.entries(set);
    if (fields.length === 0) throw new Error("set_before_dispatch needs at least one field in `set`.");
    for (const [name] of fields) {
      if (!settable.has(name))
        throw new Error(
          `set_before_dispatch cannot set ${JSON.stringify(name)}; it may set ${[...settable].join(", ")} (the version goes up by itself).`,
        );
    }
    const stored = await readStoredOrder(deps, orderId, true);
    const sellerId = typeof stored?.state.sellerId === "string" ? stored.state.sellerId : undefined;
    if (!stored || !sellerId) throw new Error(`set_before_dispatch: order ${orderId} is not stored, or has no seller.`);
    // Lines and charges are the content item's; an order still in the previous layout keeps them on its one item.
    const split = stored.content !== stored.state;
    const toContent = split ? fields.filter(([name]) => contentAttributes.includes(name as never)) : [];
    const toState: Record<string, unknown> = Object.fromEntries(fields.filter((field) => !toContent.includes(field)));
    if (toContent.length) {
      const order = orderOf(stored);
      const items = (set.items as OrderItem[] | undefined) ?? order.items;
      Object.assign(
        toState,
        summaryOf(linesOf(items, replacementsOf(stored.state)), (set.charges as Charge[] | undefined) ?? order.charges),
      );
    }
    let removed: string | undefined;
    if (Object.hasOwn(set, "deliveredAt")) {
      const key = Object.entries(
        deliveredIndexKey({ sellerId, deliveredAt: typeof set.deliveredAt === "string" ? set.deliveredAt : null }),
      )[0];
      if (key) toState[key[0]] = key[1];
      else removed = sellerIndexes.delivered.partitionKey;
    }
    await deps.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: deps.tables.orders,
              Key: orderKey(orderId),
              ...setting(Object.entries(toState), { version: true, contentVersion: toContent.length > 0 }, removed),
            },
          },
          // The content's version goes up on both items at once, so a function holding the content it read
          // before reads it again (functions/store/order-items.ts).
          ...(toContent.length
            ? [
                {
                  Update: {
                    TableName: deps.tables.orders,
                    Key: orderContentKey(orderId),
                    ...setting(toContent, { version: false, contentVersion: true }),
                  },
                },
              ]
            : []),
        ],
      }),
    );
  };
}

/** Which versions an update raises by one: the order's (a change) and its content's (on both items). */
interface Raises {
  version: boolean;
  contentVersion: boolean;
}

/** An update of an existing item setting `fields` and raising the versions `raises` names, removing `removed`. */
function setting(fields: [string, unknown][], raises: Raises, removed?: string) {
  const clauses = [
    ...fields.map((_, i) => `#f${i} = :v${i}`),
    ...(raises.version ? ["#version = #version + :one"] : []),
    ...(raises.contentVersion ? ["#contentVersion = if_not_exists(#contentVersion, :zero) + :one"] : []),
  ];
  return {
    UpdateExpression: `SET ${clauses.join(", ")}${removed ? " REMOVE #removed" : ""}`,
    ConditionExpression: "attribute_exists(#orderId)",
    ExpressionAttributeNames: {
      ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
      "#orderId": "orderId",
      ...(raises.version ? { "#version": "version" } : {}),
      ...(raises.contentVersion ? { "#contentVersion": "contentVersion" } : {}),
      ...(removed ? { "#removed": removed } : {}),
    },
    ExpressionAttributeValues: {
      ...Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
      ...(raises.version || raises.contentVersion ? { ":one": 1 } : {}),
      ...(raises.contentVersion ? { ":zero": 0 } : {}),
    },
  };
}
