import { createServer, type Server } from "node:http";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { readinessProbeConfig } from "#local/dynamodb-local";

/**
 * The probe `npm start` and the test run use to wait for DynamoDB Local, against an endpoint that answers as
 * slowly as DynamoDB Local's first requests can. What the SDK would print goes to a logger of the test's own, the
 * one the SDK's HTTP handler writes its warnings to (otherwise the terminal).
 */

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An endpoint that answers ListTables after `delayMs`, as DynamoDB does (or never, for `undefined`). */
async function slowDynamoDb(delayMs: number | undefined): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    if (delayMs === undefined) return;
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/x-amz-json-1.0" });
      res.end(JSON.stringify({ TableNames: [] }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

function probe(config: ReturnType<typeof readinessProbeConfig>) {
  const warnings: string[] = [];
  const record = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  const logger = { trace: () => {}, debug: () => {}, info: () => {}, warn: record, error: record };
  const client = new DynamoDBClient({ ...config, requestHandler: { ...config.requestHandler, logger } });
  return { warnings, send: () => client.send(new ListTablesCommand({ Limit: 1 })).finally(() => client.destroy()) };
}

describe("the DynamoDB Local readiness probe", () => {
  it("waits for a first answer that takes 2.5 s, as DynamoDB Local's can while the JVM warms up, and prints no SDK warning", async () => {
    const { warnings, send } = probe(readinessProbeConfig(await slowDynamoDb(2_500)));
    const answer = await send();
    expect(answer.TableNames).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("a probe that overruns its time fails, for the polling loop to try again, instead of warning and waiting on", async () => {
    const { warnings, send } = probe(readinessProbeConfig(await slowDynamoDb(undefined), 300));
    const started = performance.now();
    const failure = await send().catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(warnings).toEqual([]);
  });
});
