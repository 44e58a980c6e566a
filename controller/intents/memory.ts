import type { Intent } from "#controller/intents/intent";
import { checkRevision, type IntentStore, ProcessIntentStore } from "#controller/intents/store";

/**
 * Intents kept in this process only: for tests, and for applications that accept losing them on restart. It is the
 * controller's store when the options name none (`intents`).
 */
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

/**
 * What to add where a button names a held change its conversation's store does not know at all (not even settled):
 * on a MemoryIntentStore that is what a restart looks like — the process that held the change took it along — so
 * the error names the stores that outlive a process. Nothing for any other store, or for an id the store knows.
 */
export function lostOnRestart(store: IntentStore, conversationIntents: readonly Intent[], confirmationId: string): string {
  if (!(store instanceof MemoryIntentStore) || conversationIntents.some((i) => i.confirmationId === confirmationId)) return "";
  return " If the process restarted since the change was held, it is gone: the intent store is a MemoryIntentStore (the default when the options name no `intents`), which keeps changes in the process that held them. Keep them where they outlive a restart: `intents: await new FileIntentStore(path).open()` (order-tools/controller) or `intents: new DynamoDbIntentStore({ client, tableName })` (order-tools/controller/dynamodb).";
}
