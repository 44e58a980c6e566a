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

/**
 * A store whose intents one process holds in a map (in memory, or loaded from a file): it lists them from the
 * map and keeps turn leases in the process, which serialise the controllers sharing the store in it. A store
 * only says how it holds the map and how a save reaches it.
 */
export abstract class ProcessIntentStore implements IntentStore {
  private readonly leases = new Map<string, { holder: string; untilMs: number }>();

  /** The intents as this process holds them, by operation id. */
  protected abstract held(): Promise<Map<string, Intent>>;

  abstract save(intent: Intent): Promise<void>;

  async forConversation(conversationId: string): Promise<Intent[]> {
    return listed(await this.held(), (i) => i.conversationId === conversationId);
  }

  async resumable(): Promise<Intent[]> {
    return listed(await this.held(), isResumable);
  }

  async acquireLease(conversationId: string, holder: string, untilMs: number, nowMs: number): Promise<boolean> {
    const lease = this.leases.get(conversationId);
    if (lease && lease.holder !== holder && lease.untilMs > nowMs) return false;
    this.leases.set(conversationId, { holder, untilMs });
    return true;
  }

  async releaseLease(conversationId: string, holder: string): Promise<void> {
    if (this.leases.get(conversationId)?.holder === holder) this.leases.delete(conversationId);
  }
}

/** Copies, oldest first, so a caller's edits never reach the held intents. */
function listed(intents: Map<string, Intent>, keep: (intent: Intent) => boolean): Intent[] {
  return [...intents.values()]
    .filter(keep)
    .sort(byCreation)
    .map((i) => structuredClone(i));
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
