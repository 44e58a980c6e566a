import { ForbiddenError, UnauthenticatedError } from "#core/errors";

export const scopes = {
  read: "orders:read",
  write: "orders:write",
  support: "orders:support",
} as const;

export type Scope = (typeof scopes)[keyof typeof scopes];

/**
 * Who is calling, taken only from verified token claims, never from tool arguments.
 * `sub` scopes operation ids; a customer may act on their own orders, support on any.
 */
export type Principal =
  | { kind: "customer"; sub: string; customerId: string; scopes: ReadonlySet<string> }
  | { kind: "support"; sub: string; scopes: ReadonlySet<string> };

type Claims = Record<string, unknown>;

const customerIdPattern = /^C-\d{1,12}$/;

function scopesOf(claims: Claims, granted: readonly string[] | undefined): Set<string> {
  const fromClaim = typeof claims.scope === "string" ? claims.scope.split(" ") : [];
  // API Gateway passes `scp` or `scope` through as claims and also lists the scopes it matched.
  const fromScp = Array.isArray(claims.scp) ? claims.scp.filter((s): s is string => typeof s === "string") : [];
  return new Set([...fromClaim, ...fromScp, ...(granted ?? [])].filter(Boolean));
}

/** The claim as a message can show it: a short quoted string, or its type and value. */
function shownClaim(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return "null";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return `the ${Array.isArray(value) ? "list" : typeof value} ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
}

/**
 * Builds the principal from the authorizer's claims and checks the tool's scope in code as well as at the
 * gateway. A token that names a customer acts as that customer even if it also carries the support scope:
 * the narrower reading wins. A `customer_id` claim that is present but not a customer id (any other value or
 * type) is refused rather than ignored: ignoring it would let such a token fall through to support.
 */
export function principalFromClaims(
  claims: Claims | undefined,
  grantedScopes: readonly string[] | undefined,
  requiredScope: Scope,
): Principal {
  if (!claims || typeof claims.sub !== "string" || claims.sub === "") {
    throw new UnauthenticatedError("No verified bearer token came with the request. Send `Authorization: Bearer <token>` with a token from your identity provider.");
  }
  const hasCustomerClaim = Object.hasOwn(claims, "customer_id");
  const customerId = claims.customer_id;
  if (hasCustomerClaim && !(typeof customerId === "string" && customerIdPattern.test(customerId))) {
    throw new ForbiddenError(
      `The token's customer_id claim is ${shownClaim(customerId)}, which is not a customer id. A valid claim is C- followed by 1 to 12 digits, like C-1001, and a token that carries one acts only as that customer, whatever its scopes. Ask the identity provider for a token whose customer_id is the customer's id; a support token carries no customer_id claim at all.`,
      requiredScope,
    );
  }
  const tokenScopes = scopesOf(claims, grantedScopes);
  if (!tokenScopes.has(requiredScope)) {
    throw new ForbiddenError(`This tool needs the scope ${requiredScope}, and the token does not carry it. Ask for a token with ${requiredScope}.`, requiredScope);
  }
  if (typeof customerId === "string") {
    return { kind: "customer", sub: claims.sub, customerId, scopes: tokenScopes };
  }
  if (tokenScopes.has(scopes.support)) {
    return { kind: "support", sub: claims.sub, scopes: tokenScopes };
  }
  throw new ForbiddenError(
    "The token names no principal: it needs either a customer_id claim (a customer acting on their own orders) or the orders:support scope.",
    scopes.support,
  );
}

/** The actor written on every change, so support changes always say who made them. */
export function actorOf(principal: Principal): { kind: Principal["kind"]; sub: string; customerId?: string } {
  return principal.kind === "customer"
    ? { kind: "customer", sub: principal.sub, customerId: principal.customerId }
    : { kind: "support", sub: principal.sub };
}

/** Whether the principal may see an order at all: support any order, a customer only their own. */
export function mayAccessOrder(principal: Principal, order: { customerId: string }): boolean {
  return principal.kind === "support" || order.customerId === principal.customerId;
}
