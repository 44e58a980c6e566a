import { checkClaims } from "#controller/gate/claim-check";
import { sentencesOf } from "#controller/gate/mentions";
import { normalizeShown } from "#controller/gate/normalize";
import { composeOutcomes, type OrderFacts, type ReplyKind, replyKindOfAll, type TurnOutcome } from "#controller/gate/outcomes";
import { renderForCustomer } from "#controller/gate/render";
import type { Locale } from "#controller/i18n/locale";
import { boundTemplate, modelFailedTemplate, noChangeFor, openingFor } from "#controller/gate/templates";

/**
 * The response gate: the reply the customer sees claims only what the turn's recorded outcomes support, and it
 * fails closed.
 * - A turn with a change outcome opens with the application's own sentence for it, rendered from the record.
 *   The model's text may follow only when the claim check places every sentence of it as harmless for that
 *   outcome; otherwise the opening stands alone and the decision is `claim_mismatch`, with the reasons.
 * - A turn that changed nothing shows the model's text only when the check accepts it, else the no-change
 *   template.
 * - The controller's own question (awaiting confirmation) and a result it cannot tie to the request are never
 *   followed by model text.
 */
export interface GateInput {
  /** The model's reply, if the turn ended with one. */
  candidate?: string;
  outcomes: readonly TurnOutcome[];
  /** Set when the turn stopped at a loop bound. */
  limit?: { kind: "tool_calls" | "time"; value: number };
  /** Set when the model failed, so there is no reply to judge. */
  modelFailed?: boolean;
  /** The orders in play, with what reads showed of them: what an information reply may name and state. */
  orders: readonly OrderFacts[];
  /** Today (UTC, YYYY-MM-DD), to read "tomorrow" and weekdays in the model's text. */
  today: string;
  /**
   * The principal's language (default "en"): the status sentences are rendered in it. The claim check reads
   * English only, so in any other language the model's text is never shown: the template stands alone.
   */
  locale?: Locale;
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
  const outcomes = composeOutcomes(input.outcomes);
  const flags = outcomes.some((o) => o.kind === "mismatch") ? ["result_mismatch"] : [];
  const judgedAgainst = outcomes.length === 0 ? "no change this turn" : outcomes.map(describe).join("; ");
  const replyKind: ReplyKind = outcomes.length > 0 ? replyKindOfAll(outcomes) : "information";
  const decide = (reply: string, decision: GateDecision["decision"], extra: string[] = [], problems: string[] = []): GateDecision => ({
    reply,
    replyKind,
    decision,
    flags: [...flags, ...extra],
    problems,
    judgedAgainst,
  });

  const locale = input.locale ?? "en";
  const noChange = noChangeFor(locale);
  if (input.limit) return decide(boundTemplate(input.limit, outcomes, locale), "template", ["limit"]);
  const opening = outcomes.length > 0 ? openingFor(outcomes, locale) : "";
  // The one text: the model's markdown rendered to what the customer sees, which alone is read and shown.
  const candidate = renderForCustomer(input.candidate ?? "");
  if (input.modelFailed || candidate === "") {
    return decide(modelFailedTemplate(opening, locale), "template", input.modelFailed ? ["model_error"] : []);
  }
  if (outcomes.some((o) => o.kind === "awaiting_confirmation" || o.kind === "mismatch")) return decide(opening, "template");
  if (locale !== "en")
    return decide(
      opening !== "" ? opening : noChange,
      "template",
      [],
      [`the claim check reads English; the principal's language is ${input.locale}`],
    );

  const check = checkClaims(candidate, { outcomes, orders: input.orders, today: input.today });
  if (!check.ok) return decide(opening !== "" ? opening : noChange, "claim_mismatch", ["claim_mismatch"], check.problems);
  if (opening === "") return decide(candidate, "accepted");
  const rest = withoutRepeats(candidate, opening);
  // Lines the model set apart (a list, a table) stay apart from the opening.
  return decide(rest === "" ? opening : `${opening}${/\n|^- /.test(rest) ? "\n" : " "}${rest}`, "accepted");
}

/** The model's text without the sentences that only say what the opening says ("Done: your order X is cancelled"). */
function withoutRepeats(candidate: string, opening: string): string {
  const said = new Set(sentencesOf(normalizeShown(opening)).map(core));
  return candidate
    .split("\n")
    .map((line) =>
      sentencesOf(line)
        .filter((s) => {
          const c = core(normalizeShown(s));
          return c !== "" && !said.has(c);
        })
        .join(" "),
    )
    .filter((line) => line !== "")
    .join("\n");
}

const filler = new Set([
  "your",
  "the",
  "has",
  "have",
  "been",
  "now",
  "is",
  "was",
  "are",
  "successfully",
  "all",
  "done",
  "just",
  "order",
  "ok",
  "okay",
  "great",
  "good",
  "news",
  "yes",
]);
const core = (sentence: string) =>
  sentence
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .filter((w) => w !== "" && !filler.has(w))
    .join(" ");

function describe(outcome: TurnOutcome): string {
  const base = `${outcome.tool} ${outcome.orderId}: ${outcome.kind}`;
  return outcome.kind === "rejected" ? `${base} ${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ""}` : base;
}
