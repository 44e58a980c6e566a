import type { TraceEvent, TurnTrace } from "#controller/trace";

/**
 * A trace as a few lines a person can read in seconds: one step per line, intent transitions of one
 * operation folded into one line, operation ids shortened. A step longer than `width` wraps at spaces onto
 * lines indented under its text, never cut off: the gate's reasons are the point of its line. The JSON trace
 * is the record; this is a view.
 */
export function formatTrace(trace: TurnTrace, options: { indent?: string; width?: number; reply?: boolean } = {}): string {
  const indent = options.indent ?? "  ";
  const width = options.width ?? 110;
  const lines: string[] = [];
  const add = (label: string, text: string) => lines.push(...wrap(`${indent}${label.padEnd(10)}`, text, width));
  let intentLine: { operationId: string; states: string[]; heldIn?: { turn: number; traceId?: string } } | undefined;
  const flushIntent = () => {
    // A held change sent or declined now: the turn that held it, whose trace has its question.
    const held = intentLine?.heldIn
      ? ` (held in turn ${intentLine.heldIn.turn}${intentLine.heldIn.traceId ? `, trace ${intentLine.heldIn.traceId}` : ""})`
      : "";
    if (intentLine) add("intent", `${short(intentLine.operationId)} ${intentLine.states.join(" → ")}${held}`);
    intentLine = undefined;
  };
  let pending: string | undefined;
  const flushRequest = () => {
    if (pending !== undefined) add("http", pending);
    pending = undefined;
  };
  for (const event of trace.events) {
    if (event.type === "reply" && options.reply === false) continue;
    // A request and its answer on one line, unless something (a fault) happened in between.
    if (event.type === "http_request") {
      flushIntent();
      flushRequest();
      pending = `${event.method} ${event.path}${event.operationId ? ` [${short(event.operationId)}]` : ""}`;
      continue;
    }
    if ((event.type === "http_response" || event.type === "http_failure") && pending !== undefined) {
      const answer = describe(event)?.[1] ?? "";
      add("http", `${pending} ${answer}`);
      pending = undefined;
      continue;
    }
    flushRequest();
    if (event.type === "intent") {
      if (intentLine?.operationId !== event.operationId) {
        flushIntent();
        intentLine = { operationId: event.operationId, states: event.from === null ? [] : [event.from] };
      }
      intentLine.states.push(event.to);
      if (event.heldIn) intentLine.heldIn = event.heldIn;
      continue;
    }
    const line = describe(event);
    if (line === undefined) continue;
    flushIntent();
    add(line[0], line[1]);
  }
  flushIntent();
  flushRequest();
  return lines.join("\n");
}

function describe(event: TraceEvent): [string, string] | undefined {
  switch (event.type) {
    case "customer_message":
      return ["customer", JSON.stringify(event.text)];
    case "note":
      return ["note", event.text];
    case "model_proposal":
      return ["model", `proposes ${event.tool} ${JSON.stringify(event.input)}`];
    case "model_reply":
      return ["model", `says ${JSON.stringify(event.text)}`];
    case "model_error":
      return ["model", `failed: ${event.message}`];
    case "validation":
      return event.decision === "accepted" ? undefined : ["validate", `${event.decision}: ${errorMessage(event.body)}`];
    case "provenance":
      return ["guard", `${event.decision} ${event.orderId}${event.reasons?.length ? `: ${event.reasons.join("; ")}` : ""}`];
    case "same_change":
      return ["intent", `same change as ${short(event.operationId)} (${event.state}): no new operationId`];
    case "intent_conflict":
      return ["intent", `${short(event.operationId)} moved on elsewhere (wanted ${event.wanted}, found ${event.found} r${event.revision})`];
    case "lease":
      return ["lease", `${event.decision}: ${event.holder} holds the conversation`];
    case "confirmation":
      return [
        "confirm",
        `${event.decision}${event.via ? ` by ${event.via}` : ""}${event.confirmationId && event.decision !== "asked" ? ` ${event.confirmationId}` : ""}${event.text ? `: ${JSON.stringify(event.text)}` : ""}`,
      ];
    case "http_request":
      return ["http", `${event.method} ${event.path}${event.operationId ? ` [${short(event.operationId)}]` : ""}`];
    case "http_response":
      return ["", `→ ${event.status}${event.idempotentReplayed ? " (replayed)" : ""} ${summary(event.body)} ${event.ms} ms`];
    case "http_failure":
      return ["", `→ ${event.failure} after ${event.ms} ms`];
    case "fault":
      return ["fault", `${event.kind}: ${event.detail}`];
    case "outcome":
      return [
        "outcome",
        `${event.classification}${event.status ? ` ${event.status}` : ""}${event.code ? ` ${event.code}` : ""}${event.reason ? ` ${event.reason}` : ""}${event.why ? ` (${event.why})` : ""}`,
      ];
    case "reconcile":
      return event.action === "wait"
        ? ["reconcile", `wait ${event.ms} ms`]
        : ["reconcile", `${event.action}${event.result ? `: ${event.result}` : ""}`];
    case "limit":
      return ["limit", `${event.limit} (${event.value})`];
    case "gate":
      return [
        "gate",
        `${event.decision} → ${event.replyKind} (${event.judgedAgainst})${event.problems.length ? `: ${event.problems.join("; ")}` : ""}`,
      ];
    case "problem":
      return ["problem", `${event.code}: ${event.message}`];
    case "reply":
      return ["reply", event.text];
    default:
      return undefined;
  }
}

const short = (operationId: string) => (operationId.length > 14 ? `${operationId.slice(0, 11)}…` : operationId);

function errorMessage(body: unknown): string {
  const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return error ? `${error.code}: ${error.message}` : "";
}

function summary(body: unknown): string {
  if (body === null || typeof body !== "object") return "";
  const b = body as {
    error?: { code?: string; reason?: string };
    status?: unknown;
    orders?: unknown;
    orderId?: unknown;
    version?: number;
    orderVersion?: number;
  };
  if (b.error) return `${b.error.code}${b.error.reason ? ` ${b.error.reason}` : ""}`;
  if (b.status === "not_found") return "not_found";
  if (Array.isArray(b.orders)) return `${b.orders.length} orders`;
  if (typeof b.status === "string" && typeof b.orderId === "string")
    return `${b.orderId} ${b.status}${b.version ? ` v${b.version}` : ""}${b.orderVersion ? ` v${b.orderVersion}` : ""}`;
  return "";
}

/** `text` after `lead`, broken at spaces so no line is wider than `width` (a word longer than a line stays whole). */
function wrap(lead: string, text: string, width: number): string[] {
  const hanging = " ".repeat(lead.length);
  const lines: string[] = [];
  let line = lead;
  for (const word of text.split(" ")) {
    const atStart = line === lead || line === hanging;
    if (!atStart && line.length + 1 + word.length > width) {
      lines.push(line);
      line = hanging + word;
    } else line = atStart ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}
