import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlockParam, Message, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { Fetch } from "#controller/http/faults";
import { importModelSdk } from "#controller/optional-peers";
import { alternatingMessages } from "#controller/model/alternating";
import type { ChatMessage, ModelAdapter, ModelResponse } from "#controller/model/types";
import { anthropicTool } from "#controller/platforms/formats";

export interface AnthropicModelOptions {
  /** The model id, e.g. a current Claude model. */
  model: string;
  /** A client of your own; otherwise one is made from the options below. */
  client?: Anthropic;
  /** Default: ANTHROPIC_API_KEY. */
  apiKey?: string;
  baseURL?: string;
  /** A custom fetch: tests serve recorded wire-format responses through it. */
  fetch?: Fetch;
  /** The SDK's own retries; the controller's time bound covers the whole turn. Default 2. */
  maxRetries?: number;
  maxTokens?: number;
}

/**
 * Anthropic's Messages API through the official SDK: the tools as `{name, description, input_schema}`, the
 * model's `tool_use` blocks as proposals, the controller's results as `tool_result` blocks.
 */
export function anthropicModel(options: AnthropicModelOptions): ModelAdapter {
  // Read now, as a client made here would: the environment at creation is what the caller configured.
  const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY ?? null;
  let client: Promise<Anthropic> | undefined;
  // The SDK is imported on the first request (see optional-peers.ts), and only when no client was given.
  const clientOf = () =>
    (client ??= options.client
      ? Promise.resolve(options.client)
      : importModelSdk("@anthropic-ai/sdk", "anthropicModel", () => import("@anthropic-ai/sdk")).then(
          ({ default: Sdk }) =>
            new Sdk({
              apiKey,
              ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
              ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
              maxRetries: options.maxRetries ?? 2,
            }),
        ));
  return {
    name: `anthropic:${options.model}`,
    async respond(request) {
      const message = await (await clientOf()).messages.create(
        {
          model: options.model,
          max_tokens: options.maxTokens ?? 1024,
          system: request.system,
          messages: toAnthropicMessages(request.messages),
          tools: request.tools.map(anthropicTool),
        },
        request.signal ? { signal: request.signal } : undefined,
      );
      return fromAnthropicMessage(message);
    },
  };
}

/** The neutral conversation in Messages API form (see alternatingMessages). */
export function toAnthropicMessages(messages: readonly ChatMessage[]): MessageParam[] {
  return alternatingMessages<ContentBlockParam>(messages, {
    text: (text) => ({ type: "text", text }),
    toolResult: (message) => ({
      type: "tool_result",
      tool_use_id: message.toolCallId,
      content: message.content,
      ...(message.isError ? { is_error: true } : {}),
    }),
    toolCall: (call) => ({ type: "tool_use", id: call.id, name: call.name, input: (call.input ?? {}) as Record<string, unknown> }),
  });
}

export function fromAnthropicMessage(message: Message): ModelResponse {
  const text: string[] = [];
  const toolCalls: ModelResponse["toolCalls"] = [];
  for (const block of message.content) {
    if (block.type === "text") text.push(block.text);
    else if (block.type === "tool_use") toolCalls.push({ id: block.id, name: block.name, input: block.input });
  }
  return { text: text.join("\n\n"), toolCalls, ...(message.stop_reason ? { stopReason: message.stop_reason } : {}) };
}
