import { describe, expect, it } from "vitest";
import type { TurnTrace } from "#controller/trace/record";
import { formatTrace } from "#controller/trace/format";

/** The readable view of a trace (npm run demo): every step's whole text, wrapped, never cut off. */

const trace = (events: TurnTrace["events"]): TurnTrace => ({
  kind: "turn",
  conversationId: "c-1",
  turn: 1,
  model: "scripted",
  startedAt: "2026-12-02T00:00:00.000Z",
  durationMs: 1,
  traceId: "1-6750a1b2-0123456789abcdef01234567",
  events,
  outcomes: [],
  counts: { httpRequests: 0, toolCalls: 0, modelRequests: 0 },
  flags: [],
});

describe("formatTrace", () => {
  const problems = [
    "claims cancel_order completed on SU-95765, which the record says was rejected (NOT_ELIGIBLE ALREADY_SHIPPED)",
    "sentence 1 is not placed as harmless",
  ];
  const text = formatTrace(
    trace([
      { at: 0, type: "customer_message", text: "Please cancel SU-95765." },
      {
        at: 1,
        type: "gate",
        decision: "claim_mismatch",
        replyKind: "rejection",
        judgedAgainst: "cancel_order SU-95765: rejected NOT_ELIGIBLE ALREADY_SHIPPED",
        flags: ["claim_mismatch"],
        problems,
      },
    ]),
    { width: 80 },
  );
  const lines = text.split("\n");

  it("keeps every word of a long step, wrapped onto lines indented under its text", () => {
    expect(lines[0]).toBe('  customer  "Please cancel SU-95765."');
    expect(lines[1]).toMatch(/^ {2}gate {6}claim_mismatch → rejection \(cancel_order SU-95765:/);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines.slice(2)) expect(line.startsWith(" ".repeat(12))).toBe(true);
    const gateText = lines
      .slice(1)
      .map((line) => line.slice(12))
      .join(" ");
    expect(gateText).toBe(
      `claim_mismatch → rejection (cancel_order SU-95765: rejected NOT_ELIGIBLE ALREADY_SHIPPED): ${problems.join("; ")}`,
    );
    expect(text).not.toContain("…");
  });

  it("fits every line in the width, unless one word is wider than a line", () => {
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const long = formatTrace(trace([{ at: 0, type: "note", text: `${"x".repeat(100)} end` }]), { width: 40 }).split("\n");
    expect(long).toEqual([`  note      ${"x".repeat(100)}`, `            end`]);
  });
});
