import type { ConversationState } from "#controller/conversation-state";
import { type GateDecision, gate } from "#controller/gate/gate";
import { composeOutcomes, type TurnOutcome } from "#controller/gate/outcomes";
import type { PrincipalMessage } from "#controller/guard/message";
import { confirmationIdOf, confirmationValues, type PendingConfirmation } from "#controller/guard/confirmation";
import { finalStates, type Intent } from "#controller/intents/intent";
import { modelView, outcomeOf } from "#controller/intent-views";
import { factsOf, type IntentLifecycle, noteSettled } from "#controller/lifecycle";
import { type Run, say } from "#controller/run";

/**
 * Settlement: what becomes of intents between turns. At the start of a turn, the conversation's earlier intents
 * are finished or reported, and a change held for the principal's yes is sent or declined on their message; a
 * press of the application's confirm or decline button settles the one change it names (contract §8.5).
 */

/** A press of the application's confirm or decline button on a held change. */
export interface Settlement {
  action: "confirm" | "decline";
  confirmationId: string;
}

/** A confirm() or decline() that names no change waiting in this conversation, or names it with other values. */
export class ConfirmationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfirmationError";
  }
}

/** What the principal is shown at the end of a turn, as the gate (or the controller itself) decided it. */
export type TurnDecision = Pick<GateDecision, "reply" | "replyKind" | "decision" | "flags" | "problems" | "judgedAgainst">;

/**
 * Before the model reads the new message: intents of this conversation still open are finished (an unknown
 * outcome reconciled), outcomes settled elsewhere (by resume) are reported, a change waiting for the
 * principal's yes is sent or declined on this message, and a change persisted in an earlier turn but never
 * sent is asked about again rather than sent unseen. Returns notes for the model.
 */
export async function settleEarlierIntents(
  life: IntentLifecycle,
  state: ConversationState,
  message: PrincipalMessage,
  run: Run,
): Promise<string[]> {
  const notes: string[] = [];
  const report = (intent: Intent, what: string) => {
    noteSettled(state, intent, run);
    notes.push(`${what} ${intent.tool} for ${intent.orderId}: ${modelView(intent)}`);
  };
  const intents = await life.store.forConversation(state.conversationId);
  // A free-text yes names no change: it confirms one only when exactly one is waiting (the button names its own).
  const waitingCount = intents.filter((i) => i.state === "awaiting_confirmation" && i.turn !== state.turns).length;
  for (const stored of intents) {
    if (stored.state === "persisted" && stored.sends === 0) {
      report(await askAgain(life, state, stored, run), "Not sent in an earlier turn, so the principal is asked again:");
    } else if (stored.state === "persisted" || stored.state === "sent" || stored.state === "unknown") {
      run.progress(say(run, "progressCheckingEarlier", { orderId: stored.orderId }));
      report(await life.drive(stored, run), "Update on the earlier");
    } else if (finalStates.has(stored.state) && !state.reported.includes(stored.operationId)) {
      report(stored, "Outcome of the earlier");
    } else if (stored.state === "awaiting_confirmation" && stored.turn !== state.turns) {
      const note = await answerByMessage(life, state, stored, message, waitingCount, run);
      if (note.reported) report(note.intent, note.what);
      else notes.push(note.what);
    }
  }
  return notes;
}

/** A change persisted in an earlier turn and never sent: held, and the principal asked again. */
async function askAgain(life: IntentLifecycle, state: ConversationState, stored: Intent, run: Run): Promise<Intent> {
  const fields = life.heldFields(state, stored.tool, stored.request, stored.operationId, stored.confirmable !== false);
  const held = await life.transition(stored, "awaiting_confirmation", {
    ...fields,
    heldFor: [...(stored.heldFor ?? []), "stale"],
    turn: state.turns,
  });
  run.recorder.add({
    type: "confirmation",
    operationId: held.operationId,
    decision: "asked",
    text: fields.confirmationQuestion,
    confirmationId: fields.confirmationId,
  });
  return held;
}

/**
 * The principal's message as the answer to a change held in an earlier turn: a bare yes sends it (when it is the
 * only one waiting, its words are the principal's and it has not expired); anything else declines it.
 */
async function answerByMessage(
  life: IntentLifecycle,
  state: ConversationState,
  stored: Intent,
  message: PrincipalMessage,
  waitingCount: number,
  run: Run,
): Promise<{ reported: true; intent: Intent; what: string } | { reported: false; what: string }> {
  const yes = message.isAffirmation;
  const expired = life.expired(stored);
  if (yes && waitingCount > 1 && !expired) {
    // Which one? A bare yes to several questions confirms none of them; each is asked again, for its button.
    run.recorder.add({ type: "confirmation", operationId: stored.operationId, decision: "asked_again", text: message.text });
    const again = await life.transition(stored, "awaiting_confirmation", { turn: state.turns });
    run.outcomes.push(outcomeOf(again));
    return {
      reported: false,
      what: `${stored.tool} for ${stored.orderId} is still waiting: the principal's yes did not say which of the ${waitingCount} waiting changes it was for, so none was sent and each is asked again.`,
    };
  }
  const confirmed = yes && stored.confirmable !== false && !expired;
  run.recorder.add({
    type: "confirmation",
    operationId: stored.operationId,
    decision: confirmed ? "confirmed" : expired ? "expired" : "declined",
    text: message.text,
    via: "message",
  });
  if (confirmed) {
    const persisted = await life.transition(stored, "persisted");
    return { reported: true, intent: await life.execute(persisted, run), what: "The principal confirmed; outcome of" };
  }
  const why = yes
    ? "a yes does not send words the principal did not write, so nothing was sent:"
    : "The principal did not confirm, so nothing was sent:";
  return { reported: true, intent: await life.transition(stored, "declined"), what: why };
}

