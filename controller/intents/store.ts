import { type Intent, resumableStates } from "#controller/intents/intent";

/**
 * Where intents are persisted before anything is sent. Writes are optimistic: `save` stores revision n only
 * over revision n − 1 (or over nothing for revision 1), so two controllers driving the same intent — a
 * restarted one and one that is still running — cannot overwrite each other's progress unnoticed.
 */
export interface IntentStore {
  save(intent: Intent): Promise<void>;
  /** Every intent of a conversation, oldest first. */
  forConversation(conversationId: string): Promise<Intent[]>;
  /** Intents a restarted controller must finish (persisted, sent or unknown), in any conversation. */
  resumable(): Promise<Intent[]>;
}

export class IntentConflictError extends Error {
  constructor(
    readonly operationId: string,
    readonly revision: number,
    readonly storedRevision: number | undefined,
  ) {
    super(
      storedRevision === undefined
        ? `Intent ${operationId} revision ${revision} cannot be written: the store has no revision ${revision - 1} of it.`
        : `Intent ${operationId} revision ${revision} cannot be written over revision ${storedRevision}: another controller moved it on. Reload it and continue from there.`,
    );
    this.name = "IntentConflictError";
  }
}

/** Checks the revision rule against what a store holds now. */
export function checkRevision(intent: Intent, stored: Intent | undefined): void {
  const expected = intent.revision - 1;
  if ((stored?.revision ?? 0) !== expected) throw new IntentConflictError(intent.operationId, intent.revision, stored?.revision);
}

export const isResumable = (intent: Intent) => resumableStates.has(intent.state);

/** Oldest first, then by id: the order intents are listed in. */
export const byCreation = (a: Intent, b: Intent) => a.createdAt.localeCompare(b.createdAt) || a.operationId.localeCompare(b.operationId);
