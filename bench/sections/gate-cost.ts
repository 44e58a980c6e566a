/**
 * The response gate's cost per reply (`npm run bench -- --only gate`): every reply of the adversarial corpus
 * (eval/reply-corpus/, false and true), and longer replies made by joining its true replies, each gated against
 * its scenario's outcome; p50 and p99 per reply by the reply's raw length. Pure CPU: no service, no model.
 */
import { gate } from "#controller/gate/gate";
import { loadCorpus } from "../../eval/reply-corpus.ts";

export async function benchGate(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<void> {
  const rounds = Math.max(3, options.rounds ?? 30);
  const log = options.log ?? console.log;
  const corpus = loadCorpus();
  const replies = corpus.flatMap((s) => [...s.false.map((f) => f.text), ...s.true].map((text) => ({ s, text })));
  // Long replies: the scenario's true replies joined, as a verbose model would write them.
  for (const s of corpus) {
    const joined = s.true.join(" ");
    replies.push({ s, text: joined }, { s, text: `${joined} ${joined}` }, { s, text: Array.from({ length: 6 }, () => joined).join(" ") });
  }
  const buckets = [50, 100, 200, 400, 800, Number.POSITIVE_INFINITY];
  const times = buckets.map(() => [] as number[]);
  let accepted = 0;
  for (let round = 0; round < rounds; round++) {
    for (const { s, text } of replies) {
      const started = performance.now();
      const decision = gate({ candidate: text, outcomes: s.outcomes, orders: s.orders, today: s.today });
      const ms = performance.now() - started;
      if (round === 0 && decision.decision === "accepted") accepted += 1;
      if (round === 0) continue; // the first round warms the JIT up
      const b = buckets.findIndex((limit) => text.length <= limit);
      times[b]?.push(ms);
    }
  }
  log(`${replies.length} replies × ${rounds - 1} rounds (after one warm-up round); ${accepted} accepted as written on the first round.\n`);
  log(["raw length (chars)", "replies", "p50 µs", "p99 µs"].map((h, i) => (i === 0 ? h.padEnd(20) : h.padStart(9))).join(""));
  let low = 0;
  for (const [i, limit] of buckets.entries()) {
    const series = (times[i] ?? []).sort((a, b) => a - b);
    if (series.length === 0) continue;
    const at = (p: number) => ((series[Math.min(series.length - 1, Math.floor((p / 100) * series.length))] ?? 0) * 1000).toFixed(0);
    const label = limit === Number.POSITIVE_INFINITY ? `> ${low}` : `${low + 1}–${limit}`;
    log([label.padEnd(20), String(series.length / (rounds - 1)).padStart(9), at(50).padStart(9), at(99).padStart(9)].join(""));
    low = limit;
  }
  log(
    "\nEach reply: markdown rendered to the shown text (markdown-it), normalisation (NFKC, invisible characters, confusables), the closed-vocabulary reading, the claim check against the outcome, the opening template.",
  );
}
