/**
 * A turn's problem (contract §8.1): something the application must act on, which no reply can put right — its
 * token refused, the service not where `service.baseUrl` says, a service that does not answer as this
 * controller's contract says, or the model failing (problem.ts reads it from the turn's trace).
 *
 * The set is closed; an application can switch on `code`:
 * - `unauthenticated`: the service refused the token (401): missing, expired, or not one it accepts.
 * - `forbidden`: the service refused the token's rights (403) — a scope missing, or no principal named; not a
 *   tool the principal may not use (a seller's cancel_order names `allowedPrincipals`, and is a rejection the
 *   gate tells like any other).
 * - `incompatible`: an answer that is not the contract's: a route the service does not have (a baseUrl with a
 *   path, another server), a body that is not JSON, an error code the tool never answers with, or a 200 whose body
 *   does not match the tool's output schema (a field it does not know is allowed: a newer service may add one).
 * - `unreachable`: no connection could be made (refused, unknown host, TLS, reset), and no later call of the turn
 *   was answered. A timeout is not one: the request may have reached the service, and the controller reconciles
 *   it (honest uncertainty), as it does a 5xx.
 * - `model_failed`: the model's request failed (its SDK's error, a recording or a script that ran out).
 * Of several, the first in that order; of one code met several times, the last call that met it.
 */
export const problemCodes = ["unauthenticated", "forbidden", "incompatible", "unreachable", "model_failed"] as const;
export type ProblemCode = (typeof problemCodes)[number];

export interface TurnProblem {
  code: ProblemCode;
  /** What failed and what would put it right, for the application's log and its developers; never shown to the principal. */
  message: string;
  /** The service call that met it (not for `model_failed`). */
  tool?: string;
  /** The HTTP status the service answered with (not for `unreachable`: nothing answered). */
  status?: number;
  /** The answer's error code (`UNAUTHENTICATED`, `FORBIDDEN`, `NOT_FOUND`, …) or message, when it had one. */
  errorCode?: string;
  /** How many of the turn's calls (or model requests) met it. */
  count: number;
}
