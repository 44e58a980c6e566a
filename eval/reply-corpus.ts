import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import type { OrderFacts, TurnOutcome } from "#controller/gate/outcomes";
import type { RecordedOutcome } from "./judges/status-sentences.ts";

/**
 * The adversarial reply corpus (eval/reply-corpus/*.json): model replies, false and true, each for a recorded
 * outcome. One file per scenario:
 *
 *   { "scenario", "about", "today", "orders": [<what reads showed>], "outcomes": [<the turn's outcomes>],
 *     "false": [{ "kind", "text" }], "true": ["…"] }
 *
 * `outcomes` are the turn's recorded outcomes as the controller holds them (kind completed | rejected | unknown,
 * tool, orderId, code, reason, body), empty for a turn that changed nothing. A false reply claims what the
 * outcome does not support; `kind` says how it tries (paraphrase, negation, money, language:<code>,
 * confusable, invisible, fullwidth, spacing, leet, markdown, emoji, other-order, hold, denial-while-unknown).
 * The gate must show none of them; the judge must fail every one. A true reply is one the gate may keep.
 */
const outcomeSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("completed"),
    tool: z.string(),
    orderId: z.string(),
    operationId: z.string(),
    body: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({
    kind: z.literal("rejected"),
    tool: z.string(),
    orderId: z.string(),
    operationId: z.string(),
    code: z.string(),
    reason: z.string().optional(),
    body: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({ kind: z.literal("unknown"), tool: z.string(), orderId: z.string(), operationId: z.string() }),
]);

export const corpusFileSchema = z.strictObject({
  scenario: z.string().regex(/^[a-z0-9-]+$/),
  about: z.string().min(1),
  today: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  orders: z.array(z.record(z.string(), z.unknown())),
  outcomes: z.array(outcomeSchema),
  false: z.array(z.strictObject({ kind: z.string().min(1), text: z.string().min(1) })).min(1),
  true: z.array(z.string().min(1)),
});

export interface CorpusScenario {
  scenario: string;
  about: string;
  today: string;
  orders: OrderFacts[];
  outcomes: TurnOutcome[];
  false: { kind: string; text: string }[];
  true: string[];
}

export const corpusDir = join(import.meta.dirname, "reply-corpus");

export function loadCorpus(dir = corpusDir): CorpusScenario[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const parsed = corpusFileSchema.safeParse(JSON.parse(readFileSync(join(dir, file), "utf8")));
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      return parsed.data as unknown as CorpusScenario;
    });
}

/**
 * The scenario's orders as the controller keeps them after this turn's reads (turn 1), for the gate: the facts a
 * reply may tell are theirs.
 */
export function ordersOf(scenario: CorpusScenario): OrderFacts[] {
  return scenario.orders.map((o) => ({ ...o, read: true, readTurn: 1 }));
}

/** What the service answered those reads, as the judge reads them: a get_order's fields the scenario holds. */
export function readsOf(scenario: CorpusScenario): Record<string, unknown>[] {
  return scenario.orders.map((o) => ({
    orderId: o.orderId,
    ...(o.status ? { status: o.status } : {}),
    ...(o.placedAt ? { placedAt: o.placedAt } : {}),
    ...(o.deliveredAt !== undefined ? { deliveredAt: o.deliveredAt } : {}),
    ...(o.items ? { items: o.items } : o.itemTitles ? { itemTitles: o.itemTitles } : {}),
    ...(o.returnableUntil !== undefined || o.returnWindowDays !== undefined
      ? { policy: { returnableUntil: o.returnableUntil ?? null, returnWindowDays: o.returnWindowDays } }
      : {}),
    ...(o.allowedActions ? { allowedActions: o.allowedActions } : {}),
  }));
}

/** The scenario's outcomes as the judge reads them: the service's records. */
export function recordsOf(scenario: CorpusScenario): RecordedOutcome[] {
  return scenario.outcomes.map((o) => {
    const base = { tool: o.tool, orderId: o.orderId, operationId: "operationId" in o ? o.operationId : "op" };
    if (o.kind === "completed") return { ...base, status: "completed", result: o.body };
    if (o.kind === "rejected")
      return { ...base, status: "rejected", error: (o.body.error as Record<string, unknown>) ?? { code: o.code, reason: o.reason } };
    return { ...base, status: "unknown" };
  });
}
