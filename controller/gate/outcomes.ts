import type { ToolName } from "#catalog/tools";

/** What the controller knows about an order from what the conversation has read. */
export interface OrderFacts {
  orderId: string;
  status?: string;
  itemTitles?: string[];
  placedAt?: string;
}

/**
 * A recorded outcome of one turn, for the gate to judge the reply by (SPEC §8.2): a change's outcome as the
 * service recorded it, or the controller's own decision not to send one.
 */
export type TurnOutcome =
  | { kind: "completed"; tool: ToolName; orderId: string; operationId: string; body: Record<string, unknown> }
  | { kind: "rejected"; tool: ToolName; orderId: string; operationId: string; code: string; reason?: string; body: Record<string, unknown> }
  | { kind: "unknown"; tool: ToolName; orderId: string; operationId: string }
  | { kind: "mismatch"; tool: ToolName; orderId: string; operationId: string; why: string }
  | { kind: "clarification"; tool: ToolName; orderId: string; candidates: OrderFacts[] }
  | { kind: "awaiting_confirmation"; tool: ToolName; orderId: string; operationId: string; question: string }
  | { kind: "declined"; tool: ToolName; orderId: string; operationId: string };

/** The kinds of reply SPEC §8.3's `expect.reply` names. */
export type ReplyKind = "confirmation" | "rejection" | "uncertainty" | "clarification" | "information";

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
    case "awaiting_confirmation":
      return "clarification";
    case "declined":
      return "information";
  }
}

/** Several outcomes in one turn: the reply is as cautious as the most cautious of them. */
export function replyKindOfAll(outcomes: readonly TurnOutcome[]): ReplyKind {
  const kinds = new Set(outcomes.map(replyKindOf));
  for (const kind of ["uncertainty", "clarification", "rejection", "confirmation"] as const) if (kinds.has(kind)) return kind;
  return "information";
}
