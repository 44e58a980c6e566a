import { readFile } from "node:fs/promises";
import type { Fetch } from "#controller/http/faults";
import { anthropicModel } from "#controller/model/anthropic";
import { openaiModel } from "#controller/model/openai";
import type { ModelAdapter } from "#controller/model/types";

/**
 * Model responses saved in their provider's own wire format: the JSON body of each Messages API or chat
 * completions response, in the order they came. Replayed through the real SDK (a fetch that serves them), so
 * a recording exercises the same parsing as a live call.
 */
export interface Recording {
  provider: "anthropic" | "openai";
  /** The model the responses came from. */
  model: string;
  responses: unknown[];
}

export class RecordingExhaustedError extends Error {
  constructor(used: number) {
    super(`The recording has no response left after ${used}: the conversation asked the model more often than when it was recorded.`);
    this.name = "RecordingExhaustedError";
  }
}

/** What a replaying fetch was asked: each request body as sent, for tests to check the wire format. */
export interface ReplayFetch extends Fetch {
  readonly requests: { url: string; body: unknown }[];
}

/** A fetch that answers each request with the next saved response, and keeps what it was sent. */
export function replayFetch(responses: readonly unknown[]): ReplayFetch {
  let next = 0;
  const requests: { url: string; body: unknown }[] = [];
  const fetch = async (input: Parameters<Fetch>[0], init?: Parameters<Fetch>[1]) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === "string" ? init.body : init?.body ? await new Response(init.body).text() : "";
    requests.push({ url, body: text === "" ? undefined : JSON.parse(text) });
    const response = responses[next];
    if (response === undefined) throw new RecordingExhaustedError(next);
    next += 1;
    return new Response(JSON.stringify(response), { status: 200, headers: { "content-type": "application/json", "request-id": `req_recorded_${next}` } });
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

export function recordedModel(recording: Recording): ModelAdapter & { fetch: ReplayFetch } {
  const fetch = replayFetch(recording.responses);
  // The key and URL are never used: every request is answered by the replaying fetch.
  const common = { model: recording.model, apiKey: "recorded", baseURL: "http://recorded.invalid", fetch, maxRetries: 0 };
  const adapter = recording.provider === "anthropic" ? anthropicModel(common) : openaiModel({ ...common, baseURL: "http://recorded.invalid/v1" });
  return { name: `recorded:${adapter.name}`, respond: (request) => adapter.respond(request), fetch };
}

export async function loadRecording(path: string): Promise<Recording> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read the recording ${path}: ${(error as Error).message}`);
  }
  const recording = json as Partial<Recording>;
  if ((recording.provider !== "anthropic" && recording.provider !== "openai") || typeof recording.model !== "string" || !Array.isArray(recording.responses)) {
    throw new Error(`${path} is not a recording: it must be {"provider": "anthropic"|"openai", "model": "…", "responses": [<response bodies as the API sent them>]}.`);
  }
  return recording as Recording;
}
