import { type Gateway, importHandler, startGateway } from "#local/gateway";
import { localMcpAuthentication } from "#local/mcp-resource";
import { inProcessInvoker } from "#runtime/invoker-in-process";
import { createMcpHandler, type McpOptions } from "#service/mcp";

/**
 * The local gateway with its MCP route running the endpoint under confirmation settings of a test's choosing (the
 * key, its clock, what an unaskable client gets), as `npm start` runs it otherwise: the in-process invoker, the local
 * tokens, the loopback rules. Every other route is the gateway's own.
 */
export function gatewayWithConfirmation(confirmation: NonNullable<McpOptions["confirmation"]>): Promise<Gateway> {
  const mcp = createMcpHandler(
    inProcessInvoker((tool) => importHandler(tool.entry)),
    { loopback: true, authentication: localMcpAuthentication, confirmation },
  );
  return startGateway({ port: 0, resolveHandler: (route) => (route.name === "mcp" ? mcp : importHandler(route.entry)) });
}
