import type { ChangeToolName, ToolName } from "#contract/tools";

/**
 * What the controller knows about an order from the conversation: the principal named it, or a read returned
 * it to this caller, and what that read showed. Only such orders are ever offered as candidates,
 * and only what a read showed may be told as fact.
 */
export interface OrderFacts {
  orderId: string;
  /** The principal named it by full id in their own message. */
  named?: boolean;
  /** A read (search_orders, get_order) returned it to this caller. */
  read?: boolean;
  /** The turn (the conversation's turn count) whose read last showed it: the facts a reply tells are this turn's. */
  readTurn?: number;
  /** The turn whose get_order last read it: the orders a turn opened are the ones its question is about. */
  openedTurn?: number;
  status?: string;
  /** Item titles as a read showed them, each cut to the bound of a seller's text (contract §6). */
  itemTitles?: string[];
  items?: { itemId: string; title: string; quantity?: number }[];
  placedAt?: string;
  deliveredAt?: string | null;
  returnableUntil?: string | null;
  /** The return window of the order's policy, in days. */
  returnWindowDays?: number;
  /** The changing tools get_order said this caller may use on the order now. */
  allowedActions?: string[];
  /** Who sold it, as get_order said; a marketplace seller's name and titles are the seller's own words. */
  seller?: { name: string; marketplace: boolean };
  /** The total and each charge, in cents of `currency`. */
  totalCents?: number;
  currency?: string;
  charges?: { kind: string; cents: number }[];
  /** How it travels, as get_order said. */
  delivery?: {
    carrier: string;
    trackingId: string | null;
    tracking?: { available: true; status: string; lastScanAt: string | null } | { available: false };
    note?: string | null;
    /** Who wrote the note, as get_order marked it (`customer` or `support`). */
    noteBy?: string;
  };
  /** Returns started on it, as get_order listed them. */
  returns?: { itemIds: string[]; labelRef: string; pickup: { date: string; window: string } }[];
  /** Who sells it, as get_order said: the shop's own titles are its words, a marketplace seller's are the seller's. */
  sellerType?: "sundry" | "marketplace";
}

/**
 * A recorded outcome of one turn, for the gate to judge the reply by: a change's outcome as the service
 * recorded it, or the controller's own decision not to send one.
 */
export type TurnOutcome =
  | { kind: "completed"; tool: ChangeToolName; orderId: string; operationId: string; body: Record<string, unknown> }
  | { kind: "rejected"; tool: ToolName; orderId: string; operationId: string; code: string; reason?: string; body: Record<string, unknown> }
  | { kind: "unknown"; tool: ToolName; orderId: string; operationId: string }
  | { kind: "mismatch"; tool: ToolName; orderId: string; operationId: string; why: string }
  | { kind: "clarification"; tool: ToolName; orderId: string; candidates: OrderFacts[] }
  | { kind: "awaiting_confirmation"; tool: ToolName; orderId: string; operationId: string; question: string }
  | { kind: "declined"; tool: ToolName; orderId: string; operationId: string }
  /** A held change nobody answered before its confirmation expired: not a no, and nothing was sent. */
  | { kind: "expired"; tool: ToolName; orderId: string; operationId: string };

/** The kinds of reply an evaluation case names (`expect.reply`, `expect.replies`). */
export type ReplyKind = "confirmation" | "rejection" | "uncertainty" | "clarification" | "confirmation_request" | "information";

export function replyKindOf(outcome: TurnOutcome): ReplyKind {
  switch (outcome.kind) {
    case "completed":
      return "confirmation";
    case "rejected":
      return "rejection";
    case "unknown":
    case "mismatch":
      return "uncertainty";
    case "clarification":
      return "clarification";
    case "awaiting_confirmation":
      return "confirmation_request";
    case "declined":
    case "expired":
      return "information";
  }
}

