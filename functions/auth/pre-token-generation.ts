import type { ClaimsAndScopeOverrideDetails, PreTokenGenerationV2TriggerEvent, PreTokenGenerationV3TriggerEvent } from "aws-lambda";
import { type Scope, scopes } from "#core/principal";

/**
 * Cognito pre-token-generation trigger (event V2/V3) for the user pool the API stack creates when no
 * identity provider is given. It makes Cognito's access tokens say what SPEC §1 expects:
 *
 * - Customers are users with the attribute `custom:customer_id` (set by an administrator; app clients cannot
 *   write it). Their tokens get the claim `customer_id` and at most `orders:read orders:write`.
 * - Support staff are members of the group `support`; their tokens may carry `orders:support` as well.
 * - Anyone else gets no `orders:*` scope, so the gateway refuses every tool.
 * - Cognito spells resource-server scopes `orders/read`; the API and the handlers use `orders:read`. The
 *   trigger swaps one spelling for the other, so each token carries exactly one.
 *
 * Sign-in through the OAuth endpoints (hosted sign-in, client credentials) grants only what the client asked
 * for, less what the caller may not have. Sign-in through the SDK (InitiateAuth) cannot ask for custom scopes,
 * so it gets everything the caller's role allows.
 */

export const supportGroup = "support";
export const customerIdAttribute = "custom:customer_id";
/** The created user pool's resource server identifier; its scopes are `read`, `write` and `support`. */
export const resourceServerIdentifier = "orders";

const allScopes: readonly Scope[] = [scopes.read, scopes.write, scopes.support];

type Role = "customer" | "support" | "service" | "none";

const allowedScopes: Record<Role, readonly Scope[]> = {
  customer: [scopes.read, scopes.write],
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

function roleOf(event: TokenEvent): { role: Role; customerId?: string } {
  if (event.triggerSource === "TokenGeneration_ClientCredentials") return { role: "service" };
  const groups = event.request.groupConfiguration?.groupsToOverride ?? [];
  if (groups.includes(supportGroup)) return { role: "support" };
  const customerId = event.request.userAttributes?.[customerIdAttribute]?.trim();
  return customerId ? { role: "customer", customerId } : { role: "none" };
}

/** What to change in the tokens Cognito is about to issue; a pure function of the event. */
export function tokenOverrides(event: TokenEvent): ClaimsAndScopeOverrideDetails {
  const { role, customerId } = roleOf(event);
  const requested = event.request.scopes ?? [];
  const requestedOrders = allScopes.filter((scope) => requested.includes(scope) || requested.includes(cognitoScopeName(scope)));
  const viaOAuth = event.triggerSource === "TokenGeneration_HostedAuth" || event.triggerSource === "TokenGeneration_ClientCredentials";
  const wanted = requestedOrders.length > 0 || viaOAuth ? requestedOrders : allScopes;
  const granted = wanted.filter((scope) => allowedScopes[role].includes(scope));

  const scopesToAdd = granted.filter((scope) => !requested.includes(scope));
  const scopesToSuppress = requested.filter((value) => isOrdersScope(value) && !(granted as readonly string[]).includes(value));
  const claims = customerId ? { customer_id: customerId } : undefined;

  return {
    accessTokenGeneration: {
      ...(claims ? { claimsToAddOrOverride: claims } : {}),
      ...(scopesToAdd.length ? { scopesToAdd } : {}),
      ...(scopesToSuppress.length ? { scopesToSuppress } : {}),
    },
    ...(claims ? { idTokenGeneration: { claimsToAddOrOverride: claims } } : {}),
  };
}

export const handler = async (event: TokenEvent): Promise<TokenEvent> => {
  event.response = { claimsAndScopeOverrideDetails: tokenOverrides(event) };
  return event;
};
