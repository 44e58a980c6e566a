import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { RateLimitedError } from "#core/errors";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { rateKey, supportRateKey } from "#store/keys";

const hourMs = 3_600_000;

/** SPEC §7: changes per customer per rolling hour when ORDER_TOOLS_HOURLY_CAP is not set. */
export const defaultHourlyCap = 10;

/** Changes (of any changing tool) per support actor per rolling hour when ORDER_TOOLS_SUPPORT_HOURLY_CAP is not set. */
export const defaultSupportHourlyCap = 60;

/** A whole number ≥ 0 from the environment, or the default; anything else stops the function at start. */
export function limitFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(limit)) throw new Error(`${name} must be a whole number ≥ 0 (0 turns it off), not ${JSON.stringify(raw)}`);
  return limit;
}

export function hourlyCapFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return limitFromEnv("ORDER_TOOLS_HOURLY_CAP", defaultHourlyCap, env);
}

export function supportHourlyCapFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return limitFromEnv("ORDER_TOOLS_SUPPORT_HOURLY_CAP", defaultSupportHourlyCap, env);
}

/** The write that counts one more change against the cap, made in the same transaction as the change. */
export interface CapSlot {
  put: { TableName: string; Item: Record<string, unknown>; ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> };
}

/**
 * Reserves one change of the actor's rolling-hour allowance, or refuses with RATE_LIMITED.
 * - A customer's cancellations, returns and replacements (`capped` changes) count against `hourlyCap`.
 * - A support actor's changes, every changing tool, count against `supportHourlyCap`, per staff identity: staff
 *   may act on any order, so an account that is misused or a runaway script is bounded too.
 * The actor's recent change times live on one item; the returned Put replaces it in the change's own
 * transaction, conditioned on the revision read here, so concurrent changes cannot both take the last slot
 * (the loser's transaction fails and is retried). A cap of 0 turns it off.
 */
export async function reserveCapSlot(deps: StoreDeps, principal: Principal, now: Date, capped: boolean): Promise<CapSlot | undefined> {
  const cap = principal.kind === "customer" ? (capped ? (deps.hourlyCap ?? 0) : 0) : (deps.supportHourlyCap ?? 0);
  if (cap === 0) return undefined;
  const key = principal.kind === "customer" ? rateKey(principal.customerId) : supportRateKey(principal.sub);
  const { Item } = await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: key, ConsistentRead: true }));
  const nowMs = now.getTime();
  const recent = ((Item?.recent as number[] | undefined) ?? []).filter((t) => t > nowMs - hourMs).sort((a, b) => a - b);
  if (recent.length >= cap) {
    const retryAfterSeconds = Math.max(1, Math.ceil(((recent[recent.length - cap] as number) + hourMs - nowMs) / 1000));
    const what = principal.kind === "customer" ? "This customer has made" : "You have made";
    const changes = principal.kind === "customer" ? "cancellations, returns or replacements" : "order changes as support staff";
    throw new RateLimitedError(
      `${what} ${recent.length} ${changes} in the past hour; the limit is ${cap}. Try again in ${retryAfterSeconds} s.`,
      { retryAfterSeconds },
      principal.kind === "customer" ? "hourly_cap" : "support_hourly_cap",
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
