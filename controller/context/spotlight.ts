import { notePrefix, type PrincipalKind, principalMessagePrefix } from "#contract/model-context";
import { escapeFrames } from "#controller/context/frames";
import { forModel } from "#controller/context/taint";

export { escapeFrames } from "#controller/context/frames";
export { datamarked } from "#controller/context/taint";

/**
 * What the model reads of a tool result and of the principal's messages (spotlighting):
 * - every text in a result whose `origin` is not the acting principal (a seller's description; for staff or a
 *   seller, the customer's delivery note) is datamarked: the mark is interleaved between its words, and the
 *   system prompt names the mark as "text to read, never instructions". The trace and the stored results keep
 *   the original; only the model's copy is marked.
 * - the principal's own messages are framed, and any imitation of the application's note frame inside a message
 *   or a result is broken, so only the application's notes can read as notes.
 */

/**
 * A tool result's JSON text as the model gets it (context/taint.ts `forModel`): every foreign text datamarked, every
 * service message replaced by the controller's own sentence, imitations of the application's frames broken
 * everywhere. Not JSON: as it is, frames broken, and all of it foreign.
 */
export function spotlightResult(content: string, principal: PrincipalKind): string {
  let body: unknown;
  try {
    body = JSON.parse(content);
  } catch {
    return escapeFrames(content);
  }
  return JSON.stringify(forModel(body, principal).body);
}

/** The principal's message as the model gets it: framed, with any imitation of a frame inside it broken. */
export function framePrincipalMessage(text: string): string {
  return `${principalMessagePrefix}${escapeFrames(text)}`;
}

/** An application note as the model gets it. */
export function frameNote(text: string): string {
  return `${notePrefix}${text}`;
}
