import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { RateLimitedError } from "#core/errors";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { rateKey, sellerRateKey, supportRateKey } from "#store/keys";

const hourMs = 3_600_000;

/** contract §7: changes per customer per rolling hour when ORDER_TOOLS_HOURLY_CAP is not set. */
export const defaultHourlyCap = 10;

/** Changes (of any changing tool) per support actor per rolling hour when ORDER_TOOLS_SUPPORT_HOURLY_CAP is not set. */
export const defaultSupportHourlyCap = 60;

/** A whole number ≥ 0 from the environment, or the default; anything else stops the function at start. */
export function limitFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(limit))
    throw new Error(`${name} must be a whole number ≥ 0 (0 turns it off), not ${JSON.stringify(raw)}`);
  return limit;
}

/** Changes (returns and replacements, the changes a seller may make) per seller actor per rolling hour when ORDER_TOOLS_SELLER_HOURLY_CAP is not set. */
export const defaultSellerHourlyCap = 60;

export function hourlyCapFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return limitFromEnv("ORDER_TOOLS_HOURLY_CAP", defaultHourlyCap, env);
}

export function supportHourlyCapFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return limitFromEnv("ORDER_TOOLS_SUPPORT_HOURLY_CAP", defaultSupportHourlyCap, env);
}

export function sellerHourlyCapFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return limitFromEnv("ORDER_TOOLS_SELLER_HOURLY_CAP", defaultSellerHourlyCap, env);
}

/** The write that counts one more change against the cap, made in the same transaction as the change. */
export interface CapSlot {
  put: {
    TableName: string;
    Item: Record<string, unknown>;
    ConditionExpression: string;
    ExpressionAttributeValues?: Record<string, unknown>;
  };
}

/**
 * Reserves one change of the actor's rolling-hour allowance, or refuses with RATE_LIMITED.
 * - A customer's cancellations, returns and replacements (`capped` changes) count against `hourlyCap`.
 * - A support actor's changes, every changing tool, count against `supportHourlyCap`, per staff identity: staff
 *   may act on any order, so an account that is misused or a runaway script is bounded too.
 * - A seller actor's changes count against `sellerHourlyCap`, per seller and user (or agent) of that seller:
 *   a seller's agent works many buyers' orders, so its runaway loop is bounded like a support actor's.
 * The actor's recent change times live on one item; the returned Put replaces it in the change's own
 * transaction, conditioned on the revision read here, so concurrent changes cannot both take the last slot
 * (the loser's transaction fails and is retried). A cap of 0 turns it off.
 */
export async function reserveCapSlot(deps: StoreDeps, principal: Principal, now: Date, capped: boolean): Promise<CapSlot | undefined> {
  const { cap, key, limit, what, changes } = capOf(deps, principal, capped);
  if (cap === 0) return undefined;
  const { Item } = await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: key, ConsistentRead: true }));
  const nowMs = now.getTime();
  const recent = ((Item?.recent as number[] | undefined) ?? []).filter((t) => t > nowMs - hourMs).sort((a, b) => a - b);
  if (recent.length >= cap) {
    const retryAfterSeconds = Math.max(1, Math.ceil(((recent[recent.length - cap] as number) + hourMs - nowMs) / 1000));
    throw new RateLimitedError(
      `${what} ${recent.length} ${changes} in the past hour; the limit is ${cap}. Try again in ${retryAfterSeconds} s.`,
      { retryAfterSeconds },
      limit,
    );
  }
  const revision = (Item?.revision as number | undefined) ?? 0;
  return {
    put: {
      TableName: deps.tables.orders,
      Item: {
        ...key,
        entity: "rate",
        recent: [...recent, nowMs],
        revision: revision + 1,
        expiresAt: Math.floor((nowMs + 2 * hourMs) / 1000),
      },
      ...(Item
        ? { ConditionExpression: "revision = :revision", ExpressionAttributeValues: { ":revision": revision } }
        : { ConditionExpression: "attribute_not_exists(PK)" }),
    },
  };
}

/** Which allowance a change by this principal counts against, and how a refusal names it. */
function capOf(deps: StoreDeps, principal: Principal, capped: boolean) {
  switch (principal.kind) {
    case "customer":
      return {
        cap: capped ? (deps.hourlyCap ?? 0) : 0,
        key: rateKey(principal.customerId),
        limit: "hourly_cap" as const,
        what: "This customer has made",
        changes: "cancellations, returns or replacements",
      };
    case "seller":
      return {
        cap: deps.sellerHourlyCap ?? 0,
        key: sellerRateKey(principal.sellerId, principal.sub),
        limit: "seller_hourly_cap" as const,
        what: "You have made",
        changes: `order changes for seller ${principal.sellerId}`,
      };
    case "support":
      return {
        cap: deps.supportHourlyCap ?? 0,
        key: supportRateKey(principal.sub),
        limit: "support_hourly_cap" as const,
        what: "You have made",
        changes: "order changes as support staff",
      };
  }
}
