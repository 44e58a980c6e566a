import type * as AiSdk from "ai";
import type { AssistantModelMessage, GenerateTextResult, ModelMessage, Tool, ToolSet } from "ai";
import type { ModelTool } from "#contract/model-tools";
import { type ControllerOptions, createController } from "#controller/controller";
import type { ConversationOptions, TurnResult } from "#controller/conversation";
import type { ConversationState } from "#controller/state/conversation";
import type { PendingConfirmation } from "#controller/guard/confirmation";
import type { FrameworkTurn, FrameworkToolResult } from "#controller/turn/framework-turn";
import { describeError } from "#controller/text/error-text";
import {
  applicationToolOrigin,
  approvedCallMatches,
  type ForeignTextOptions,
  FrameworkConversation,
  FrameworkOrders,
  frameworkController,
  notAnsweredResult,
  splitFrameworkOptions,
  unwrittenHistoryOrigin,
} from "#controller/frameworks/adapter";
import { noteText, principalText } from "#controller/model/types";
import { ConfirmationError, type Settlement } from "#controller/changes/settlement";
import { importOptionalPeer } from "#controller/optional-peers";

// `ai` is an optional peer of the package: without it, importing this subpath names the package and range to install.
const { generateText, jsonSchema, stepCountIs } = await importOptionalPeer("ai", "order-tools/controller/ai-sdk", () => import("ai"));

/**
 * `order-tools/controller/ai-sdk`: the order tools inside the Vercel AI SDK (`ai` 6). The application keeps its own
 * message history and model; the controller keeps what a turn may do. Each order tool is an AI SDK tool whose schema
 * is the registry's; a tool call the model makes goes through the controller's dispatch (turn/framework-turn.ts), so a
 * change is persisted as an intent before it is sent, reconciled when its outcome is lost, one intent per change, and
 * sent at once only when the provenance control lets it — else it is held, and the SDK's own approval request asks
 * for it, its `approvalId` the controller's `confirmationId`. The application answers it the SDK's way (a tool
 * message of `tool-approval-response` parts, as `addToolApprovalResponse` makes it), and the next `generateText`
 * settles it through the controller's confirm or decline before the SDK runs the call. What the principal sees is
 * the turn's `reply`: the model's text passed through the response gate, never as it came.
 */

/**
 * The controller's options, without `model` (the model is the application's, in the SDK), and `ownToolResults`: the
 * application's tools whose results are its own words (frameworks/adapter.ts; every other is someone else's text).
 */
export type AiSdkOrderOptions = Omit<ControllerOptions, "model"> & ForeignTextOptions;

/** A held change as the SDK's approval request: answer it with `{ type: "tool-approval-response", approvalId, approved }`. */
export interface OrderApproval {
  /** The controller's `confirmationId`: a hash of the conversation, the operationId, the tool and the exact request. */
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** What the application renders: the question in the principal's language, the exact values, the expiry. */
  confirmation: PendingConfirmation;
}

export interface AiSdkTurn extends TurnResult {
  /** Each change the turn left waiting, as the SDK's approval request it is. */
  approvals: OrderApproval[];
  /**
   * The messages to append to the history: the SDK's response messages, each approval request's `approvalId` the
   * controller's `confirmationId`, and the last assistant text the reply the principal saw.
   */
  responseMessages: ModelMessage[];
  /** The SDK's own result; absent when the model's request failed. */
  result?: GenerateTextResult<ToolSet, never>;
}

type GenerateTextOptions = Parameters<typeof AiSdk.generateText>[0];

/** What `generateText` takes here: the SDK's own options, the history as `messages` (its last, the principal's message or the approval responses). */
export type AiSdkGenerateOptions = Omit<GenerateTextOptions, "prompt" | "messages" | "experimental_toolApprovalSecret"> & {
  messages: ModelMessage[];
};

/** The order tools for the AI SDK, on a controller of their own (made from `options`, with the SDK as its model). */
export function orderToolsForAiSdk(options: AiSdkOrderOptions): AiSdkOrders {
  const { controllerOptions, own } = splitFrameworkOptions(options);
  return new AiSdkOrders(frameworkController(controllerOptions, "ai-sdk", createController), own);
}

export class AiSdkOrders extends FrameworkOrders {
  /** A conversation with one principal: new, or continued from the state the application kept (`state()`). */
  conversation(conversationId: string, state?: ConversationState, options: ConversationOptions = {}): AiSdkConversation {
    return new AiSdkConversation(this.controller, this.controller.conversation(conversationId, state, options), this.ownToolResults);
  }
}

