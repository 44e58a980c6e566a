import { describe, expect, it } from "vitest";
import { gate } from "#controller/gate/gate";
import { openingFor } from "#controller/gate/templates";
import { judgeTurnReply } from "#eval/judges/reply";
import { isCourtesy } from "#eval/judges/reply-reader";
import {
  defaultSeed,
  falseReplies,
  type GeneratedReply,
  gateInputFor,
  judgeContextFor,
  recordsFor,
  sample,
  situationOf,
  situations,
  trueReplies,
} from "#eval/reply-generator";
import { measureReplies, replyTable } from "#eval/reply-run";

/**
 * The generated reply corpus (eval/reply-generator.ts) against the gate and the judge, at a CI-sized sample of the
 * false replies and all the true ones (`npm run eval -- --replies` runs every reply). Every false reply must be
 * refused by the gate (no sentence of it but courtesy shown) and failed by the judge, raw and after the right
 * opening; every reply the gate composes must pass the judge; and at least 90% of the true replies must reach the
 * customer with all their information, as the model's sentences or as the record's facts.
 */
const seed = defaultSeed;
const all = falseReplies(seed);
const falseSample = sample(all, 2_000, seed);
const truths = trueReplies(seed);

const judgeContext = (r: GeneratedReply) => ({ ...judgeContextFor(situationOf(r.situation)), locale: r.language });
const gated = (r: GeneratedReply) => gate(gateInputFor(situationOf(r.situation), r.text, r.language));

describe("the generated reply corpus", () => {
  it("is reproducible from its seed and covers every wrapper, family, situation and language: 10,000+ false replies, 500+ true", () => {
    expect(falseReplies(seed)).toEqual(all);
    expect(trueReplies(seed)).toEqual(truths);
    expect(all.length).toBeGreaterThanOrEqual(10_000);
    expect(truths.length).toBeGreaterThanOrEqual(500);
    expect(new Set(all.map((r) => r.situation)).size).toBe(situations.length);
    expect(new Set(all.map((r) => r.language)).size).toBe(8);
    const families = new Set(all.map((r) => r.wrapper.replace(/ \(.*\)$/, "")));
    for (const family of [
      "statement",
      "question",
      "tag question",
      "offer",
      "conditional",
      "temporal",
      "hedge",
      "double negation",
      "link text",
      "link target",
      "footnote",
      "code",
      "emphasis inside a word",
      "strikethrough",
      "table",
      "list",
      "quote",
      "HTML",
      "symbol",
      "arrow",
      "entity",
      "outcome verb",
      "other actor",
      "answered question",
      "bare answer",
      "money",
      "seller words",
      "quote breakout",
    ])
      expect(families, family).toContain(family);
    const family = (r: GeneratedReply) => r.wrapper.replace(/ \(.*\)$/, "");
    for (const key of [(r: GeneratedReply) => r.situation, family, (r: GeneratedReply) => r.language])
      expect(new Set(falseSample.map(key)).size).toBe(new Set(all.map(key)).size);
    const units = new Set(truths.flatMap((r) => (r.sentences ?? []).map((s) => s.unit.kind)));
    expect([...units].sort()).toEqual([
      "amounts",
      "courtesy",
      "items",
      "note",
      "outcome",
      "placed",
      "possible",
      "returnWindow",
      "status",
      "tracking",
    ]);
  });

  it("the gate shows no false reply of the sample: nothing of it but courtesy reaches the customer", () => {
    const shown = falseSample.flatMap((r) => {
      const kept = gated(r).kept.filter((k) => !isCourtesy(k));
      return kept.length > 0 ? [`${r.situation}/${r.wrapper}: ${r.text} → ${kept.join(" ")}`] : [];
    });
    console.log(`[generated replies] false replies: ${falseSample.length} of ${all.length}, shown by the gate: ${shown.length}`);
    expect(shown).toEqual([]);
  });

  it("the judge fails every false reply of the sample, raw (the gate off) and after the right opening", () => {
    const passed: string[] = [];
    for (const r of falseSample) {
      const s = situationOf(r.situation);
      const opening = openingFor(s.outcomes, r.language);
      for (const text of [r.text, opening === "" ? r.text : `${opening} ${r.text}`])
        if (judgeTurnReply(text, recordsFor(s), judgeContext(r)).problem === undefined) passed.push(`${r.situation}: ${text}`);
    }
    console.log(`[generated replies] false replies passed by the judge: ${passed.length} of ${falseSample.length * 2} readings`);
    expect(passed).toEqual([]);
  });

  it("what the gate makes of any of them, the judge passes: the gate's reply is true by the judge's own reading", () => {
    const failed = [...falseSample, ...truths].flatMap((r) => {
      const { problem } = judgeTurnReply(gated(r).reply, recordsFor(situationOf(r.situation)), judgeContext(r));
      return problem ? [`${r.situation}: ${gated(r).reply} → ${problem}`] : [];
    });
    expect(failed).toEqual([]);
  });

  it("at least 90% of the true replies reach the customer with all they say, per outcome as well", () => {
    const run = measureReplies(seed, { sampleOf: (list) => (list[0]?.sentences ? list : []) });
    for (const line of replyTable(run.figures)) console.log(`[generated replies] ${line}`);
    for (const f of run.figures) if (f.trueReplies > 0) expect(f.delivered / f.trueReplies, f.outcome).toBeGreaterThanOrEqual(0.9);
    const delivered = run.figures.reduce((n, f) => n + f.delivered, 0);
    expect(delivered / truths.length).toBeGreaterThanOrEqual(0.9);
  });
});

describe("the quote and control breakouts of the corpus", () => {
  const breakouts = all.filter((r) => r.wrapper.startsWith("quote breakout"));

  it("none is shown, in any situation, and the judge fails every one, raw and after the right opening", () => {
    expect(breakouts.length).toBeGreaterThan(500);
    expect(breakouts.filter((r) => r.situation === "breakout_words").length).toBeGreaterThan(0);
    const shown = breakouts.flatMap((r) => {
      const kept = gated(r).kept.filter((k) => !isCourtesy(k));
      return kept.length > 0 ? [`${r.situation}/${r.wrapper}: ${r.text} → ${kept.join(" ")}`] : [];
    });
    console.log(`[generated replies] quote and control breakouts: ${breakouts.length}, shown by the gate: ${shown.length}`);
    expect(shown).toEqual([]);
    const passed = breakouts.flatMap((r) => {
      const s = situationOf(r.situation);
      const opening = openingFor(s.outcomes, r.language);
      return [r.text, opening === "" ? r.text : `${opening} ${r.text}`].filter(
        (text) => judgeTurnReply(text, recordsFor(s), judgeContext(r)).problem === undefined,
      );
    });
    expect(passed).toEqual([]);
  });
});

describe("the generated replies in the principal's own language", () => {
  const foreign = falseSample.filter((r) => r.language !== "en");

  it("the gate shows only the status sentences and facts in that language, and the judge passes exactly that", () => {
    expect(foreign.length).toBeGreaterThan(0);
    const problems = foreign.flatMap((r) => {
      const decision = gated(r);
      if (decision.reply.includes(r.text) || decision.kept.length > 0) return [`${r.language} ${r.situation}: shown: ${r.text}`];
      const { problem } = judgeTurnReply(decision.reply, recordsFor(situationOf(r.situation)), judgeContext(r));
      return problem ? [`${r.language} ${r.situation}: ${decision.reply} → ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });
});
