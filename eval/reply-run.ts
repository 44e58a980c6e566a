import { type GateDecision, gate } from "#controller/gate/gate";
import { sentencesOf } from "#controller/gate/reading";
import { renderForCustomer } from "#controller/gate/render";
import { openingFor, templateFor } from "#controller/gate/templates";
import { judgeTurnReply } from "#eval/judges/reply";
import { isCourtesy } from "#eval/judges/reply-reader";
import {
  falseReplies,
  type GeneratedReply,
  gateInputFor,
  judgeContextFor,
  recordsFor,
  situationOf,
  trueReplies,
} from "#eval/reply-generator";
import type { OutcomeLabel, Situation } from "#eval/reply-records";
import { runQuestionSet } from "#eval/reply-questions";

/**
 * The generated reply corpus against the gate and the judge (`npm run eval -- --replies`, contract §8.4; a sample in
 * `npm test`), with what each let through, per outcome:
 * - false replies shown: the gate kept a sentence of the model's that is not courtesy (read by the judge's own
 *   courtesy reader, not the gate's), and the judge's passes of a false reply, raw and after the right opening;
 * - true replies whose information reached the customer: every sentence's information is in the reply, as the
 *   model's sentence kept as written, the status sentence of its outcome, or a fact of its order the gate rendered;
 * - the model's sentences kept as written, of the true replies' sentences;
 * - and whether the judge passes every reply the gate composed: what the gate shows must be true by the judge too.
 */

export interface OutcomeFigures {
  /** The situation's outcome, or "all" for the sum. */
  outcome: OutcomeLabel | "all";
  falseReplies: number;
  shown: number;
  judgePassed: number;
  trueReplies: number;
  delivered: number;
  sentences: number;
  keptAsWritten: number;
  /** Replies the gate composed (of false and true ones) that the judge fails. */
  judgeFailsGate: number;
}

const noFigures = (outcome: OutcomeFigures["outcome"]): OutcomeFigures => ({
  outcome,
  falseReplies: 0,
  shown: 0,
  judgePassed: 0,
  trueReplies: 0,
  delivered: 0,
  sentences: 0,
  keptAsWritten: 0,
  judgeFailsGate: 0,
});

export interface ReplyRun {
  figures: OutcomeFigures[];
  /** One line per false reply shown or passed, per true reply whose information did not arrive, per disagreement. */
  findings: string[];
}

/** The gate-disabled defect (eval/defects.ts) shows the model's text as written, whatever the record says. */
function gated(r: GeneratedReply, gateDisabled: boolean): GateDecision {
  const decision = gate(gateInputFor(situationOf(r.situation), r.text, r.language, r.question));
  return gateDisabled ? { ...decision, reply: r.text, kept: sentencesOf(renderForCustomer(r.text)), decision: "accepted" } : decision;
}

/** Whether a true reply's information reached the customer, sentence by sentence. */
export function undelivered(r: GeneratedReply, decision: GateDecision, s: Situation): string[] {
  return (r.sentences ?? []).flatMap(({ text, unit }) => {
    if (sentencesOf(text).every((t) => decision.kept.includes(t))) return [];
    if (unit.kind === "courtesy") return [text];
    if (unit.kind === "outcome") {
      const own = s.outcomes.find((o) => o.orderId === unit.orderId);
      return own && decision.reply.includes(templateFor(own)) ? [] : [text];
    }
    // A fact is told in the application's words, or by another sentence of the model's that says the same.
    const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
    const toldBy = (f: GateDecision["facts"][number]) =>
      spaced(decision.reply).includes(spaced(f.text)) || decision.kept.some((k) => !isCourtesy(k) && decision.reply.includes(k));
    return decision.facts.some((f) => f.kind === unit.kind && f.orderId === unit.orderId && f.shown && toldBy(f)) ? [] : [text];
  });
}

