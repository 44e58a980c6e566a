import { AsyncLocalStorage } from "node:async_hooks";
import type {
  Agent,
  AgentInputItem,
  AgentOptions,
  AgentOutputType,
  NonStreamRunOptions,
  OutputGuardrail,
  RunContext,
  RunResult,
  RunState,
  RunToolApprovalItem,
  Runner,
  Tool,
} from "@openai/agents";
import type { ModelTool } from "#contract/model-tools";
import { type ControllerOptions, createController } from "#controller/controller";
import type { ConversationOptions, TurnResult } from "#controller/conversation";
import type { ConversationState } from "#controller/state/conversation";
import { describeError } from "#controller/text/error-text";
import {
  applicationToolOrigin,
  approvedCallMatches,
  type ForeignTextOptions,
  FrameworkConversation,
  FrameworkOrders,
  frameworkController,
  splitFrameworkOptions,
} from "#controller/frameworks/adapter";
import type { FrameworkToolResult, FrameworkTurn } from "#controller/turn/framework-turn";
import type { PendingConfirmation } from "#controller/guard/confirmation";
import { type ChatMessage, noteText, principalText } from "#controller/model/types";
import { ConfirmationError, type Settlement } from "#controller/changes/settlement";
import { importOptionalPeer } from "#controller/optional-peers";

// `@openai/agents` is an optional peer of the package: without it, importing this subpath names the package and range to install.
const {
  Agent: AgentClass,
  assistant,
  OutputGuardrailTripwireTriggered,
  RunState: RunStateClass,
  run,
  tool,
  user,
} = await importOptionalPeer("@openai/agents", "order-tools/controller/openai-agents", () => import("@openai/agents"));

/**
 * `order-tools/controller/openai-agents`: the order tools inside the OpenAI Agents SDK (`@openai/agents` 0.20). The
 * application keeps its own agent and model; the controller keeps what a turn may do. `agent()` makes the
 * application's agent with the order tools (the registry's schemas), the controller's instructions before the
 * application's, and the response gate as an output guardrail. Each tool call the model makes goes through the
 * controller's dispatch (turn/framework-turn.ts) from the tool's `needsApproval`: a change is persisted as an intent before
 * it is sent, reconciled when its outcome is lost, one intent per change, and sent at once only when the provenance
 * control lets it — else it is held, and the call is the run's interruption (a `RunToolApprovalItem`). The application
 * answers it the SDK's way, `state.approve(item)` or `state.reject(item)`, and runs the state again through
 * `conversation.run`, which settles each held change through the controller's confirm or decline before the SDK runs
 * the call. The `RunState` may be kept as a string (`state.toString()`) and read back after a restart
 * (`RunState.fromString(agent, text)`): the held changes are the intent store's, and the run's context names, for each
 * interrupted call, the confirmationId of the change it held. What the principal sees is the turn's `reply`.
 */

/**
 * The controller's options, without `model` (the model is the agent's), and `ownToolResults`: the application's
 * tools whose results are its own words (frameworks/adapter.ts; every other is someone else's text).
 */
export type AgentsOrderOptions = Omit<ControllerOptions, "model"> & ForeignTextOptions;

/** A held change as the run's interruption: approve or reject `item` on the run's state (`state.approve(item)`). */
export interface OrderInterruption {
  item: RunToolApprovalItem;
  /** What the application renders: the question in the principal's language, the exact values, the expiry. */
  confirmation: PendingConfirmation;
}

export interface AgentsTurn extends TurnResult {
  /** Each change the turn left waiting, as the run's interruption it is. */
  interruptions: OrderInterruption[];
  /**
   * The SDK's state of the run: approve or reject each interruption on it and pass it to `conversation.run` again, or
   * keep it (`toString()`) until the principal answers. Absent when the model's request failed.
   */
  state?: OrderRunState;
  /** The SDK's own result; absent when the model's request failed, or the reply gate tripped (`reply` is what to show). */
  result?: RunResult<OrderRunContext, OrderAgent>;
}

/** What the run's context holds for the adapter: kept in the RunState, so a restart still knows each held call's change. */
export interface OrderToolsContext {
  conversationId: string;
  /** For each tool call the controller held: the confirmationId of its change. */
  held: Record<string, string>;
}

/** The agent `agent()` makes (the SDK's types carry its output type; its output is text). */
export type OrderAgent = Agent<OrderRunContext, AgentOutputType>;

