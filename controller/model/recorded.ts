import { readFile } from "node:fs/promises";
import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import type { Fetch } from "#controller/http/faults";
import { anthropicModel } from "#controller/model/anthropic";
import { bedrockModel } from "#controller/model/bedrock";
import { openaiModel } from "#controller/model/openai";
import type { ModelAdapter } from "#controller/model/types";

/**
 * Model responses saved in their provider's own wire format: the JSON body of each Messages API, chat completions
 * or Converse response, in the order they came. Replayed through the real SDK (a fetch, or for the AWS SDK a
 * request handler, that serves them), so a recording exercises the same request building and parsing as a live call.
 */
export interface Recording {
  provider: RecordingProvider;
  /** The model the responses came from (for Bedrock, the model or inference profile id). */
  model: string;
  responses: unknown[];
}

export const recordingProviders = ["anthropic", "openai", "bedrock"] as const;
export type RecordingProvider = (typeof recordingProviders)[number];

export const isRecordingProvider = (value: unknown): value is RecordingProvider => recordingProviders.includes(value as RecordingProvider);

/** A request as the provider's SDK sent it: the URL and the JSON body, for tests to check the wire format. */
export interface ReplayedRequest {
  url: string;
  body: unknown;
}

export class RecordingExhaustedError extends Error {
  constructor(used: number) {
    super(`The recording has no response left after ${used}: the conversation asked the model more often than when it was recorded.`);
    this.name = "RecordingExhaustedError";
  }
}

/** What a replaying fetch was asked: each request body as sent, for tests to check the wire format. */
export interface ReplayFetch extends Fetch {
  readonly requests: ReplayedRequest[];
}

/** A fetch that answers each request with the next saved response, and keeps what it was sent. */
export function replayFetch(responses: readonly unknown[]): ReplayFetch {
  let next = 0;
  const requests: ReplayedRequest[] = [];
  const fetch = async (input: Parameters<Fetch>[0], init?: Parameters<Fetch>[1]) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === "string" ? init.body : init?.body ? await new Response(init.body).text() : "";
    requests.push({ url, body: text === "" ? undefined : JSON.parse(text) });
    const response = responses[next];
    if (response === undefined) throw new RecordingExhaustedError(next);
    next += 1;
    return new Response(JSON.stringify(response), {
      status: 200,
      headers: { "content-type": "application/json", "request-id": `req_recorded_${next}` },
    });
  };
  return Object.assign(fetch, { requests }) as ReplayFetch;
}

/** A fetch that passes requests on and saves each JSON response body, to make a recording from a live run. */
export function recordingFetch(base: Fetch, sink: unknown[]): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok && (response.headers.get("content-type") ?? "").includes("application/json")) sink.push(await response.clone().json());
    return response;
  };
}

/** The parts of the AWS SDK's HTTP request a replay reads. */
export interface AwsHttpRequest {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  body?: unknown;
}

/** The AWS SDK's HTTP response, as a request handler returns it. */
export interface AwsHttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** An AWS SDK `requestHandler` that answers each request with the next saved response, and keeps what it was sent. */
export interface ReplayHandler {
  handle(request: AwsHttpRequest, options?: { abortSignal?: { aborted: boolean } }): Promise<{ response: AwsHttpResponse }>;
  readonly requests: ReplayedRequest[];
}

/**
 * For an AWS SDK client's `requestHandler`: everything else — serialising, signing, retrying, parsing — runs as it
 * would against AWS, and nothing leaves the machine. An aborted signal rejects as the SDK's own handlers do.
 */
export function replayHandler(responses: readonly unknown[]): ReplayHandler {
  let next = 0;
  const requests: ReplayedRequest[] = [];
  return {
    requests,
    async handle(request, options) {
      if (options?.abortSignal?.aborted) throw Object.assign(new Error("Request aborted"), { name: "AbortError" });
      const port = request.port === undefined ? "" : `:${request.port}`;
      const text =
        typeof request.body === "string" ? request.body : request.body instanceof Uint8Array ? new TextDecoder().decode(request.body) : "";
      requests.push({
        url: `${request.protocol}//${request.hostname}${port}${request.path}`,
        body: text === "" ? undefined : JSON.parse(text),
      });
      const response = responses[next];
      if (response === undefined) throw new RecordingExhaustedError(next);
      next += 1;
      const body = new TextEncoder().encode(JSON.stringify(response));
      return {
        response: { statusCode: 200, headers: { "content-type": "application/json", "x-amzn-requestid": `recorded-${next}` }, body },
      };
    },
  };
}

export function recordedModel(recording: Recording): ModelAdapter & { readonly requests: readonly ReplayedRequest[] } {
  // The keys and URLs are never used: every request is answered by the replay.
  if (recording.provider === "bedrock") {
    const handler = replayHandler(recording.responses);
    const adapter = bedrockModel({
      modelId: recording.model,
      clientConfig: {
        region: "us-east-1",
        credentials: { accessKeyId: "recorded", secretAccessKey: "recorded" },
        requestHandler: handler,
        maxAttempts: 1,
      },
    });
    return { name: `recorded:${adapter.name}`, respond: (request) => adapter.respond(request), requests: handler.requests };
  }
  const fetch = replayFetch(recording.responses);
  const common = { model: recording.model, apiKey: "recorded", baseURL: "http://recorded.invalid", fetch, maxRetries: 0 };
  const adapter =
    recording.provider === "anthropic" ? anthropicModel(common) : openaiModel({ ...common, baseURL: "http://recorded.invalid/v1" });
  return { name: `recorded:${adapter.name}`, respond: (request) => adapter.respond(request), requests: fetch.requests };
}

export async function loadRecording(path: string): Promise<Recording> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read the recording ${path}: ${(error as Error).message}`);
  }
  const recording = json as Partial<Recording>;
  if (!isRecordingProvider(recording.provider) || typeof recording.model !== "string" || !Array.isArray(recording.responses)) {
    throw new Error(
      `${path} is not a recording: it must be {"provider": ${recordingProviders.map((p) => `"${p}"`).join("|")}, "model": "…", "responses": [<response bodies as the API sent them>]}.`,
    );
  }
  return recording as Recording;
}

/**
 * Saves the JSON body of each successful response an AWS SDK client receives, to make a recording from a live run:
 * SDK middleware placed just inside the deserializer, so it reads the body as it came over the wire and hands the
 * deserializer the same bytes.
 */
export function recordResponses(client: Pick<BedrockRuntimeClient, "middlewareStack">, sink: unknown[]): void {
  type Middleware = Parameters<BedrockRuntimeClient["middlewareStack"]["addRelativeTo"]>[0];
  // A deserialize-step middleware; the stack's type is the union of every step's, so it is named here.
  const record = (next: (args: unknown) => Promise<{ response: unknown }>) => async (args: unknown) => {
    const result = await next(args);
    const response = result.response as { statusCode?: number; headers?: Record<string, string>; body?: unknown };
    if (response.statusCode === 200 && (response.headers?.["content-type"] ?? "").includes("application/json") && response.body) {
      const bytes = await bodyBytes(response.body);
      response.body = bytes;
      sink.push(JSON.parse(new TextDecoder().decode(bytes)));
    }
    return result;
  };
  client.middlewareStack.addRelativeTo(record as unknown as Middleware, {
    relation: "after",
    toMiddleware: "deserializerMiddleware",
    name: "recordResponses",
  });
}

async function bodyBytes(body: unknown): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>)
    chunks.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
  return new Uint8Array(Buffer.concat(chunks));
}