export class AiSdkConversation extends FrameworkConversation {
  constructor(
    controller: AiSdkOrders["controller"],
    conversation: ConstructorParameters<typeof FrameworkConversation>[1],
    private readonly ownToolResults: ReadonlySet<string> = new Set(),
  ) {
    super(controller, conversation);
  }

  /**
   * One turn through the SDK's `generateText`: opened by the last message — the principal's, or the approval
   * responses to the changes the last turn held — with the order tools added to any of the application's own.
   * Throws ConfirmationError for an approval that names no change waiting in this conversation (a forged or
   * replayed id, one already settled), or whose tool call in the history is not the exact held request.
   */
  async generateText(options: AiSdkGenerateOptions): Promise<AiSdkTurn> {
    const { messages, system, tools: ownTools, stopWhen, ...rest } = options;
    // Checked before the turn opens: opening holds the conversation's lease, and approval responses are sent as it opens.
    const applicationTools = checkedOwnTools(ownTools, this.controller.tools);
    const opening = await this.opening(messages);
    // A conversation the controller keeps no state of: any history before the last message is not the controller's.
    const unwritten = this.conversation.state().turns === 0 && messages.length > 1;
    const bounded = this.overBound(opening.input);
    if (bounded) return { ...(await bounded), approvals: [], responseMessages: [] };
    const turn = await this.conversation.open(opening.input);
    let result: GenerateTextResult<ToolSet, never>;
    let approvals: OrderApproval[];
    try {
      const call = (toolCallId: string, name: string, input: unknown): Promise<FrameworkToolResult> =>
        turn.call({ id: toolCallId, name, input });
      for (const [what, origin] of foreignIn(messages, applicationTools, this.ownToolResults, this.controller.tools, unwritten))
        turn.foreign(what, origin);
      const tools = { ...tainting(applicationTools, this.ownToolResults, turn), ...aiSdkTools(turn, opening.settledCalls, call) };
      try {
        result = (await generateText({
          ...rest,
          system: [turn.system, system].filter((s) => typeof s === "string" && s !== "").join("\n\n"),
          messages: forModel(messages, turn.notes, opening.settledCalls),
          tools,
          stopWhen: stopWhen ?? stepCountIs(this.controller.limits.maxToolCalls + 1),
        } as GenerateTextOptions)) as GenerateTextResult<ToolSet, never>;
      } catch (error) {
        // A tool call the controller could not record (its intent store failed) ends the turn, not the model's failure.
        if (turn.failure) return turn.abort(turn.failure.error);
        return {
          ...(await turn.finish(undefined, { modelFailed: true, failure: describeError(error) })),
          approvals: [],
          responseMessages: [],
        };
      }
      if (turn.failure) return turn.abort(turn.failure.error);
      approvals = await approvalsOf(result, turn);
    } catch (error) {
      // Whatever throws before the turn is finished ends it (its lease released), or the conversation's next turn waits for ever.
      return turn.abort(error);
    }
    const finished = await turn.finish(result.text);
    return { ...finished, approvals, responseMessages: responseMessages(result, approvals, finished.reply), result };
  }

  /**
   * What opens the turn: the principal's message, or the approval responses — each checked against the change it
   * names (its tool call in the history must be that change's exact request) before anything is settled.
   */
  private async opening(messages: readonly ModelMessage[]): Promise<{ input: string | Settlement[]; settledCalls: Map<string, string> }> {
    const last = messages.at(-1);
    if (last === undefined)
      throw new TypeError("generateText needs messages: the history, its last the principal's message or the approval responses.");
    if (last.role === "user") return { input: textOf(last.content), settledCalls: new Map() };
    const responses = last.role === "tool" ? last.content.filter((p) => p.type === "tool-approval-response") : [];
    if (responses.length === 0)
      throw new TypeError(
        `The last message is a ${last.role} message with no tool-approval-response: a turn starts with the principal's message (role "user") or with the answers to the approvals the last turn asked for.`,
      );
    const waiting = (await this.controller.store.forConversation(this.id)).filter((i) => i.state === "awaiting_confirmation");
    const settledCalls = new Map<string, string>();
    for (const response of responses) {
      const toolCall = toolCallApproved(messages, response.approvalId);
      const intent = waiting.find((i) => i.confirmationId === response.approvalId);
      // No such change waiting: the controller's settlement refuses it, saying why (settled already, or not this conversation's).
      if (intent && toolCall && !approvedCallMatches(this.id, intent, toolCall.toolName, toolCall.input, this.controller.tools))
        throw new ConfirmationError(
          `Approval ${response.approvalId} answers a tool call (${toolCall.toolName}, ${JSON.stringify(toolCall.input)}) that is not the exact request of the change it names: it cannot confirm other values.`,
        );
      if (toolCall) settledCalls.set(toolCall.toolCallId, response.approvalId);
    }
    const input = responses.map((r) => ({
      action: r.approved ? ("confirm" as const) : ("decline" as const),
      confirmationId: r.approvalId,
      ...(!r.approved && r.reason !== undefined ? { reason: r.reason } : {}),
    }));
    return { input, settledCalls };
  }
}

