/**
 * The response gate's cost per reply (`npm run bench -- --only gate`), pure CPU (no service, no model), each reply
 * gated as the controller gates it: against its turn's outcomes and the orders this turn's reads returned, the
 * facts rendered, the reply composed.
 * - By the reply's raw length: every reply of the generated corpus (eval/reply-generator.ts, false and true) and
 *   longer ones made by joining a situation's true replies, up to and past 800 characters.
 * - Against a record's size: an 800-character reply about an order whose get_order answer is about 10 KB (titles
 *   and descriptions at their bounds, contract §6), as the controller keeps it after the read.
 * - An unbounded record: a 1,600-word title (8.5 KB) handed to the gate directly, past every bound the service and
 *   the controller hold — the gate's own cost must stay linear in what it is given. A gate that once took 48 s and
 *   3.8 GB for it is what this row is for.
 */
import { newConversationState, noteReadResult } from "#controller/conversation-state";
import { gate, type GateInput } from "#controller/gate/gate";
import type { OrderFacts } from "#controller/gate/outcomes";
import { PrincipalMessage } from "#controller/guard/message";
import { sellerTextLimits } from "#core/order";
import { falseReplies, gateInputFor, situationOf, trueReplies } from "../../eval/reply-generator.ts";
import { records, situations, today } from "../../eval/reply-records.ts";

interface Row {
  label: string;
  inputs: GateInput[];
}

/** A reply of about `length` characters: the situation's true replies joined, cut at a sentence. */
function replyOf(situation: string, length: number): string {
  const parts = trueReplies(1)
    .filter((r) => r.situation === situation && r.wrapper === "two sentences")
    .map((r) => r.text);
  let text = "";
  for (let i = 0; text.length < length && parts.length > 0; i++) text = `${text} ${parts[i % parts.length]}`.trim();
  return text.length <= length ? text : text.slice(0, text.lastIndexOf(". ", length) + 1);
}

/** An order whose get_order answer is about 10 KB: four items with titles and descriptions at their bounds. */
function tenKilobyteOrder(): Record<string, unknown> {
  const words = "Solid oak shelving unit with four adjustable shelves, brass fittings and a waxed finish".split(" ");
  const text = (n: number) =>
    Array.from({ length: n }, (_, i) => words[i % words.length])
      .join(" ")
      .slice(0, n);
  const bench = records["SU-62001"] as Record<string, unknown>;
  return {
    ...bench,
    orderId: "SU-62009",
    seller: { id: "SLR-2210", name: text(sellerTextLimits.sellerName), type: "marketplace", status: "active" },
    items: Array.from({ length: 4 }, (_, i) => ({
      itemId: `ITM-${i + 1}`,
      title: text(sellerTextLimits.itemTitle),
      quantity: 1,
      unitCents: 4500,
      description: { origin: "seller", sellerId: "SLR-2210", reviewed: false, text: text(sellerTextLimits.itemDescription) },
    })),
  };
}

function ordersAfterRead(body: Record<string, unknown>): OrderFacts[] {
  const state = newConversationState("bench-gate");
  state.turns = 1;
  noteReadResult(state, "get_order", { orderId: body.orderId }, body, new PrincipalMessage("Where is my order?"));
  return state.orders;
}

function rows(): Row[] {
  const corpus = [...falseReplies(1), ...trueReplies(1)];
  const buckets = [50, 100, 200, 400, 800, Number.POSITIVE_INFINITY];
  const byLength: Row[] = buckets.map((limit, i) => ({
    label: `${i === 0 ? 1 : (buckets[i - 1] as number) + 1}–${limit === Number.POSITIVE_INFINITY ? "" : limit} chars`,
    inputs: [],
  }));
  const add = (input: GateInput) => {
    const length = (input.candidate ?? "").length;
    byLength[buckets.findIndex((limit) => length <= limit)]?.inputs.push(input);
  };
  // Every 8th reply of the corpus (about 2,000 of them), and longer ones joined from each situation's true replies.
  for (const [i, r] of corpus.entries()) if (i % 8 === 0) add(gateInputFor(situationOf(r.situation), r.text, r.language));
  for (const s of situations) for (const length of [400, 800, 1600]) add(gateInputFor(s, replyOf(s.name, length)));

  const body = tenKilobyteOrder();
  const reply800 = `${replyOf("delivered", 760).replaceAll("SU-62001", "SU-62009")} Is there anything else I can help you with?`;
  const tenKb: Row = {
    label: `10 KB record (${(JSON.stringify(body).length / 1024).toFixed(1)} KB), ${reply800.length}-char reply`,
    inputs: [{ candidate: reply800, outcomes: [], orders: ordersAfterRead(body), turn: 1, today }],
  };
  const title = Array.from({ length: 1600 }, (_, i) => ["oak", "shelving", "repaid", "in", "full"][i % 5]).join(" ");
  const unbounded: Row = {
    label: `unbounded: a 1,600-word title (${(title.length / 1024).toFixed(1)} KB), ${reply800.length}-char reply`,
    inputs: [
      {
        candidate: reply800,
        outcomes: [],
        orders: [{ ...(ordersAfterRead(body)[0] as OrderFacts), items: [{ itemId: "ITM-1", title }], itemTitles: [title] }],
        turn: 1,
        today,
      },
    ],
  };
  return [...byLength.filter((r) => r.inputs.length > 0), tenKb, unbounded];
}

export async function benchGate(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<void> {
  const rounds = Math.max(3, options.rounds ?? 30);
  const log = options.log ?? console.log;
  const table = rows();
  const times = table.map(() => [] as number[]);
  // The single-record rows are measured as often as the corpus rows have replies, so their percentiles mean as much.
  const repeat = (row: Row) => (row.inputs.length === 1 ? 200 : 1);
  for (let round = 0; round < rounds; round++) {
    for (const [i, row] of table.entries()) {
      for (let n = 0; n < repeat(row); n++)
        for (const input of row.inputs) {
          const started = performance.now();
          gate(input);
          const ms = performance.now() - started;
          if (round > 0) times[i]?.push(ms); // the first round warms the JIT up
        }
    }
  }
  const memory = process.memoryUsage().heapUsed / 2 ** 20;
  log(`${rounds - 1} rounds after one warm-up round; the single-record rows 200 times a round.\n`);
  const width = Math.max(...table.map((r) => r.label.length)) + 2;
  log(["", "replies", "p50 µs", "p99 µs", "max µs"].map((h, i) => (i === 0 ? h.padEnd(width) : h.padStart(9))).join(""));
  for (const [i, row] of table.entries()) {
    const series = (times[i] ?? []).sort((a, b) => a - b);
    const at = (p: number) => ((series[Math.min(series.length - 1, Math.floor((p / 100) * series.length))] ?? 0) * 1000).toFixed(0);
    log(
      [row.label.padEnd(width), String(row.inputs.length).padStart(9), at(50).padStart(9), at(99).padStart(9), at(100).padStart(9)].join(
        "",
      ),
    );
  }
  log(
    `\nEach reply: the markdown rendered to the shown text (markdown-it), the facts of the turn's orders built, each sentence read (courtesy phrase, or the key of its words against the facts of the orders it names), the facts chosen and the reply composed. Heap in use after the section: ${memory.toFixed(0)} MB.`,
  );
}
