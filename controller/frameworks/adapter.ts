import type { ModelTool } from "#contract/model-tools";
import type { Controller, ControllerOptions } from "#controller/controller";
import type { Conversation, TurnResult } from "#controller/conversation";
import type { ConversationState } from "#controller/state/conversation";
import { heldRequestOf } from "#controller/guard/change-forms";
import { frameworkModel } from "#controller/turn/framework-turn";
import { confirmationIdOf } from "#controller/guard/confirmation";
import type { Intent } from "#controller/intents/intent";
import { checkProposal } from "#controller/changes/proposal";

/** What the agent-framework adapters (frameworks/ai-sdk.ts, frameworks/openai-agents.ts) share besides the turn itself (turn/framework-turn.ts). */

/**
 * The adapters' one option beyond the controller's (contract §8.5): which of the application's own tools return only
 * the application's words. Every other tool's result the controller did not dispatch, and any history it did not
 * write, is someone else's text: it taints the conversation, so every change after it waits for the principal's
 * confirmation. Naming a tool here is a risk the application takes on: text a third party wrote that reaches the
 * model through it (a review, an e-mail, a web page, a ticket) can then ask for a change that goes out without a
 * question, with values taken from that text.
 */
export interface ForeignTextOptions {
  /** The names of the application's tools whose results are its own words. Default: none. */
  ownToolResults?: readonly string[];
}

/** The controller's options and the adapters' own, apart; `ownToolResults` checked. */
export function splitFrameworkOptions<O extends object>(
  options: O & ForeignTextOptions,
): { controllerOptions: O; own: ReadonlySet<string> } {
  const { ownToolResults, ...controllerOptions } = options;
  if (ownToolResults !== undefined && (!Array.isArray(ownToolResults) || !ownToolResults.every((n) => typeof n === "string" && n !== "")))
    throw new TypeError(
      `ownToolResults is a list of the names of your own tools whose results are your application's words, not ${JSON.stringify(ownToolResults)}.`,
    );
  return { controllerOptions: controllerOptions as O, own: new Set(ownToolResults ?? []) };
}

/** What an application tool's result is, as the controller names it in the trace. */
export const applicationToolOrigin = "an application tool the controller did not dispatch";
/** What a history the controller did not write is. */
export const unwrittenHistoryOrigin = "a history the controller did not write";

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

/** What each adapter's order tools share: the controller they run on, its restart, and the tools whose results are the application's. */
export abstract class FrameworkOrders {
  constructor(
    readonly controller: Controller,
    readonly ownToolResults: ReadonlySet<string> = new Set(),
  ) {}

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

  /**
   * A principal's message over `limits.maxMessageCharacters` (contract §8.5) never reaches the framework's model: the
   * controller's own turn answers it (problem `message_too_long`, nothing read or changed), as it does outside a
   * framework.
   */
  protected overBound(input: unknown): Promise<TurnResult> | undefined {
    if (typeof input !== "string" || input.length <= this.controller.limits.maxMessageCharacters) return undefined;
    return this.conversation.turn(input);
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
