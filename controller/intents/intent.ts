import type { ChangeToolName } from "#contract/tools";

/**
 * An intent: one change a model proposed and the controller decided to make, with the operationId created for
 * it once. Its state moves through a small machine, and every move is written to the intent store before the
 * next step is taken:
 *
 *   proposed → persisted → sent → completed | rejected | unknown;  unknown → (reconciled) completed | rejected
 *   proposed → awaiting_confirmation → persisted (confirmed) | declined | expired | superseded
 *   persisted → awaiting_confirmation: a change persisted in an earlier turn and never sent is not sent before
 *   the principal's next message has been read (it might say "actually, don't"); it is asked about again.
 *
 * A held change (`awaiting_confirmation`, "pending") ends confirmed (it moves on to `persisted` and is sent),
 * `declined` (the principal said no), `expired` (no answer before its expiry: not a no, and the principal is told),
 * or `superseded` (the model proposed the same change with other values, which is asked about instead).
 * `persisted` means written and not yet sent; `sent` is written before the request leaves, so after a crash it
 * means "may have reached the service". Completed, rejected, declined, expired and superseded are final.
 */
export const intentStates = [
  "proposed",
  "awaiting_confirmation",
  "persisted",
  "sent",
  "unknown",
  "completed",
  "rejected",
  "declined",
  "expired",
  "superseded",
] as const;
export type IntentState = (typeof intentStates)[number];

export const finalStates: ReadonlySet<IntentState> = new Set(["completed", "rejected", "declined", "expired", "superseded"]);

/** States a restarted controller drives on by itself: the customer has already agreed to these. */
export const resumableStates: ReadonlySet<IntentState> = new Set(["persisted", "sent", "unknown"]);

const transitions: Record<IntentState, readonly IntentState[]> = {
  proposed: ["persisted", "awaiting_confirmation"],
  // Asked again (an answer that is neither yes nor no, or a yes that does not say which) stays waiting, in the new turn.
  awaiting_confirmation: ["persisted", "declined", "expired", "superseded", "awaiting_confirmation"],
  persisted: ["sent", "awaiting_confirmation"],
  sent: ["completed", "rejected", "unknown"],
  // A resend after OPERATION_NOT_FOUND goes out again as `sent`.
  unknown: ["sent", "completed", "rejected", "unknown"],
  completed: [],
  rejected: [],
  declined: [],
  expired: [],
  superseded: [],
};

export function canMove(from: IntentState, to: IntentState): boolean {
  return transitions[from].includes(to);
}

/** The recorded business outcome, as the service answered it (directly or through get_operation_status). */
export interface IntentOutcome {
  status: "completed" | "rejected";
  /** The tool's 200 body, or the error body (`{error: {...}}`). */
  body: Record<string, unknown>;
  code?: string;
  reason?: string;
  /** Whether the service keeps this outcome for the operationId (contract §4), or refused without recording it (429, 401/403, INVALID_INPUT). */
  recorded: boolean;
  /** How the controller learned it. */
  via: "response" | "reconciliation";
}

export interface Intent {
  operationId: string;
  conversationId: string;
  /** The model's id for the call that proposed it (tool_use id / tool_call id). */
  toolUseId: string;
  /** Only a change becomes an intent: a read is sent as it comes. */
  tool: ChangeToolName;
  orderId: string;
  /** The exact request body, operationId included: every send repeats it byte for byte. */
  request: Record<string, unknown>;
  state: IntentState;
  /** Goes up by one with every write; a store refuses a write that is not the next revision. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  /** How many times the request has left (first send and resends). */
  sends: number;
  outcome?: IntentOutcome;
  /** Set when a response named another operation or order: the confirmation is withheld (contract §8.2). */
  mismatch?: string;
  /** What to ask the principal while awaiting_confirmation. */
  confirmationQuestion?: string;
  /** Why it waits for a yes: the provenance counts that failed, the application's policy, or a stale send. */
  heldFor?: ("context" | "language" | "form" | "target" | "values" | "policy" | "stale")[];
  /** While awaiting_confirmation: the id bound to this exact request, which `confirm()` and `decline()` name. */
  confirmationId?: string;
  /** While awaiting_confirmation: after this (ISO 8601), a confirmation declines it instead of sending it. */
  confirmationExpiresAt?: string;
  /** False when a yes may not send it as it is (a note whose words are not the principal's). */
  confirmable?: boolean;
  /** The turn of the conversation the intent was made in, or (while it waits) last asked about in. */
  turn?: number;
  /** Why the principal declined it, in their words (`decline(id, { reason })`), for the model. */
  declineReason?: string;
  /**
   * While held and after: the turn that held it and that turn's trace id. It is sent in a later turn (the confirming
   * one, whose trace id the service logs), and that turn's trace names this one, where its question was asked.
   */
  heldIn?: { turn: number; traceId: string };
}

export class IntentTransitionError extends Error {
  constructor(intent: Intent, to: IntentState) {
    super(`Intent ${intent.operationId} cannot move from ${intent.state} to ${to}.`);
    this.name = "IntentTransitionError";
  }
}

/** The next revision of an intent in a new state, checked against the machine above. */
export function moved(intent: Intent, to: IntentState, changes: Partial<Intent> = {}, now = new Date()): Intent {
  if (!canMove(intent.state, to)) throw new IntentTransitionError(intent, to);
  return { ...intent, ...changes, state: to, revision: intent.revision + 1, updatedAt: now.toISOString() };
}

/** 8–128 characters of [A-Za-z0-9._:-] (contract §4), made once per intent. */
export function newOperationId(): string {
  return `op-${crypto.randomUUID()}`;
}
