import type { PrincipalKind } from "#contract/model-context";
import { outcomeOf } from "#controller/changes/intent-views";
import type { IntentLifecycle } from "#controller/changes/lifecycle";
import { askAgain } from "#controller/changes/settlement";
import type { ApplicationTrace } from "#controller/http/trace-context";
import type { Locale } from "#controller/i18n/locale";
import type { Intent } from "#controller/intents/intent";
import { newConversationState } from "#controller/state/conversation";
import { type Run, runs } from "#controller/state/run";
import { TraceRecorder, type TraceSink } from "#controller/trace/record";
import { acquireTurnLease, type LeaseOptions } from "#controller/turn/lease";

/** What a resume works with: the controller's intents, its bound, its name on the leases, and where traces go. */
export interface ResumeDeps {
  life: IntentLifecycle;
  /** The bound on the whole call. */
  maxSeconds: number;
  /** Each conversation's lease, but for the conversation: taken under the controller's own name, without waiting. */
  lease: Omit<LeaseOptions, "conversationId">;
  model: string;
  now: () => Date;
  applicationTrace: () => ApplicationTrace | undefined;
  locale: Locale;
  principal: PrincipalKind;
  trace: TraceSink | undefined;
}

/**
 * After a restart: finishes every intent the store holds as sent or unknown, each with its own operationId
 * (reconciled), within one time bound for the whole call. A change persisted and never sent is not sent: it is
 * held, and the principal's next turn asks about it again.
 * A conversation whose turn lease another live controller holds is skipped: that controller is driving it.
 * An intent another controller moved on meanwhile is reloaded and carried on from where it is.
 */
export async function resume(deps: ResumeDeps): Promise<Intent[]> {
  const { store, holder } = deps.lease;
  const settled: Intent[] = [];
  const deadline = performance.now() + deps.maxSeconds * 1000;
  for (const listed of await store.resumable()) {
    const recorder = new TraceRecorder({
      kind: "resume",
      conversationId: listed.conversationId,
      turn: 0,
      model: deps.model,
      now: deps.now(),
      trace: deps.applicationTrace(),
    });
    const run: Run = {
      recorder,
      deadline,
      progress: (text) => recorder.add({ type: "progress", text }),
      outcomes: [],
      settled: new Set(),
      locale: deps.locale,
      principal: deps.principal,
    };
    if (!(await acquireTurnLease({ ...deps.lease, conversationId: listed.conversationId }))) {
      recorder.add({ type: "lease", decision: "skipped", holder: "another controller" });
      await deps.trace?.(recorder.finish());
      continue;
    }
    try {
      const finished = await runs.run(run, async () => resumeOne(deps, (await deps.life.reload(listed)) ?? listed, run));
      recorder.trace.outcomes.push(outcomeOf(finished));
      settled.push(finished);
    } finally {
      await store.releaseLease(listed.conversationId, holder);
    }
    await deps.trace?.(recorder.finish());
  }
  return settled;
}

/**
 * One intent after a restart: a change persisted and never sent is held and asked about at the principal's next
 * turn — never sent unseen; one that may have left is reconciled.
 */
async function resumeOne(deps: ResumeDeps, intent: Intent, run: Run): Promise<Intent> {
  if (intent.state !== "persisted" || intent.sends > 0) return deps.life.drive(intent, run);
  // Held as a turn holds a stale change, in a conversation of no turns yet: turn 0, asked in no turn, so the
  // conversation's next turn asks (its number may be the crashed turn's).
  return askAgain(deps.life, { ...newConversationState(intent.conversationId), locale: deps.locale }, intent, run, "stale");
}