/**
 * A run's state, as the SDK gives it back: `result.state`, or `RunState.fromString(agent, text)`, which cannot know the
 * context's type. The SDK's RunState is invariant in it, so either is taken as it comes; the adapter reads its own part
 * of the context itself (`ordersOf`).
 */
// biome-ignore lint/suspicious/noExplicitAny: the context type of a state read back from a string is not known.
export type OrderRunState = RunState<any, OrderAgent>;

/** The run's context: the application's own fields, and the adapter's under `orderTools`. */
export type OrderRunContext = Record<string, unknown> & { orderTools?: OrderToolsContext };

/** What `run` takes here: the SDK's own options, without those that would keep the history elsewhere than the controller. */
export type AgentsRunOptions = Omit<
  NonStreamRunOptions<OrderRunContext>,
  "stream" | "session" | "sessionInputCallback" | "previousResponseId" | "conversationId" | "context"
> & {
  /** The application's own fields of the run's context; the adapter adds its own under `orderTools`. */
  context?: Record<string, unknown>;
  /** The SDK's Runner to run with (its model provider, tracing and the like); default: the SDK's own `run`. */
  runner?: Runner;
};

/** The agent options `agent()` takes: the SDK's own, with text output (the gate reads text), and the order tools added. */
export type OrderAgentOptions = Omit<AgentOptions<OrderRunContext>, "outputType" | "instructions"> & {
  instructions?: string | ((runContext: RunContext<OrderRunContext>, agent: Agent<OrderRunContext>) => Promise<string> | string);
};

const guardrailName = "order-tools reply gate";

/**
 * The framework turn each tool call, the instructions and the guardrail belong to. One per process (every adapter's
 * runs share it), each run in its own async context, so concurrent conversations never see each other's turns.
 */
const current = new AsyncLocalStorage<FrameworkTurn<TurnResult>>();

function turnOf(what: string): FrameworkTurn<TurnResult> {
  const turn = current.getStore();
  if (!turn)
    throw new Error(`${what} runs only inside conversation.run() of order-tools/controller/openai-agents: run the agent through it.`);
  return turn;
}

/** The order tools for the Agents SDK, on a controller of their own (made from `options`, with the agent as its model). */
export function orderToolsForAgents(options: AgentsOrderOptions): AgentsOrders {
  const { controllerOptions, own } = splitFrameworkOptions(options);
  return new AgentsOrders(frameworkController(controllerOptions, "openai-agents", createController), own);
}

export class AgentsOrders extends FrameworkOrders {
  /**
   * The application's agent with the order tools beside its own tools, the controller's instructions before its own,
   * and the response gate as an output guardrail. Its text is what the gate reads; a tool of its own may not take an
   * order tool's name.
   */
  agent(options: OrderAgentOptions): OrderAgent {
    const { instructions, tools: ownTools = [], outputGuardrails = [], ...rest } = options;
    if ("outputType" in options && (options as { outputType?: unknown }).outputType !== "text")
      throw new TypeError("The order-tools agent answers in text: the response gate reads the reply as the principal will see it.");
    const clash = ownTools.filter((t) => "name" in t && this.controller.tools.some((o) => o.name === t.name)).map((t) => t.name);
    if (clash.length > 0)
      throw new TypeError(
        `tools: ${clash.join(", ")} ${clash.length === 1 ? "is an order tool's name" : "are order tools' names"}; give your own tools other names.`,
      );
    const made = new AgentClass<OrderRunContext>({
      ...rest,
      instructions: async (runContext, agent) => {
        const own = typeof instructions === "function" ? await instructions(runContext, agent) : instructions;
        return [turnOf("The order-tools agent's instructions").system, own].filter((s) => s !== undefined && s !== "").join("\n\n");
      },
      tools: [...ownTools, ...this.controller.tools.map(agentsTool)],
      outputGuardrails: [...outputGuardrails, replyGate],
    }) as OrderAgent;
    // A tool the controller does not dispatch taints the conversation as it starts: the model reads its result next.
    made.on("agent_tool_start", (_context, started) => {
      if (!this.ownToolResults.has(started.name) && !this.controller.tools.some((t) => t.name === started.name))
        current.getStore()?.foreign(`${started.name} result`, applicationToolOrigin);
    });
    return made;
  }

