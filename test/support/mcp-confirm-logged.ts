/**
 * Runs one change through the MCP endpoint as its Lambda function would, asked and then answered, and prints nothing
 * of its own on stdout: what reaches stdout is exactly the structured log lines of the MCP function and of the tool
 * it runs (in this process, through the in-process invoker). argv: one JSON object `{tool, arguments, answer}`,
 * `answer` the form's result. The two JSON-RPC replies go to stderr, as the last line. The tables and the DynamoDB
 * endpoint come from the environment, as in a deployed function.
 */
import { principalClaims, signDevToken } from "#local/dev-auth";
import { importHandler } from "#local/gateway";
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";
import { localMcpAuthentication } from "#local/mcp-resource";
import { inProcessInvoker } from "#runtime/invoker-in-process";
import { createMcpHandler, modernProtocolVersion } from "#service/mcp";

const {
  tool,
  arguments: args,
  answer,
  elicitation,
} = JSON.parse(String(process.argv[2])) as {
  tool: string;
  arguments: unknown;
  answer: unknown;
  /** false: a client that declares no form elicitation, so it cannot be asked (one call, no answer). */
  elicitation?: boolean;
};
const mcp = createMcpHandler(
  inProcessInvoker((deployed) => importHandler(deployed.entry)),
  { authentication: localMcpAuthentication },
);
const token = await signDevToken(principalClaims({ customer: "C-1001" }));

async function toolsCall(id: number, extra: Record<string, unknown>) {
  const body = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: tool,
      arguments: args,
      ...extra,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": modernProtocolVersion,
        "io.modelcontextprotocol/clientCapabilities": elicitation === false ? {} : { elicitation: { form: {} } },
      },
    },
  };
  const headers = {
    authorization: `Bearer ${token}`,
    accept: "application/json",
    "content-type": "application/json",
    "mcp-protocol-version": modernProtocolVersion,
    "mcp-method": "tools/call",
    "mcp-name": tool,
  };
  const reply = await mcp(apiGatewayEvent({ method: "POST", path: "/v1/mcp", headers, body: JSON.stringify(body) }), lambdaContext("mcp"));
  return JSON.parse(String(reply.body)) as { result: Record<string, unknown> };
}

const asked = await toolsCall(1, {});
if (elicitation === false) {
  process.stderr.write(`${JSON.stringify({ asked, answered: asked })}\n`);
  process.exit(0);
}
const answered = await toolsCall(2, { requestState: asked.result.requestState, inputResponses: { confirm_change: answer } });
process.stderr.write(`${JSON.stringify({ asked, answered })}\n`);
