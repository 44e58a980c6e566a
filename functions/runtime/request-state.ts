import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { KMSClient } from "@aws-sdk/client-kms";
import { canonicalJson } from "#core/canonical-json";

/**
 * The `requestState` of an MCP confirmation (contract §2.1): what the server hands the client with its question
 * and gets back, echoed, with the person's answer. The client holds it in between, so what comes back is
 * attacker-controlled (MCP 2026-07-28, multi round-trip requests): it is signed with a key the client never sees,
 * and names what it is good for — the signed-in principal, the tool and a digest of the exact arguments
 * (operationId included) — and until when. It is signed, not encrypted: it carries nothing the caller does not know.
 *
 * Wire form: `v1.<base64url(JSON payload)>.<base64url(HMAC-SHA256 of "v1.<payload>")>`.
 */

/** The key that signs and checks states: an HMAC-SHA256 key, in KMS when deployed, in memory locally. */
export interface RequestStateKey {
  mac(message: Uint8Array): Promise<Uint8Array>;
  /** Whether `mac` is this key's MAC of the message; false for any other, never a throw for a bad one. */
  verify(message: Uint8Array, mac: Uint8Array): Promise<boolean>;
}

/**
 * A key held in this process (`npm start`, tests): 32 random bytes unless given. States it signed do not survive
 * the process, which is all a confirmation of a few minutes needs there.
 */
export function localRequestStateKey(secret: Uint8Array = randomBytes(32)): RequestStateKey {
  if (secret.byteLength < 32) throw new RangeError(`A request-state key needs at least 32 bytes; this one has ${secret.byteLength}.`);
  const macOf = (message: Uint8Array) => new Uint8Array(createHmac("sha256", secret).update(message).digest());
  return {
    mac: async (message) => macOf(message),
    verify: async (message, mac) => {
      const expected = macOf(message);
      return mac.byteLength === expected.byteLength && timingSafeEqual(mac, expected);
    },
  };
}

/**
 * A KMS HMAC_256 key (GenerateMac, VerifyMac): the key material never leaves KMS, so no function can leak it, and
 * every use is in CloudTrail. VerifyMac answers KMSInvalidMacException for a MAC that does not verify. The KMS
 * client is loaded on the first change asked, not at the function's cold start, which most calls (reads) never need.
 */
export function kmsRequestStateKey(keyId: string, client?: KMSClient): RequestStateKey {
  let loaded: Promise<{ sdk: typeof import("@aws-sdk/client-kms"); client: KMSClient }> | undefined;
  const kms = () => (loaded ??= import("@aws-sdk/client-kms").then((sdk) => ({ sdk, client: client ?? new sdk.KMSClient({}) })));
  return {
    async mac(message) {
      const { sdk, client: kmsClient } = await kms();
      const { Mac } = await kmsClient.send(new sdk.GenerateMacCommand({ KeyId: keyId, MacAlgorithm: "HMAC_SHA_256", Message: message }));
      if (!Mac) throw new Error(`KMS GenerateMac with ${keyId} returned no MAC.`);
      return Mac;
    },
    async verify(message, mac) {
      const { sdk, client: kmsClient } = await kms();
      try {
        const { MacValid } = await kmsClient.send(
          new sdk.VerifyMacCommand({ KeyId: keyId, MacAlgorithm: "HMAC_SHA_256", Message: message, Mac: mac }),
        );
        return MacValid === true;
      } catch (error) {
        if (error instanceof sdk.KMSInvalidMacException) return false;
        throw error;
      }
    },
  };
}

/** A key that is not there (a deployment without one): every use fails with the reason, and only changes need it. */
export function unavailableRequestStateKey(reason: string): RequestStateKey {
  const fail = async (): Promise<never> => {
    throw new Error(reason);
  };
  return { mac: fail, verify: fail };
}

/** What a state is good for; every field must match the retry that brings it back. */
export interface StateBinding {
  /** A digest of who the token says is calling (functions/runtime/mcp-confirmation.ts, principalBinding). */
  principal: string;
  tool: string;
  /** argumentsDigest of the call's arguments. */
  arguments: string;
}

interface StatePayload extends StateBinding {
  v: 1;
  /** The state's own id, for the log lines that name it. */
  id: string;
  /** Epoch seconds after which it is refused. */
  exp: number;
}

export type OpenedState =
  | { ok: true; id: string; expiresAt: Date }
  | { ok: false; reason: "tampered" }
  | { ok: false; reason: "expired"; id: string; expiresAt: Date }
  | { ok: false; reason: "other_principal"; id: string }
  | { ok: false; reason: "other_request"; id: string; tool: string };

const prefix = "v1.";
const utf8 = new TextEncoder();
const base64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const canonicalBase64url = /^[A-Za-z0-9_-]+$/;

/** A digest of a call's arguments, exactly as sent (operationId included), in any key order. */
export function argumentsDigest(args: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(args ?? {}))
    .digest("base64url");
}

/** Signs a new state for this binding, good for `ttlSeconds` from `now`. */
export async function sealState(
  key: RequestStateKey,
  binding: StateBinding,
  options: { now: Date; ttlSeconds: number },
): Promise<{ state: string; id: string; expiresAt: Date }> {
  const exp = Math.floor(options.now.getTime() / 1000) + options.ttlSeconds;
  const payload: StatePayload = { v: 1, id: base64url(randomBytes(12)), ...binding, exp };
  const signed = `${prefix}${base64url(JSON.stringify(payload))}`;
  const mac = await key.mac(utf8.encode(signed));
  return { state: `${signed}.${base64url(mac)}`, id: payload.id, expiresAt: new Date(exp * 1000) };
}

/**
 * Checks a state brought back with a retry, in this order: it is one this key signed and unchanged; then, its
 * payload being trusted, that it has not expired, that the same principal brought it, and for the same tool and
 * arguments. The first that fails is the answer.
 */
export async function openState(key: RequestStateKey, state: string, binding: StateBinding, now: Date): Promise<OpenedState> {
  const dot = state.lastIndexOf(".");
  const signed = state.slice(0, dot);
  const macText = state.slice(dot + 1);
  // The MAC must be written as this server writes it: base64url ignores a last character's spare bits, and a state
  // that differs from the one issued in any way is not taken, even where it would decode to the same bytes.
  const mac = Buffer.from(macText, "base64url");
  if (dot <= prefix.length || !signed.startsWith(prefix) || !canonicalBase64url.test(macText) || base64url(mac) !== macText)
    return { ok: false, reason: "tampered" };
  if (!(await key.verify(utf8.encode(signed), mac))) return { ok: false, reason: "tampered" };
  const payload = parsePayload(signed.slice(prefix.length));
  if (!payload) return { ok: false, reason: "tampered" };
  const expiresAt = new Date(payload.exp * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { ok: false, reason: "expired", id: payload.id, expiresAt };
  if (payload.principal !== binding.principal) return { ok: false, reason: "other_principal", id: payload.id };
  if (payload.tool !== binding.tool || payload.arguments !== binding.arguments)
    return { ok: false, reason: "other_request", id: payload.id, tool: payload.tool };
  return { ok: true, id: payload.id, expiresAt };
}

/** A payload this server signed has this shape; anything else (a key shared by mistake, say) is not ours. */
function parsePayload(encoded: string): StatePayload | undefined {
  if (!canonicalBase64url.test(encoded)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const p = value as Record<string, unknown>;
  const strings = ["id", "principal", "tool", "arguments"].every((field) => typeof p[field] === "string");
  return p.v === 1 && strings && Number.isInteger(p.exp) ? (p as unknown as StatePayload) : undefined;
}
