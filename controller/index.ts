/**
 * `order-tools/controller` — the application half: a controller that runs a conversation with a model, dispatches
 * its proposals to the order service over HTTP with the customer's own token, persists each intended change before
 * sending it, reconciles lost outcomes, and gates every reply on the recorded outcome.
 *
 * This file is the package's public entry: what it exports is the API, and the build bundles it to
 * dist/package/controller/index.js (controller/package-manifest.ts lists the subpaths). Test doubles live in
 * `order-tools/controller/testing` (controller/testing.ts), the DynamoDB intent store in
 * `order-tools/controller/dynamodb`, so neither weighs on an application that does not use it.
 */
export {
  ConfirmationError,
  type ConfirmationPolicy,
  Controller,
  type ControllerOptions,
  Conversation,
  type ConversationOptions,
  type PendingConfirmation,
  createController,
  defaultLimits,
  defaultReconcile,
  defaultSystemPrompt,
  type Limits,
  outcomeOf,
  type ProblemCode,
  problemCodes,
  type ReconcileOptions,
  type TurnOptions,
  type TurnProblem,
  type TurnResult,
} from "#controller/controller";
export { type ConversationState, newConversationState } from "#controller/conversation-state";
export { ambiguityGuard, type AmbiguityInput, type GuardDecision, orderIdsMentioned } from "#controller/guard/ambiguity";
export { PrincipalMessage, readMessage } from "#controller/guard/message";
export { type ProvenanceDecision, type ProvenanceInput, provenance } from "#controller/guard/provenance";
export { orderReferences } from "#controller/guard/words";
export { type FormRequest, type RequestForm, readRequestForm } from "#controller/guard/request-form";
export { type AnswerKind, answerTo, readAnswer } from "#controller/guard/answer";
export { type ConfirmationValues, confirmationIdOf, confirmationQuestion } from "#controller/guard/confirmation";
export { foreignTexts } from "#controller/context/taint";
export { type Locale, localeOf, supportedLocales } from "#controller/i18n/locale";
export { ConversationBusyError, withTurnLease } from "#controller/turn-lease";
export { delayBefore, reconcileIntent, resendSettles } from "#controller/reconcile";
export { datamarked, escapeFrames, spotlightResult } from "#controller/context/spotlight";
export { type PrincipalKind, systemPromptFor } from "#contract/model-context";
export { canMove, moved, newOperationId } from "#controller/intents/intent";

// Model adapters (each SDK an optional peer dependency, imported on the adapter's first request)
export type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, ToolCall } from "#controller/model/types";
export { anthropicModel, type AnthropicModelOptions, fromAnthropicMessage, toAnthropicMessages } from "#controller/model/anthropic";
export { fromChatCompletion, openaiModel, type OpenAIModelOptions, toOpenAIMessages } from "#controller/model/openai";
export {
  bedrockModel,
  type BedrockModelOptions,
  fromConverseResponse,
  toConverseMessages,
  toConverseRequest,
} from "#controller/model/bedrock";
export { MissingModelSdkError } from "#controller/model/optional-sdk";

// Model-facing tools
export { applicationField, controllerOnlyTools, type ModelTool, modelTools } from "#contract/model-tools";
export {
  type AnthropicToolDefinition,
  anthropicTool,
  type BedrockToolDefinition,
  bedrockTool,
  exportTools,
  type OpenAIToolDefinition,
  openaiTool,
  registerToolFormat,
  strictSchema,
  type ToolFormat,
  toolFormat,
  toolFormatNames,
} from "#controller/tools/formats";
export { withoutNullOptionals } from "#controller/tools/arguments";

// Intents and their stores
export { finalStates, type Intent, type IntentOutcome, type IntentState, intentStates, resumableStates } from "#controller/intents/intent";
export { IntentConflictError, type IntentStore } from "#controller/intents/store";
export { MemoryIntentStore } from "#controller/intents/memory";
export { FileIntentStore } from "#controller/intents/file";
// DynamoDbIntentStore: order-tools/controller/dynamodb. The table it needs, for your infrastructure code:
export { intentTable } from "#controller/intents/intent-table";

// HTTP and outcomes
export type { ServiceOptions } from "#controller/http/service-client";
export type { Fetch } from "#controller/http/faults";
export { classifyChange, classifyStatus } from "#controller/http/outcome";

// The response gate
export { gate, type GateDecision, type GateInput } from "#controller/gate/gate";
export { type FactKind, type OrderFact, turnFacts } from "#controller/gate/facts";
export { normalizeForReading } from "#controller/gate/normalize";
export { composeOutcomes, type OrderFacts, type ReplyKind, type TurnOutcome } from "#controller/gate/outcomes";
export { noChangeTemplate, openingFor, templateFor } from "#controller/gate/templates";

// Traces
export {
  type ApplicationTrace,
  traceCollector,
  traceDirectory,
  type TraceEvent,
  type TraceSink,
  type TurnTrace,
  turnTraceContext,
} from "#controller/trace";
export { formatTrace } from "#controller/trace-format";
