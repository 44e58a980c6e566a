import type OpenAI from "openai";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Fetch } from "#controller/http/faults";
import { importModelSdk } from "#controller/optional-peers";
import { type ChatMessage, type ModelAdapter, type ModelResponse, noteText, principalText } from "#controller/model/types";
import { openaiTool } from "#controller/platforms/formats";

export interface OpenAIModelOptions {
  model: string;
  client?: OpenAI;
  /** Default: OPENAI_API_KEY; a local server that wants none gets a placeholder. */
  apiKey?: string;
  /** Any chat-completions-compatible server, e.g. a local Ollama at http://127.0.0.1:11434/v1. Default: OPENAI_BASE_URL. */
  baseURL?: string;
  fetch?: Fetch;
  maxRetries?: number;
  maxTokens?: number;
}

/**
 * Chat completions through the official `openai` SDK, with strict function tools. With a base URL, any
 * compatible server works the same way.
 */
export function openaiModel(options: OpenAIModelOptions): ModelAdapter {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  // A local compatible server usually ignores the key, but the SDK insists on one.
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? (baseURL !== undefined ? "not-needed" : undefined);
  // The SDK would refuse to make a client without a key; say so now, as it would, not at the first turn.
  if (options.client === undefined && apiKey === undefined) {
    throw new Error(
      "openaiModel needs an API key: set OPENAI_API_KEY or pass apiKey (or a baseURL, for a compatible server that needs none).",
    );
  }
  let client: Promise<OpenAI> | undefined;
  // The SDK is imported on the first request (see optional-peers.ts), and only when no client was given.
  const clientOf = () =>
    (client ??= options.client
      ? Promise.resolve(options.client)
      : importModelSdk("openai", "openaiModel", () => import("openai")).then(
          ({ default: Sdk }) =>
            new Sdk({
              apiKey,
              ...(baseURL !== undefined ? { baseURL } : {}),
              ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
              maxRetries: options.maxRetries ?? 2,
            }),
        ));
  return {
    name: `openai:${options.model}`,
    async respond(request) {
      const completion = await (await clientOf()).chat.completions.create(
        {
          model: options.model,
          messages: toOpenAIMessages(request.system, request.messages),
          tools: request.tools.map(openaiTool),
          ...(options.maxTokens !== undefined ? { max_completion_tokens: options.maxTokens } : {}),
        },
        request.signal ? { signal: request.signal } : undefined,
      );
      return fromChatCompletion(completion);
    },
  };
}

export function toOpenAIMessages(system: string, messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: "system", content: system }];
  for (const message of messages) {
    switch (message.role) {
      case "customer":
        out.push({ role: "user", content: principalText(message.text) });
        break;
      case "note":
        out.push({ role: "user", content: noteText(message.text) });
        break;
      case "tool":
        out.push({ role: "tool", tool_call_id: message.toolCallId, content: message.content });
        break;
      case "assistant":
        out.push({
          role: "assistant",
          content: message.text === "" ? null : message.text,
          ...(message.toolCalls.length > 0
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function" as const,
                  function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.input ?? {}) },
                })),
              }
            : {}),
        });
        break;
    }
  }
  return out;
}

export function fromChatCompletion(completion: ChatCompletion): ModelResponse {
  const choice = completion.choices[0];
  if (!choice) return { text: "", toolCalls: [] };
  const toolCalls: ModelResponse["toolCalls"] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== "function") continue;
    let input: unknown;
    try {
      input = JSON.parse(call.function.arguments);
    } catch {
      input = undefined;
    }
    toolCalls.push({ id: call.id, name: call.function.name, input, rawArguments: call.function.arguments });
  }
  return { text: choice.message.content ?? "", toolCalls, ...(choice.finish_reason ? { stopReason: choice.finish_reason } : {}) };
}
