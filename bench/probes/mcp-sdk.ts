/**
 * The MCP function as it would be built on the official server SDK (@modelcontextprotocol/server 2.x, whose
 * createMcpHandler serves 2026-07-28 and the 2025 revisions): the same registry, invoker and token verifier as
 * functions/service/mcp.ts, with the SDK's low-level Server answering tools/list and tools/call. Not deployed: the
 * bundles section measures it beside the function that is, since the SDK was chosen against on its cold init
 * (docs/benchmarks.md, MCP).
 */
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { catalogEntry, serviceInfo } from "#contract/json-schema";
import { mcpInstructions } from "#contract/mcp-instructions";
import { deployedTools as tools } from "#deploy/tool-functions";
import { lambdaInvoker, toolFunctionsFromEnv } from "#runtime/invoker-lambda";
import { deployedVerifier } from "#runtime/token-verifier";

const entries = tools.map((tool) => catalogEntry(tool));
const invoker = lambdaInvoker(toolFunctionsFromEnv(tools));
const verify = deployedVerifier({ userPoolId: "eu-west-1_Probe", clientIds: ["probe"] });
const mcp = createMcpHandler(() => {
  const server = new Server({ ...serviceInfo }, { capabilities: { tools: {} }, instructions: mcpInstructions });
  server.setRequestHandler("tools/list", async () => ({ tools: entries as never }));
  server.setRequestHandler("tools/call", async (request) => ({
    content: [{ type: "text", text: `${request.params.name} via ${typeof invoker}` }],
  }));
  return server;
});

export const handler = async (event: { body: string; headers: Record<string, string> }) => {
  const check = await verify(event.headers.authorization ?? "", "https://probe/v1/mcp");
  if (!check.ok) return { statusCode: 401, body: check.message };
  const response = await mcp.fetch(new Request("https://probe/v1/mcp", { method: "POST", headers: event.headers, body: event.body }));
  return { statusCode: response.status, body: await response.text() };
};
