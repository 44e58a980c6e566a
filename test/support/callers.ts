/**
 * Callers as API Gateway's JWT authorizer presents them (claims and the scopes it matched). Free of vitest, so
 * the reliability harness and `npm run soak` use the very same callers as the tests.
 */
export interface Caller {
  claims: Record<string, string>;
  scopes: string[];
}

export const customer = (customerId: string, scope = "orders:read orders:write"): Caller => ({
  claims: { sub: `user-${customerId}`, customer_id: customerId, scope },
  scopes: scope.split(" "),
});

export const support = (staffId: string, scope = "orders:read orders:write orders:support"): Caller => ({
  claims: { sub: `staff-${staffId}`, scope },
  scopes: scope.split(" "),
});

/** A marketplace seller's user or agent, as a seller pool's token presents it (claim seller_id). */
export const seller = (sellerId: string, scope = "orders:read orders:write", sub = `seller-${sellerId}`): Caller => ({
  claims: { sub, seller_id: sellerId, scope },
  scopes: scope.split(" "),
});
