/**
 * order-tools/controller — the application half (SPEC §8): a controller that runs a conversation with a
 * model, dispatches its proposals to the order service over HTTP with the customer's own token, persists each
 * intended change before sending it, reconciles lost outcomes, and gates every reply on the recorded outcome.
 */
export {
  type ConfirmationPolicy,
  Controller,
  type ControllerOptions,
  Conversation,
  createController,
  defaultLimits,
  defaultReconcile,
  defaultSystemPrompt,
  type Limits,
  outcomeOf,
  type ReconcileOptions,
  type TurnOptions,
  type TurnResult,
} from "#controller/controller";
export { type ConversationState, newConversationState } from "#controller/conversation-state";
export { ambiguityGuard, type AmbiguityInput, type GuardDecision, orderIdsMentioned } from "#controller/guard/ambiguity";
export { type ProvenanceDecision, type ProvenanceInput, provenance } from "#controller/guard/provenance";
export { changesAskedFor, isExplicitYes, orderReferences } from "#controller/guard/words";
export { ConversationBusyError, withTurnLease } from "#controller/turn-lease";
export { delayBefore, reconcileIntent, resendSettles } from "#controller/reconcile";
export { datamarked, escapeFrames, spotlightResult } from "#controller/context/spotlight";
export { type PrincipalKind, systemPromptFor } from "#catalog/model-context";
export { canMove, moved, newOperationId } from "#controller/intents/intent";

// Model adapters
export type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, ToolCall } from "#controller/model/types";
export { anthropicModel, type AnthropicModelOptions, fromAnthropicMessage, toAnthropicMessages } from "#controller/model/anthropic";
export { fromChatCompletion, openaiModel, type OpenAIModelOptions, toOpenAIMessages } from "#controller/model/openai";
export { ScriptExhaustedError, type ScriptFunction, type ScriptStep, scriptedModel } from "#controller/model/scripted";
export { loadRecording, type Recording, RecordingExhaustedError, recordedModel, recordingFetch, replayFetch, type ReplayFetch } from "#controller/model/recorded";

// Model-facing tools
export { applicationField, controllerOnlyTools, type ModelTool, modelTools } from "#catalog/model-tools";
export {
  type AnthropicToolDefinition,
  anthropicTool,
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
export { DynamoDbIntentStore, type DynamoDbIntentStoreOptions } from "#controller/intents/dynamodb";
export { intentTable } from "#controller/intents/table-design";

// HTTP, outcomes, faults
export type { ServiceOptions } from "#controller/http/service-client";
export { classifyChange, classifyStatus } from "#controller/http/outcome";
export { beforeDispatchFaults, type Fault, type FaultEvent, faultyFetch, type Fetch, type HttpFault, type OrderWriter, timeoutError } from "#controller/http/faults";

// The response gate
export { gate, type GateDecision, type GateInput } from "#controller/gate/gate";
export { checkClaims, type ClaimCheck, type ClaimContext } from "#controller/gate/claim-check";
export { normalizeForReading } from "#controller/gate/normalize";
export { composeOutcomes, type OrderFacts, type ReplyKind, type TurnOutcome } from "#controller/gate/outcomes";
export { noChangeTemplate, openingFor, templateFor } from "#controller/gate/templates";

// Traces
export { traceCollector, traceDirectory, type TraceEvent, type TraceSink, type TurnTrace } from "#controller/trace";
export { formatTrace } from "#controller/trace-format";
