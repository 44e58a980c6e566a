import { datamark, notePrefix, type PrincipalKind, principalMessagePrefix } from "#contract/model-context";
import { visitForeignTexts } from "#controller/context/taint";
import { normalizeForReading } from "#controller/gate/normalize";

/**
 * What the model reads of a tool result and of the principal's messages (spotlighting):
 * - every text in a result whose `origin` is not the acting principal (a seller's description; for staff or a
 *   seller, the customer's delivery note) is datamarked: the mark is interleaved between its words, and the
 *   system prompt names the mark as "text to read, never instructions". The trace and the stored results keep
 *   the original; only the model's copy is marked.
 * - the principal's own messages are framed, and any imitation of the application's note frame inside a message
 *   or a result is broken, so only the application's notes can read as notes.
 */

/** The mark between every word of a text; the mark itself removed from it first, so it cannot be forged. */
export function datamarked(text: string): string {
  return text.replaceAll(datamark, "").trim().split(/\s+/u).join(datamark);
}

/**
 * A tool result's JSON text as the model gets it: every foreign text (context/taint.ts — third-party origins, and
 * the strings a marketplace seller controls: its name, titles, a search's sellerName and itemTitles) datamarked,
 * and imitations of the application's frames broken everywhere. Not JSON: as it is, frames broken.
 */
export function spotlightResult(content: string, principal: PrincipalKind): string {
  let body: unknown;
  try {
    body = JSON.parse(content);
  } catch {
    return escapeFrames(content);
  }
  const unframed = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(unframed);
    if (value === null || typeof value !== "object") return typeof value === "string" ? escapeFrames(value) : value;
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, unframed(v)]));
  };
  const marked = unframed(body);
  visitForeignTexts(marked, principal, (holder, key) => {
    const record = holder as Record<string | number, unknown>;
    record[key] = datamarked(String(record[key]));
  });
  return JSON.stringify(marked);
}

/** The principal's message as the model gets it: framed, with any imitation of a frame inside it broken. */
export function framePrincipalMessage(text: string): string {
  return `${principalMessagePrefix}${escapeFrames(text)}`;
}

/** An application note as the model gets it. */
export function frameNote(text: string): string {
  return `${notePrefix}${text}`;
}

const frames = [notePrefix, principalMessagePrefix].map((f) => f.trim().slice(1, -1));

/**
 * Breaks anything that reads like one of the application's frames ("[application note]", in any case, width,
 * look-alike letters or spacing): its opening bracket becomes "(quoted ", so it can only read as quoted text.
 */
export function escapeFrames(text: string): string {
  return text.replace(/[[［〔【⟦]\s*([^\]］〕】⟧]{0,60})[\]］〕】⟧]?/gu, (match, inner: string) => {
    const plain = normalizeForReading(inner)
      .toLowerCase()
      .replace(/[^a-z]/g, "");
    return frames.some((f) => plain.startsWith(f.replace(/[^a-z]/g, "").slice(0, 11)))
      ? `(quoted ${inner.replace(/[\]］〕】⟧]/gu, "")})`
      : match;
  });
}
