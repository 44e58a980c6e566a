/**
 * Local stand-in for the identity provider and for API Gateway's JWT authorizer: one RS256 key pair, made on
 * first use under `.dev-keys/` (gitignored), signs the tokens `npm run token` prints, and the local gateway
 * verifies them as API Gateway would (signature with a matching `kid`, issuer, audience, expiry, not-before,
 * route scopes). The constants here are shared by the gateway, the token script and the tests.
 */
import { randomUUID } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  type CryptoKey,
  decodeProtectedHeader,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import { scopes as orderScopes } from "#core/principal";
import { repoRoot } from "#local/stack";
import { scopesOf } from "#runtime/token-verifier";

export const devIssuer = "http://127.0.0.1/order-tools-local";
export const devAudience = "order-tools";
export const devAlgorithm = "RS256";
export const devKeysDir = join(repoRoot, ".dev-keys");
const keyFileName = "signing-key.json";

export interface DevSigningKey {
  kid: string;
  privateKey: CryptoKey;
  /** The private key as a JWK with its kid, for the local authorization server, which signs with the same key. */
  privateJwk: JWK;
  publicJwk: JWK;
  /** The public key as a key set, made once: jose imports and caches the key in it, not on every verification. */
  keySet: ReturnType<typeof createLocalJWKSet>;
}

interface StoredKey {
  kid: string;
  alg: typeof devAlgorithm;
  privateJwk: JWK;
}

const loaded = new Map<string, Promise<DevSigningKey>>();

/** The dev signing key, created on first use. Safe when several processes start at once: one file wins. */
export function devSigningKey(dir = devKeysDir): Promise<DevSigningKey> {
  let key = loaded.get(dir);
  if (!key) {
    key = loadOrCreate(dir);
    loaded.set(dir, key);
    key.catch(() => loaded.delete(dir));
  }
  return key;
}

async function loadOrCreate(dir: string): Promise<DevSigningKey> {
  const file = join(dir, keyFileName);
  let stored = await readStored(file);
  if (!stored) {
    await mkdir(dir, { recursive: true });
    const { privateKey } = await generateKeyPair(devAlgorithm, { extractable: true, modulusLength: 2048 });
    const privateJwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(privateJwk);
    // Written aside, then linked into place: link() fails if another process got there first, and a reader
    // never sees a half-written file.
    const temp = join(dir, `.${keyFileName}.${randomUUID()}`);
    await writeFile(temp, `${JSON.stringify({ kid, alg: devAlgorithm, privateJwk } satisfies StoredKey, null, 2)}\n`, { mode: 0o600 });
    try {
      await link(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      await rm(temp, { force: true });
    }
    stored = await readStored(file);
    if (!stored) throw new Error(`Could not read the dev signing key at ${file}; delete ${dir} and try again.`);
  }
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = stored.privateJwk;
  const publicKey: JWK = { ...publicJwk, kid: stored.kid, alg: devAlgorithm, use: "sig" };
  return {
    kid: stored.kid,
    privateKey: (await importJWK(stored.privateJwk, devAlgorithm)) as CryptoKey,
    privateJwk: { ...stored.privateJwk, kid: stored.kid, alg: devAlgorithm, use: "sig" },
    publicJwk: publicKey,
    keySet: createLocalJWKSet({ keys: [publicKey] }),
  };
}

async function readStored(file: string): Promise<StoredKey | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as StoredKey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`The dev signing key at ${file} is unreadable (${(error as Error).message}); delete it and a new one is made.`);
  }
}

export interface DevPrincipal {
  /** A customer acting on their own orders (claim customer_id). */
  customer?: string;
  /** A member of staff (scope orders:support). */
  support?: string;
  /** A marketplace seller's user or agent acting on the orders that seller sold (claim seller_id). */
  seller?: string;
}

export const defaultScopes = {
  customer: `${orderScopes.read} ${orderScopes.write}`,
  support: `${orderScopes.read} ${orderScopes.write} ${orderScopes.support}`,
  seller: `${orderScopes.read} ${orderScopes.write}`,
} as const;

export const defaultTtlSeconds = 3600;

/** The claims a token for this principal carries; `sub` follows the test harness (user-C-1001, staff-S-7, seller-SLR-2210). */
export function principalClaims(principal: DevPrincipal, scope?: string): JWTPayload {
  if (principal.customer !== undefined) {
    return { sub: `user-${principal.customer}`, customer_id: principal.customer, scope: scope ?? defaultScopes.customer };
  }
  if (principal.support !== undefined) {
    return { sub: `staff-${principal.support}`, scope: scope ?? defaultScopes.support };
  }
  if (principal.seller !== undefined) {
    return { sub: `seller-${principal.seller}`, seller_id: principal.seller, scope: scope ?? defaultScopes.seller };
  }
  throw new Error("A dev token is for a customer, for support staff or for a seller.");
}

/**
 * The `npm run token` command for a token like `payload` but with these scopes (and those it already has, so
 * following the advice never takes away what the token could do): the same principal — its customer_id,
 * seller_id or the staff id in a support `sub` — with the scopes in their usual order (read, write, support).
 */
