import { checkClaims, type ClaimRules } from "#controller/gate/claim-check";
import { type ReplyKind, replyKindOf, replyKindOfAll, type TurnOutcome } from "#controller/gate/outcomes";
import { boundTemplate, noChangeTemplate, templateFor } from "#controller/gate/templates";

/**
 * The response gate (SPEC §8.2): the reply the customer sees claims only what the turn's recorded outcomes
 * support. A model-written reply passes when the claim check agrees with the outcome; otherwise the fixed
 * template replaces it and the decision says `claim_mismatch`.
 */
export interface GateInput {
  /** The model's reply, if the turn ended with one. */
  candidate?: string;
  outcomes: readonly TurnOutcome[];
  /** Set when the turn stopped at a loop bound. */
  limit?: { kind: "tool_calls" | "time"; value: number };
  /** Set when the model failed, so there is no reply to judge. */
  modelFailed?: boolean;
  /** Orders the conversation has mentioned or read: an information reply may name only these. */
  ordersInPlay: ReadonlySet<string>;
  /** Orders an information reply may call cancelled/done: completed in this conversation, or read as cancelled. */
  settledOrders: ReadonlySet<string>;
}

export interface GateDecision {
  reply: string;
  replyKind: ReplyKind;
  decision: "accepted" | "template" | "claim_mismatch";
  /** Trace flags: claim_mismatch, result_mismatch, limit, model_error. */
  flags: string[];
  problems: string[];
  /** What the decision was judged against. */
  judgedAgainst: string;
}

export function gate(input: GateInput): GateDecision {
  const { outcomes, candidate } = input;
  const mismatched = outcomes.some((o) => o.kind === "mismatch");
  const baseFlags = mismatched ? ["result_mismatch"] : [];
  const against = outcomes.length === 0 ? "no change this turn" : outcomes.map(describe).join("; ");
  const templated = (reply: string, replyKind: ReplyKind, flags: string[] = [], problems: string[] = []): GateDecision => ({
    reply,
    replyKind,
    decision: flags.includes("claim_mismatch") ? "claim_mismatch" : "template",
    flags: [...baseFlags, ...flags],
    problems,
    judgedAgainst: against,
  });

  if (input.limit) return templated(boundTemplate(input.limit, outcomes), outcomes.length > 0 ? replyKindOfAll(outcomes) : "information", ["limit"]);
  if (input.modelFailed || candidate === undefined || candidate.trim() === "") {
    const reply = outcomes.length > 0 ? outcomes.map(templateFor).join(" ") : `I couldn't finish working on that just now. ${noChangeTemplate}`;
    return templated(reply, outcomes.length > 0 ? replyKindOfAll(outcomes) : "information", input.modelFailed ? ["model_error"] : []);
  }
  if (outcomes.length > 1) return templated(outcomes.map(templateFor).join(" "), replyKindOfAll(outcomes));
  const [outcome] = outcomes;
  if (outcome === undefined) {
    const check = checkClaims(candidate, {
      allowedOrderIds: input.ordersInPlay,
      success: { onlyFor: input.settledOrders },
      denial: "allowed",
    });
    if (check.ok) return { reply: candidate, replyKind: "information", decision: "accepted", flags: baseFlags, problems: [], judgedAgainst: against };
    return templated(noChangeTemplate, "information", ["claim_mismatch"], check.problems);
  }
  // The controller's own question, and a result it cannot tie to the request, are never left to the model.
  if (outcome.kind === "awaiting_confirmation" || outcome.kind === "mismatch") return templated(templateFor(outcome), replyKindOf(outcome));
  const check = checkClaims(candidate, rulesFor(outcome));
  if (check.ok) return { reply: candidate, replyKind: replyKindOf(outcome), decision: "accepted", flags: baseFlags, problems: [], judgedAgainst: against };
  return templated(templateFor(outcome), replyKindOf(outcome), ["claim_mismatch"], check.problems);
}

function rulesFor(outcome: Exclude<TurnOutcome, { kind: "awaiting_confirmation" | "mismatch" }>): ClaimRules {
  const only = new Set([outcome.orderId]);
  switch (outcome.kind) {
    case "completed":
      return { allowedOrderIds: only, requiredOrderIds: [outcome.orderId], success: "allowed", denial: "forbidden" };
    case "rejected":
    case "declined":
      return { allowedOrderIds: only, success: "forbidden", denial: "allowed" };
    case "unknown":
      return { allowedOrderIds: only, success: "forbidden", denial: "forbidden" };
    case "clarification": {
      const ids = outcome.candidates.map((c) => c.orderId);
      return { allowedOrderIds: new Set(ids), requiredOrderIds: ids, success: "forbidden", denial: "forbidden" };
    }
  }
}

function describe(outcome: TurnOutcome): string {
  const base = `${outcome.tool} ${outcome.orderId}: ${outcome.kind}`;
  return outcome.kind === "rejected" ? `${base} ${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""}` : base;
}