/** The order tools as AI SDK tools: the registry's schemas; `needsApproval` is where the controller proposes the call. */
function aiSdkTools(
  turn: FrameworkTurn<TurnResult>,
  settledCalls: ReadonlyMap<string, string>,
  call: (toolCallId: string, name: string, input: unknown) => Promise<FrameworkToolResult>,
): Record<string, Tool> {
  const settled = (toolCallId: string) => {
    const confirmationId = settledCalls.get(toolCallId);
    return confirmationId === undefined ? undefined : turn.settled.find((s) => s.confirmationId === confirmationId);
  };
  return Object.fromEntries(
    turn.tools.map((modelTool: ModelTool) => [
      modelTool.name,
      {
        description: modelTool.description,
        // No validation here: the controller validates with the service's own schemas, and answers a malformed
        // proposal with the service's INVALID_INPUT body.
        inputSchema: jsonSchema(modelTool.inputSchema as Parameters<typeof AiSdk.jsonSchema>[0]),
        // The SDK asks this of every call, in order, before it executes any: the controller dispatches the call
        // here (a read is read, a change sent or held), so calls keep their order and a held change is the
        // SDK's approval request. A call whose approval this turn settled needed one.
        needsApproval: async (input: unknown, { toolCallId }: { toolCallId: string }) =>
          settled(toolCallId) !== undefined || (await call(toolCallId, modelTool.name, input)).confirmation !== undefined,
        execute: async (input: unknown, { toolCallId }: { toolCallId: string }) =>
          (settled(toolCallId)?.result ?? (await call(toolCallId, modelTool.name, input))).content,
      } satisfies Tool,
    ]),
  );
}

/** The application's own tools beside the order tools; a name the order tools use is refused. */
function checkedOwnTools(ownTools: ToolSet | undefined, orderTools: readonly ModelTool[]): ToolSet {
  const clash = Object.keys(ownTools ?? {}).filter((name) => orderTools.some((t) => t.name === name));
  if (clash.length > 0)
    throw new TypeError(
      `tools: ${clash.join(", ")} ${clash.length === 1 ? "is an order tool's name" : "are order tools' names"}; give your own tools other names.`,
    );
  return ownTools ?? {};
}

/**
 * What the model reads this turn that the controller did not dispatch or write (contract §8.5): a history with no
 * controller state behind it, a result in the history of a tool that is not an order tool nor named in
 * `ownToolResults`, and any application tool the provider runs itself (its result never passes through here).
 */
function foreignIn(
  messages: readonly ModelMessage[],
  applicationTools: ToolSet,
  own: ReadonlySet<string>,
  orderTools: readonly ModelTool[],
  unwritten: boolean,
): [string, string][] {
  const found: [string, string][] = unwritten ? [["history", unwrittenHistoryOrigin]] : [];
  const ours = (name: string) => own.has(name) || orderTools.some((t) => t.name === name);
  for (const message of messages)
    if (message.role === "tool")
      for (const part of message.content)
        if (part.type === "tool-result" && !ours(part.toolName))
          found.push([`${part.toolName} result in the history`, applicationToolOrigin]);
  for (const [name, t] of Object.entries(applicationTools))
    if (!own.has(name) && String((t as { type?: unknown }).type ?? "").startsWith("provider"))
      found.push([`${name} (run by the provider)`, applicationToolOrigin]);
  return found;
}

/** The application's tools, each whose results are not declared its own tainting the conversation when it runs. */
function tainting(applicationTools: ToolSet, own: ReadonlySet<string>, turn: FrameworkTurn<TurnResult>): ToolSet {
  return Object.fromEntries(
    Object.entries(applicationTools).map(([name, t]) => {
      const execute = t.execute;
      if (own.has(name) || typeof execute !== "function") return [name, t];
      return [
        name,
        {
          ...t,
          execute: (...args: Parameters<typeof execute>) => {
            // Before it runs: the model reads its result in the next step, and any change after that waits.
            turn.foreign(`${name} result`, applicationToolOrigin);
            return execute(...args);
          },
        } as Tool,
      ];
    }),
  );
}

