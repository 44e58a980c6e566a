/**
 * Runs one tool handler, as its Lambda function would, on one event read from argv (JSON) and prints nothing of
 * its own: what reaches stdout is exactly the function's structured log and EMF metric lines. The tables and
 * the DynamoDB endpoint come from the environment, as in a deployed function.
 */
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";

const [tool, input] = process.argv.slice(2);
const module = (await import(`../../functions/tools/${String(tool).replaceAll("_", "-")}.ts`)) as {
  handler: (event: unknown, context: unknown) => Promise<unknown>;
};
const result = await module.handler(apiGatewayEvent(JSON.parse(String(input))), lambdaContext(String(tool)));
process.stderr.write(`${JSON.stringify(result)}\n`);
