/**
 * `npm run invoke -- <tool> <event.json>` runs one tool's handler on one API Gateway v2 event (for example a
 * sample from `events/`) against the tables of the running local stack, and prints the response — like
 * `sam local invoke`, without Docker. The event's authorizer claims are taken as given: this is the function
 * as deployed, behind the gateway's token check, not the gateway. Standard output carries the response alone (so
 * it pipes into `jq`); the handler's own log and metric lines go to stderr.
 */
import { runCommand } from "#local/command-line";
import { readFile } from "node:fs/promises";
import { deployedTools as tools } from "#deploy/tool-functions";
import { importHandler } from "#local/gateway";
import { lambdaContext } from "#local/lambda-context";
import { keepStdoutForTheResult } from "#local/log-sink";
import { runningStack, useTables, userPath } from "#local/stack";
import type { HttpEvent } from "#runtime/http";

const usage = `Usage: npm run invoke -- <tool> <event.json>

  <tool>        one of ${tools.map((t) => t.name).join(", ")}
  <event.json>  an API Gateway HTTP API payload v2.0 event, e.g. events/cancel_order.valid.json

Runs against the local stack of \`npm start\` on PORT (default 3000) and prints {statusCode, headers, body}, and only
that, on stdout (the handler's JSON log and metric lines go to stderr), so it pipes into jq.`;

async function main(args: string[]): Promise<number> {
  const [toolName, eventFile, ...extra] = args;
  if (toolName === undefined || eventFile === undefined || extra.length > 0) {
    console.error(`Give a tool and an event file.\n\n${usage}`);
    return 2;
  }
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) {
    console.error(`There is no tool ${JSON.stringify(toolName)}; the tools are ${tools.map((t) => t.name).join(", ")}.`);
    return 2;
  }
  const event = await readEvent(eventFile);
  const stack = await runningStack();
  useTables(stack.dynamodbEndpoint, stack.tables);
  const printResult = keepStdoutForTheResult();
  const handler = await importHandler(tool.entry);
  const result = await handler(event, lambdaContext(tool.name));
  printResult(`${JSON.stringify({ ...result, body: parseBody(result.body) }, null, 2)}\n`);
  return 0;
}

async function readEvent(file: string): Promise<HttpEvent> {
  const path = userPath(file);
  let event: unknown;
  try {
    event = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read the event ${path}: ${(error as Error).message}`);
  }
  const e = event as Partial<HttpEvent> | null;
  if (typeof e !== "object" || e === null || e.version !== "2.0" || typeof e.requestContext !== "object") {
    throw new Error(
      `${path} is not an API Gateway HTTP API payload v2.0 event (version "2.0" with a requestContext); see events/ for examples.`,
    );
  }
  return e as HttpEvent;
}

function parseBody(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

runCommand(usage, main);