/**
 * The principal pressed confirm or decline on a held change (contract §8.5): the id must name a change waiting
 * in this conversation, and be the id of its exact request. Confirmed, it is sent with its own operationId; the
 * reply is the gate's status sentence for what happened. The model is not asked: it is told at the next turn.
 */
export async function settleByButton(
  life: IntentLifecycle,
  state: ConversationState,
  settlement: Settlement,
  run: Run,
): Promise<TurnDecision> {
  const { recorder } = run;
  const waiting = await waitingFor(life, state, settlement);
  const { settled, note } = await pressed(life, waiting, settlement, run);
  noteSettled(state, settled, run);
  state.messages.push({ role: "note", text: note });
  recorder.add({ type: "note", text: note });
  const expired = recorder.trace.events.some((e) => e.type === "confirmation" && e.decision === "expired");
  return expired
    ? {
        reply: say(run, "expired", { orderId: waiting.orderId }),
        replyKind: "information" as const,
        decision: "template" as const,
        flags: [],
        problems: [],
        judgedAgainst: "expired confirmation",
      }
    : gate({
        outcomes: run.outcomes,
        modelFailed: false,
        orders: state.orders,
        today: life.now().toISOString().slice(0, 10),
        locale: run.locale,
      });
}

/** The held change a button press names, bound to its exact request. */
async function waitingFor(life: IntentLifecycle, state: ConversationState, settlement: Settlement): Promise<Intent> {
  const waiting = (await life.store.forConversation(state.conversationId)).find(
    (i) => i.state === "awaiting_confirmation" && i.confirmationId === settlement.confirmationId,
  );
  if (!waiting)
    throw new ConfirmationError(
      `There is no change waiting for confirmation ${settlement.confirmationId} in conversation ${state.conversationId}: it was settled already, or belongs to another conversation. Use the confirmationId of a change this conversation's last turn returned.`,
    );
  if (confirmationIdOf(state.conversationId, waiting.operationId, waiting.tool, waiting.request) !== settlement.confirmationId)
    throw new ConfirmationError(
      `Confirmation ${settlement.confirmationId} does not match the request of the change it names: it cannot confirm other values. Ask the principal again.`,
    );
  return waiting;
}

/** What the press does to the held change: declined, expired, or sent; and the note the model reads next turn. */
async function pressed(
  life: IntentLifecycle,
  waiting: Intent,
  settlement: Settlement,
  run: Run,
): Promise<{ settled: Intent; note: string }> {
  const decided = (decision: "declined" | "expired" | "confirmed") =>
    run.recorder.add({
      type: "confirmation",
      operationId: waiting.operationId,
      decision,
      confirmationId: settlement.confirmationId,
      via: "button",
    });
  if (settlement.action === "decline") {
    decided("declined");
    const settled = await life.transition(waiting, "declined");
    return { settled, note: `The principal declined ${waiting.tool} for ${waiting.orderId}: ${modelView(settled)}` };
  }
  if (waiting.confirmable === false)
    throw new ConfirmationError(
      `The change of confirmation ${settlement.confirmationId} holds words the principal did not write and was not shown to them, so it cannot be confirmed as it is: ask for the exact words instead.`,
    );
  if (life.expired(waiting)) {
    decided("expired");
    const settled = await life.transition(waiting, "declined");
    return {
      settled,
      note: `The principal's confirmation of ${waiting.tool} for ${waiting.orderId} came after it expired: ${modelView(settled)}`,
    };
  }
  decided("confirmed");
  const settled = await life.execute(await life.transition(waiting, "persisted"), run);
  return { settled, note: `The principal confirmed ${waiting.tool} for ${waiting.orderId}; outcome: ${modelView(settled)}` };
}

/** The changes a turn's outcomes leave waiting, as the application renders them. */
export async function pendingConfirmations(
  life: IntentLifecycle,
  state: ConversationState,
  outcomes: readonly TurnOutcome[],
): Promise<PendingConfirmation[]> {
  const waiting = composeWaiting(outcomes);
  if (waiting.length === 0) return [];
  const intents = await life.store.forConversation(state.conversationId);
  // In the order the turn held them, which is the order its reply asks in: the store lists intents by creation
  // time, and two held in the same millisecond would otherwise come back in either order.
  return waiting
    .map((operationId) => intents.find((i) => i.operationId === operationId))
    .filter((i): i is Intent => i !== undefined && i.state === "awaiting_confirmation" && i.confirmationId !== undefined)
    .map((i) => ({
      confirmationId: i.confirmationId as string,
      operationId: i.operationId,
      tool: i.tool,
      orderId: i.orderId,
      values: confirmationValues(i.tool, i.request, factsOf(state, i.orderId), { quoteNote: i.confirmable !== false }),
      question: i.confirmationQuestion ?? "",
      expiresAt: i.confirmationExpiresAt ?? "",
    }));
}

/**
 * The operationIds a turn's outcomes leave waiting for a confirmation, composed as the reply composes them (one
 * outcome per change, in the order the changes came up), so the buttons come in the order the reply asks.
 */
function composeWaiting(outcomes: readonly TurnOutcome[]): string[] {
  return composeOutcomes(outcomes).flatMap((o) => (o.kind === "awaiting_confirmation" ? [o.operationId] : []));
}
