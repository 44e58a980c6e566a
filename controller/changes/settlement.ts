import { type ConversationState, factsOf } from "#controller/state/conversation";
import { type GateDecision, gate } from "#controller/gate/gate";
import { composeOutcomes, type TurnOutcome } from "#controller/outcomes";
import { type AnswerKind, answerTo, changeAnswered, readAnswer } from "#controller/guard/answer";
import { confirmationIdOf, confirmationValues, type PendingConfirmation } from "#controller/guard/confirmation";
import type { PrincipalMessage } from "#controller/guard/message";
import { finalStates, type Intent } from "#controller/intents/intent";
import { lostOnRestart } from "#controller/intents/memory";
import type { IntentStore } from "#controller/intents/store";
import { heldFields, modelText, noteSettled, outcomeOf } from "#controller/changes/intent-views";
import type { IntentLifecycle } from "#controller/changes/lifecycle";
import { type Run, say } from "#controller/state/run";
import { answerWords } from "#controller/i18n/answers";
import { dayIn } from "#controller/text/days";

/**
 * Settlement: what becomes of intents between turns (contract §8.5). At the start of a turn, the conversation's
 * earlier intents are finished or reported; a held change is settled only by an answer to the question the reply
 * right before showed — the only one shown, or the one whose order (or verb) the answer names — as confirm, decline
 * or neither (guard/answer.ts); every other held change is asked again, with a new expiry; one past its expiry is
 * `expired` and the principal is told. A press of the application's confirm or decline button settles the one
 * change it names, and its reply asks again about every change still waiting.
 */

/** A press of the application's confirm or decline button on a held change. */
export interface Settlement {
  action: "confirm" | "decline";
  confirmationId: string;
  /** Why the principal declined, in their words (`decline(id, { reason })`): the model is told. */
  reason?: string;
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
 * outcome reconciled), outcomes settled elsewhere (by resume) are reported, held changes are settled by the
 * message as an answer or asked again, and a change persisted in an earlier turn but never sent is asked about
 * again rather than sent unseen. Returns notes for the model.
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
    notes.push(`${what} ${intent.tool} for ${intent.orderId}: ${modelText(state, run, intent)}`);
  };
  const intents = await life.store.forConversation(state.conversationId);
  const waiting: Intent[] = [];
  for (const stored of intents) {
    if (stored.state === "persisted" && stored.sends === 0) {
      report(await askAgain(life, state, stored, run, "stale"), "Not sent in an earlier turn, so the principal is asked again:");
    } else if (stored.state === "persisted" || stored.state === "sent" || stored.state === "unknown") {
      run.progress(say(run, "progressCheckingEarlier", { orderId: stored.orderId }));
      report(await life.drive(stored, run), "Update on the earlier");
    } else if (finalStates.has(stored.state) && !state.reported.includes(stored.operationId)) {
      report(stored, "Outcome of the earlier");
    } else if (stored.state === "awaiting_confirmation" && stored.turn !== state.turns) {
      if (life.expired(stored)) report(await expire(life, stored, run, "message"), "Expired before the principal answered:");
      else waiting.push(stored);
    }
  }
  for (const note of await answerWaiting(life, state, waiting, message, run)) {
    if (note.intent) report(note.intent, note.what);
    else notes.push(note.what);
  }
  return notes;
}

/**
 * The principal's message as the answer to the changes the last reply asked about. It settles at most one: the
 * only one asked, or the one it names; every other change still waiting — asked about earlier and not in the last
 * reply, or not the one answered — is asked again.
 */