  /** A conversation with one principal: new, or continued from the state the application kept (`state()`). */
  conversation(conversationId: string, state?: ConversationState, options: ConversationOptions = {}): AgentsConversation {
    return new AgentsConversation(this.controller, this.controller.conversation(conversationId, state, options), this.ownToolResults);
  }
}

export class AgentsConversation extends FrameworkConversation {
  constructor(
    controller: AgentsOrders["controller"],
    conversation: ConstructorParameters<typeof FrameworkConversation>[1],
    private readonly ownToolResults: ReadonlySet<string> = new Set(),
  ) {
    super(controller, conversation);
  }

  /**
   * One turn through the SDK's `run`: opened by the principal's message, or by a run's state whose interruptions were
   * each approved or rejected (`state.approve` / `state.reject`). The model reads the conversation as the controller
   * keeps it (the principal's messages framed, the application's notes, every tool call and its result), so the
   * application passes the new message only. Throws ConfirmationError for an interruption that names no change waiting
   * in this conversation (a forged or replayed state, one already settled), or whose call is not the exact held request.
   */
  async run(agent: OrderAgent, input: string | OrderRunState, options: AgentsRunOptions = {}): Promise<AgentsTurn> {
    const { context: ownContext, maxTurns, runner, ...rest } = options;
    const bounded = this.overBound(input);
    if (bounded) return { ...(await bounded), interruptions: [] };
    const turn = await this.conversation.open(typeof input === "string" ? input : await this.opening(input));
    // The SDK types a run's state by its context; the adapter reads its own part of it (ordersOf), whatever the type.
    const runInput = (typeof input === "string" ? agentItems(turn.state.messages) : input) as
      | AgentInputItem[]
      | RunState<OrderRunContext, OrderAgent>;
    // A new run's context; a resumed run keeps its own, which names the calls held so far.
    const context: OrderRunContext = { ...ownContext, orderTools: { conversationId: this.id, held: {} } };
    for (const [what, origin] of this.foreignIn(agent, input)) turn.foreign(what, origin);
    let result: RunResult<OrderRunContext, OrderAgent>;
    try {
      const runOptions: NonStreamRunOptions<OrderRunContext> = {
        ...rest,
        ...(typeof input === "string" ? { context } : {}),
        maxTurns: maxTurns ?? this.controller.limits.maxToolCalls + 1,
        // A call of a tool that does not exist is answered to the model, as the controller's own loop answers it.
        toolNotFoundBehavior: rest.toolNotFoundBehavior ?? "return_error_to_model",
      };
      result = await current.run(turn, () => (runner ? runner.run(agent, runInput, runOptions) : run(agent, runInput, runOptions)));
    } catch (error) {
      // A tool call the controller could not record (its intent store failed) ends the turn, not the model's failure.
      if (turn.failure) return turn.abort(turn.failure.error);
      if (error instanceof OutputGuardrailTripwireTriggered && error.result.guardrail.name === guardrailName) {
        // The gate dropped a sentence of the model's that no fact of the record says: the SDK stops the run there.
        return { ...(await turn.finish(undefined)), interruptions: [], state: error.state as AgentsTurn["state"] };
      }
      return { ...(await turn.finish(undefined, { modelFailed: true, failure: describeError(error) })), interruptions: [] };
    }
    // With no interruption the guardrail has finished the turn already; this returns its result.
    const finished = await turn.finish(result.interruptions.length > 0 ? lastText(result) : String(result.finalOutput ?? ""));
    return { ...finished, interruptions: interruptionsOf(result, finished.confirmations), state: result.state, result };
  }

  /**
   * What the model reads this run that the controller does not dispatch (contract §8.5): the agent's tools whose
   * results never pass through here (hosted tools, run by the provider), the agents it may hand off to (their tools
   * are theirs), and, in a run's state, a result of a tool that is not an order tool nor named in `ownToolResults`.
   * A function or local tool of the agent's taints as it starts (`agent()`).
   */
  private foreignIn(agent: OrderAgent, input: string | OrderRunState): [string, string][] {
    const ours = (name: string) => this.ownToolResults.has(name) || this.controller.tools.some((t) => t.name === name);
    const found: [string, string][] = [];
    for (const t of agent.tools)
      if (t.type === "hosted_tool" && !ours(t.name)) found.push([`${t.name} (run by the provider)`, applicationToolOrigin]);
    if (agent.handoffs.length > 0) found.push(["handoffs to other agents", applicationToolOrigin]);
    if (typeof input !== "string")
      for (const item of input._generatedItems)
        if (item.type === "tool_call_output_item") {
          const name = String((item.rawItem as { name?: unknown }).name ?? "");
          if (!ours(name)) found.push([`${name || "a tool"} result in the run's state`, applicationToolOrigin]);
        }
    return found;
  }

