import type { ModelMessage } from "ai";
import { Runner } from "@openai/agents";
import { type AiSdkTurn, orderToolsForAiSdk } from "#controller/frameworks/ai-sdk";
import type { ControllerOptions } from "#controller/controller";
import type { TurnResult } from "#controller/conversation";
import { scriptedAgentsModel, scriptedAiSdkModel } from "#controller/frameworks/scripted-models";
import type { ScriptStep } from "#controller/model/scripted";
import { type AgentsTurn, type OrderRunState, orderToolsForAgents } from "#controller/frameworks/openai-agents";

/**
 * Which loop runs a case's conversation (`npm run eval -- --through <loop>`): the controller's own, or an agent
 * framework's through its adapter (`order-tools/controller/ai-sdk`, `order-tools/controller/openai-agents`), the
 * framework's own mock model following the case's script. The judges read the same evidence either way — the service's
 * account, the intent store and the traces — so an adapter's figures are the controller's own loop's, or they differ.
 */
export const loops = ["controller", "ai-sdk", "openai-agents"] as const;
export type Loop = (typeof loops)[number];

/** A case's conversation, as the runner drives it: a message per turn, or a button on a held change. */
export interface CaseConversation {
  turn(message: string): Promise<TurnResult>;
  confirm(confirmationId: string): Promise<TurnResult>;
  decline(confirmationId: string): Promise<TurnResult>;
  /** The script's steps the conversation took (a model that follows no script: undefined). */
  used(): number | undefined;
}

/**
 * The case's conversation through a framework's adapter: its controller made from the case's controller options (the
 * scripted model the runner made is the framework's mock model here), its button presses the framework's own answers.
 */
export function frameworkConversation(
  loop: Exclude<Loop, "controller">,
  options: ControllerOptions,
  script: readonly ScriptStep[],
  conversationId: string,
  timeZone?: string,
): CaseConversation {
  const { model: _scripted, ...controllerOptions } = options;
  const opened = timeZone ? { timeZone } : {};
  return loop === "ai-sdk"
    ? aiSdkConversation(controllerOptions, script, conversationId, opened)
    : agentsConversation(controllerOptions, script, conversationId, opened);
}

/** The AI SDK's way: the application keeps the messages; a button is a tool-approval-response whose approvalId is the confirmationId. */
function aiSdkConversation(
  options: Omit<ControllerOptions, "model">,
  script: readonly ScriptStep[],
  conversationId: string,
  opened: { timeZone?: string },
): CaseConversation {
  const chat = orderToolsForAiSdk(options).conversation(conversationId, undefined, opened);
  const { model, cursor } = scriptedAiSdkModel(script);
  const messages: ModelMessage[] = [];
  const generate = async (next: ModelMessage, kind: "message" | "button"): Promise<AiSdkTurn> => {
    cursor.startTurn(kind);
    const turn = await chat.generateText({ model, messages: [...messages, next] });
    messages.push(next, ...turn.responseMessages);
    return turn;
  };
  const press = (approvalId: string, approved: boolean) =>
    generate({ role: "tool", content: [{ type: "tool-approval-response", approvalId, approved }] }, "button");
  return {
    turn: (message) => generate({ role: "user", content: message }, "message"),
    confirm: (id) => press(id, true),
    decline: (id) => press(id, false),
    used: () => cursor.used,
  };
}

/** The Agents SDK's way: a button approves or rejects the interruption of the held change on the state of the run that asked. */
function agentsConversation(
  options: Omit<ControllerOptions, "model">,
  script: readonly ScriptStep[],
  conversationId: string,
  opened: { timeZone?: string },
): CaseConversation {
  const orders = orderToolsForAgents(options);
  const { model, cursor } = scriptedAgentsModel(script);
  const agent = orders.agent({ name: "Order assistant", model });
  const chat = orders.conversation(conversationId, undefined, opened);
  const runner = new Runner({ tracingDisabled: true });
  const turns: AgentsTurn[] = [];
  const run = async (input: string | OrderRunState, kind: "message" | "button") => {
    cursor.startTurn(kind);
    const turn = await chat.run(agent, input, { runner });
    turns.push(turn);
    return turn;
  };
  const press = (confirmationId: string, approved: boolean) => {
    const asked = [...turns].reverse().find((t) => t.interruptions.some((i) => i.confirmation.confirmationId === confirmationId));
    const interruption = asked?.interruptions.find((i) => i.confirmation.confirmationId === confirmationId);
    if (!asked?.state || !interruption) throw new Error(`No run of this conversation was interrupted for confirmation ${confirmationId}.`);
    if (approved) asked.state.approve(interruption.item);
    else asked.state.reject(interruption.item);
    return run(asked.state, "button");
  };
  return {
    turn: (message) => run(message, "message"),
    confirm: (id) => press(id, true),
    decline: (id) => press(id, false),
    used: () => cursor.used,
  };
}