async function answerWaiting(
  life: IntentLifecycle,
  state: ConversationState,
  waiting: readonly Intent[],
  message: PrincipalMessage,
  run: Run,
): Promise<{ intent?: Intent; what: string }[]> {
  if (waiting.length === 0) return [];
  const asked = state.asked ?? [];
  const shown = asked.flatMap((id) => waiting.filter((i) => i.operationId === id));
  const reading = readAnswer(message.text, run.locale);
  const answered = changeAnswered(reading, shown.map(heldChange));
  const context = { reported: state.askedBeside ?? [] };
  // "not asked": held earlier and not in the last reply, so this message cannot be its answer.
  const notes: { intent?: Intent; what: string }[] = [];
  for (const stored of waiting) {
    const kind: AnswerKind | "not asked" =
      answered?.intent === stored ? answerTo(reading, answered, context) : shown.includes(stored) ? "neither" : "not asked";
    run.recorder.add({ type: "confirmation", operationId: stored.operationId, decision: kind, text: message.text, via: "message" });
    if (kind === "confirm" && stored.confirmable !== false) {
      const sent = await life.execute(await life.transition(run, stored, "persisted"), run);
      notes.push({ intent: sent, what: "The principal confirmed; outcome of" });
    } else if (kind === "decline") {
      notes.push({ intent: await life.transition(run, stored, "declined"), what: "The principal declined, so nothing was sent:" });
    } else if (kind === "confirm") {
      // A yes to a change that cannot be confirmed as it is (a note whose words are not the principal's): its question
      // said why, once; the yes settles it unsent rather than asking the same question again on every yes.
      notes.push({
        intent: await life.transition(run, stored, "declined"),
        what: "The principal said yes to a change they cannot confirm:",
      });
    } else {
      const again = await askAgain(life, state, stored, run, "asked_again");
      // Its question was on screen and this message did not answer it: the principal is told so, and how to answer.
      const asked = outcomeOf(again);
      run.outcomes.push(
        kind === "neither" && asked.kind === "awaiting_confirmation"
          ? { ...asked, question: `${notUnderstood(run, again)} ${asked.question}` }
          : asked,
      );
      notes.push({ what: `${stored.tool} for ${stored.orderId} is still waiting for the principal's yes or no, and is asked again.` });
    }
  }
  return notes;
}

/** "I couldn't read that as a yes or a no …": in the principal's language, with the answer that confirms this change. */
function notUnderstood(run: Run, intent: Intent): string {
  return say(run, "notUnderstood", { orderId: intent.orderId, yes: answerWords[run.locale].shownYes });
}

/**
 * What the reply asks about, and which outcomes it reported beside its questions (contract §8.5): the next typed
 * message can answer only these, and after a report only by restating the change it answers.
 */
export function noteAsked(state: ConversationState, asked: readonly { operationId: string }[], outcomes: readonly TurnOutcome[]): void {
  state.asked = asked.map((c) => c.operationId);
  const reported = composeOutcomes(outcomes).flatMap((o) =>
    o.kind === "clarification" || o.kind === "awaiting_confirmation" ? [] : [{ tool: o.tool, orderId: o.orderId }],
  );
  if (asked.length > 0 && reported.length > 0) state.askedBeside = reported;
  else delete state.askedBeside;
}

const heldChange = (intent: Intent) => ({
  intent,
  tool: intent.tool,
  orderId: intent.orderId,
  itemIds: Array.isArray(intent.request.itemIds)
    ? intent.request.itemIds.map(String)
    : typeof intent.request.itemId === "string"
      ? [intent.request.itemId]
      : [],
});

/**
 * A held change asked about again in this turn, with a new expiry: one the principal has not answered, or a change
 * persisted in an earlier turn and never sent (held now, never sent unseen). `Controller.resume` holds such a change
 * too, in a conversation state of no turns, so the conversation's next turn asks.
 */
export async function askAgain(
  life: IntentLifecycle,
  state: ConversationState,
  stored: Intent,
  run: Run,
  why: "stale" | "asked_again",
): Promise<Intent> {
  const fields = heldFields(state, stored, stored.confirmable !== false, life.expiry(), run);
  const held = await life.transition(run, stored, "awaiting_confirmation", {
    ...fields,
    ...(why === "stale" ? { heldFor: [...(stored.heldFor ?? []), "stale" as const] } : {}),
    turn: state.turns,
  });
  run.recorder.add({
    type: "confirmation",
    operationId: held.operationId,
    decision: why === "stale" ? "asked" : "asked_again",
    text: fields.confirmationQuestion,
    confirmationId: fields.confirmationId,
  });
  return held;
}

/** A held change past its expiry: expired, not declined — the principal is told, and may ask again. */
async function expire(life: IntentLifecycle, stored: Intent, run: Run, via: "message" | "button"): Promise<Intent> {
  run.recorder.add({ type: "confirmation", operationId: stored.operationId, decision: "expired", via });
  return life.transition(run, stored, "expired");
}

/**
 * The principal pressed confirm or decline on a held change (contract §8.5): the id must name a change waiting
 * in this conversation, and be the id of its exact request. Confirmed, it is sent with its own operationId; the
 * reply is the gate's status sentence for what happened, followed by the question of every change still waiting.
 * The model is not asked: it is told at the next turn.
 */
export async function settleByButton(
  life: IntentLifecycle,
  state: ConversationState,
  settlement: Settlement,
  run: Run,
): Promise<TurnDecision> {
  await settleByButtons(life, state, [settlement], run);
  return gate({
    outcomes: run.outcomes,
    modelFailed: false,
    orders: state.orders,
    today: dayIn(life.now(), state.timeZone),
    locale: run.locale,
  });
}

