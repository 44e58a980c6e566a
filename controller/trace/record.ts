import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { xrayTraceId } from "#contract/trace-context";
import { type ApplicationTrace, type TurnTraceContext, turnTraceContext } from "#controller/http/trace-context";
import type { ReplyKind, TurnOutcome } from "#controller/outcomes";
import type { IntentState } from "#controller/intents/intent";
import type { ProblemCode } from "#controller/outcomes";

/**
 * The trace of one turn (contract §8.1): every event from the customer's message to the reply shown, in order,
 * as JSON. `at` is milliseconds since the turn began (to 0.1 ms).
 */
export type TraceEvent = { at: number } & (
  | { type: "customer_message"; text: string }
  | { type: "note"; text: string }
  | { type: "model_request"; n: number; messages: number }
  | { type: "model_proposal"; toolUseId: string; tool: string; input: unknown }
  | { type: "model_reply"; text: string }
  | { type: "model_error"; message: string }
  | { type: "validation"; toolUseId: string; tool: string; decision: "accepted" | "unknown_tool" | "invalid_input"; body?: unknown }
  | {
      type: "provenance";
      toolUseId: string;
      tool: string;
      orderId: string;
      decision: "dispatch" | "clarify" | "confirm";
      failed?: string[];
      reasons?: string[];
    }
  | { type: "same_change"; toolUseId: string; operationId: string; state: IntentState }
  | { type: "intent_conflict"; operationId: string; wanted: IntentState; found: IntentState | "missing"; revision: number }
  | { type: "lease"; decision: "skipped"; holder: string }
  | {
      type: "confirmation";
      operationId: string;
      /** What became of a held change: asked (again), or answered — by a button, or by a message read as confirm, decline or neither. */
      decision: "asked" | "confirmed" | "declined" | "expired" | "asked_again" | "confirm" | "decline" | "neither" | "not asked";
      text?: string;
      confirmationId?: string;
      via?: "message" | "button";
    }
  | { type: "taint"; tool: string; sources: string[] }
  | {
      type: "intent";
      operationId: string;
      tool: string;
      orderId: string;
      from: IntentState | null;
      to: IntentState;
      revision: number;
      /** A held change leaving its wait (confirmed, declined): the turn that held it, and that turn's trace id. */
      heldIn?: { turn: number; traceId?: string };
    }
  | { type: "http_request"; tool: string; method: string; path: string; operationId?: string; traceparent?: string; body: unknown }
  | { type: "http_response"; tool: string; status: number; idempotentReplayed: boolean; body: unknown; ms: number }
  | { type: "http_failure"; tool: string; failure: "timeout" | "network"; message: string; ms: number }
  | { type: "fault"; kind: string; tool: string; detail: string; dropped?: string }
  | {
      type: "outcome";
      operationId: string;
      classification: "definite" | "unknown" | "mismatch";
      status?: string;
      code?: string;
      reason?: string;
      why?: string;
    }
  | { type: "reconcile"; operationId: string; step: number; action: "wait" | "status" | "resend" | "gave_up"; result?: string; ms?: number }
  | { type: "progress"; text: string }
  | { type: "limit"; limit: "tool_calls" | "time" | "message_length"; value: number }
  | {
      type: "gate";
      decision: "accepted" | "template" | "claim_mismatch";
      replyKind: ReplyKind;
      judgedAgainst: string;
      flags: string[];
      problems: string[];
    }
  | { type: "problem"; code: ProblemCode; message: string }
  | { type: "reply"; text: string }
);

export interface TurnTrace {
  /** A customer turn, or a restarted controller finishing persisted intents. */
  kind: "turn" | "resume";
  conversationId: string;
  /** 1, 2, … for turns; 0 for resume. */
  turn: number;
  model: string;
  startedAt: string;
  durationMs: number;
  /**
   * The trace every service call of the turn carries (`traceparent`, contract §8.1), in X-Ray's form: the service
   * logs it on each call's line as `callerTraceId` (docs/operations.md, "What happened to operation X?").
   */
  traceId: string;
  customerMessage?: string;
  events: TraceEvent[];
  outcomes: TurnOutcome[];
  reply?: string;
  replyKind?: ReplyKind;
  counts: { httpRequests: number; toolCalls: number; modelRequests: number };
  /** claim_mismatch, result_mismatch, limit, model_error, fault:<kind>, problem:<code>. */
  flags: string[];
}

/** Where traces go: called once per turn, after the reply is decided. */
export type TraceSink = (trace: TurnTrace) => void | Promise<void>;

/** Writes each trace as `<dir>/<conversationId>.<turn>.json`. */
export function traceDirectory(dir: string): TraceSink {
  return async (trace) => {
    await mkdir(dir, { recursive: true });
    const name = `${trace.conversationId.replace(/[^A-Za-z0-9._-]/g, "_")}.${trace.kind === "resume" ? `resume-${Date.parse(trace.startedAt)}` : trace.turn}.json`;
    await writeFile(join(dir, name), `${JSON.stringify(trace, null, 2)}\n`);
  };
}

/** Keeps the traces in memory, for tests and the harness. */
export function traceCollector(): { sink: TraceSink; traces: TurnTrace[] } {
  const traces: TurnTrace[] = [];
  return { sink: (trace) => void traces.push(trace), traces };
}

/** Builds one trace as the turn runs. */
export class TraceRecorder {
  private readonly started = performance.now();
  readonly trace: TurnTrace;
  /** The trace the turn's service calls carry. */
  readonly traceContext: TurnTraceContext;

  constructor(init: {
    kind: TurnTrace["kind"];
    conversationId: string;
    turn: number;
    model: string;
    customerMessage?: string;
    now: Date;
    trace?: ApplicationTrace;
  }) {
    this.traceContext = turnTraceContext(init.trace);
    this.trace = {
      kind: init.kind,
      conversationId: init.conversationId,
      turn: init.turn,
      model: init.model,
      startedAt: init.now.toISOString(),
      durationMs: 0,
      traceId: xrayTraceId(this.traceContext.traceId),
      ...(init.customerMessage !== undefined ? { customerMessage: init.customerMessage } : {}),
      events: [],
      outcomes: [],
      counts: { httpRequests: 0, toolCalls: 0, modelRequests: 0 },
      flags: [],
    };
  }

  add(event: DistributiveOmit<TraceEvent, "at">): void {
    this.trace.events.push({ at: Math.round((performance.now() - this.started) * 10) / 10, ...event } as TraceEvent);
    if (event.type === "http_request") this.trace.counts.httpRequests += 1;
    if (event.type === "model_request") this.trace.counts.modelRequests += 1;
    if (event.type === "fault") this.flag(`fault:${event.kind}`);
  }

  flag(flag: string): void {
    if (!this.trace.flags.includes(flag)) this.trace.flags.push(flag);
  }

  finish(): TurnTrace {
    this.trace.durationMs = Math.round(performance.now() - this.started);
    return this.trace;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
