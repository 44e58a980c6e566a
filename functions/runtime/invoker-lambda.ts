import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { toolFunctionEnv } from "#deploy/service-functions";
import type { DeployedTool } from "#deploy/tool-functions";
import type { HttpResult } from "#runtime/http";
import type { ToolInvoker } from "#runtime/invoker";
import { traceClient } from "#runtime/tracing";

/**
 * Invokes the tool's own Lambda function synchronously with the API Gateway event, as the tool's route would.
 * The MCP function's role may invoke exactly those functions and touches no table itself, so each tool keeps
 * its own least-privilege grants. The SDK's retries are safe: a changing tool is idempotent per operationId.
 * The SDK passes the invocation's X-Ray trace header on (`_X_AMZN_TRACE_ID`), so the tool's segments join the
 * caller's trace; with the Powertools Tracer each invocation is also a subsegment of it.
 */
export function lambdaInvoker(functionNames: Readonly<Record<string, string>>, client = traceClient(new LambdaClient({}))): ToolInvoker {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  return {
    async invoke(tool: DeployedTool, event) {
      const functionName = functionNames[tool.name];
      if (!functionName) throw new Error(`No function is configured for ${tool.name}: set ${toolFunctionEnv(tool.name)}.`);
      const output = await client.send(new InvokeCommand({ FunctionName: functionName, Payload: encoder.encode(JSON.stringify(event)) }));
      const payload = output.Payload ? decoder.decode(output.Payload) : "";
      if (output.FunctionError) throw new Error(`${functionName} failed (${output.FunctionError}): ${payload.slice(0, 500)}`);
      const result = JSON.parse(payload) as HttpResult | null;
      if (!result || typeof result !== "object" || typeof result.statusCode !== "number") {
        throw new Error(`${functionName} answered without an HTTP result: ${payload.slice(0, 200)}`);
      }
      return result;
    },
  };
}

/** The function names from the environment, one variable per tool. */
export function toolFunctionsFromEnv(tools: readonly DeployedTool[], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    tools.flatMap((tool) => (env[toolFunctionEnv(tool.name)] ? [[tool.name, env[toolFunctionEnv(tool.name)] as string]] : [])),
  );
}
