import type { Intent } from "#controller/intents/intent";
import { checkRevision, ProcessIntentStore } from "#controller/intents/store";

/** Intents kept in this process only: for tests, and for applications that accept losing them on restart. */
export class MemoryIntentStore extends ProcessIntentStore {
  private readonly intents = new Map<string, Intent>();

  protected async held(): Promise<Map<string, Intent>> {
    return this.intents;
  }

  async save(intent: Intent): Promise<void> {
    checkRevision(intent, this.intents.get(intent.operationId));
    this.intents.set(intent.operationId, structuredClone(intent));
  }
}
