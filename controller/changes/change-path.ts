import type { PrincipalKind } from "#contract/model-context";
import { applicationField } from "#contract/model-tools";
import type { ChangeToolName, ToolName } from "#contract/tools";
import { foreignStrings } from "#controller/context/taint";
import { type ConversationState, shownOrders } from "#controller/state/conversation";
import { dayIn } from "#controller/text/days";
import type { OrderFacts } from "#controller/outcomes";
import { type ProvenanceDecision, type ProvenanceInput, provenance } from "#controller/guard/provenance";
import { finalStates, type Intent } from "#controller/intents/intent";
import { heldFields, modelText, noteSettled, outcomeOf } from "#controller/changes/intent-views";
import type { IntentLifecycle } from "#controller/changes/lifecycle";
import type { ToolCall } from "#controller/model/types";
import { sameChange } from "#controller/changes/proposal";
import { changeForms, heldRequestOf } from "#controller/guard/change-forms";
import type { TestSeams } from "#controller/seams";
import type { Run, ToolResult, DispatchContext } from "#controller/state/run";

/**
 * The change path: a change the model proposed is an intent. The same change proposed again is the same intent;
 * a new one is sent only when it traces to the principal's own words (guard/provenance.ts), else it waits for
 * their confirmation of the exact request, or for their answer to "which order?". Persisted before it is sent
 * (changes/lifecycle.ts), its outcome is what the model is told.
 */

/**
 * Changes that always wait for the principal's "yes", whatever their provenance: an application's own policy.
 * `"all"` holds every change, the strictest setting: nothing is sent without a confirmation of the exact request.
 * A record names tools (say, every cancellation); a function decides per request. The provenance control asks on
 * its own whenever a change was not clearly asked for; this is only for asking more often.
 */
export type ConfirmationPolicy =
  | "all"
  | Partial<Record<ToolName, boolean>>
  | ((tool: ToolName, request: Record<string, unknown>) => boolean);

export interface ChangePathDeps {
  life: IntentLifecycle;
  principal: PrincipalKind;
  confirm: ConfirmationPolicy | undefined;
  /** The provenance control, on unless a test or the evaluation's defects switch it (or some counts) off. */
  provenance: TestSeams["provenance"];
}

export interface ChangeProposal {
  tool: ChangeToolName;
  request: Record<string, unknown>;
  orderId: string;
}

type Check = Exclude<ProvenanceDecision, { decision: "clarify" }>;

export async function changePath(
  deps: ChangePathDeps,
  turn: DispatchContext,
  call: ToolCall,
  proposal: ChangeProposal,
): Promise<ToolResult> {
  const { tool, request, orderId } = proposal;
  const { recorder } = turn.run;
  const earlier = (await deps.life.store.forConversation(turn.state.conversationId)).filter(
    (i) => i.tool === tool && i.orderId === orderId,
  );
  const again = await proposedAgain(deps, turn, call, proposal, earlier);
  if (again) return again;

  const proposed = newIntent(turn, call, proposal, creationTime(turn.run, deps.life.now()));
  const check = checkProvenance(deps, turn, proposal);
  recorder.add({
    type: "provenance",
    toolUseId: call.id,
    tool,
    orderId,
    decision: check.decision,
    ...(check.decision === "confirm" ? { failed: check.failed, reasons: check.reasons } : {}),
  });
  if (check.decision === "clarify") return askWhichOrder(proposal, check.candidates, turn.run);
  recorder.add({ type: "intent", operationId: proposed.operationId, tool, orderId, from: null, to: "proposed", revision: 0 });
  const policy = needsConfirmation(deps.confirm, tool, request);
  if (check.decision === "confirm" || policy) return hold(deps, turn, proposed, check, policy);
  const persisted = await deps.life.transition(turn.run, proposed, "persisted");
  return reportChange(turn, await deps.life.execute(persisted, turn.run));
}

/**
 * The same change proposed again is the same intent: an open one is reconciled (never a second operationId), one
 * that completed in this turn is reported, one waiting for a yes is asked about again. Undefined: a new change.
 */
async function proposedAgain(
  deps: ChangePathDeps,
  turn: DispatchContext,
  call: ToolCall,
  { tool, request }: ChangeProposal,
  earlier: readonly Intent[],
): Promise<ToolResult | undefined> {
  const { recorder } = turn.run;
  const open = earlier.find((i) => !finalStates.has(i.state));
  if (open && (open.state !== "awaiting_confirmation" || sameChange(tool, open.request, request))) {
    recorder.add({ type: "same_change", toolUseId: call.id, operationId: open.operationId, state: open.state });
    return settleAgain(deps, turn, open);
  }
  if (open) {
    // Waiting for a yes, and now proposed with other values: the new proposal replaces it, and is asked instead.
    await deps.life.transition(turn.run, open, "superseded");
    turn.state.reported.push(open.operationId);
  }
  // Settled in this very turn (reconciled at its start, or sent a moment ago): the principal has not been
  // told yet, so proposing it again is still that change, not a new one.
  const justSettled = earlier.find(
    (i) => i.state === "completed" && turn.run.settled.has(i.operationId) && sameChange(tool, i.request, request),
  );
  if (!justSettled) return undefined;
  recorder.add({ type: "same_change", toolUseId: call.id, operationId: justSettled.operationId, state: justSettled.state });
  return { content: modelText(turn.state, turn.run, justSettled), isError: false };
}

/** A re-proposal of an open intent: drive it on with its own operationId and request. */
async function settleAgain(deps: ChangePathDeps, turn: DispatchContext, open: Intent): Promise<ToolResult> {
  const { run } = turn;
  if (open.state === "awaiting_confirmation") {
    // Still waiting: only the principal's answer to its question, or a button, sends it (changes/settlement.ts).
    if (!run.outcomes.some((o) => o.kind === "awaiting_confirmation" && o.operationId === open.operationId))
      run.outcomes.push(outcomeOf(open));
    return { content: modelText(turn.state, turn.run, open), isError: false };
  }
  return reportChange(turn, await deps.life.drive(open, run));
}

