import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { RateLimitedError } from "#core/errors";
import type { Principal } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { limitFromEnv } from "#store/hourly-cap";
import { budgetKey } from "#store/keys";

/** Requests per principal per minute when ORDER_TOOLS_REQUEST_BUDGET is not set. */
export const defaultRequestBudget = 120;

export function requestBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return limitFromEnv("ORDER_TOOLS_REQUEST_BUDGET", defaultRequestBudget, env);
}

const minuteMs = 60_000;

/**
 * Counts one request of this principal (by `sub`) against its budget for the current minute, or refuses with
 * RATE_LIMITED. Every tool call counts — reads, replays and rejections too — so that one token or one looping
 * agent cannot spend the whole stage's throttle, nor fill the table with recorded rejections under fresh
 * operationIds. One conditional UpdateItem: the counter goes up only while it is under the budget, so
 * concurrent requests cannot overshoot it. A fixed one-minute window: at a window's edge a caller may send up
 * to twice the budget within a minute, which is the price of one write per request. 0 turns it off.
 */
export async function spendRequestBudget(deps: StoreDeps, principal: Principal): Promise<void> {
  const budget = deps.requestBudget ?? 0;
  if (budget === 0) return;
  const nowMs = deps.now().getTime();
  const windowStart = nowMs - (nowMs % minuteMs);
  try {
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tables.orders,
        Key: budgetKey(principal.sub, new Date(windowStart).toISOString().slice(0, 16)),
        UpdateExpression: "ADD #requests :one SET #entity = :entity, #expiresAt = :expiresAt",
        ConditionExpression: "attribute_not_exists(#requests) OR #requests < :budget",
        ExpressionAttributeNames: { "#requests": "requests", "#entity": "entity", "#expiresAt": "expiresAt" },
        ExpressionAttributeValues: {
          ":one": 1,
          ":budget": budget,
          ":entity": "budget",
          ":expiresAt": Math.floor((windowStart + 2 * minuteMs) / 1000),
        },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== "ConditionalCheckFailedException") throw error;
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + minuteMs - nowMs) / 1000));
    throw new RateLimitedError(
      `This caller has sent ${budget} requests in the current minute, the most one caller may send; nothing was done with this one. Wait ${retryAfterSeconds} s, then send it again (a change with the same operationId).`,
      { retryAfterSeconds },
      "request_budget",
    );
  }
}
