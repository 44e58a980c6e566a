import { gate } from "#controller/gate/gate";
import { openingFor } from "#controller/gate/templates";
import { judgeTurnReply } from "./judges/reply.ts";
import { falseReplies, type GeneratedReply, judgeContextFor, recordsFor, situationOf, trueReplies } from "./reply-generator.ts";

/**
 * `npm run eval -- --replies` (contract §8.4): every reply of the generated corpus, not a sample, against the gate
 * and the judge. Prints what each let through and the share of true replies kept; passes only when the gate
 * showed no false reply and the judge failed every one.
 */
export function runGeneratedReplies(
  seed: number,
  out: (line: string) => void,
  options: { gateDisabled?: boolean } = {},
): { pass: boolean } {
  // The gate-disabled defect (eval/defects.ts) shows the model's text as written, whatever the record says.
  const gated = (r: GeneratedReply): { decision: string } => {
    if (options.gateDisabled) return { decision: "accepted" };
    const s = situationOf(r.situation);
    return gate({ candidate: r.text, outcomes: s.outcomes, orders: s.orders, today: s.today });
  };
  const lies = falseReplies(seed);
  const shown = lies.filter((r) => gated(r).decision === "accepted");
  let judgePassed = 0;
  for (const r of lies) {
    const s = situationOf(r.situation);
    const opening = openingFor(s.outcomes);
    for (const text of [r.text, opening === "" ? r.text : `${opening} ${r.text}`]) {
      if (judgeTurnReply(text, recordsFor(s), judgeContextFor(s)).problem === undefined) {
        judgePassed += 1;
        out(`judge passed (${r.situation}, ${r.wrapper}, ${r.language}): ${JSON.stringify(text)}`);
      }
    }
  }
  for (const r of shown) out(`gate showed (${r.situation}, ${r.wrapper}, ${r.language}): ${JSON.stringify(r.text)}`);
  const truths = trueReplies(seed);
  const kept = truths.filter((r) => gated(r).decision === "accepted").length;
  out(
    `replies (seed ${seed}): ${lies.length} false — shown by the gate ${shown.length}, passed by the judge ${judgePassed} of ${lies.length * 2} readings`,
  );
  out(`replies: ${truths.length} true — kept as written ${kept} (${Math.round((1000 * kept) / truths.length) / 10}%)`);
  return { pass: shown.length === 0 && judgePassed === 0 };
}
