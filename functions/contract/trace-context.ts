import { randomBytes } from "node:crypto";

/**
 * How one trace is named on the wire between the application and the service (contract §8.1): the W3C Trace
 * Context `traceparent` header (https://www.w3.org/TR/trace-context/) and AWS X-Ray's `X-Amzn-Trace-Id`.
 * The controller sends them, the local gateway and the functions read them.
 *
 * Everywhere a person reads a trace id (a turn's trace, a log line, an X-Ray annotation, the local gateway's
 * request line) it is written in X-Ray's form, `1-<8 hex>-<24 hex>`: the same 128 bits as the W3C trace-id, split
 * after the first 8 hex digits. X-Ray reads those 8 digits as the trace's start in epoch seconds, so an id made
 * here starts with the time: it is then a valid id in both systems.
 */

/** A trace as `traceparent` carries it: trace-id (32 hex), parent-id (16 hex), and whether it is sampled. */
export interface TraceContext {
  traceId: string;
  parentId: string;
  sampled: boolean;
}

const hex = (length: number) => new RegExp(`^[0-9a-f]{${length}}$`);
const traceIdPattern = hex(32);
const spanIdPattern = hex(16);
const byteHexPattern = hex(2);
const invalid = (id: string) => /^0+$/.test(id);

/**
 * Reads a `traceparent` header, or undefined when it is absent or not one. Version 00 must be exactly
 * `00-<trace-id>-<parent-id>-<flags>`; a later version is read by its first four fields, as the W3C rules ask of a
 * reader that knows only 00. All-zero ids and version ff are invalid.
 */
export function parseTraceparent(header: string | undefined): TraceContext | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const [version, traceId, parentId, flags, ...rest] = value.split("-");
  if (version === undefined || !byteHexPattern.test(version) || version === "ff") return undefined;
  if (version === "00" && (rest.length > 0 || value.length !== 55)) return undefined;
  if (traceId === undefined || !traceIdPattern.test(traceId) || invalid(traceId)) return undefined;
  if (parentId === undefined || !spanIdPattern.test(parentId) || invalid(parentId)) return undefined;
  if (flags === undefined || !byteHexPattern.test(flags)) return undefined;
  return { traceId, parentId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent({ traceId, parentId, sampled }: TraceContext): string {
  return `00-${traceId}-${parentId}-${sampled ? "01" : "00"}`;
}

/** An X-Ray trace header's fields: `Root=1-…;Parent=…;Sampled=1`, in any order, other fields ignored. */
export interface XrayHeader {
  /** The trace id, `1-<8 hex>-<24 hex>`. */
  root: string;
  parent?: string;
  sampled?: boolean;
}

const xrayRootPattern = /^1-([0-9a-f]{8})-([0-9a-f]{24})$/;

/** Reads an `X-Amzn-Trace-Id` header (or Lambda's `_X_AMZN_TRACE_ID`), or undefined when it names no valid root. */
export function parseXrayHeader(header: string | undefined): XrayHeader | undefined {
  if (header === undefined) return undefined;
  const fields = new Map<string, string>();
  for (const part of header.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key) fields.set(key.toLowerCase(), value.join("="));
  }
  const root = fields.get("root")?.toLowerCase();
  if (root === undefined || !xrayRootPattern.test(root) || invalid(root.replace(/^1-|-/g, ""))) return undefined;
  const parent = fields.get("parent")?.toLowerCase();
  const sampled = fields.get("sampled");
  return {
    root,
    ...(parent !== undefined && spanIdPattern.test(parent) ? { parent } : {}),
    ...(sampled === "1" || sampled === "0" ? { sampled: sampled === "1" } : {}),
  };
}

export function formatXrayHeader({ root, parent, sampled }: XrayHeader): string {
  return [`Root=${root}`, ...(parent ? [`Parent=${parent}`] : []), ...(sampled === undefined ? [] : [`Sampled=${sampled ? 1 : 0}`])].join(
    ";",
  );
}

/** A W3C trace-id (32 hex) in X-Ray's form. */
export const xrayTraceId = (traceId: string): string => `1-${traceId.slice(0, 8)}-${traceId.slice(8)}`;

/** An X-Ray trace id as a W3C trace-id (32 hex). */
export const w3cTraceId = (root: string): string => root.replace(/^1-/, "").replace("-", "");

/** A new trace-id (32 hex) whose first 8 digits are the time in epoch seconds, so X-Ray accepts it too. */
export function newTraceId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, "0")
    .slice(-8);
  return `${seconds}${randomBytes(12).toString("hex")}`;
}

/** A new parent-id (span id, 16 hex), never all zeros. */
export function newSpanId(): string {
  for (;;) {
    const id = randomBytes(8).toString("hex");
    if (!invalid(id)) return id;
  }
}

/**
 * The trace a request says it belongs to, in X-Ray's form, from its `traceparent` (header names as API Gateway
 * passes them, lower case); undefined when it has none or an invalid one. `X-Amzn-Trace-Id` is not read here:
 * API Gateway's HTTP APIs put one of their own on every request, so it would not say what the caller sent.
 */
export function callerTraceId(headers: Readonly<Record<string, string | undefined>> | undefined): string | undefined {
  const traceparent = parseTraceparent(headers?.traceparent);
  return traceparent ? xrayTraceId(traceparent.traceId) : undefined;
}
