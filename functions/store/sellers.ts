import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import { defaultPolicies, type ReturnPolicy, resolvePolicy, type Seller, supplementRef } from "#core/policy";
import type { SellerAndPolicy } from "#core/get-order";
import type { StoreDeps } from "#store/client";
import { type ItemKey, policyKey, sellerKey, withoutStoreAttributes } from "#store/keys";

/** How long a seller and its resolved policy are served from memory: reads may lag a change by this much. */
export const sellerCacheMs = 60_000;

const caches = new WeakMap<StoreDeps, Map<string, { at: number; value: SellerAndPolicy | undefined }>>();

/**
 * The seller and the policy that applies to its orders, in one BatchGetItem (seller, its supplement and both
 * defaults), cached per execution environment for `sellerCacheMs`. Reads only: a write that depends on the
 * seller's status states it as a condition in its own transaction.
 */
export async function sellerWithPolicy(deps: StoreDeps, sellerId: string): Promise<SellerAndPolicy | undefined> {
  let cache = caches.get(deps);
  if (!cache) {
    cache = new Map();
    caches.set(deps, cache);
  }
  const hit = cache.get(sellerId);
  const now = Date.now();
  if (hit && now - hit.at < sellerCacheMs) return hit.value;

  const keys = [
    sellerKey(sellerId),
    policyKey(supplementRef(sellerId)),
    policyKey(defaultPolicies.sundry.ref),
    policyKey(defaultPolicies.marketplace.ref),
  ];
  const items = (await batchGet(deps, keys)).map((item) => ({ pk: item.PK as string, value: withoutStoreAttributes(item) }));
  const find = (pk: string) => items.find((i) => i.pk === pk)?.value;

  const seller = find(sellerKey(sellerId).PK) as unknown as Seller | undefined;
  const value = seller && {
    seller: { id: seller.id, name: seller.name, type: seller.type, status: seller.status },
    policy: resolvePolicy(
      seller,
      find(policyKey(supplementRef(sellerId)).PK) as unknown as ReturnPolicy | undefined,
      find(policyKey(defaultPolicies[seller.type].ref).PK) as unknown as ReturnPolicy | undefined,
    ),
  };
  cache.set(sellerId, { at: now, value });
  return value;
}

/** BatchGetItem that asks again for any keys DynamoDB leaves unprocessed (it may, under throttling). */
async function batchGet(deps: StoreDeps, keys: readonly ItemKey[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] = keys.map((key) => ({ ...key }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 5) throw new Error(`DynamoDB left ${pending.length} keys unprocessed after ${attempt} attempts`);
    if (attempt > 0) await new Promise((r) => setTimeout(r, 2 ** attempt * 10));
    const { Responses, UnprocessedKeys } = await deps.doc.send(
      new BatchGetCommand({ RequestItems: { [deps.tables.orders]: { Keys: pending } } }),
    );
    found.push(...(Responses?.[deps.tables.orders] ?? []));
    pending = UnprocessedKeys?.[deps.tables.orders]?.Keys ?? [];
  }
  return found;
}
