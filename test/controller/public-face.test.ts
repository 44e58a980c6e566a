import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as face from "#controller/index";
import * as testing from "#controller/testing";
import { repoRoot } from "#local/stack";

/**
 * What `order-tools/controller` exports is chosen, name by name: an application's needs, and nothing of the
 * guards', the gate's or the converters' insides. Adding a name to controller/index.ts fails this test until the
 * name is added here too, so each addition is a decision someone made and a reviewer sees.
 */
const runtimeNames = [
  "ConfirmationError",
  "Controller",
  "Conversation",
  "ConversationBusyError",
  "FileIntentStore",
  "IntentConflictError",
  "MemoryIntentStore",
  "MissingModelSdkError",
  "MissingPeerError",
  "anthropicModel",
  "bedrockModel",
  "createController",
  "defaultLimits",
  "defaultReconcile",
  "defaultSystemPrompt",
  "exportTools",
  "formatTrace",
  "intentStates",
  "intentTable",
  "localeOf",
  "modelTools",
  "newConversationState",
  "openaiModel",
  "problemCodes",
  "registerToolFormat",
  "supportedLocales",
  "toolFormatNames",
  "traceCollector",
  "traceDirectory",
];

const typeNames = [
  "AnthropicModelOptions",
  "ApplicationTrace",
  "BedrockModelOptions",
  "ChatMessage",
  "ConfirmationPolicy",
  "ControllerOptions",
  "ConversationOptions",
  "ConversationState",
  "FactKind",
  "Fetch",
  "Intent",
  "IntentOutcome",
  "IntentState",
  "IntentStore",
  "Limits",
  "Locale",
  "ModelAdapter",
  "ModelRequest",
  "ModelResponse",
  "ModelTool",
  "OpenAIModelOptions",
  "OrderFact",
  "OrderFacts",
  "PendingConfirmation",
  "PrincipalKind",
  "ProblemCode",
  "ReconcileOptions",
  "ReplyKind",
  "ServiceOptions",
  "ToolCall",
  "ToolFormat",
  "TraceEvent",
  "TraceSink",
  "TurnOptions",
  "TurnOutcome",
  "TurnProblem",
  "TurnResult",
  "TurnTrace",
];

/**
 * What `order-tools/controller/testing` exports: the test doubles an application's own tests use — the scripted,
 * recorded and framework mock models, the HTTP faults and the test seams — and nothing else.
 */
const testingRuntimeNames = [
  "RecordingExhaustedError",
  "ScriptCursor",
  "ScriptExhaustedError",
  "beforeDispatchFaults",
  "faultyFetch",
  "isRecordingProvider",
  "loadRecording",
  "recordResponses",
  "recordedModel",
  "recordingFetch",
  "recordingProviders",
  "replayFetch",
  "replayHandler",
  "scriptedAgentsModel",
  "scriptedAiSdkModel",
  "scriptedModel",
  "testSeamsOf",
  "timeoutError",
  "withTestSeams",
];

/** Every name the face's export lists name, as written (`type X` for a type), read from its source. */
function namesInSource(): { runtime: string[]; types: string[] } {
  const source = readFileSync(join(repoRoot, "controller/index.ts"), "utf8");
  const runtime: string[] = [];
  const types: string[] = [];
  for (const [, typeOnly, list] of source.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
    for (const entry of (list ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)) {
      const isType = typeOnly !== undefined || entry.startsWith("type ");
      (isType ? types : runtime).push(entry.replace(/^type /, ""));
    }
  }
  return { runtime: runtime.sort(), types: types.sort() };
}

describe("the controller's public face", () => {
  it("exports exactly the runtime names chosen, at most 30", () => {
    expect(Object.keys(face).sort()).toEqual(runtimeNames);
    expect(runtimeNames.length).toBeLessThanOrEqual(30);
  });

  it("names exactly the types chosen, and each runtime name is one the module really exports", () => {
    const { runtime, types } = namesInSource();
    expect(types).toEqual(typeNames);
    expect(runtime).toEqual(runtimeNames);
  });

  it("order-tools/controller/testing exports exactly the test doubles chosen, the frameworks' mock models among them", () => {
    expect(Object.keys(testing).sort()).toEqual(testingRuntimeNames);
  });
});
