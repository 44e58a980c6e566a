import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { toolFunctionEnv } from "#deploy/service-functions";
import { deployedTools as tools } from "#deploy/tool-functions";
import { lambdaContext } from "#local/lambda-context";
import { repoRoot } from "#local/stack";
import type { StoreDeps } from "#store/client";
import type { ToolHandler } from "#runtime/handler";
import type { HttpEvent } from "#runtime/http";

/** One call of a tool's function through the local Lambda API: which function, with which event. */
export interface Invocation {
  functionName: string;
  event: HttpEvent;
}

/**
 * The Lambda Invoke API as a small local server whose functions (`fn-<tool>`) are the tools' real handlers on
 * the given tables, so a function that invokes the tools (MCP, the Bedrock action group) runs its whole
 * deployed path through the SDK's real Lambda client. While it runs, the environment points the SDK at it and
 * names each tool's function as the CDK stack does; `close()` puts the environment back.
 * `handlers` is keyed by tool name, so a test may wrap one; an unknown function answers as Lambda does when a
 * function failed (200, the error as payload, X-Amz-Function-Error).
 */
export async function startLocalLambdaApi(deps: StoreDeps) {
  const handlers = new Map<string, ToolHandler>();
  for (const tool of tools) {
    const module = (await import(pathToFileURL(join(repoRoot, tool.entry)).href)) as { createHandler: (deps: StoreDeps) => ToolHandler };
    handlers.set(tool.name, module.createHandler(deps));
  }
  const invocations: Invocation[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const functionName = decodeURIComponent(/^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? "")?.[1] ?? "");
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as HttpEvent;
      invocations.push({ functionName, event });
      const handler = handlers.get(functionName.replace(/^fn-/, ""));
      if (!handler) {
        res.writeHead(200, { "content-type": "application/json", "x-amz-function-error": "Unhandled" });
        res.end(JSON.stringify({ errorType: "Error", errorMessage: "Task timed out after 10.00 seconds" }));
        return;
      }
      const result = await handler(event, lambdaContext(functionName));
      res.writeHead(200, { "content-type": "application/json", "x-amz-executed-version": "$LATEST" });
      res.end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const names = ["AWS_ENDPOINT_URL_LAMBDA", ...tools.map((t) => toolFunctionEnv(t.name))];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  process.env.AWS_ENDPOINT_URL_LAMBDA = endpoint;
  for (const tool of tools) process.env[toolFunctionEnv(tool.name)] = `fn-${tool.name}`;

  return {
    endpoint,
    handlers,
    invocations,
    async close() {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