  /**
   * What a run's state with answered interruptions opens: each order tool's interruption approved or rejected, named
   * by the confirmationId its run's context kept for it, its call the exact request of that change. The controller's
   * settlement refuses an id no change waits for (settled already, or not this conversation's).
   */
  private async opening(state: OrderRunState): Promise<Settlement[]> {
    if (!(state instanceof RunStateClass))
      throw new TypeError("run takes the principal's message (a string) or the RunState of an earlier run of this conversation.");
    const interruptions = state.getInterruptions();
    if (interruptions.length === 0)
      throw new TypeError("This run's state has no interruptions to answer: a new message from the principal is a string.");
    const ours = ordersOf(state._context);
    if (ours === undefined || typeof ours.held !== "object")
      throw new ConfirmationError("This run's state was not made by conversation.run of order-tools: it names no held change.");
    if (ours.conversationId !== this.id)
      throw new ConfirmationError(`This run's state is of conversation ${ours.conversationId}, not ${this.id}.`);
    const waiting = (await this.controller.store.forConversation(this.id)).filter((i) => i.state === "awaiting_confirmation");
    const approvals = state._context.toJSON().approvals;
    const input: Settlement[] = [];
    for (const item of interruptions) {
      const name = item.name ?? "";
      if (!this.controller.tools.some((t) => t.name === name)) continue;
      if (approvals[name]?.approved === true || approvals[name]?.rejected === true)
        throw new TypeError(
          `${name} was approved or rejected for every call (alwaysApprove / alwaysReject): an order change is answered once, by its own interruption.`,
        );
      const callId = callIdOf(item);
      const decision = state._context.isToolApproved({ toolName: name, callId });
      // Left unanswered: its change keeps waiting, asked about again, and the run is interrupted on it again.
      if (decision === undefined) continue;
      const confirmationId = ours.held[callId];
      if (confirmationId === undefined)
        throw new ConfirmationError(`The interruption of ${name} (call ${callId}) names no change this conversation held.`);
      const intent = waiting.find((i) => i.confirmationId === confirmationId);
      if (intent && !approvedCallMatches(this.id, intent, name, argumentsOf(item), this.controller.tools))
        throw new ConfirmationError(
          `The interruption of ${name} (call ${callId}, ${item.arguments}) is not the exact request of the change it names: it cannot confirm other values.`,
        );
      const reason = decision ? undefined : state._context.getRejectionMessage(name, callId);
      input.push({ action: decision ? "confirm" : "decline", confirmationId, ...(reason !== undefined ? { reason } : {}) });
    }
    return input;
  }
}

/** A JSON Schema the SDK passes on as it is (strict off): the registry's own schema. */
type OpenSchema = { type: "object"; properties: Record<string, never>; required: never[]; additionalProperties: true };

/** An order tool as an Agents SDK function tool: the registry's schema; `needsApproval` is where the controller proposes the call. */
function agentsTool(modelTool: ModelTool): Tool<OrderRunContext> {
  return tool<OpenSchema, OrderRunContext>({
    name: modelTool.name,
    description: modelTool.description,
    // No validation here: the controller validates with the service's own schemas, and answers a malformed proposal
    // with the service's INVALID_INPUT body.
    parameters: { ...modelTool.inputSchema, additionalProperties: true } as unknown as OpenSchema,
    strict: false,
    // The SDK asks this of every call before it runs any: the controller dispatches the call here (a read is read, a
    // change sent or held), so calls keep their order and a held change is the run's interruption. A call whose
    // interruption this turn settled needed one.
    needsApproval: async (runContext, input, callId = "") => {
      const turn = turnOf(`The order tool ${modelTool.name}`);
      // Settled by this turn's approvals, or still waiting for its answer (its interruption left unanswered): no new
      // proposal, the SDK runs the one and interrupts on the other again.
      if (ordersOf(runContext)?.held[callId] !== undefined) return true;
      const { confirmation } = await turn.call({ id: callId, name: modelTool.name, input });
      if (!confirmation) return false;
      const ours = ordersOf(runContext);
      if (ours) ours.held[callId] = confirmation.confirmationId;
      return true;
    },
    execute: async (input, runContext, details) => {
      const turn = turnOf(`The order tool ${modelTool.name}`);
      const callId = details?.toolCall?.callId ?? "";
      const answer: FrameworkToolResult =
        settledFor(turn, runContext, callId)?.result ?? (await turn.call({ id: callId, name: modelTool.name, input }));
      return answer.content;
    },
    // A call the controller could not record (its intent store failed) must stop the run, not be told to the model.
    errorFunction: null,
  });
}

