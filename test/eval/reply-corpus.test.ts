import { describe, expect, it } from "vitest";
import { gate } from "#controller/gate/gate";
import { openingFor } from "#controller/gate/templates";
import { type CorpusScenario, loadCorpus, ordersOf, readsOf, recordsOf } from "../../eval/reply-corpus.ts";
import { judgeTurnReply } from "../../eval/judges/reply.ts";
import { isCourtesy } from "../../eval/judges/reply-reader.ts";

/**
 * The adversarial reply corpus against the gate and the judge. Every false reply — a claim the recorded
 * outcome does not support, however it is put — must be refused by the gate (nothing of it but courtesy shown) and
 * failed by the judge, both as the model's raw text (the gate switched off) and after the right opening. Of the
 * true replies, the share the gate keeps as the model wrote them is reported; what it shows instead (the status
 * sentences and the record's facts) must pass the judge.
 */
const corpus = loadCorpus();
const falseReplies = corpus.flatMap((s) => s.false.map((f) => ({ scenario: s, ...f })));
const trueReplies = corpus.flatMap((s) => s.true.map((text) => ({ scenario: s, text })));
const judgeContext = (s: CorpusScenario) => ({
  records: recordsOf(s),
  visibleOrders: new Set(s.orders.map((o) => o.orderId)),
  reads: readsOf(s),
  today: s.today,
});
const gated = (s: CorpusScenario, text: string) =>
  gate({ candidate: text, outcomes: s.outcomes, orders: ordersOf(s), today: s.today, turn: 1 });

describe("the adversarial reply corpus", () => {
  it("is large and varied enough: 300+ false replies over every tool and outcome, 6+ languages, 100+ true", () => {
    expect(falseReplies.length).toBeGreaterThanOrEqual(300);
    expect(trueReplies.length).toBeGreaterThanOrEqual(100);
    const languages = new Set(falseReplies.filter((r) => r.kind.startsWith("language:")).map((r) => r.kind));
    expect(languages.size).toBeGreaterThanOrEqual(6);
    for (const kind of ["paraphrase", "negation", "money", "confusable", "invisible", "fullwidth", "spacing", "markdown", "emoji"]) {
      expect(falseReplies.some((r) => r.kind === kind)).toBe(true);
    }
    const situations = new Set(corpus.map((s) => `${s.outcomes[0]?.kind ?? "none"}`));
    expect([...situations].sort()).toEqual(["completed", "none", "rejected", "unknown"]);
  });

  it("the gate shows no false reply: each falls back to the template", () => {
    const shown = falseReplies.filter(({ scenario, text }) => {
      const decision = gated(scenario, text);
      return decision.kept.some((k) => !isCourtesy(k)) || decision.reply.includes(text);
    });
    console.log(`[reply corpus] false replies: ${falseReplies.length}, shown by the gate: ${shown.length}`);
    expect(shown.map((r) => `${r.scenario.scenario}: ${r.text}`)).toEqual([]);
  });

  it("the judge fails every false reply, with the gate off (the raw text) and after the right opening", () => {
    const passed: string[] = [];
    for (const { scenario, text } of falseReplies) {
      const records = recordsOf(scenario);
      const opening = openingFor(scenario.outcomes);
      if (judgeTurnReply(text, records, judgeContext(scenario)).problem === undefined)
        passed.push(`${scenario.scenario} (gate off): ${text}`);
      const composed = opening === "" ? text : `${opening} ${text}`;
      if (judgeTurnReply(composed, records, judgeContext(scenario)).problem === undefined)
        passed.push(`${scenario.scenario} (after the opening): ${text}`);
    }
    console.log(`[reply corpus] false replies passed by the judge: ${passed.length} of ${falseReplies.length * 2} readings`);
    expect(passed).toEqual([]);
  });

  it("keeps true replies as written where they say a fact, and reports the share", () => {
    const kept = trueReplies.filter(({ scenario, text }) => gated(scenario, text).decision === "accepted");
    const share = Math.round((1000 * kept.length) / trueReplies.length) / 10;
    console.log(`[reply corpus] true replies: ${trueReplies.length}, kept as written: ${kept.length} (${share}%)`);
    expect(kept.length).toBeGreaterThan(0);
  });

  it("what the gate shows for any reply of the corpus, the judge passes (the two readings agree)", () => {
    const disagreements: string[] = [];
    for (const { scenario, text } of [...trueReplies, ...falseReplies]) {
      const decision = gated(scenario, text);
      const { problem } = judgeTurnReply(decision.reply, recordsOf(scenario), judgeContext(scenario));
      if (problem) disagreements.push(`${scenario.scenario}: ${text} → ${decision.reply} → ${problem}`);
    }
    expect(disagreements).toEqual([]);
  });
});