/**
 * Presses of buttons on held changes, in order, as one turn (an agent framework answers every approval it asked for
 * at once): every id is checked before any change moves, so a batch with one id that names no waiting change, or
 * names one twice, settles nothing. Each press settles the change it names; every other change still waiting is
 * asked again. Returns what each press left its change as.
 */
export async function settleByButtons(
  life: IntentLifecycle,
  state: ConversationState,
  settlements: readonly Settlement[],
  run: Run,
): Promise<Intent[]> {
  const { recorder } = run;
  const intents = await life.store.forConversation(state.conversationId);
  const waiting = settlements.map((settlement, i) => {
    if (settlements.findIndex((s) => s.confirmationId === settlement.confirmationId) !== i)
      throw new ConfirmationError(`Confirmation ${settlement.confirmationId} is answered twice in one turn: answer each held change once.`);
    return confirmableFor(waitingFor(intents, state, settlement, life.store), settlement);
  });
  const settled: Intent[] = [];
  for (const [i, settlement] of settlements.entries()) {
    const { settled: one, note } = await pressed(life, state, waiting[i] as Intent, settlement, run);
    noteSettled(state, one, run);
    state.messages.push({ role: "note", text: note });
    recorder.add({ type: "note", text: note });
    settled.push(one);
  }
  // A button names one change: every other one still waiting is shown again, for its own buttons.
  for (const other of intents) {
    if (waiting.some((w) => w.operationId === other.operationId) || other.state !== "awaiting_confirmation") continue;
    if (life.expired(other)) noteSettled(state, await expire(life, other, run, "button"), run);
    else run.outcomes.push(outcomeOf(await askAgain(life, state, other, run, "asked_again")));
  }
  return settled;
}

/** The held change a button press names, bound to its exact request. */
function waitingFor(intents: readonly Intent[], state: ConversationState, settlement: Settlement, store: IntentStore): Intent {
  const waiting = intents.find((i) => i.state === "awaiting_confirmation" && i.confirmationId === settlement.confirmationId);
  if (!waiting)
    throw new ConfirmationError(
      `There is no change waiting for confirmation ${settlement.confirmationId} in conversation ${state.conversationId}: it was settled already, or belongs to another conversation. Use the confirmationId of a change this conversation's last turn returned.${lostOnRestart(store, intents, settlement.confirmationId)}`,
    );
  if (confirmationIdOf(state.conversationId, waiting.operationId, waiting.tool, waiting.request) !== settlement.confirmationId)
    throw new ConfirmationError(
      `Confirmation ${settlement.confirmationId} does not match the request of the change it names: it cannot confirm other values. Ask the principal again.`,
    );
  return waiting;
}

/** A confirm press on a change that holds words the principal did not write and was not shown is refused. */
function confirmableFor(waiting: Intent, settlement: Settlement): Intent {
  if (settlement.action === "confirm" && waiting.confirmable === false)
    throw new ConfirmationError(
      `The change of confirmation ${settlement.confirmationId} holds words the principal did not write and was not shown to them, so it cannot be confirmed as it is: ask for the exact words instead.`,
    );
  return waiting;
}

/** What the press does to the held change: declined, expired, or sent; and the note the model reads next turn. */
async function pressed(
  life: IntentLifecycle,
  state: ConversationState,
  waiting: Intent,
  settlement: Settlement,
  run: Run,
): Promise<{ settled: Intent; note: string }> {
  const decided = (decision: "declined" | "confirmed") =>
    run.recorder.add({
      type: "confirmation",
      operationId: waiting.operationId,
      decision,
      confirmationId: settlement.confirmationId,
      via: "button",
    });
  if (settlement.action === "decline") {
    decided("declined");
    const reason = settlement.reason?.trim();
    const settled = await life.transition(run, waiting, "declined", reason ? { declineReason: reason } : {});
    return { settled, note: `The principal declined ${waiting.tool} for ${waiting.orderId}: ${modelText(state, run, settled)}` };
  }
  if (life.expired(waiting)) {
    const settled = await expire(life, waiting, run, "button");
    return {
      settled,
      note: `The principal's confirmation of ${waiting.tool} for ${waiting.orderId} came after it expired: ${modelText(state, run, settled)}`,
    };
  }
  decided("confirmed");
  const settled = await life.execute(await life.transition(run, waiting, "persisted"), run);
  return { settled, note: `The principal confirmed ${waiting.tool} for ${waiting.orderId}; outcome: ${modelText(state, run, settled)}` };
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
