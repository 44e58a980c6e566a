import type { TurnDecision } from "#controller/changes/settlement";
import { type Run, say } from "#controller/state/run";
import type { Limits } from "#controller/turn/model-turn";

/**
 * The bound on a principal's message (contract §8.5): a message longer than `limits.maxMessageCharacters` is not
 * read — not by the guards, not by the model — so a very long message costs a short turn, not a slow one. Nothing
 * changes; the reply says so and asks for a shorter message, and the turn's `problem` is `message_too_long`.
 */
export function messageOverBound(text: string, limits: Pick<Limits, "maxMessageCharacters">, run: Run): TurnDecision | undefined {
  const limit = limits.maxMessageCharacters;
  if (text.length <= limit) return undefined;
  run.recorder.add({ type: "limit", limit: "message_length", value: text.length });
  return {
    reply: say(run, "messageTooLong", { length: String(text.length), limit: String(limit) }),
    replyKind: "information",
    decision: "template",
    flags: ["limit"],
    problems: [`the message is ${text.length} characters long, over the bound of ${limit}`],
    judgedAgainst: "the bound on a message's length",
  };
}
