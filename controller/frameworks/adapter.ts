import type { ModelTool } from "#contract/model-tools";
import type { Controller, ControllerOptions, Conversation } from "#controller/controller";
import type { ConversationState } from "#controller/state/conversation";
import { heldRequestOf } from "#controller/guard/change-forms";
import { frameworkModel } from "#controller/turn/framework-turn";
import { confirmationIdOf } from "#controller/guard/confirmation";
import type { Intent } from "#controller/intents/intent";
import { checkProposal } from "#controller/changes/proposal";

/** What the agent-framework adapters (frameworks/ai-sdk.ts, frameworks/openai-agents.ts) share besides the turn itself (turn/framework-turn.ts). */

/**
 * A controller whose model runs in a framework: the application's controller options, without `model` (its model
 * is the framework's), and the framework's name on every trace. `create` is createController, passed in so this
 * file and controller.ts do not import each other.
 */
export function frameworkController(
  options: Omit<ControllerOptions, "model">,
  name: string,
  create: (options: ControllerOptions) => Controller,
): Controller {
  if (options !== null && typeof options === "object" && "model" in options)
    throw new TypeError(`The ${name} adapter takes the controller's options without model: the model is the framework's, given to it.`);
  return create({ ...options, model: frameworkModel(name) });
}

/** What each adapter's order tools share: the controller they run on, and its restart. */
export abstract class FrameworkOrders {
  constructor(readonly controller: Controller) {}

  /** After a restart: what `Controller.resume()` does (finishes intents that may have left; holds one never sent). */
  resume(): Promise<Intent[]> {
    return this.controller.resume();
  }
}

/** What each adapter's conversation shares: the controller's conversation under it, and the state the application keeps. */
export abstract class FrameworkConversation {
  constructor(
    protected readonly controller: Controller,
    protected readonly conversation: Conversation,
  ) {}

  get id(): string {
    return this.conversation.id;
  }

  /** The controller's state of this conversation, for the application to keep beside the framework's own. */
  state(): ConversationState {
    return this.conversation.state();
  }
}

/**
 * Whether the tool call a framework holds an approval for is the exact request of the held change: the same tool, and
 * arguments that, with the change's own operationId, hash to its confirmationId. A history a client edited (other
 * values under an approval the principal gave) does not.
 */
export function approvedCallMatches(
  conversationId: string,
  intent: Intent,
  toolName: string,
  input: unknown,
  tools: readonly ModelTool[],
): boolean {
  if (toolName !== intent.tool || intent.confirmationId === undefined) return false;
  const proposal = checkProposal({ id: intent.toolUseId, name: toolName, input }, tools, () => intent.operationId);
  return (
    proposal.kind === "change" &&
    // The held change keeps only what its question shows (a cancellation's reason is not sent): the call is that change.
    confirmationIdOf(conversationId, intent.operationId, intent.tool, heldRequestOf(intent.tool, proposal.request)) ===
      intent.confirmationId
  );
}

/** The tool result a framework's history gets for a call the controller held and the principal answered otherwise. */
export const notAnsweredResult = JSON.stringify({
  status: "not_sent",
  reason: "awaiting_confirmation",
  message:
    "Not sent when proposed: it waited for the principal's confirmation. The application's notes say what became of it; propose it again only if the principal asks again.",
});
