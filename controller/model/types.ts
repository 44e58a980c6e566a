import type { ModelTool } from "#contract/model-tools";

/**
 * The one interface every model sits behind. The controller speaks this neutral conversation; each adapter
 * turns it into its provider's wire format and the response back. A model only proposes: what it returns is
 * validated, guarded and dispatched by the controller, never executed by the adapter.
 */
export interface ToolCall {
  /** The provider's id for the call (Anthropic tool_use id, OpenAI tool_call id). */
  id: string;
  name: string;
  /** The arguments as parsed JSON; undefined when the model sent text that is not JSON (see rawArguments). */
  input: unknown;
  rawArguments?: string;
}

export type ChatMessage =
  /** What the customer typed. */
  | { role: "customer"; text: string }
  /** What the application tells the model (an outcome reconciled since, a confirmation given); never the customer's words. */
  | { role: "note"; text: string }
  | { role: "assistant"; text: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; content: string; isError: boolean };

export interface ModelRequest {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ModelTool[];
  /** Aborts when the turn's time bound is reached. */
  signal?: AbortSignal;
}

export interface ModelResponse {
  /** Text the model wrote; the reply candidate when there are no tool calls. */
  text: string;
  toolCalls: ToolCall[];
  stopReason?: string;
}

export interface ModelAdapter {
  /** For the trace: e.g. "anthropic:claude-…", "openai:gpt-…", "scripted". */
  readonly name: string;
  respond(request: ModelRequest): Promise<ModelResponse>;
}

export { notePrefix } from "#contract/model-context";

/**
 * How an adapter writes the principal's words and the application's notes into the provider's messages: each
 * framed, so neither can pass for the other (context/spotlight.ts). Every adapter uses these two.
 */
export { frameNote as noteText, framePrincipalMessage as principalText } from "#controller/context/spotlight";
