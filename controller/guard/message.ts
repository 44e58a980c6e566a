import { smallWords } from "#controller/text/small-words";
import { type RequestForm, readRequestForm } from "#controller/guard/request-form";
import { contentWordsIn, dataTokensIn, type OrderReference, readingOf, referencesIn } from "#controller/guard/words";

/**
 * A principal's message, read once: the guards take this, never the raw string. Its text is normalised for reading
 * once (text/normalize.ts, as the response gate reads), and every reading the guards make of it — the closed form of
 * a request (guard/request-form.ts), its content words, data and order references — is made the first time a guard
 * asks, and kept for the rest of the turn.
 */
export class PrincipalMessage {
  private readonly readings = new Map<string, unknown>();

  constructor(
    /** As the principal wrote it. */
    readonly text: string,
  ) {}

  /** Normalised for reading, lowercase. */
  get reading(): string {
    return this.once("reading", () => readingOf(this.text));
  }

  /** The message read as a request in the closed form, with pickup days resolved against `today` (YYYY-MM-DD). */
  requestForm(today: string): RequestForm {
    return this.once(`requestForm:${today}`, () => readRequestForm(this.text, today));
  }

  /** Its content words, small words left out. */
  get contentWords(): readonly string[] {
    return this.once("contentWords", () => contentWordsIn(this.reading, smallWords));
  }

  /** The data it carries: e-mail addresses, order and item ids, runs of 3+ digits, links. */
  get dataTokens(): readonly string[] {
    return this.once("dataTokens", () => dataTokensIn(this.reading));
  }

  /** The orders it refers to, by full id or fragment. */
  get orderReferences(): readonly OrderReference[] {
    return this.once("orderReferences", () => referencesIn(this.reading));
  }

  /** The order ids it names in full, each once. */
  get orderIds(): readonly string[] {
    return this.once("orderIds", () => [...new Set(this.orderReferences.filter((r) => r.kind === "id").map((r) => r.ref))]);
  }

  private once<T>(name: string, read: () => T): T {
    if (!this.readings.has(name)) this.readings.set(name, read());
    return this.readings.get(name) as T;
  }
}

/** The principal's message, to be read by the guards. */
export function readMessage(text: string): PrincipalMessage {
  return new PrincipalMessage(text);
}
