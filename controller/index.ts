/**
 * `order-tools/controller` — the application half: a controller that runs a conversation with a model, dispatches
 * its proposals to the order service over HTTP with the customer's own token, persists each intended change before
 * sending it, reconciles lost outcomes, and states in each reply only what the record says.
 *
 * This file is the package's public face, chosen on purpose: what an application needs to create a controller,
 * hold conversations, plug in a model, keep intents, read traces and hand the tools to an agent platform. Each
 * name here is a promise; test/controller/public-face.test.ts lists them, so an addition is a decision. The
 * guards, the gate and the message converters are the controller's own, reachable to this project's tests by
 * their paths and to nobody else. The build bundles this file to dist/package/controller/index.js
 * (controller/package-manifest.ts lists the subpaths): test doubles are `order-tools/controller/testing`, the
 * DynamoDB intent store `order-tools/controller/dynamodb`, the agent frameworks their own subpaths.
 */

// The controller, its conversations and what a turn returns
export { Controller, createController, defaultSystemPrompt } from "#controller/controller";
export { Conversation, type ConversationOptions, type TurnOptions, type TurnResult } from "#controller/conversation";
export type { ControllerOptions } from "#controller/options";
export type { ConfirmationPolicy } from "#controller/changes/change-path";
export { ConfirmationError } from "#controller/changes/settlement";
export type { PendingConfirmation } from "#controller/guard/confirmation";
export { defaultLimits, type Limits } from "#controller/turn/model-turn";
export { defaultReconcile, type ReconcileOptions } from "#controller/changes/reconcile";
export type { ApplicationTrace } from "#controller/http/trace-context";
export type { Fetch } from "#controller/http/faults";
export type { ServiceOptions } from "#controller/http/service-client";
export type { FactKind, OrderFact } from "#controller/gate/facts";
export { type OrderFacts, type ProblemCode, problemCodes, type ReplyKind, type TurnOutcome, type TurnProblem } from "#controller/outcomes";
export { type ConversationState, newConversationState } from "#controller/state/conversation";
export { ConversationBusyError } from "#controller/turn/lease";
export { type Locale, localeOf, supportedLocales } from "#controller/i18n/locale";
export type { PrincipalKind } from "#contract/model-context";

// Model adapters (each SDK an optional peer dependency, imported on the adapter's first request)
export type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, ToolCall } from "#controller/model/types";
export { anthropicModel, type AnthropicModelOptions } from "#controller/model/anthropic";
export { openaiModel, type OpenAIModelOptions } from "#controller/model/openai";
export { bedrockModel, type BedrockModelOptions } from "#controller/model/bedrock";
export { MissingModelSdkError, MissingPeerError } from "#controller/optional-peers";

// Intents and their stores (DynamoDbIntentStore: order-tools/controller/dynamodb; intentTable is the table it needs)
export { type Intent, type IntentOutcome, type IntentState, intentStates } from "#controller/intents/intent";
export { IntentConflictError, type IntentStore } from "#controller/intents/store";
export { MemoryIntentStore } from "#controller/intents/memory";
export { FileIntentStore } from "#controller/intents/file";
export { intentTable } from "#controller/intents/intent-table";

// Traces
export { type TraceEvent, type TraceSink, type TurnTrace, traceCollector, traceDirectory } from "#controller/trace/record";
export { formatTrace } from "#controller/trace/format";

// The tools for an agent platform
export type { ModelTool } from "#contract/model-tools";
export { modelTools } from "#contract/model-tools";
export { exportTools, registerToolFormat, type ToolFormat, toolFormatNames } from "#controller/platforms/formats";
