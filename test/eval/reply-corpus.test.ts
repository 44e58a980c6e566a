import { describe, expect, it } from "vitest";
import { gate } from "#controller/gate/gate";
import { openingFor } from "#controller/gate/templates";
import { loadCorpus, recordsOf } from "../../eval/reply-corpus.ts";
import { judgeTurnReply } from "../../eval/judges/reply.ts";

/**
 * The adversarial reply corpus against the gate and the judge. Every false reply — a claim the recorded
 * outcome does not support, however it is put — must be refused by the gate (the template is shown alone) and
 * failed by the judge, both as the model's raw text (the gate switched off) and after the right opening. The
 * true replies are what makes the gate worth having: the share it keeps is reported, and held to a floor.
 */
const corpus = loadCorpus();
const falseReplies = corpus.flatMap((s) => s.false.map((f) => ({ scenario: s, ...f })));
const trueReplies = corpus.flatMap((s) => s.true.map((text) => ({ scenario: s, text })));
const judgeContext = (s: (typeof corpus)[number]) => ({
  records: recordsOf(s),
  visibleOrders: new Set(s.orders.map((o) => o.orderId)),
  statuses: new Map(s.orders.map((o) => [o.orderId, o.status ?? ""])),
  dates: new Set(["2026-11-20", "2026-11-24", "2026-12-02"]),
  times: new Set(JSON.stringify(s.outcomes).match(/\b\d{2}:\d{2}\b/g) ?? []),
  knownWords: new Set(s.orders.flatMap((o) => (o.itemTitles ?? []).flatMap((t) => t.toLowerCase().split(/\W+/)))),
});

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
      const decision = gate({ candidate: text, outcomes: scenario.outcomes, orders: scenario.orders, today: scenario.today });
      return decision.decision === "accepted" || decision.reply.includes(text);
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

  it("keeps true replies as written, and reports the share", () => {
    const kept = trueReplies.filter(
      ({ scenario, text }) =>
        gate({ candidate: text, outcomes: scenario.outcomes, orders: scenario.orders, today: scenario.today }).decision === "accepted",
    );
    const share = Math.round((1000 * kept.length) / trueReplies.length) / 10;
    console.log(`[reply corpus] true replies: ${trueReplies.length}, kept as written: ${kept.length} (${share}%)`);
    // A gate that keeps nothing is useless: the floor is well below today's share, so it fails only on a collapse.
    expect(share).toBeGreaterThanOrEqual(60);
  });

  it("what the gate keeps of a true reply, the judge passes (the two readings agree on the corpus)", () => {
    const disagreements: string[] = [];
    for (const { scenario, text } of trueReplies) {
      const decision = gate({ candidate: text, outcomes: scenario.outcomes, orders: scenario.orders, today: scenario.today });
      if (decision.decision !== "accepted") continue;
      const { problem } = judgeTurnReply(decision.reply, recordsOf(scenario), judgeContext(scenario));
      if (problem) disagreements.push(`${scenario.scenario}: ${text} → ${problem}`);
    }
    expect(disagreements).toEqual([]);
  });
});