export function tokenCommandWithScopes(payload: JWTPayload, added: readonly string[]): string {
  const sub = typeof payload.sub === "string" ? payload.sub : "";
  const principal =
    typeof payload.customer_id === "string"
      ? `--customer ${payload.customer_id}`
      : typeof payload.seller_id === "string"
        ? `--seller ${payload.seller_id}`
        : sub.startsWith("staff-")
          ? `--support ${sub.slice("staff-".length)}`
          : "--customer C-1001";
  const usual: readonly string[] = Object.values(orderScopes);
  const rank = (scope: string) => (usual.includes(scope) ? usual.indexOf(scope) : usual.length);
  const scopes = [...new Set([...scopesOf(payload), ...added])].sort((a, b) => rank(a) - rank(b));
  return `npm run --silent token -- ${principal} --scope "${scopes.join(" ")}"`;
}

/** A token the local gateway accepts. `claims` may override anything, for tests of tokens it must refuse. */
export async function signDevToken(claims: JWTPayload, options: { ttlSeconds?: number } = {}): Promise<string> {
  const key = await devSigningKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: devIssuer,
    aud: devAudience,
    iat: now,
    nbf: now,
    exp: now + (options.ttlSeconds ?? defaultTtlSeconds),
    jti: randomUUID(),
    ...claims,
  })
    .setProtectedHeader({ alg: devAlgorithm, kid: key.kid, typ: "JWT" })
    .sign(key.privateKey);
}

export type TokenCheck = { ok: true; payload: JWTPayload } | { ok: false; message: string };

/** Which issuers and audiences a check accepts: by default the ones `npm run token` signs with. */
export interface TokenExpectations {
  issuers?: readonly string[];
  audiences?: readonly string[];
}

/**
 * Verifies a bearer token the way the deployed JWT authorizer does: RS256 only, a `kid` that names the key (a
 * token without one is refused), signature, issuer, audience, expiry and not-before. The failure message says
 * what was wrong and how to get a token that works.
 */
export async function verifyDevToken(token: string, expect: TokenExpectations = {}): Promise<TokenCheck> {
  const issuers = [...(expect.issuers ?? [devIssuer])];
  const audiences = [...(expect.audiences ?? [devAudience])];
  const keys = (await devSigningKey()).keySet;
  try {
    // A key set of one key would match a token without `kid`; API Gateway's authorizer picks the key by `kid`
    // and refuses a token that names none, so the local stand-in must too.
    let kid: unknown;
    try {
      ({ kid } = decodeProtectedHeader(token));
    } catch (error) {
      return { ok: false, message: `The bearer token is not a valid signed JWT (${(error as Error).message}). ${howToGetOne}` };
    }
    if (typeof kid !== "string" || kid === "") {
      return {
        ok: false,
        message: `The bearer token's header has no key id (kid); the gateway picks the signing key by kid and refuses a token without one. ${howToGetOne}`,
      };
    }
    const { payload } = await jwtVerify(token, keys, {
      issuer: issuers,
      audience: audiences,
      algorithms: [devAlgorithm],
      requiredClaims: ["exp"],
    });
    return { ok: true, payload };
  } catch (error) {
    return { ok: false, message: `${whyRefused(error, issuers, audiences)} ${howToGetOne}` };
  }
}

const howToGetOne =
  "Get a token for the local stack with `npm run --silent token -- --customer C-1001` (or `--support S-7`, or `--seller SLR-2210`).";

function whyRefused(error: unknown, issuers: readonly string[], audiences: readonly string[]): string {
  const listed = (values: readonly string[]) => values.join(" or ");
  if (error instanceof errors.JWTExpired) {
    const exp = typeof error.payload.exp === "number" ? ` at ${new Date(error.payload.exp * 1000).toISOString()}` : "";
    return `The bearer token expired${exp}.`;
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    const actual = JSON.stringify(error.payload[error.claim] ?? null);
    switch (error.claim) {
      case "iss":
        return `The bearer token was issued by ${actual}; this gateway accepts tokens issued by ${listed(issuers)}.`;
      case "aud":
        return `The bearer token is for the audience ${actual}; this gateway accepts the audience ${listed(audiences)}.`;
      case "nbf":
        return `The bearer token is not valid yet (nbf ${actual}).`;
      case "exp":
        return "The bearer token has no expiry (exp); tokens must expire.";
      default:
        return `The bearer token's ${error.claim} claim is not acceptable: ${error.message}.`;
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return `The bearer token is not signed with ${devAlgorithm}, the only algorithm accepted.`;
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return "The bearer token's signature does not verify with the local signing key.";
  if (error instanceof errors.JWKSNoMatchingKey) return "The bearer token's key id (kid) names no key this gateway trusts.";
  if (error instanceof errors.JWKSMultipleMatchingKeys) return "The bearer token's key id (kid) is ambiguous.";
  if (error instanceof errors.JOSEError) return `The bearer token is not a valid signed JWT (${error.message}).`;
  return "The bearer token could not be verified.";
}

/**
 * The scopes a token grants and its claims as API Gateway hands them to a function: the very functions the
 * deployed MCP endpoint uses, so the local gateway passes a tool exactly what AWS would.
 */
export { claimsAsApiGatewayPassesThem as apiGatewayClaims, scopesOf as tokenScopes } from "#runtime/token-verifier";
