import { CognitoJwtVerifier, JwtVerifier } from "aws-jwt-verify";
import {
  CognitoJwtInvalidClientIdError,
  CognitoJwtInvalidTokenUseError,
  FetchError,
  JwtBaseError,
  JwtExpiredError,
  JwtInvalidAudienceError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureAlgorithmError,
  JwtInvalidSignatureError,
  JwtNotBeforeError,
  JwtWithoutValidKidError,
  KidNotFoundInJwksError,
  ParameterValidationError,
} from "aws-jwt-verify/error";
import type { Jwks } from "aws-jwt-verify/jwk";
import type { TokenIssuer } from "#runtime/oauth-resource";

/**
 * The deployed MCP function's token check (the HTTP API's JWT authorizer does it for every other route, but it
 * cannot answer with the challenge MCP clients need): signature against the issuer's published keys, issuer,
 * an expiry that has not passed, and that the token was issued for this resource — a Cognito access token of one
 * of the deployment's app clients, or a token whose audience is one of the configured ones or the MCP URL itself
 * (RFC 8707). Built on aws-jwt-verify, which caches the keys per execution environment.
 */

/** What a bearer token says once verified: its claims as API Gateway hands them to a function, and its scopes. */
export type TokenCheck = { ok: true; claims: Record<string, string>; scopes: string[] } | { ok: false; message: string };

/** Verifies a token for the resource (the MCP endpoint's URL). */
export type BearerVerifier = (token: string, resource: string) => Promise<TokenCheck>;

/** What this module uses of an aws-jwt-verify verifier, for one issuer. */
export interface IssuerVerifier {
  verify(token: string): Promise<unknown>;
  /** Gives the verifier the issuer's keys, as a warm execution environment already holds them after its first fetch. */
  cacheJwks(jwks: Jwks): void;
}

const verifiers = new Map<string, IssuerVerifier>();

/**
 * The verifier for an issuer, made once per execution environment (its key cache lives on it). Tests reach the
 * same instance to give it keys, as a warm function would already hold them.
 */
export function jwtVerifierFor(issuer: TokenIssuer): IssuerVerifier {
  const key =
    "userPoolId" in issuer ? `pool ${issuer.userPoolId} ${issuer.clientIds.join(" ")}` : `issuer ${issuer.issuer} ${issuer.jwksUri ?? ""}`;
  let verifier = verifiers.get(key);
  if (!verifier) {
    verifier = ("userPoolId" in issuer
      ? CognitoJwtVerifier.create({ userPoolId: issuer.userPoolId, tokenUse: "access", clientId: issuer.clientIds })
      : JwtVerifier.create({
          issuer: issuer.issuer,
          audience: null,
          ...(issuer.jwksUri ? { jwksUri: issuer.jwksUri } : {}),
        })) as unknown as IssuerVerifier;
    verifiers.set(key, verifier);
  }
  return verifier;
}

export function deployedVerifier(issuer: TokenIssuer): BearerVerifier {
  return async (token, resource) => {
    let payload: Record<string, unknown>;
    try {
      payload = (await jwtVerifierFor(issuer).verify(token)) as Record<string, unknown>;
    } catch (error) {
      // Keys that cannot be fetched are this side's trouble, not the caller's: INTERNAL, retryable.
      if (error instanceof FetchError) throw error;
      return { ok: false, message: whyRefused(error, issuer) };
    }
    // aws-jwt-verify checks exp only when a token has one: a token without it would be good forever once leaked.
    // Refused on every issuer's path, as the local stand-in (local/dev-auth.ts) refuses it.
    if (typeof payload.exp !== "number") {
      return { ok: false, message: `The bearer token has no expiry (exp); tokens must expire. ${signInAgain}` };
    }
    const audiences =
      typeof payload.aud === "string"
        ? [payload.aud]
        : Array.isArray(payload.aud)
          ? payload.aud.filter((a): a is string => typeof a === "string")
          : [];
    if ("userPoolId" in issuer) {
      // Cognito binds a token to a resource by its audience when the client asked for one; one bound elsewhere is not ours.
      if (audiences.length > 0 && !audiences.includes(resource)) return { ok: false, message: audienceMessage(audiences, [resource]) };
    } else if (!audiences.some((a) => a === resource || issuer.audience.includes(a))) {
      return { ok: false, message: audienceMessage(audiences, [resource, ...issuer.audience]) };
    }
    return { ok: true, claims: claimsAsApiGatewayPassesThem(payload), scopes: scopesOf(payload) };
  };
}

function audienceMessage(audiences: string[], accepted: string[]): string {
  return `The bearer token was issued for ${audiences.length ? audiences.map((a) => JSON.stringify(a)).join(", ") : "no audience"}, not for this MCP endpoint; it accepts tokens for ${accepted.map((a) => JSON.stringify(a)).join(" or ")}. Sign in again through the authorization server named in the resource metadata.`;
}

const signInAgain = "Sign in again through the authorization server named in the resource metadata.";

function whyRefused(error: unknown, issuer: TokenIssuer): string {
  if (error instanceof JwtExpiredError) return `The bearer token expired. ${signInAgain}`;
  if (error instanceof JwtNotBeforeError) return "The bearer token is not valid yet (nbf).";
  if (error instanceof CognitoJwtInvalidTokenUseError)
    return `The bearer token is not an access token (token_use is not "access"); send the access token, not the ID token.`;
  if (error instanceof CognitoJwtInvalidClientIdError)
    return `The bearer token was issued to an app client this deployment does not know. ${signInAgain}`;
  // aws-jwt-verify refuses a token naming an issuer it was not configured for before it checks anything else.
  if (error instanceof JwtInvalidIssuerError || (error instanceof ParameterValidationError && /issuer/i.test(error.message)))
    return `The bearer token was issued by another issuer; this endpoint accepts tokens from ${"userPoolId" in issuer ? `the user pool ${issuer.userPoolId}` : issuer.issuer}. ${signInAgain}`;
  if (error instanceof JwtInvalidAudienceError) return `The bearer token was issued for another audience. ${signInAgain}`;
  if (error instanceof JwtInvalidSignatureAlgorithmError)
    return "The bearer token is signed with an algorithm this endpoint does not accept.";
  if (error instanceof JwtInvalidSignatureError) return "The bearer token's signature does not verify with the issuer's keys.";
  if (error instanceof JwtWithoutValidKidError || error instanceof KidNotFoundInJwksError)
    return "The bearer token's key id (kid) names no key of the issuer.";
  if (error instanceof JwtBaseError)
    return `The bearer token is not a valid JWT from the expected issuer (${error.message}). ${signInAgain}`;
  return "The bearer token could not be verified.";
}

/** The scopes a token grants: the space-separated `scope` claim, or `scp` (a list or a string), as API Gateway reads them. */
export function scopesOf(payload: Record<string, unknown>): string[] {
  const raw = payload.scope ?? payload.scp;
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(" ") : [];
  return list.filter((s): s is string => typeof s === "string" && s !== "");
}

/**
 * The claims as API Gateway's JWT authorizer hands them to a function, every value a string (lists as `[a b]`,
 * objects as JSON), so a tool invoked from MCP sees exactly what its own route would give it.
 */
export function claimsAsApiGatewayPassesThem(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [
      name,
      typeof value === "string"
        ? value
        : Array.isArray(value)
          ? `[${value.map(String).join(" ")}]`
          : typeof value === "object" && value !== null
            ? JSON.stringify(value)
            : String(value),
    ]),
  );
}
