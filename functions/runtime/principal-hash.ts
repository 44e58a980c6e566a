import { createHash } from "node:crypto";

/**
 * A stable, one-way name for a principal in logs: enough to follow one caller, never the `sub` itself. On its own,
 * so that a function that logs a principal but emits no metrics (MCP) does not load the metrics library for it.
 */
export function principalHash(sub: string): string {
  return createHash("sha256").update(`order-tools-principal:${sub}`).digest("base64url").slice(0, 16);
}
