import { describe, expect, it } from "vitest";
import { gate } from "#controller/gate/gate";
import { openingFor } from "#controller/gate/templates";
import { judgeTurnReply } from "../../eval/judges/reply.ts";
import {
  defaultSeed,
  falseReplies,
  type GeneratedReply,
  judgeContextFor,
  recordsFor,
  type Situation,
  sample,
  situationOf,
  trueReplies,
} from "../../eval/reply-generator.ts";

/**
 * The generated reply corpus (eval/reply-generator.ts) against the gate and the judge, at a CI-sized sample of
 * the full set (`npm run eval -- --replies` runs every reply). Every false reply — a claim the record does not
 * support, in any mood, markdown form, situation and language — must be refused by the gate and failed by the
 * judge, raw and after the right opening; the share of true replies kept as written is reported.
 */
const seed = defaultSeed;
const all = falseReplies(seed);
const falseSample = sample(all, 2_000, seed);
const truths = trueReplies(seed);

const judgeContext = (s: Situation) => judgeContextFor(s);
const gated = (r: GeneratedReply) => {
  const s = situationOf(r.situation);
  return gate({ candidate: r.text, outcomes: s.outcomes, orders: s.orders, today: s.today });
};

describe("the generated reply corpus", () => {
  it("is reproducible from its seed and covers every wrapper, situation and language, with 10,000+ false replies", () => {
    expect(falseReplies(seed)).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(10_000);
    expect(new Set(all.map((r) => r.situation)).size).toBe(6);
    expect(new Set(all.map((r) => r.language)).size).toBe(8);
    expect(new Set(all.map((r) => r.wrapper))).toEqual(
      new Set([
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
      ]),
    );
    for (const key of ["situation", "wrapper", "language"] as const)
      expect(new Set(falseSample.map((r) => r[key])).size).toBe(new Set(all.map((r) => r[key])).size);
  });

  it("the gate shows no false reply of the sample", () => {
    const shown = falseSample.filter((r) => gated(r).decision === "accepted");
    console.log(`[generated replies] false replies: ${falseSample.length} of ${all.length}, shown by the gate: ${shown.length}`);
    expect(shown.map((r) => `${r.situation}/${r.wrapper}: ${r.text}`)).toEqual([]);
  });

  it("the judge fails every false reply of the sample, raw (the gate off) and after the right opening", () => {
    const passed: string[] = [];
    for (const r of falseSample) {
      const s = situationOf(r.situation);
      const records = recordsFor(s);
      if (judgeTurnReply(r.text, records, judgeContext(s)).problem === undefined) passed.push(`${r.situation} (raw): ${r.text}`);
      const opening = openingFor(s.outcomes);
      const composed = opening === "" ? r.text : `${opening} ${r.text}`;
      if (judgeTurnReply(composed, records, judgeContext(s)).problem === undefined)
        passed.push(`${r.situation} (after the opening): ${r.text}`);
    }
    console.log(`[generated replies] false replies passed by the judge: ${passed.length} of ${falseSample.length * 2} readings`);
    expect(passed).toEqual([]);
  });

  it("keeps the true replies a careful model writes, and the judge passes what the gate keeps", () => {
    const kept = truths.filter((r) => gated(r).decision === "accepted");
    const share = Math.round((1000 * kept.length) / truths.length) / 10;
    console.log(`[generated replies] true replies: ${truths.length}, kept as written: ${kept.length} (${share}%)`);
    expect(share).toBeGreaterThanOrEqual(80);
    const disagreements = kept.flatMap((r) => {
      const s = situationOf(r.situation);
      const { problem } = judgeTurnReply(gated(r).reply, recordsFor(s), judgeContext(s));
      return problem ? [`${r.situation}: ${r.text} → ${problem}`] : [];
    });
    expect(disagreements).toEqual([]);
  });
});

describe("the generated replies in the principal's own language", () => {
  const foreign = falseSample.filter((r) => r.language !== "en");

  it("the gate shows only the status sentences in that language, and the judge passes exactly that", () => {
    expect(foreign.length).toBeGreaterThan(0);
    const problems = foreign.flatMap((r) => {
      const s = situationOf(r.situation);
      const decision = gate({ candidate: r.text, outcomes: s.outcomes, orders: s.orders, today: s.today, locale: r.language });
      if (decision.reply.includes(r.text)) return [`${r.language} ${r.situation}: shown: ${r.text}`];
      const { problem } = judgeTurnReply(decision.reply, recordsFor(s), { ...judgeContext(s), locale: r.language });
      return problem ? [`${r.language} ${r.situation}: ${decision.reply} → ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("the judge fails every one of them beside the status sentences in that language", () => {
    const passed = foreign.filter((r) => {
      const s = situationOf(r.situation);
      const opening = openingFor(s.outcomes, r.language);
      const composed = opening === "" ? r.text : `${opening} ${r.text}`;
      return judgeTurnReply(composed, recordsFor(s), { ...judgeContext(s), locale: r.language }).problem === undefined;
    });
    expect(passed.map((r) => `${r.language} ${r.situation}: ${r.text}`)).toEqual([]);
  });
});
