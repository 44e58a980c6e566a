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
  /**
   * Takes a conversation's turn lease for `holder` until `untilMs` (epoch ms) when it is free, expired, or
   * already the holder's; false when another holder has it. A conditional write, so two processes sharing the
   * store cannot both hold it.
   */
  acquireLease(conversationId: string, holder: string, untilMs: number, nowMs: number): Promise<boolean>;
  /** Gives the lease back, if `holder` still has it. */
  releaseLease(conversationId: string, holder: string): Promise<void>;
}

/** Leases kept in this process: enough for the stores whose data only one process uses. */
export class LocalLeases {
  private readonly leases = new Map<string, { holder: string; untilMs: number }>();

  acquire(conversationId: string, holder: string, untilMs: number, nowMs: number): boolean {
    const lease = this.leases.get(conversationId);
    if (lease && lease.holder !== holder && lease.untilMs > nowMs) return false;
    this.leases.set(conversationId, { holder, untilMs });
    return true;
  }

  release(conversationId: string, holder: string): void {
    if (this.leases.get(conversationId)?.holder === holder) this.leases.delete(conversationId);
  }
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