/** The last creation time a running turn gave an intent, in epoch milliseconds. */
const lastCreated = new WeakMap<DispatchContext["run"], number>();

/**
 * An intent's createdAt: the clock's time, or a millisecond past the last one the turn gave, so intents proposed in
 * one model step (often within one millisecond) are listed in the order the model proposed them, as every store
 * lists a conversation's intents by createdAt (a tie fell to the random operationId).
 */
function creationTime(run: DispatchContext["run"], now: Date): string {
  const at = Math.max(now.getTime(), (lastCreated.get(run) ?? 0) + 1);
  lastCreated.set(run, at);
  return new Date(at).toISOString();
}

function newIntent(turn: DispatchContext, call: ToolCall, { tool, request, orderId }: ChangeProposal, now: string): Intent {
  return {
    operationId: String(request[applicationField]),
    conversationId: turn.state.conversationId,
    toolUseId: call.id,
    tool,
    orderId,
    request,
    state: "proposed",
    revision: 0,
    createdAt: now,
    updatedAt: now,
    sends: 0,
    turn: turn.state.turns,
  };
}

/** The provenance control's decision on a new change (contract §8.5). */
function checkProvenance(deps: ChangePathDeps, turn: DispatchContext, { tool, request }: ChangeProposal): ProvenanceDecision {
  return deps.provenance === false
    ? ({ decision: "dispatch", target: "single_order" } as const)
    : provenance(provenanceInput(deps, turn, tool, request));
}

function provenanceInput(
  deps: ChangePathDeps,
  { state, message, said, askedWhichOrder }: DispatchContext,
  tool: ToolName,
  request: Record<string, unknown>,
): ProvenanceInput {
  return {
    tool,
    request,
    orderId: String(request.orderId),
    message,
    ...(askedWhichOrder?.tool === tool ? { askedBefore: askedWhichOrder.message } : {}),
    principalMessages: said,
    orders: state.orders,
    incomplete: state.incomplete ?? false,
    resolvedFragments: state.resolvedFragments ?? {},
    taint: state.taint ?? [],
    ...(state.taint?.length ? { foreignTexts: foreignTextsRead(state, deps.principal) } : {}),
    locale: state.locale ?? "en",
    today: dayIn(deps.life.now(), state.timeZone),
    ...(state.timeZone ? { timeZone: state.timeZone } : {}),
    shownOrders: shownOrders(state),
    changeBefore: state.reported.length > 0 || (state.asked?.length ?? 0) > 0 || state.completedOrders.length > 0,
    ...(typeof deps.provenance === "object" ? { skip: deps.provenance.skip } : {}),
  };
}

/** The foreign texts the model has read in this conversation: its tool results, the datamark taken out. */
function foreignTextsRead(state: ConversationState, principal: PrincipalKind): string[] {
  return state.messages.flatMap((m) => {
    if (m.role !== "tool") return [];
    try {
      return foreignStrings(JSON.parse(m.content), principal);
    } catch {
      return [];
    }
  });
}

/** Several orders in play and the message picks none: nothing is sent, and the principal is asked which. */
function askWhichOrder({ tool, orderId }: ChangeProposal, candidates: OrderFacts[], run: Run): ToolResult {
  run.outcomes.push({ kind: "clarification", tool, orderId, candidates });
  return {
    content: JSON.stringify({
      status: "not_sent",
      reason: "clarification_needed",
      candidates: candidates.map((c) => c.orderId),
      message: `Not sent: more than one order is in play (${candidates.map((c) => c.orderId).join(", ")}) and the principal's latest message does not say which one. Ask which order they mean.`,
    }),
    isError: true,
  };
}

/** The change waits for the principal's confirmation of its exact request. */
async function hold(deps: ChangePathDeps, turn: DispatchContext, asked: Intent, check: Check, policy: boolean): Promise<ToolResult> {
  // What is sent on a yes is what the question shows (contract §8.5): a value it does not show is dropped here.
  const proposed = { ...asked, request: heldRequestOf(asked.tool, asked.request) };
  // A free text dropped from what is sent no longer needs to be the principal's: only the note is quoted back.
  const quoteNote = check.decision === "confirm" ? (changeForms[asked.tool].heldRequest ? true : check.quoteNote) : true;
  const fields = heldFields(turn.state, proposed, quoteNote, deps.life.expiry(), turn.run);
  const heldFor = [...(check.decision === "confirm" ? check.failed : []), ...(policy ? (["policy"] as const) : [])];
  const waiting = await deps.life.transition(turn.run, proposed, "awaiting_confirmation", {
    ...fields,
    heldFor,
    confirmable: quoteNote,
  });
  turn.run.recorder.add({
    type: "confirmation",
    operationId: waiting.operationId,
    decision: "asked",
    text: fields.confirmationQuestion,
    confirmationId: fields.confirmationId,
  });
  turn.run.outcomes.push(outcomeOf(waiting));
  return { content: modelText(turn.state, turn.run, waiting), isError: false };
}

function needsConfirmation(policy: ConfirmationPolicy | undefined, tool: ToolName, request: Record<string, unknown>): boolean {
  if (policy === undefined) return false;
  if (policy === "all") return true;
  return typeof policy === "function" ? policy(tool, request) : policy[tool] === true;
}

function reportChange(turn: DispatchContext, settled: Intent): ToolResult {
  noteSettled(turn.state, settled, turn.run);
  return { content: modelText(turn.state, turn.run, settled), isError: settled.state !== "completed" };
}
