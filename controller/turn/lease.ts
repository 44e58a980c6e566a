import type { IntentStore } from "#controller/intents/store";

/**
 * One conversation's turns run one at a time, across processes: a turn holds the conversation's lease in the
 * intent store (a conditional write) while it runs. A second controller wanting a turn of the same conversation
 * waits for the lease (polling, at most `waitMs`), so a repeated message handled by another process finds the
 * first turn's intents settled or in flight, never races them. The lease lasts the turn's time bound and a
 * margin: a controller that dies mid-turn frees it by expiry.
 */
export class ConversationBusyError extends Error {
  constructor(
    readonly conversationId: string,
    waitedMs: number,
  ) {
    super(
      `Conversation ${conversationId} is running a turn in another controller, still after ${Math.round(waitedMs)} ms; try the message again in a moment.`,
    );
    this.name = "ConversationBusyError";
  }
}

export interface LeaseOptions {
  store: IntentStore;
  conversationId: string;
  holder: string;
  /** How long a lease lasts once taken. */
  ttlMs: number;
  /** How long to wait for a lease another holder has; 0 tries once. */
  waitMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** Takes the lease (waiting as allowed); true when taken. */
export async function acquireTurnLease(options: LeaseOptions): Promise<boolean> {
  const started = options.now();
  for (let attempt = 0; ; attempt++) {
    const now = options.now();
    if (await options.store.acquireLease(options.conversationId, options.holder, now + options.ttlMs, now)) return true;
    if (now - started >= options.waitMs) return false;
    await options.sleep(Math.min(250, 25 * 2 ** Math.min(attempt, 4), Math.max(1, options.waitMs - (now - started))));
  }
}

/** Runs `work` holding the conversation's lease; throws ConversationBusyError when it cannot be had. */
export async function withTurnLease<T>(options: LeaseOptions, work: () => Promise<T>): Promise<T> {
  const started = options.now();
  if (!(await acquireTurnLease(options))) throw new ConversationBusyError(options.conversationId, options.now() - started);
  try {
    return await work();
  } finally {
    await options.store.releaseLease(options.conversationId, options.holder);
  }
}