/**
 * The history as the model reads it: the principal's messages framed, the application's notes for this turn before
 * the principal's message, and every earlier tool call the SDK never got a result for (a held change the principal
 * answered in words, or not at all) answered as not run, so the SDK can send the history on.
 */
function forModel(messages: readonly ModelMessage[], notes: readonly string[], answeredNow: ReadonlyMap<string, string>): ModelMessage[] {
  const resulted = new Set(
    messages.flatMap((m) => (m.role === "tool" ? m.content.flatMap((p) => (p.type === "tool-result" ? [p.toolCallId] : [])) : [])),
  );
  const out: ModelMessage[] = [];
  for (const [i, message] of messages.entries()) {
    if (message.role === "user" && i === messages.length - 1) for (const note of notes) out.push({ role: "user", content: noteText(note) });
    if (message.role === "user") {
      out.push({ ...message, content: principalText(textOf(message.content)) });
      continue;
    }
    out.push(message);
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    const unanswered = message.content.flatMap((p) =>
      p.type === "tool-call" && !resulted.has(p.toolCallId) && !answeredNow.has(p.toolCallId) ? [p] : [],
    );
    if (unanswered.length > 0)
      out.push({
        role: "tool",
        content: unanswered.map((p) => ({
          type: "tool-result" as const,
          toolCallId: p.toolCallId,
          toolName: p.toolName,
          output: { type: "text" as const, value: notAnsweredResult },
        })),
      });
  }
  return out;
}

/** The text of a user message. */
function textOf(content: Extract<ModelMessage, { role: "user" }>["content"]): string {
  return typeof content === "string" ? content : content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
}

/** The tool call an approval request of the history names. */
function toolCallApproved(messages: readonly ModelMessage[], approvalId: string) {
  const assistant = messages.filter((m): m is AssistantModelMessage => m.role === "assistant" && typeof m.content !== "string");
  const request = assistant
    .flatMap((m) =>
      (m.content as Exclude<AssistantModelMessage["content"], string>).filter(
        (p) => p.type === "tool-approval-request" && p.approvalId === approvalId,
      ),
    )
    .at(-1);
  if (request?.type !== "tool-approval-request") return undefined;
  const toolCall = assistant
    .flatMap((m) => m.content as Exclude<AssistantModelMessage["content"], string>)
    .find((p) => p.type === "tool-call" && p.toolCallId === request.toolCallId);
  return toolCall?.type === "tool-call" ? toolCall : undefined;
}

/** The SDK's approval requests of this turn, each with the change the controller held for it. */
async function approvalsOf(result: GenerateTextResult<ToolSet, never>, turn: FrameworkTurn<TurnResult>): Promise<OrderApproval[]> {
  const approvals: OrderApproval[] = [];
  for (const part of result.content) {
    if (part.type !== "tool-approval-request") continue;
    const { toolCallId, toolName, input } = part.toolCall;
    const { confirmation } = await turn.call({ id: toolCallId, name: toolName, input });
    if (confirmation) approvals.push({ approvalId: confirmation.confirmationId, toolCallId, toolName, input, confirmation });
  }
  return approvals;
}

/** The SDK's response messages as the history keeps them: approval ids the controller's, the last text the reply shown. */
function responseMessages(result: GenerateTextResult<ToolSet, never>, approvals: readonly OrderApproval[], reply: string): ModelMessage[] {
  const idFor = new Map(approvals.map((a) => [a.toolCallId, a.approvalId]));
  const messages = result.response.messages.map((message): ModelMessage => {
    if (message.role !== "assistant" || typeof message.content === "string") return message;
    return {
      ...message,
      content: message.content.map((p) =>
        p.type === "tool-approval-request" && idFor.has(p.toolCallId) ? { ...p, approvalId: idFor.get(p.toolCallId) as string } : p,
      ),
    };
  });
  const last = messages.at(-1);
  if (last?.role === "assistant") {
    const parts = typeof last.content === "string" ? [] : last.content.filter((p) => p.type !== "text");
    messages[messages.length - 1] = { ...last, content: [{ type: "text", text: reply }, ...parts] };
  } else messages.push({ role: "assistant", content: [{ type: "text", text: reply }] });
  return messages;
}
