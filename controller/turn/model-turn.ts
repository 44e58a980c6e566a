import type { ModelTool } from "#contract/model-tools";
import { type DispatchDeps, dispatch } from "#controller/turn/dispatch";
import { describeError } from "#controller/text/error-text";
import type { ModelAdapter, ModelResponse, ToolCall } from "#controller/model/types";
import { remaining, type Run, type ToolResult, type DispatchContext } from "#controller/state/run";

/**
 * The model's side of a turn: the model is asked, each tool call it makes is dispatched (turn/dispatch.ts) and its
 * result handed back, until it replies, fails, or the turn reaches one of its bounds.
 */

export interface Limits {
  /** Tool calls the model may make in one turn. Default 8. */
  maxToolCalls: number;
  /** Seconds one turn may take — model calls, every HTTP call and reconciliation included. Default 60. */
  maxSeconds: number;
  /**
   * Characters of the principal's message a turn reads. Default 4,000: a longer message is not read, nothing changes,
   * and the turn's `problem` is `message_too_long` (turn/message-bound.ts).
   */
  maxMessageCharacters: number;
}

export const defaultLimits: Limits = { maxToolCalls: 8, maxSeconds: 60, maxMessageCharacters: 4000 };

/** A bound the turn reached: its tool calls, or its time. */
export interface Limit {
  kind: "tool_calls" | "time";
  value: number;
}

/** How the model's side of a turn ended: its reply, a limit, or a failure. */
export interface Conversed {
  candidate?: string;
  limit?: Limit;
  modelFailed: boolean;
}

export interface ModelTurnDeps {
  model: ModelAdapter;
  /** The model's instructions, asked for each request (today's date is in them). */
  system: () => string;
  tools: readonly ModelTool[];
  limits: Limits;
  steps: DispatchDeps;
}

/** A request for more than the tool-call bound, answered instead of run. */
const notRun = (limit: number) =>
  JSON.stringify({ error: { code: "NOT_RUN", message: `Not run: this turn reached its limit of ${limit} tool calls.`, retryable: false } });

/** The model and its tool calls, back and forth, until it replies, fails, or the turn reaches a bound. */
export async function converse(deps: ModelTurnDeps, turn: DispatchContext): Promise<Conversed> {
  const { state, run } = turn;
  const calls = { made: 0 };
  for (;;) {
    const limit = limitReached(deps.limits, calls.made, run);
    if (limit) return { limit, modelFailed: false };
    const response = await respond(deps, turn);
    if ("modelFailed" in response) return response;
    state.messages.push({ role: "assistant", text: response.text, toolCalls: response.toolCalls });
    if (response.toolCalls.length === 0) {
      run.recorder.add({ type: "model_reply", text: response.text });
      return { candidate: response.text, modelFailed: false };
    }
    const cut = await answerCalls(deps, turn, response.toolCalls, calls);
    if (cut) return { limit: cut, modelFailed: false };
  }
}

/** One request to the model; a failure past the turn's time is its time limit, else a model failure. */
async function respond(deps: ModelTurnDeps, { state, run }: DispatchContext): Promise<ModelResponse | Conversed> {
  run.recorder.add({ type: "model_request", n: run.recorder.trace.counts.modelRequests + 1, messages: state.messages.length });
  try {
    return await deps.model.respond({
      system: deps.system(),
      messages: state.messages,
      tools: deps.tools,
      signal: AbortSignal.timeout(Math.max(1, Math.floor(remaining(run)))),
    });
  } catch (error) {
    if (remaining(run) <= 0) return { limit: { kind: "time", value: deps.limits.maxSeconds }, modelFailed: false };
    run.recorder.add({ type: "model_error", message: describeError(error) });
    run.recorder.flag("model_error");
    return { modelFailed: true };
  }
}

/** Each tool call of one model response dispatched in turn; those past a bound are answered "not run". */
async function answerCalls(
  deps: ModelTurnDeps,
  turn: DispatchContext,
  toolCalls: readonly ToolCall[],
  calls: { made: number },
): Promise<Limit | undefined> {
  let limit: Limit | undefined;
  for (const call of toolCalls) limit = (await answerCall(deps, turn, call, calls, limit)).limit;
  return limit;
}

/**
 * One tool call of the model: recorded, dispatched (or, past a bound the turn has reached, answered "not run"), and its
 * result added to the conversation. An agent framework's turn (turn/framework-turn.ts) answers each call through this too.
 */
export async function answerCall(
  deps: Pick<ModelTurnDeps, "limits" | "steps">,
  turn: DispatchContext,
  call: ToolCall,
  calls: { made: number },
  reached?: Limit,
): Promise<{ result: ToolResult; limit?: Limit }> {
  const { state, run } = turn;
  run.recorder.add({ type: "model_proposal", toolUseId: call.id, tool: call.name, input: call.input ?? call.rawArguments ?? null });
  const limit = reached ?? limitReached(deps.limits, calls.made, run);
  if (limit) {
    const result = { content: notRun(deps.limits.maxToolCalls), isError: true };
    state.messages.push({ role: "tool", toolCallId: call.id, ...result });
    return { result, limit };
  }
  calls.made += 1;
  run.recorder.trace.counts.toolCalls = calls.made;
  const result = await dispatch(deps.steps, turn, call);
  state.messages.push({ role: "tool", toolCallId: call.id, content: result.content, isError: result.isError });
  return { result };
}

/** The bound a turn has reached, if any: its tool calls first, then its time. */
export function limitReached(limits: Limits, made: number, run: Run): Limit | undefined {
  if (made >= limits.maxToolCalls) return { kind: "tool_calls", value: limits.maxToolCalls };
  if (remaining(run) <= 0) return { kind: "time", value: limits.maxSeconds };
  return undefined;
}
