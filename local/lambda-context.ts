import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";

// The event builder lives with the functions, since the MCP function builds the events it sends its tools.
export { apiGatewayEvent, type EventInput } from "#runtime/api-event";

/** A Lambda-like context: Powertools needs the remaining time to bound an in-progress record. */
export function lambdaContext(functionName: string, timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:000000000000:function:${functionName}`,
    memoryLimitInMB: "512",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
