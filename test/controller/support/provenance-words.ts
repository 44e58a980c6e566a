import { readMessage } from "#controller/guard/message";
import { type ProvenanceDecision, type ProvenanceInput, provenance } from "#controller/guard/provenance";

/** The guard's input with the principal's words as written: each is read once, as the controller reads it. */
export type Words = Omit<Partial<ProvenanceInput>, "message" | "askedBefore" | "principalMessages"> &
  Pick<ProvenanceInput, "tool" | "request"> & {
    message: string;
    askedBefore?: string;
    principalMessages?: string[];
  };

/** The provenance control over words as written, with a test file's own defaults (the orders in play, today). */
export function provenanceOf(defaults: Pick<ProvenanceInput, "orders"> & Partial<ProvenanceInput>): (words: Words) => ProvenanceDecision {
  return ({ message, askedBefore, principalMessages, ...input }) =>
    provenance({
      orderId: String(input.request.orderId),
      ...defaults,
      ...input,
      message: readMessage(message),
      principalMessages: (principalMessages ?? [message]).map((m) => readMessage(m)),
      ...(askedBefore !== undefined ? { askedBefore: readMessage(askedBefore) } : {}),
    });
}
