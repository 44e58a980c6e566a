import type { ClaimsAndScopeOverrideDetails, PreTokenGenerationV2TriggerEvent, PreTokenGenerationV3TriggerEvent } from "aws-lambda";
import { type Scope, scopes, sellerIdPattern } from "#core/principal";

/**
 * Cognito pre-token-generation trigger (event V2/V3) for the three user pools the API stack creates when no
 * identity provider is given. It makes Cognito's access tokens say who the caller is as the tools expect, and
 * each pool's function knows which pool it serves (`ORDER_TOOLS_USER_POOL`), because only one of them may issue
 * support, only one customer_id and only one seller_id:
 *
 * - The customers' pool (MFA optional) issues customer tokens only. Customers are users with the attribute
 *   `custom:customer_id` (set by an administrator; app clients cannot write it). Their tokens get the claim
 *   `customer_id` and at most `orders:read orders:write`. Nothing in this pool — a group of any name, a client —
 *   ever gets `orders:support`.
 * - The staff pool requires MFA of every user. Members of its group `support` get `orders:support` as well as
 *   read and write; a client-credentials client there (opt-in) gets what it asked for. It never issues
 *   `customer_id`.
 * - The sellers' pool requires MFA of every user. Sellers' users (and the agents that act with their tokens) are
 *   users with the attribute `custom:seller_id` (SLR- and digits, set by an administrator when the seller is
 *   onboarded; app clients cannot write it). Their tokens get the claim `seller_id` from that attribute — never
 *   from anything the sign-in sends — and at most `orders:read orders:write`. It never issues `customer_id` or
 *   `orders:support`, and a client-credentials client here gets nothing (it names no seller).
 * - Anyone else gets no `orders:*` scope, so the gateway refuses every tool.
 * - Cognito spells resource-server scopes `orders/read`; the API and the handlers use `orders:read`. The
 *   trigger swaps one spelling for the other, so each token carries exactly one.
 *
 * Sign-in through the OAuth endpoints (hosted sign-in, client credentials) grants only what the client asked
 * for, less what the caller may not have. Sign-in through the SDK (InitiateAuth) cannot ask for custom scopes,
 * so it gets everything the caller's role allows.
 */

export const supportGroup = "support";
/** Which pool a trigger function serves: the stack sets it per function; without it the trigger issues nothing. */
export const userPoolEnv = "ORDER_TOOLS_USER_POOL";
export const userPoolKinds = ["customers", "staff", "sellers"] as const;
export type UserPoolKind = (typeof userPoolKinds)[number];
export const customerIdAttribute = "custom:customer_id";
/** The sellers' pool's user attribute naming the seller a user acts for; only administrators may write it. */
export const sellerIdAttribute = "custom:seller_id";
/** The created pools' resource server identifier: scopes `read` and `write`, and in the staff pool `support`. */
export const resourceServerIdentifier = "orders";

const allScopes: readonly Scope[] = [scopes.read, scopes.write, scopes.support];

type Role = "customer" | "seller" | "support" | "service" | "none";

const allowedScopes: Record<Role, readonly Scope[]> = {
  customer: [scopes.read, scopes.write],
  seller: [scopes.read, scopes.write],
  support: allScopes,
  // A client-credentials client is limited by the scopes its app client may request.
  service: allScopes,
  none: [],
};

/** `orders:read` → `orders/read`: the same scope as Cognito writes it. */
export function cognitoScopeName(scope: Scope): string {
  return `${resourceServerIdentifier}/${scope.slice(scope.indexOf(":") + 1)}`;
}

function isOrdersScope(value: string): boolean {
  return allScopes.some((scope) => scope === value || cognitoScopeName(scope) === value);
}

type TokenEvent = PreTokenGenerationV2TriggerEvent | PreTokenGenerationV3TriggerEvent;

function roleOf(event: TokenEvent, pool: UserPoolKind): { role: Role; customerId?: string; sellerId?: string } {
  const clientCredentials = event.triggerSource === "TokenGeneration_ClientCredentials";
  if (pool === "sellers") {
    if (clientCredentials) return { role: "none" };
    // Only a well-formed id becomes the claim: a mistyped attribute gets no scope rather than a token the API refuses.
    const sellerId = event.request.userAttributes?.[sellerIdAttribute]?.trim();
    return sellerId && sellerIdPattern.test(sellerId) ? { role: "seller", sellerId } : { role: "none" };
  }
  if (pool === "staff") {
    if (clientCredentials) return { role: "service" };
    const groups = event.request.groupConfiguration?.groupsToOverride ?? [];
    return groups.includes(supportGroup) ? { role: "support" } : { role: "none" };
  }
  if (clientCredentials) return { role: "none" };
  const customerId = event.request.userAttributes?.[customerIdAttribute]?.trim();
  return customerId ? { role: "customer", customerId } : { role: "none" };
}

/** What to change in the tokens Cognito is about to issue in `pool`; a pure function of the event. */
export function tokenOverrides(event: TokenEvent, pool: UserPoolKind): ClaimsAndScopeOverrideDetails {
  const { role, customerId, sellerId } = roleOf(event, pool);
  const requested = event.request.scopes ?? [];
  const requestedOrders = allScopes.filter((scope) => requested.includes(scope) || requested.includes(cognitoScopeName(scope)));
  const viaOAuth = event.triggerSource === "TokenGeneration_HostedAuth" || event.triggerSource === "TokenGeneration_ClientCredentials";
  const wanted = requestedOrders.length > 0 || viaOAuth ? requestedOrders : allScopes;
  const granted = wanted.filter((scope) => allowedScopes[role].includes(scope));

  const scopesToAdd = granted.filter((scope) => !requested.includes(scope));
  const scopesToSuppress = requested.filter((value) => isOrdersScope(value) && !(granted as readonly string[]).includes(value));
  const claims: Record<string, string> | undefined = customerId
    ? { customer_id: customerId }
    : sellerId
      ? { seller_id: sellerId }
      : undefined;

  return {
    accessTokenGeneration: {
      ...(claims ? { claimsToAddOrOverride: claims } : {}),
      ...(scopesToAdd.length ? { scopesToAdd } : {}),
      ...(scopesToSuppress.length ? { scopesToSuppress } : {}),
    },
    ...(claims ? { idTokenGeneration: { claimsToAddOrOverride: claims } } : {}),
  };
}

/** The pool this function serves. Read per call, so a missing setting fails every sign-in rather than guessing. */
export function userPoolFromEnv(env: NodeJS.ProcessEnv = process.env): UserPoolKind {
  const value = env[userPoolEnv];
  if (!(userPoolKinds as readonly (string | undefined)[]).includes(value)) {
    throw new Error(
      `${userPoolEnv} must be ${userPoolKinds.slice(0, -1).join(", ")} or ${userPoolKinds.at(-1)}, not ${JSON.stringify(value)}: no token is issued until it says which pool this trigger serves.`,
    );
  }
  return value as UserPoolKind;
}

export const handler = async (event: TokenEvent): Promise<TokenEvent> => {
  event.response = { claimsAndScopeOverrideDetails: tokenOverrides(event, userPoolFromEnv()) };
  return event;
};
