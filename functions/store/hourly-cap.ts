import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { RateLimitedError } from "#core/errors";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { rateKey } from "#store/keys";

const hourMs = 3_600_000;

/** SPEC §7: changes per customer per rolling hour when ORDER_TOOLS_HOURLY_CAP is not set. */
export const defaultHourlyCap = 10;

export function hourlyCapFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ORDER_TOOLS_HOURLY_CAP;
  if (raw === undefined || raw === "") return defaultHourlyCap;
  const cap = Number(raw);
  if (!Number.isInteger(cap) || cap < 0) throw new Error(`ORDER_TOOLS_HOURLY_CAP must be a whole number ≥ 0 (0 turns the cap off), not ${JSON.stringify(raw)}`);
  return cap;
}

/** The write that counts one more change against the cap, made in the same transaction as the change. */
export interface CapSlot {
  put: { TableName: string; Item: Record<string, unknown>; ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> };
}

/**
 * Reserves one change of the customer's rolling-hour allowance, or refuses with RATE_LIMITED.
 * The customer's recent change times live on one item; the returned Put replaces it in the change's own
 * transaction, conditioned on the revision read here, so concurrent changes cannot both take the last slot
 * (the loser's transaction fails and is retried). Support staff are not capped; a cap of 0 turns it off.
 */
export async function reserveCapSlot(deps: StoreDeps, principal: Principal, now: Date): Promise<CapSlot | undefined> {
  const cap = deps.hourlyCap ?? 0;
  if (cap === 0 || principal.kind !== "customer") return undefined;
  const key = rateKey(principal.customerId);
  const { Item } = await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: key, ConsistentRead: true }));
  const nowMs = now.getTime();
  const recent = ((Item?.recent as number[] | undefined) ?? []).filter((t) => t > nowMs - hourMs).sort((a, b) => a - b);
  if (recent.length >= cap) {
    const retryAfterSeconds = Math.max(1, Math.ceil(((recent[recent.length - cap] as number) + hourMs - nowMs) / 1000));
    throw new RateLimitedError(
      `This customer has made ${recent.length} cancellations, returns or replacements in the past hour; the limit is ${cap}. Try again in ${retryAfterSeconds} s.`,
      { retryAfterSeconds },
    );
  }
  const revision = (Item?.revision as number | undefined) ?? 0;
  return {
    put: {
      TableName: deps.tables.orders,
      Item: { ...key, entity: "rate", recent: [...recent, nowMs], revision: revision + 1, expiresAt: Math.floor((nowMs + 2 * hourMs) / 1000) },
      ...(Item
        ? { ConditionExpression: "revision = :revision", ExpressionAttributeValues: { ":revision": revision } }
        : { ConditionExpression: "attribute_not_exists(PK)" }),
    },
  };
}
