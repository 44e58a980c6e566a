import { AsyncLocalStorage } from "node:async_hooks";
import type { PrincipalKind } from "#contract/model-context";
import type { ConversationState } from "#controller/conversation-state";
import type { TurnOutcome } from "#controller/gate/outcomes";
import type { PrincipalMessage } from "#controller/guard/message";
import type { FaultEvent } from "#controller/http/faults";
import type { ExchangeListener } from "#controller/http/service-client";
import { type ConfirmationKey, confirmationMessages } from "#controller/i18n/confirmation-messages";
import { formatMessage } from "#controller/i18n/format";
import type { Locale } from "#controller/i18n/locale";
import { callTraceHeaders, type TraceRecorder } from "#controller/trace";

/** Everything one running turn (or resume) shares. */
export interface Run {
  recorder: TraceRecorder;
  /** performance.now() after which the turn must stop. */
  deadline: number;
  progress(text: string): void;
  /** The turn's outcomes, in the order they happened. */
  outcomes: TurnOutcome[];
  /** Intents this turn settled or reported: a re-proposal of one of them in the same turn is that intent. */
  settled: Set<string>;
  /** The conversation's locale, for the texts the controller writes itself. */
  locale: Locale;
  /** Who is signed in: decides whose words in a result are foreign (context/taint.ts). */
  principal: PrincipalKind;
}

/**
 * The run a controller's code is executing in, for every controller of the process: one AsyncLocalStorage, not
 * one per controller. Node keeps every AsyncLocalStorage ever used and visits each one for every promise the
 * process creates, so one per controller made every promise in the process slower with each controller
 * created (docs/benchmarks.md, the controller). `run()` scopes the store to one call's async context, so
 * controllers sharing it never see each other's runs.
 */
export const runs = new AsyncLocalStorage<Run>();

/** Milliseconds the run has left. */
export function remaining(run: Run): number {
  return run.deadline - performance.now();
}

/** What bounds one service call (the turn's deadline as an epoch-ms time), and the trace headers it carries. */
export function deadlineOf(run: Run): { deadlineMs: number; traceHeaders: ReturnType<typeof callTraceHeaders> } {
  return { deadlineMs: Date.now() + Math.max(0, remaining(run)), traceHeaders: callTraceHeaders(run.recorder.traceContext) };
}

/** The texts the controller writes itself, in the run's locale. */
export function say(run: Pick<Run, "locale">, key: ConfirmationKey, values: Record<string, string> = {}): string {
  return formatMessage(confirmationMessages, run.locale, key, values);
}

/** Every service call's request and answer, into the run's trace. */
export function exchangeListener(operationId: string | undefined, run: Run): ExchangeListener {
  return {
    request: (info) =>
      run.recorder.add({
        type: "http_request",
        tool: info.tool,
        method: info.method,
        path: info.path,
        ...(operationId ? { operationId } : {}),
        ...(info.traceHeaders ? { traceparent: info.traceHeaders.traceparent } : {}),
        body: info.body,
      }),
    exchange: (info, exchange) =>
      exchange.kind === "response"
        ? run.recorder.add({
            type: "http_response",
            tool: info.tool,
            status: exchange.status,
            idempotentReplayed: exchange.replayed,
            body: exchange.body ?? exchange.text,
            ms: exchange.ms,
          })
        : run.recorder.add({
            type: "http_failure",
            tool: info.tool,
            failure: exchange.failure,
            message: exchange.message,
            ms: exchange.ms,
          }),
  };
}

/** An injected fault, into the trace of the run it happened in. */
export function noteFault(event: FaultEvent): void {
  runs.getStore()?.recorder.add({
    type: "fault",
    kind: event.kind,
    tool: event.tool,
    detail: event.detail,
    ...(event.dropped !== undefined ? { dropped: event.dropped } : {}),
  });
}

/**
 * What every dispatch of one turn shares: the conversation, the principal's messages read once for the turn
 * (guard/message.ts), and the turn's run.
 */
export interface Turn {
  state: ConversationState;
  /** The principal's message of this turn. */
  message: PrincipalMessage;
  /** Every message of the principal in the conversation, this turn's (the very `message`) last. */
  said: readonly PrincipalMessage[];
  /** The controller's "which order?" this message answers, when the previous turn ended asking it: the change, and the message that asked for it. */
  askedWhichOrder?: { tool: string; message: PrincipalMessage };
  run: Run;
}

/** What the model is told of one tool call. */
export interface ToolResult {
  content: string;
  isError: boolean;
}
