/**
 * What the code under test asks of DynamoDB, request by request: a middleware on every client it is given
 * (the store's own and Powertools') records each request's command, its wire input (marshalled, as sent) and
 * how long it took, and `replay` sends the very same requests again from a plain client, to time the floor a
 * tool's DynamoDB work sets.
 */
import * as dynamodb from "@aws-sdk/client-dynamodb";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export interface SentRequest {
  /** The operation without `Command`: GetItem, TransactWriteItems, … */
  command: string;
  /** The request as it went on the wire (attribute values marshalled). */
  input: Record<string, unknown>;
  ms: number;
  /** The error's name when DynamoDB refused it (a failed condition is part of the design, not a fault). */
  error?: string;
}

let instances = 0;

/** Counts and records requests of every client it observes. */
export class RequestLog {
  readonly counts = new Map<string, number>();
  #recording: SentRequest[] | undefined;
  readonly #name = `benchRequestLog${instances++}`;

  observe = (client: DynamoDBClient): void => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName).replace(/Command$/, "");
        this.counts.set(command, (this.counts.get(command) ?? 0) + 1);
        const recording = this.#recording;
        if (!recording) return next(args);
        // At the build step the document client has already marshalled the input: this is what DynamoDB receives.
        const sent: SentRequest = { command, input: structuredClone(args.input) as Record<string, unknown>, ms: 0 };
        recording.push(sent);
        const started = performance.now();
        try {
          return await next(args);
        } catch (error) {
          sent.error = (error as Error).name;
          throw error;
        } finally {
          sent.ms = performance.now() - started;
        }
      },
      { step: "build", name: this.#name },
    );
  };

  /** Runs `work` and returns, with its result, every request sent meanwhile, in the order they were sent. */
  async record<T>(work: () => Promise<T>): Promise<{ result: T; requests: SentRequest[] }> {
    if (this.#recording) throw new Error("RequestLog.record does not nest: one recorded call at a time");
    const requests: SentRequest[] = [];
    this.#recording = requests;
    try {
      return { result: await work(), requests };
    } finally {
      this.#recording = undefined;
    }
  }

  reset(): void {
    this.counts.clear();
  }

  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }

  /** `GetItem 1, TransactWriteItems 1` per call, from the counts since the last reset. */
  perCall(calls: number): string {
    return [...this.counts.entries()].map(([name, n]) => `${name} ${+(n / calls).toFixed(2)}`).join(", ");
  }
}

/** The sequence of commands a call made, e.g. `PutItem GetItem TransactWriteItems UpdateItem`. */
export const signature = (requests: readonly SentRequest[]) => requests.map((r) => r.command).join(" ");

/** `GetItem 1, UpdateItem 2`: a call's requests counted by command, in first-sent order. */
export function describeRequests(requests: readonly SentRequest[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r.command, (counts.get(r.command) ?? 0) + 1);
  return [...counts.entries()].map(([name, n]) => `${name} ${n}`).join(", ");
}

/** Points every table name in a request at another table (the raw replay's mirror tables). */
export function renameTables(input: Record<string, unknown>, rename: (table: string) => string): Record<string, unknown> {
  const copy = structuredClone(input);
  if (typeof copy.TableName === "string") copy.TableName = rename(copy.TableName);
  if (Array.isArray(copy.TransactItems)) {
    for (const item of copy.TransactItems as Record<string, { TableName?: string }>[]) {
      for (const part of Object.values(item)) if (typeof part?.TableName === "string") part.TableName = rename(part.TableName);
    }
  }
  if (copy.RequestItems && typeof copy.RequestItems === "object") {
    copy.RequestItems = Object.fromEntries(Object.entries(copy.RequestItems).map(([table, value]) => [rename(table), value]));
  }
  return copy;
}

/**
 * Sends recorded requests again, one after another, from `client`, each timed alone. A refusal (a failed
 * condition) is an outcome like any other: it is returned, not thrown, so the caller can check that the
 * replay met the same state as the original.
 */
export async function replay(
  client: DynamoDBClient,
  requests: readonly SentRequest[],
  rename: (table: string) => string,
): Promise<SentRequest[]> {
  const replayed: SentRequest[] = [];
  for (const request of requests) {
    const Command = (dynamodb as unknown as Record<string, new (input: unknown) => Parameters<DynamoDBClient["send"]>[0]>)[
      `${request.command}Command`
    ];
    if (!Command) throw new Error(`No command ${request.command} in @aws-sdk/client-dynamodb`);
    const input = renameTables(request.input, rename);
    const sent: SentRequest = { command: request.command, input, ms: 0 };
    const started = performance.now();
    try {
      await client.send(new Command(input));
    } catch (error) {
      sent.error = (error as Error).name;
    }
    sent.ms = performance.now() - started;
    replayed.push(sent);
  }
  return replayed;
}

/**
 * Runs `before` ahead of every request of the clients it observes, while one is set: a place to make the order
 * system act at an exact point of a call (between its read and its write), or to fail one request.
 */
export class RequestHook {
  before: ((command: string, input: Record<string, unknown>) => Promise<void> | void) | undefined;
  readonly #name = `benchRequestHook${instances++}`;

  observe = (client: DynamoDBClient): void => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        await this.before?.(String(context.commandName).replace(/Command$/, ""), args.input as Record<string, unknown>);
        return next(args);
      },
      { step: "build", name: this.#name },
    );
  };
}
