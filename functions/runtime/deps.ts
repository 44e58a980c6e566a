import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { clientConfigFromEnv, documentClient, type StoreDeps, type TableNames } from "#store/client";
import { hourlyCapFromEnv, sellerHourlyCapFromEnv, supportHourlyCapFromEnv } from "#store/hourly-cap";
import { requestBudgetFromEnv } from "#store/request-budget";
import { orderIndexStepEnv, orderIndexSteps, tableEnv } from "#store/table-design";
import { traceClient } from "#runtime/tracing";

/**
 * A Lambda function's composition root: the store's dependencies made from its environment (table names, caps,
 * the request budget), once per execution environment. Tests and the local stack make theirs directly.
 */
export function tableNamesFromEnv(env: NodeJS.ProcessEnv = process.env): TableNames {
  const orders = env[tableEnv.orders];
  const idempotency = env[tableEnv.idempotency];
  if (!orders || !idempotency) {
    throw new Error(`Set ${tableEnv.orders} and ${tableEnv.idempotency} to the table names.`);
  }
  return { orders, idempotency };
}

/** The step of the order index move the stack was deployed at (`orderIndexStepEnv`), or undefined when unset. */
export function orderIndexStepFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = env[orderIndexStepEnv];
  if (value === undefined || value === "") return undefined;
  const step = Number(value);
  if (!/^\d+$/.test(value) || step > orderIndexSteps)
    throw new Error(
      `${orderIndexStepEnv} is a whole number from 0 to ${orderIndexSteps} (the stack's context orderIndexStep), not "${value}".`,
    );
  return step;
}

const withOrderIndexStep = (orderIndexStep: number | undefined) => (orderIndexStep === undefined ? {} : { orderIndexStep });

let cached: StoreDeps | undefined;

/**
 * Module-scope dependencies for a Lambda function: created once per execution environment. Every DynamoDB client,
 * the store's and Powertools', is traced when the function is built with the Powertools Tracer.
 */
export function depsFromEnv(): StoreDeps {
  const clientConfig = clientConfigFromEnv();
  cached ??= {
    doc: documentClient(traceClient(new DynamoDBClient(clientConfig))),
    tables: tableNamesFromEnv(),
    now: () => new Date(),
    clientConfig,
    hourlyCap: hourlyCapFromEnv(),
    supportHourlyCap: supportHourlyCapFromEnv(),
    sellerHourlyCap: sellerHourlyCapFromEnv(),
    requestBudget: requestBudgetFromEnv(),
    ...withOrderIndexStep(orderIndexStepFromEnv()),
    observeClient: traceClient,
  };
  return cached;
}
