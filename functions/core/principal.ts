import { ForbiddenError, type JsonValue, UnauthenticatedError } from "#core/errors";

export const scopes = {
  read: "orders:read",
  write: "orders:write",
  support: "orders:support",
} as const;

export type Scope = (typeof scopes)[keyof typeof scopes];

/**
 * Who is calling, taken only from verified token claims, never from tool arguments.
 * `sub` scopes operation ids; a customer may act on their own orders, a seller on the orders it sold (with
 * fewer tools), support on any.
 */
export type Principal =
  | { kind: "customer"; sub: string; customerId: string; scopes: ReadonlySet<string> }
  | { kind: "seller"; sub: string; sellerId: string; scopes: ReadonlySet<string> }
  | { kind: "support"; sub: string; scopes: ReadonlySet<string> };

export type PrincipalKind = Principal["kind"];

type Claims = Record<string, unknown>;

export const customerIdPattern = /^C-\d{1,12}$/;
/** A seller's id as a token's `seller_id` claim carries it: SLR- and 1 to 12 digits. */
export const sellerIdPattern = /^SLR-\d{1,12}$/;

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
 * gateway. A token that names a customer acts as that customer even if it also carries the support scope, and
 * one that names a seller as that seller: the narrower reading wins. A `customer_id` or `seller_id` claim that is
 * present but not such an id (any other value or type) is refused rather than ignored, and so is a token that
 * carries both: ignoring either would let such a token fall through to another principal, support included.
 */
export function principalFromClaims(
  claims: Claims | undefined,
  grantedScopes: readonly string[] | undefined,
  requiredScope: Scope,
): Principal {
  if (!claims || typeof claims.sub !== "string" || claims.sub === "") {
    throw new UnauthenticatedError(
      "No verified bearer token came with the request. Send `Authorization: Bearer <token>` with a token from your identity provider.",
    );
  }
  const hasCustomerClaim = Object.hasOwn(claims, "customer_id");
  const hasSellerClaim = Object.hasOwn(claims, "seller_id");
  const customerId = claims.customer_id;
  const sellerId = claims.seller_id;
  if (hasCustomerClaim && hasSellerClaim) {
    throw new ForbiddenError(
      "The token carries both a customer_id and a seller_id claim, so it is not clear whose orders it may reach; such a token is refused whatever its scopes. Ask the identity provider for a token that names one: a customer's token carries customer_id only, a seller's seller_id only.",
      requiredScope,
    );
  }
  if (hasCustomerClaim && !(typeof customerId === "string" && customerIdPattern.test(customerId))) {
    throw new ForbiddenError(
      `The token's customer_id claim is ${shownClaim(customerId)}, which is not a customer id. A valid claim is C- followed by 1 to 12 digits, like C-1001, and a token that carries one acts only as that customer, whatever its scopes. Ask the identity provider for a token whose customer_id is the customer's id; a support token carries no customer_id claim at all.`,
      requiredScope,
    );
  }
  if (hasSellerClaim && !(typeof sellerId === "string" && sellerIdPattern.test(sellerId))) {
    throw new ForbiddenError(
      `The token's seller_id claim is ${shownClaim(sellerId)}, which is not a seller id. A valid claim is SLR- followed by 1 to 12 digits, like SLR-2210, and a token that carries one acts only as that seller, whatever its scopes. Ask the identity provider for a token whose seller_id is the seller's id; a support token carries no seller_id claim at all.`,
      requiredScope,
    );
  }
  const tokenScopes = scopesOf(claims, grantedScopes);
  if (!tokenScopes.has(requiredScope)) {
    throw new ForbiddenError(
      `This tool needs the scope ${requiredScope}, and the token does not carry it. Ask for a token with ${requiredScope}.`,
      requiredScope,
    );
  }
  if (typeof customerId === "string") {
    return { kind: "customer", sub: claims.sub, customerId, scopes: tokenScopes };
  }
  if (typeof sellerId === "string") {
    return { kind: "seller", sub: claims.sub, sellerId, scopes: tokenScopes };
  }
  if (tokenScopes.has(scopes.support)) {
    return { kind: "support", sub: claims.sub, scopes: tokenScopes };
  }
  throw new ForbiddenError(
    "The token names no principal: it needs a customer_id claim (a customer acting on their own orders), a seller_id claim (a seller acting on the orders it sold) or the orders:support scope.",
    scopes.support,
  );
}

/**
 * The tools a seller may use: finding and reading the orders it sold, returns and replacements on them, and the
 * outcome of its own operations. Cancelling and delivery notes stay the buyer's (and support's): a seller that
 * does not want to fulfil an order says so through the order system, not by cancelling the buyer's purchase, and
 * the carrier's instructions are the buyer's words.
 */
export const sellerTools: ReadonlySet<string> = new Set([
  "search_orders",
  "get_order",
  "start_return",
  "offer_replacement",
  "get_operation_status",
]);

/** Who may use a tool that a seller may not. */
const principalsBesidesSellers: JsonValue[] = ["customer", "support"];

/**
 * Whether this principal may use the tool at all, judged before the request budget or the arguments, so such a
 * refusal records nothing. A seller may use `sellerTools` only: any other is FORBIDDEN with the principals that may.
 */
export function admitToTool(principal: Principal, tool: string): void {
  if (principal.kind !== "seller" || sellerTools.has(tool)) return;
  throw new ForbiddenError(
    `${tool} is for the order's customer and for support staff, not for sellers: a seller's token may use ${[...sellerTools].join(", ")}. Nothing was done. If the order needs this, the customer (or support, on the customer's behalf) must ask for it.`,
    undefined,
    { allowedPrincipals: principalsBesidesSellers },
  );
}

/** The actor written on every change, so support and seller changes always say who made them. */
export function actorOf(principal: Principal): { kind: Principal["kind"]; sub: string; customerId?: string; sellerId?: string } {
  switch (principal.kind) {
    case "customer":
      return { kind: "customer", sub: principal.sub, customerId: principal.customerId };
    case "seller":
      return { kind: "seller", sub: principal.sub, sellerId: principal.sellerId };
    case "support":
      return { kind: "support", sub: principal.sub };
  }
}

/**
 * The stored attribute an order must match for this principal to reach it, or undefined for support (any
 * order). The store puts it in the condition of every change, and reads judge the same thing with mayAccessOrder.
 */
export function ownershipOf(principal: Principal): { attribute: "customerId" | "sellerId"; value: string } | undefined {
  switch (principal.kind) {
    case "customer":
      return { attribute: "customerId", value: principal.customerId };
    case "seller":
      return { attribute: "sellerId", value: principal.sellerId };
    case "support":
      return undefined;
  }
}

/** Whether the principal may see an order at all: support any order, a customer their own, a seller those it sold. */
export function mayAccessOrder(principal: Principal, order: { customerId: string; sellerId: string }): boolean {
  const owner = ownershipOf(principal);
  return owner === undefined || order[owner.attribute] === owner.value;
}
