/**
 * POST /v1/mcp on the local gateway: the deployed MCP handler (functions/service/mcp.ts) with the in-process
 * invoker and the local stack's tokens. Where the deployed function invokes each tool's own Lambda function, this
 * calls the same handler module the gateway serves on the tool's route, with the same API Gateway event, in this
 * process. It listens on the loopback address, so it takes MCP's rule for local servers: local origins are
 * accepted, foreign ones (and foreign Host headers) refused, as well as the listed origins. A change's question is
 * signed with a key made for this process (deployed, a KMS key); ORDER_TOOLS_MCP_UNCONFIRMED_CHANGES=refuse makes it
 * refuse, as a deployment can, a change from a client that cannot be asked.
 */
import { importHandler } from "#local/gateway";
import { localMcpAuthentication } from "#local/mcp-resource";
import { inProcessInvoker } from "#runtime/invoker-in-process";
import { unconfirmedChangesEnv, unconfirmedChangesFrom } from "#runtime/mcp-confirmation-settings";
import { localRequestStateKey } from "#runtime/request-state";
import { createMcpHandler } from "#service/mcp";

export const handler = createMcpHandler(
  inProcessInvoker((tool) => importHandler(tool.entry)),
  {
    allowedOrigins: (process.env.ORDER_TOOLS_MCP_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    loopback: true,
    authentication: localMcpAuthentication,
    confirmation: { key: localRequestStateKey(), unconfirmedChanges: unconfirmedChangesFrom(process.env[unconfirmedChangesEnv]) },
  },
);
