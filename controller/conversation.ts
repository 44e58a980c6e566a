import type { Settlement } from "#controller/changes/settlement";
import type { OrderFact } from "#controller/gate/facts";
import type { PendingConfirmation } from "#controller/guard/confirmation";
import type { Locale } from "#controller/i18n/locale";
import type { ReplyKind, TurnOutcome, TurnProblem } from "#controller/outcomes";
import type { ConversationState } from "#controller/state/conversation";
import type { TurnTrace } from "#controller/trace/record";
import type { FrameworkTurn } from "#controller/turn/framework-turn";

export interface ConversationOptions {
  /** The principal's language for this conversation (BCP 47; en, de, fr, es, it, pt, nl or pl). Default: the controller's. */
  locale?: string;
  /** The principal's time zone (IANA, "Europe/Lisbon"): "tomorrow", "Monday" are their days. Default UTC. */
  timeZone?: string;
}

export interface TurnOptions {
  /** Progress lines as they happen ("Checking…"); never a confirmation. */
  onProgress?: (text: string) => void;
  /** The reply, once the gate has passed it. */
  onReply?: (text: string) => void;
}

export interface TurnResult {
  /** What the principal sees. */
  reply: string;
  replyKind: ReplyKind;
  /** The recorded outcomes the gate judged the reply by. */
  outcomes: TurnOutcome[];
  /**
   * The facts of the orders this turn read or changed, rendered from the record (contract §8.2), as data for a card
   * in the application's UI: each with its kind, its values, its sentence in the principal's language, and whether
   * the reply's text tells it. Empty when the turn read and changed nothing.
   */
  facts: OrderFact[];
  /**
   * The changes this turn left waiting for the principal's confirmation, as data to render (a confirm and a decline
   * button each): settle one with `conversation.confirm(confirmationId)` or `decline(confirmationId)`. After a button
   * press, the changes still waiting beside the one it settled follow, so their buttons stay.
   */
  confirmations: PendingConfirmation[];
  /** The first of `confirmations`, when there is one. */
  confirmation?: PendingConfirmation;
  /**
   * Set when the turn met something the application must act on (outcomes.ts, contract §8.1): its token
   * refused (`unauthenticated`, `forbidden`), the service not there or not answering as the contract says
   * (`unreachable`, `incompatible`), or the model failing (`model_failed`). For the four service codes the reply
   * says, in the principal's language, that their orders could not be reached right now.
   */
  problem?: TurnProblem;
  trace: TurnTrace;
}

/** What a conversation asks of the controller that made it (controller.ts): its turns run, one at a time. */
export interface TurnRunner {
  runTurn(state: ConversationState, message: string | Settlement, turnOptions: TurnOptions): Promise<TurnResult>;
  openTurn(state: ConversationState, input: string | readonly Settlement[], turnOptions: TurnOptions): Promise<FrameworkTurn<TurnResult>>;
}

/** One conversation with one principal. Turns run one at a time (and, through the lease, one process at a time). */
export class Conversation {
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly controller: TurnRunner,
    private readonly current: ConversationState,
  ) {}

  get id(): string {
    return this.current.conversationId;
  }

  /** A copy of the state, for the application to keep between sessions. */
  state(): ConversationState {
    return structuredClone(this.current);
  }

  /** The principal's language. */
  get locale(): Locale {
    return this.current.locale ?? "en";
  }

  /** The principal's next message: runs the turn and resolves with the reply they see. */
  turn(message: string, options: TurnOptions = {}): Promise<TurnResult> {
    return this.queue(message, options);
  }

  /**
   * The principal confirmed a held change (the application's confirm button): the id a turn returned in
   * `confirmations`, bound to that exact request. Sends it, and resolves with the reply for its outcome. An id that
   * names no change waiting in this conversation, or other values than the change's, throws ConfirmationError.
   */
  confirm(confirmationId: string, options: TurnOptions = {}): Promise<TurnResult> {
    return this.queue({ action: "confirm", confirmationId }, options);
  }

  /**
   * The principal declined a held change (the decline button): nothing is sent. `reason`, in the principal's words
   * ("wrong item", "I'll do it myself"), tells the model why at the next turn.
   */
  decline(confirmationId: string, options: TurnOptions & { reason?: string } = {}): Promise<TurnResult> {
    const { reason, ...turnOptions } = options;
    return this.queue({ action: "decline", confirmationId, ...(reason !== undefined ? { reason } : {}) }, turnOptions);
  }

  /**
   * @internal The agent-framework adapters' turn (turn/framework-turn.ts): the next turn of this conversation, opened for a
   * framework's model by the principal's message or by buttons pressed. It runs after this object's earlier turns,
   * and the next waits until it is finished or aborted.
   */
  open(input: string | readonly Settlement[], options: TurnOptions = {}): Promise<FrameworkTurn<TurnResult>> {
    const opened = this.running.then(() => this.controller.openTurn(this.current, input, options));
    this.running = opened.then(
      (turn) => turn.done,
      () => undefined,
    );
    return opened;
  }

  private queue(input: string | Settlement, options: TurnOptions): Promise<TurnResult> {
    const next = this.running.then(() => this.controller.runTurn(this.current, input, options));
    this.running = next.catch(() => undefined);
    return next;
  }
}
