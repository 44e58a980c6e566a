import type { ActivityEntry } from "#core/order";
import { type Fixture, fixtureItems } from "#store/fixture";
import { activityKey, orderIndexKeys, orderKey } from "#store/keys";

/**
 * The previous layout, as its fixture loader and its changes wrote it, for what must meet a table written that
 * way: the layout migration's test, and the bench's read-then-write peer (the design order-tools replaced). Each
 * order is one item under `ORDER#<id>` / `ORDER` holding everything — its lines with their descriptions, charges,
 * internal fields, the search copy of the seller's name — and every change added an `ACTIVITY#<version>` item
 * beside it. Every other entity is stored as it is now.
 */
export function previousLayoutItems(fixture: Fixture): Record<string, unknown>[] {
  const sellers = new Map(fixture.sellers.map((s) => [s.id, s]));
  return [
    ...fixtureItems({ ...fixture, orders: [] }),
    ...fixture.orders.map(({ id, ...order }) => ({
      ...orderKey(id),
      ...orderIndexKeys({ ...order, orderId: id }),
      entity: "order",
      orderId: id,
      ...order,
      sellerName: sellers.get(order.sellerId)?.name,
    })),
  ];
}

/** An activity entry as a change of the previous layout wrote it, in its own transaction. */
export function previousActivityItem(orderId: string, version: number, entry: Omit<ActivityEntry, "actor"> & { actor: object }) {
  return { ...activityKey(orderId, version), entity: "activity", orderId, version, ...entry };
}
