/**
 * `order-tools/controller/testing` — what an application's own tests need: models that answer from a script or
 * from recorded provider responses (replayed through the real SDKs), each agent framework's own mock model on such
 * a script (for an application that runs the order tools inside the AI SDK or the Agents SDK), and the faults the controller's HTTP layer
 * can inject (a lost response, a lost status lookup, a 503 before commit, an order changed before dispatch).
 * Kept out of the public entry, so production code does not import test doubles by accident; so are the seams a
 * test sets on a controller (`withTestSeams`: faults, a hook before each send, the provenance control switched off).
 */
export { ScriptExhaustedError, type ScriptFunction, type ScriptStep, scriptedModel } from "#controller/model/scripted";
export {
  type AiSdkLanguageModel,
  ScriptCursor,
  type ScriptedAgentsModel,
  scriptedAgentsModel,
  scriptedAiSdkModel,
} from "#controller/frameworks/scripted-models";
export {
  type AwsHttpRequest,
  type AwsHttpResponse,
  isRecordingProvider,
  loadRecording,
  type Recording,
  RecordingExhaustedError,
  type RecordingProvider,
  recordedModel,
  recordingFetch,
  recordingProviders,
  recordResponses,
  type ReplayedRequest,
  type ReplayFetch,
  type ReplayHandler,
  replayFetch,
  replayHandler,
} from "#controller/model/recorded";
export {
  beforeDispatchFaults,
  type Fault,
  type FaultEvent,
  faultyFetch,
  type HttpFault,
  type OrderWriter,
  timeoutError,
} from "#controller/http/faults";
export { type TestSeams, testSeamsOf, withTestSeams } from "#controller/seams";
