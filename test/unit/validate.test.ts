import { describe, expect, it } from "vitest";
import { toolNamed } from "#contract/tools";
import { maxNestingDepth, nestingIssue, parseArguments } from "#contract/validate";
import { InvalidInputError } from "#core/errors";

function issuesOf(tool: Parameters<typeof toolNamed>[0], input: unknown) {
  try {
    parseArguments(toolNamed(tool).input, tool, input);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.toJSON().error.issues;
    throw error;
  }
  return [];
}

describe("argument validation says what is wrong", () => {
  it("a field given with the wrong type is not called missing", () => {
    const issues = issuesOf("cancel_order", { operationId: "op-12345678", orderId: "SU-10001", reason: 5, expectedVersion: "3" });
    expect(issues).toHaveLength(2);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "expectedVersion", message: "expectedVersion must be a whole number ≥ 1: the order's version as get_order returned it." },
        { path: "reason", message: expect.stringMatching(/^reason must be a string/) },
      ]),
    );
    for (const issue of issues as Array<{ message: string }>) expect(issue.message).not.toMatch(/is required/);
  });

  it("a field left out is called required, with what it must be", () => {
    expect(issuesOf("cancel_order", { orderId: "SU-10001" })).toEqual([
      {
        path: "operationId",
        message: expect.stringMatching(/^operationId is required\. operationId must be a string of 8–128 characters/),
      },
    ]);
    expect(issuesOf("search_orders", { dateRange: { dateField: "placed", from: "2026-01-01" } })).toEqual([
      { path: "dateRange.to", message: expect.stringMatching(/^dateRange\.to is required\./) },
    ]);
  });
});

describe("search_orders days", () => {
  it("a day past 9998-12-31 is refused with the range of days a search covers, and the range check does not run on it", () => {
    expect(issuesOf("search_orders", { dateRange: { dateField: "placed", from: "9999-12-31", to: "9999-12-31" } })).toEqual([
      {
        path: "dateRange.from",
        message:
          'dateRange.from is "9999-12-31", past the last day a search covers; give days from 0000-01-01 to 9998-12-31, like 2026-03-10.',
      },
      {
        path: "dateRange.to",
        message:
          'dateRange.to is "9999-12-31", past the last day a search covers; give days from 0000-01-01 to 9998-12-31, like 2026-03-10.',
      },
    ]);
    expect(issuesOf("search_orders", { dateRange: { dateField: "delivered", from: "9998-10-01", to: "9999-01-01" } })).toEqual([
      {
        path: "dateRange.to",
        message: expect.stringMatching(
          /^dateRange\.to is "9999-01-01", past the last day a search covers; give days from 0000-01-01 to 9998-12-31/,
        ),
      },
    ]);
  });

  it("the first and last days a search covers are accepted", () => {
    expect(issuesOf("search_orders", { dateRange: { dateField: "placed", from: "9998-10-01", to: "9998-12-31" } })).toEqual([]);
    expect(issuesOf("search_orders", { dateRange: { dateField: "placed", from: "0000-01-01", to: "0000-04-01" } })).toEqual([]);
  });
});

describe("nesting depth", () => {
  const nested = (levels: number): unknown => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);

  it(`accepts ${maxNestingDepth} levels and refuses ${maxNestingDepth + 1}, naming the top-level field`, () => {
    expect(nestingIssue({ a: nested(maxNestingDepth - 1) }, "the body")).toBeUndefined();
    expect(nestingIssue({ a: 1, b: { c: nested(maxNestingDepth) } }, "the body")).toEqual({
      path: "b",
      message: `Arrays and objects nest ${maxNestingDepth + 2} levels deep in the body (under b); at most ${maxNestingDepth} levels are accepted. Send the tool's arguments as one JSON object with the fields its inputSchema lists, each a string, number, list or small object as described there, e.g. {"orderId": "SU-88421"}.`,
    });
    expect(nestingIssue(nested(maxNestingDepth + 1), "the body")).toMatchObject({
      path: "",
      message: expect.stringMatching(/^Arrays and objects nest 33 levels deep in the body; at most 32/),
    });
  });

  it("walks 100,000 levels without recursion", () => {
    expect(nestingIssue(nested(100_000), "the body")?.message).toMatch(/^Arrays and objects nest 100000 levels deep/);
  });

  it("scalars and flat arguments are not nested", () => {
    for (const value of [null, 1, "x", {}, [], { orderId: "SU-10001", itemIds: ["ITM-1"], dateRange: { from: "2026-01-01" } }])
      expect(nestingIssue(value, "the body")).toBeUndefined();
  });
});

describe("an answer about bad input stays smaller than the input", () => {
  it("twenty issues at most, the last saying how many more there are", () => {
    const itemIds = Array.from({ length: 20 }, (_, i) => `item-${i}`);
    const input = { operationId: "op-12345678", orderId: "SU-10001", itemIds, reason: "damaged", extra1: 1, extra2: 2 };
    const issues = issuesOf("start_return", input) as Array<{ path: string; message: string }>;
    expect(issues).toHaveLength(20);
    expect(issues.at(-1)).toEqual({
      path: "",
      message: expect.stringMatching(/^…and \d+ more problems of the same kinds; fix those above/),
    });
    expect(issues.slice(0, 19).every((i) => i.message.length > 0)).toBe(true);
  });
});
