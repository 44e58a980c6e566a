import type {
  BedrockRuntimeClient,
  BedrockRuntimeClientConfig,
  ContentBlock,
  ConverseCommand,
  ConverseCommandInput,
  ConverseCommandOutput,
  Message,
  Tool,
  ToolUseBlock,
} from "@aws-sdk/client-bedrock-runtime";
import { importModelSdk } from "#controller/optional-peers";
import { alternatingMessages } from "#controller/model/alternating";
import type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse } from "#controller/model/types";
import { bedrockTool } from "#controller/platforms/formats";

export interface BedrockModelOptions {
  /** A model id or an inference profile id or ARN, e.g. "global.anthropic.claude-sonnet-5-5". */
  modelId: string;
  /** A client of your own; otherwise one is made from `clientConfig`, with the default AWS credential chain. */
  client?: BedrockRuntimeClient;
  /**
   * For the client made here: `region` (default: AWS_REGION or the profile's), `credentials` (default: the chain —
   * environment, shared config files and SSO, web identity, container or instance metadata), `maxAttempts`, or a
   * `requestHandler` (tests replay recorded HTTP responses through one). The turn's time bound covers the retries.
   */
  clientConfig?: BedrockRuntimeClientConfig;
  /** `inferenceConfig.maxTokens`. Default 1024. */
  maxTokens?: number;
}

interface Sdk {
  client: BedrockRuntimeClient;
  ConverseCommand: typeof ConverseCommand;
}

/**
 * Amazon Bedrock's Converse API through `@aws-sdk/client-bedrock-runtime`: the tools as `toolConfig.tools[].toolSpec`
 * with the JSON Schema in `inputSchema.json`, the model's `toolUse` blocks as proposals, the controller's results as
 * `toolResult` blocks. One interface for every model Bedrock serves that supports tool use.
 */
export function bedrockModel(options: BedrockModelOptions): ModelAdapter {
  let sdk: Promise<Sdk> | undefined;
  // The SDK is imported on the first request (see optional-peers.ts); ConverseCommand comes from it even with a client of your own.
  const load = () =>
    (sdk ??= importModelSdk("@aws-sdk/client-bedrock-runtime", "bedrockModel", () => import("@aws-sdk/client-bedrock-runtime")).then(
      (module) => ({
        client: options.client ?? new module.BedrockRuntimeClient(options.clientConfig ?? {}),
        ConverseCommand: module.ConverseCommand,
      }),
    ));
  return {
    name: `bedrock:${options.modelId}`,
    async respond(request) {
      const { client, ConverseCommand } = await load();
      const output = await client.send(
        new ConverseCommand(toConverseRequest(options, request)),
        request.signal ? { abortSignal: request.signal } : {},
      );
      return fromConverseResponse(output);
    },
  };
}

/** The whole Converse request: model, system prompt, conversation, tools and the output bound. */
export function toConverseRequest(
  options: Pick<BedrockModelOptions, "modelId" | "maxTokens">,
  request: ModelRequest,
): ConverseCommandInput {
  return {
    modelId: options.modelId,
    system: [{ text: request.system }],
    messages: toConverseMessages(request.messages),
    // Converse refuses an empty tool list; a request without tools sends no toolConfig.
    ...(request.tools.length > 0 ? { toolConfig: { tools: request.tools.map((tool) => bedrockTool(tool) as Tool) } } : {}),
    inferenceConfig: { maxTokens: options.maxTokens ?? 1024 },
  };
}

/** The neutral conversation as Converse messages (see alternatingMessages). */
export function toConverseMessages(messages: readonly ChatMessage[]): Message[] {
  return alternatingMessages<ContentBlock>(messages, {
    text: (text) => ({ text }),
    // `status` only on an error: some of Bedrock's models take no status at all, and success is the default.
    toolResult: (message) => ({
      toolResult: {
        toolUseId: message.toolCallId,
        content: [{ text: message.content }],
        ...(message.isError ? { status: "error" as const } : {}),
      },
    }),
    toolCall: (call) => ({
      toolUse: { toolUseId: call.id, name: call.name, input: (call.input ?? {}) as NonNullable<ToolUseBlock["input"]> },
    }),
  });
}

/** The model's text (the reply candidate when there are no tool calls), its `toolUse` blocks and the stop reason. */
export function fromConverseResponse(output: Pick<ConverseCommandOutput, "output" | "stopReason">): ModelResponse {
  const text: string[] = [];
  const toolCalls: ModelResponse["toolCalls"] = [];
  const content = output.output?.message?.content ?? [];
  for (const block of content) {
    if (block.text !== undefined) text.push(block.text);
    else if (block.toolUse !== undefined)
      toolCalls.push({ id: block.toolUse.toolUseId ?? "", name: block.toolUse.name ?? "", input: block.toolUse.input });
  }
  return { text: text.join("\n\n"), toolCalls, ...(output.stopReason ? { stopReason: output.stopReason } : {}) };
}
