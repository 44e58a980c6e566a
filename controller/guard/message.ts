import type { ChangeToolName } from "#contract/tools";
import { smallWords } from "#controller/gate/vocabulary";
import { isAffirmation } from "#controller/guard/affirmation";
import { excludingClausesIn, requestClauses } from "#controller/guard/mood";
import {
  changesAskedIn,
  contentWordsIn,
  continuesPrevious,
  dataTokensIn,
  type OrderReference,
  readingOf,
  referencesIn,
} from "#controller/guard/words";

/**
 * A principal's message, read once: the guards take this, never the raw string. Its text is normalised for reading
 * once (gate/normalize.ts, as the response gate reads), and every reading the guards make of it — the clauses that
 * can ask (guard/mood.ts), what it asks for, whether it carries the previous request over or is a bare yes, its
 * content words, data and order references — is made the first time a guard asks, and kept for the rest of the turn.
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

  /** The clauses that can ask for something: no question, conditional, hypothetical or negation (guard/mood.ts). */
  get clauses(): readonly string[] {
    return this.once("clauses", () => requestClauses(this.text));
  }

  /** The kinds of change its clauses ask for. */
  get asks(): ReadonlySet<ChangeToolName> {
    return this.once("asks", () => changesAskedIn(this.clauses));
  }

  /** A clause that can ask carries the previous message's request over ("and the other one too"). */
  get continuesPrevious(): boolean {
    return this.once("continuesPrevious", () => continuesPrevious(this.clauses));
  }

  /** The whole message is an affirmative, with courtesy words at most (guard/affirmation.ts). */
  get isAffirmation(): boolean {
    return this.once("isAffirmation", () => isAffirmation(this.text));
  }

  /** Its content words, small words left out. */
  get contentWords(): readonly string[] {
    return this.once("contentWords", () => contentWordsIn(this.reading, smallWords));
  }

  /** The data it carries: e-mail addresses, order and item ids, runs of 3+ digits, links. */
  get dataTokens(): readonly string[] {
    return this.once("dataTokens", () => dataTokensIn(this.reading));
  }

  /** The orders it refers to, by full id or fragment, and whether each is chosen or excluded. */
  get orderReferences(): readonly OrderReference[] {
    return this.once("orderReferences", () => referencesIn(this.reading));
  }

  /** The order ids it names in full, each once. */
  get orderIds(): readonly string[] {
    return this.once("orderIds", () => [...new Set(this.orderReferences.filter((r) => r.kind === "id").map((r) => r.ref))]);
  }

  /** Its clauses whose words are excluded from a change: negated, "keep"/"keeping", "except". */
  get excludingClauses(): readonly string[] {
    return this.once("excludingClauses", () => excludingClausesIn(this.reading));
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