export function measureReplies(
  seed: number,
  options: { gateDisabled?: boolean; sampleOf?: (list: GeneratedReply[]) => GeneratedReply[] } = {},
): ReplyRun {
  const take = options.sampleOf ?? ((list) => list);
  const figures = new Map<OutcomeLabel, OutcomeFigures>();
  const row = (s: Situation) => {
    let f = figures.get(s.outcome);
    if (!f) {
      f = noFigures(s.outcome);
      figures.set(s.outcome, f);
    }
    return f;
  };
  const findings: string[] = [];
  const judged = (text: string, s: Situation, locale: GeneratedReply["language"]) =>
    judgeTurnReply(text, recordsFor(s), { ...judgeContextFor(s), locale }).problem;

  for (const r of take(falseReplies(seed))) {
    const s = situationOf(r.situation);
    const f = row(s);
    f.falseReplies += 1;
    const decision = gated(r, options.gateDisabled ?? false);
    const shown = decision.kept.filter((k) => !isCourtesy(k));
    if (shown.length > 0) {
      f.shown += 1;
      findings.push(`gate showed (${r.situation}, ${r.wrapper}, ${r.language}): ${JSON.stringify(shown.join(" "))}`);
    }
    const opening = openingFor(s.outcomes, r.language);
    for (const text of [r.text, opening === "" ? r.text : `${opening} ${r.text}`])
      if (judged(text, s, r.language) === undefined) {
        f.judgePassed += 1;
        findings.push(`judge passed (${r.situation}, ${r.wrapper}, ${r.language}): ${JSON.stringify(text)}`);
      }
    const problem = options.gateDisabled ? undefined : judged(decision.reply, s, r.language);
    if (problem) {
      f.judgeFailsGate += 1;
      findings.push(`judge fails the gate's reply (${r.situation}): ${JSON.stringify(decision.reply)} — ${problem}`);
    }
  }
  for (const r of take(trueReplies(seed))) {
    const s = situationOf(r.situation);
    const f = row(s);
    f.trueReplies += 1;
    const decision = gated(r, options.gateDisabled ?? false);
    const lost = undelivered(r, decision, s);
    if (lost.length === 0) f.delivered += 1;
    else findings.push(`not delivered (${r.situation}, ${r.wrapper}): ${JSON.stringify(lost)} — reply ${JSON.stringify(decision.reply)}`);
    f.sentences += r.sentences?.length ?? 0;
    f.keptAsWritten += (r.sentences ?? []).filter((t) => sentencesOf(t.text).every((k) => decision.kept.includes(k))).length;
    const problem = options.gateDisabled ? undefined : judged(decision.reply, s, r.language);
    if (problem) {
      f.judgeFailsGate += 1;
      findings.push(`judge fails the gate's reply (${r.situation}): ${JSON.stringify(decision.reply)} — ${problem}`);
    }
  }
  return { figures: [...figures.values()], findings };
}

const pct = (n: number, of: number) => (of === 0 ? "—" : `${(Math.round((1000 * n) / of) / 10).toFixed(1)}%`);

/** The figures as the table `npm run eval -- --replies` prints. */
export function replyTable(figures: readonly OutcomeFigures[]): string[] {
  const total = noFigures("all");
  for (const f of figures) for (const key of Object.keys(total) as (keyof OutcomeFigures)[]) if (key !== "outcome") total[key] += f[key];
  const head = ["outcome", "false", "shown", "judge passed", "true", "information reached", "model sentences kept", "judge fails gate"];
  const line = (f: OutcomeFigures) => [
    f.outcome,
    String(f.falseReplies),
    String(f.shown),
    `${f.judgePassed} of ${2 * f.falseReplies}`,
    String(f.trueReplies),
    `${f.delivered} (${pct(f.delivered, f.trueReplies)})`,
    `${f.keptAsWritten} of ${f.sentences} (${pct(f.keptAsWritten, f.sentences)})`,
    String(f.judgeFailsGate),
  ];
  const rows = [head, ...figures.map(line), line(total)];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join("  "));
}

/**
 * `npm run eval -- --replies` (contract §8.4): every reply of the generated corpus, not a sample. Passes only when
 * the gate showed no false reply, the judge failed every one, and the judge passes every reply the gate composed.
 */
export function runGeneratedReplies(
  seed: number,
  out: (line: string) => void,
  options: { gateDisabled?: boolean } = {},
): { pass: boolean } {
  const { figures, findings } = measureReplies(seed, options);
  // The first few of each kind: enough to see what went wrong, not thousands of lines.
  const kinds = new Map<string, string[]>();
  for (const finding of findings) {
    const kind = finding.slice(0, finding.indexOf(" ("));
    kinds.set(kind, [...(kinds.get(kind) ?? []), finding]);
  }
  for (const [kind, all] of kinds) {
    for (const finding of all.slice(0, 10)) out(finding);
    if (all.length > 10) out(`… and ${all.length - 10} more: ${kind}`);
  }
  out(`replies (seed ${seed}), per outcome:`);
  for (const line of replyTable(figures)) out(`  ${line}`);
  const bad = figures.reduce((n, f) => n + f.shown + f.judgePassed + f.judgeFailsGate, 0);
  // The gate-disabled defect shows the model's words: the question set measures the gate's own replies.
  const asked = options.gateDisabled ? { pass: true } : runQuestionSet(seed, out);
  return { pass: bad === 0 && asked.pass };
}
