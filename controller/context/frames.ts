import { notePrefix, principalMessagePrefix } from "#contract/model-context";
import { normalizeForReading } from "#controller/gate/normalize";

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