/**
 * The run's interruptions of order tools, each with the change the controller holds for it: the confirmation the turn
 * asks for, named by the confirmationId the run's context keeps for the call. One whose change no longer waits is left out.
 */
function interruptionsOf(result: RunResult<OrderRunContext, OrderAgent>, waiting: readonly PendingConfirmation[]): OrderInterruption[] {
  const held = ordersOf(result.state._context)?.held ?? {};
  return result.interruptions.flatMap((item) => {
    const confirmation = waiting.find((c) => c.confirmationId === held[callIdOf(item)]);
    return confirmation ? [{ item, confirmation }] : [];
  });
}

/** The change this turn's approvals settled for a call, if they did. */
function settledFor(turn: FrameworkTurn<TurnResult>, runContext: RunContext<unknown> | undefined, callId: string) {
  const confirmationId = ordersOf(runContext)?.held[callId];
  return confirmationId === undefined ? undefined : turn.settled.find((s) => s.confirmationId === confirmationId);
}

/** The adapter's part of a run's context (the SDK hands tools the context untyped). */
function ordersOf(runContext: RunContext<unknown> | undefined): OrderToolsContext | undefined {
  return (runContext?.context as OrderRunContext | undefined)?.orderTools;
}

/**
 * The response gate as an output guardrail: it gates the model's text against the turn's recorded outcomes and ends
 * the turn; the tripwire is a reply with a sentence the gate dropped (`claim_mismatch`: one no fact of the record says),
 * which the SDK then does not finish with.
 */
const replyGate: OutputGuardrail<"text", OrderRunContext> = {
  name: guardrailName,
  execute: async ({ agentOutput }) => {
    const result = await turnOf("The order-tools reply gate").finish(String(agentOutput));
    const gated = result.trace.events.find((e) => e.type === "gate");
    return { tripwireTriggered: gated?.type === "gate" && gated.decision === "claim_mismatch", outputInfo: { reply: result.reply } };
  },
};

/** The conversation as the controller keeps it, in the SDK's input items: what the controller's own loop sends a model. */
export function agentItems(messages: readonly ChatMessage[]): AgentInputItem[] {
  const names = new Map<string, string>();
  const items: AgentInputItem[] = [];
  for (const message of messages) {
    if (message.role === "customer") items.push(user(principalText(message.text)));
    else if (message.role === "note") items.push(user(noteText(message.text)));
    else if (message.role === "assistant") {
      if (message.text !== "") items.push(assistant(message.text));
      for (const call of message.toolCalls) {
        names.set(call.id, call.name);
        items.push({
          type: "function_call",
          callId: call.id,
          name: call.name,
          arguments: call.rawArguments ?? JSON.stringify(call.input ?? {}),
          status: "completed",
        });
      }
    } else
      items.push({
        type: "function_call_result",
        callId: message.toolCallId,
        name: names.get(message.toolCallId) ?? "",
        status: "completed",
        output: { type: "text", text: message.content },
      });
  }
  return items;
}

function callIdOf(item: RunToolApprovalItem): string {
  return "callId" in item.rawItem && typeof item.rawItem.callId === "string" ? item.rawItem.callId : (item.rawItem.id ?? "");
}

/** The interrupted call's arguments, parsed; the raw text when they are not JSON (the controller answers that as invalid). */
function argumentsOf(item: RunToolApprovalItem): unknown {
  try {
    return JSON.parse(item.arguments ?? "");
  } catch {
    return item.arguments;
  }
}

/** The model's text in the run's last response (said beside the calls it interrupted on), or nothing. */
function lastText(result: RunResult<OrderRunContext, OrderAgent>): string {
  return result.newItems.flatMap((i) => (i.type === "message_output_item" ? [i.content] : [])).join("\n");
}

export { ConfirmationError };
