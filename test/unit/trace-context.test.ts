import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  callerTraceId,
  formatTraceparent,
  formatXrayHeader,
  newSpanId,
  newTraceId,
  parseTraceparent,
  parseXrayHeader,
  w3cTraceId,
  xrayTraceId,
} from "#contract/trace-context";

/** The trace header formats the controller writes and the service reads (contract §8.1), checked with seeded generators. */

const seed = 28_2026;
const hexOf = (length: number) =>
  fc.array(fc.constantFrom(..."0123456789abcdef"), { minLength: length, maxLength: length }).map((chars) => chars.join(""));
const nonZero = (length: number) => hexOf(length).filter((id) => !/^0+$/.test(id));
const context = fc.record({ traceId: nonZero(32), parentId: nonZero(16), sampled: fc.boolean() });

describe("traceparent", () => {
  it("reads back exactly what it writes, for any valid trace", () => {
    fc.assert(
      fc.property(context, (ctx) => {
        expect(parseTraceparent(formatTraceparent(ctx))).toEqual(ctx);
      }),
      { seed, numRuns: 500 },
    );
  });

  it("refuses anything else rather than guessing: each reading it accepts names well-formed, non-zero ids", () => {
    const mutated = context.chain((ctx) =>
      fc.tuple(fc.nat({ max: 54 }), fc.constantFrom("", "-", "X", "0", "F", " 00")).map(([at, insert]) => {
        const header = formatTraceparent(ctx);
        return header.slice(0, at) + insert + header.slice(at + 1);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), mutated), (header) => {
        const read = parseTraceparent(header);
        if (read === undefined) return;
        expect(read.traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(read.parentId).toMatch(/^[0-9a-f]{16}$/);
        expect(read.traceId).not.toMatch(/^0+$/);
        expect(read.parentId).not.toMatch(/^0+$/);
      }),
      { seed, numRuns: 2000 },
    );
    expect(parseTraceparent(`00-${"0".repeat(32)}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect(parseTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).toBeUndefined();
    expect(parseTraceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeUndefined();
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra")).toBeUndefined();
    // A later version is read by its first four fields.
    expect(parseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra")).toMatchObject({ sampled: true });
  });
});

describe("X-Ray's form of the same trace", () => {
  it("is the same 128 bits: converting there and back is the identity, and the header reads back what it writes", () => {
    fc.assert(
      fc.property(nonZero(32), nonZero(16), fc.option(fc.boolean(), { nil: undefined }), (traceId, parent, sampled) => {
        const root = xrayTraceId(traceId);
        expect(root).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
        expect(w3cTraceId(root)).toBe(traceId);
        const header = { root, parent, ...(sampled === undefined ? {} : { sampled }) };
        expect(parseXrayHeader(formatXrayHeader(header))).toEqual(header);
      }),
      { seed, numRuns: 500 },
    );
    expect(parseXrayHeader("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1;Lineage=a87bd80c:1")).toEqual({
      root: "1-5759e988-bd862e3fe1be46a994272793",
      parent: "53995c3f42cd8ad8",
      sampled: true,
    });
    expect(parseXrayHeader("Root=5759e988-bd862e3fe1be46a994272793")).toBeUndefined();
    expect(parseXrayHeader("Parent=53995c3f42cd8ad8")).toBeUndefined();
  });

  it("starts a new trace with its time, as X-Ray requires, and never with an all-zero parent", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("2001-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }), (at) => {
        const traceId = newTraceId(at);
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(Number.parseInt(traceId.slice(0, 8), 16)).toBe(Math.floor(at.getTime() / 1000));
      }),
      { seed, numRuns: 200 },
    );
    for (let i = 0; i < 200; i++) expect(newSpanId()).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
  });
});

describe("the trace a request came with", () => {
  it("is its traceparent's, in X-Ray's form; an X-Amzn-Trace-Id alone names none, since API Gateway sets its own", () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    expect(callerTraceId({ traceparent })).toBe("1-4bf92f35-77b34da6a3ce929d0e0e4736");
    expect(callerTraceId({ traceparent, "x-amzn-trace-id": "Root=1-5759e988-bd862e3fe1be46a994272793" })).toBe(
      "1-4bf92f35-77b34da6a3ce929d0e0e4736",
    );
    expect(callerTraceId({ "x-amzn-trace-id": "Root=1-5759e988-bd862e3fe1be46a994272793" })).toBeUndefined();
    expect(callerTraceId({ traceparent: "not a traceparent" })).toBeUndefined();
    expect(callerTraceId(undefined)).toBeUndefined();
  });
});