/** Several outcomes in one turn: the reply is as cautious as the most cautious of them. */
export function replyKindOfAll(outcomes: readonly TurnOutcome[]): ReplyKind {
  const kinds = new Set(outcomes.map(replyKindOf));
  for (const kind of ["uncertainty", "clarification", "confirmation_request", "rejection", "confirmation"] as const)
    if (kinds.has(kind)) return kind;
  return "information";
}

/**
 * One outcome per change: of several outcomes of the same tool on the same order in one turn (a rejection,
 * then a retry that completed), the last one is what the customer is told; the others are superseded — but a
 * refusal because it was already done does not supersede this turn's own completion of it. The changes keep
 * the order in which they first came up.
 */
export function composeOutcomes(outcomes: readonly TurnOutcome[]): TurnOutcome[] {
  const latest = new Map<string, TurnOutcome>();
  for (const outcome of outcomes) {
    const key = outcome.kind === "clarification" ? `clarification:${outcome.tool}` : `${outcome.tool}:${outcome.orderId}`;
    // "Already cancelled" right after this turn's own cancellation is that cancellation, not news.
    if (
      latest.get(key)?.kind === "completed" &&
      outcome.kind === "rejected" &&
      /^(?:ALREADY_CANCELLED|ITEM_ALREADY_RETURNED|ITEM_ALREADY_REPLACED)$/.test(outcome.reason ?? "")
    )
      continue;
    latest.set(key, outcome);
  }
  const firstSeen = new Map<string, number>();
  for (const [i, outcome] of outcomes.entries()) {
    const key = outcome.kind === "clarification" ? `clarification:${outcome.tool}` : `${outcome.tool}:${outcome.orderId}`;
    if (!firstSeen.has(key)) firstSeen.set(key, i);
  }
  return [...latest.entries()].sort((a, b) => (firstSeen.get(a[0]) ?? 0) - (firstSeen.get(b[0]) ?? 0)).map(([, o]) => o);
}

/**
 * A turn's problem (contract §8.1): something the application must act on, which no reply can put right — its
 * token refused, the service not where `service.baseUrl` says, a service that does not answer as this
 * controller's contract says, or the model failing (turn/problem.ts reads it from the turn's trace).
 *
 * The set is closed; an application can switch on `code`:
 * - `unauthenticated`: the service refused the token (401): missing, expired, or not one it accepts.
 * - `forbidden`: the service refused the token's rights (403) — a scope missing, or no principal named; not a
 *   tool the principal may not use (a seller's cancel_order names `allowedPrincipals`, and is a rejection the
 *   gate tells like any other).
 * - `incompatible`: an answer that is not the contract's: a route the service does not have (a baseUrl with a
 *   path, another server), a body that is not JSON, an error code the tool never answers with, or a 200 whose body
 *   does not match the tool's output schema (a field it does not know is allowed: a newer service may add one).
 * - `unreachable`: no connection could be made (refused, unknown host, TLS, reset), and no later call of the turn
 *   was answered. A timeout is not one: the request may have reached the service, and the controller reconciles
 *   it (honest uncertainty), as it does a 5xx.
 * - `model_failed`: the model's request failed (its SDK's error, a recording or a script that ran out).
 * - `message_too_long`: the principal's message is longer than `limits.maxMessageCharacters` (default 4,000): it was
 *   not read, nothing changed, and the reply asks for a shorter message.
 * Of several, the first in that order; of one code met several times, the last call that met it.
 */
export const problemCodes = ["unauthenticated", "forbidden", "incompatible", "unreachable", "model_failed", "message_too_long"] as const;
export type ProblemCode = (typeof problemCodes)[number];

export interface TurnProblem {
  code: ProblemCode;
  /** What failed and what would put it right, for the application's log and its developers; never shown to the principal. */
  message: string;
  /** The service call that met it (not for `model_failed`). */
  tool?: string;
  /** The HTTP status the service answered with (not for `unreachable`: nothing answered). */
  status?: number;
  /** The answer's error code (`UNAUTHENTICATED`, `FORBIDDEN`, `NOT_FOUND`, …) or message, when it had one. */
  errorCode?: string;
  /** How many of the turn's calls (or model requests) met it. */
  count: number;
}
