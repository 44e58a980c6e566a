/**
 * An error with its causes, outermost first ("fetch failed: connect ECONNREFUSED 127.0.0.1:3999"): fetch and the
 * SDKs wrap the part that explains a failure in `cause`, and the outer message alone says nothing an application
 * can act on.
 */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  if (parts.length > 0) return parts.join(": ");
  return typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error);
}
