import type { Context } from "aws-lambda";
import type { DeployedTool } from "#deploy/tool-functions";
import type { ToolHandler } from "#runtime/handler";
import type { ToolInvoker } from "#runtime/invoker";

/**
 * Calls the tool's handler in this process — what the local gateway and the tests use. `handlerOf` finds the
 * handler: the local gateway imports the tool's entry module (the same instance its own route serves), tests
 * may build one on fresh tables. The tool gets the caller's deadline under its own function name.
 */
export function inProcessInvoker(handlerOf: (tool: DeployedTool) => ToolHandler | Promise<ToolHandler>): ToolInvoker {
  return {
    async invoke(tool, event, context) {
      const handler = await handlerOf(tool);
      const toolContext: Context = { ...context, functionName: tool.name };
      return handler(event, toolContext);
    },
  };
}
