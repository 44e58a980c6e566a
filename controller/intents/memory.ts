import type { Intent } from "#controller/intents/intent";
import { byCreation, checkRevision, type IntentStore, isResumable, LocalLeases } from "#controller/intents/store";

/** Intents kept in this process only: for tests, and for applications that accept losing them on restart. */
export class MemoryIntentStore implements IntentStore {
  private readonly intents = new Map<string, Intent>();
  private readonly leases = new LocalLeases();

  async save(intent: Intent): Promise<void> {
    checkRevision(intent, this.intents.get(intent.operationId));
    this.intents.set(intent.operationId, structuredClone(intent));
  }

  async forConversation(conversationId: string): Promise<Intent[]> {
    return [...this.intents.values()]
      .filter((i) => i.conversationId === conversationId)
      .sort(byCreation)
      .map((i) => structuredClone(i));
  }

  async resumable(): Promise<Intent[]> {
    return [...this.intents.values()]
      .filter(isResumable)
      .sort(byCreation)
      .map((i) => structuredClone(i));
  }

  async acquireLease(conversationId: string, holder: string, untilMs: number, nowMs: number): Promise<boolean> {
    return this.leases.acquire(conversationId, holder, untilMs, nowMs);
  }

  async releaseLease(conversationId: string, holder: string): Promise<void> {
    this.leases.release(conversationId, holder);
  }
}
