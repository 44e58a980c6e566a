import type { Context } from "aws-lambda";
import type { DeployedTool } from "#deploy/tool-functions";
import type { HttpEvent, HttpResult } from "#runtime/http";

/**
 * Runs one tool with exactly the event its own route would give it, and returns what its handler returned.
 * The MCP endpoint calls tools only through this, so a tools/call has the HTTP route's semantics: the same
 * handler, validation, principal, idempotency, replay and error bodies.
 *
 * Two implementations: `lambdaInvoker` (deployed: invokes the tool's own function, so the MCP function needs
 * no table grants) and `inProcessInvoker` (local gateway and tests: calls the handler module in this process).
 * An invoker throws only when the tool could not be run or did not answer; the tool's own refusals are results.
 */
export interface ToolInvoker {
  invoke(tool: DeployedTool, event: HttpEvent, context: Context): Promise<HttpResult>;
}
