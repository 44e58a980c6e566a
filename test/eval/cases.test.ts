import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { caseJsonSchema, changeToolNames, type EvalCase, notEligibleReasons } from "#eval/case-schema";
import { CaseError, fillDates, loadCase, loadCases } from "#eval/load-cases";
import { repoRoot } from "#local/stack";

/** The case set as data (contract §8.3): every case fits the published format, ids are unique, and together they cover the ground. */

const casesDir = join(repoRoot, "eval", "cases");
const schemaFile = join(repoRoot, "eval", "case-schema.json");

async function caseFiles(): Promise<{ name: string; json: EvalCase }[]> {
  const names = (await readdir(casesDir)).filter((n) => n.endsWith(".json")).sort();
  return Promise.all(names.map(async (name) => ({ name, json: JSON.parse(await readFile(join(casesDir, name), "utf8")) as EvalCase })));
}

describe("eval/case-schema.json", () => {
  it("is what the zod schema emits (rewrite it with `npx tsx eval/cli.ts --write-schema`)", async () => {
    expect(JSON.parse(await readFile(schemaFile, "utf8"))).toEqual(caseJsonSchema());
  });

  it("every case file validates against it, and the case ids are unique", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(await readFile(schemaFile, "utf8")));
    const files = await caseFiles();
    expect(files.length).toBeGreaterThanOrEqual(120);
    const invalid = files.filter((f) => !validate(f.json)).map((f) => `${f.name}: ${ajv.errorsText(validate.errors)}`);
    expect(invalid).toEqual([]);
    const ids = files.map((f) => f.json.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("refuses what contract §8.3 does not allow, naming the field", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(caseJsonSchema());
    const base = {
      id: "x-1",
      source: "test",
      customer: "C-1",
      fixture: {},
      conversation: ["hi"],
      expect: { authorization: "none", outcome: { status: "none" }, reply: "information" },
    };
    expect(validate(base)).toBe(true);
    expect(validate({ ...base, support: "S-7" })).toBe(false); // two callers
    expect(validate({ ...base, seller: "SLR-2210" })).toBe(false); // two callers
    const { customer: _customer, ...noCaller } = base;
    expect(validate(noCaller)).toBe(false);
    expect(validate({ ...noCaller, seller: "SLR-2210" })).toBe(true);
    expect(validate({ ...noCaller, seller: "2210" })).toBe(false);
    expect(validate({ ...base, fault: [] })).toBe(false); // a misspelt field
    expect(validate({ ...base, faults: [{ kind: "lose_response", times: 0 }] })).toBe(false);
    expect(validate({ ...base, expect: { ...base.expect, reply: "apology" } })).toBe(false);
  });
});

describe("loading a case", () => {
  const today = new Date("2026-03-10T12:00:00Z");

  it("fills {{today}}, {{today-N}} and {{today+N}} in the fixture, conversation, script and expectations", () => {
    expect(fillDates({ a: ["{{today}}", "{{today-4}}T15:40:00Z", "pickup {{today+2}}"] }, "2026-03-10")).toEqual({
      a: ["2026-03-10", "2026-03-06T15:40:00Z", "pickup 2026-03-12"],
    });
  });

  it("names the file and the field of a bad case, and the first bad fixture entry", () => {
    const good = {
      id: "x-1",
      source: "test",
      customer: "C-1001",
      fixture: {},
      conversation: ["hi"],
      expect: { authorization: "none", outcome: { status: "none" }, reply: "information" },
    };
    expect(() => loadCase({ ...good, conversaton: ["hi"] }, "bad.json", today)).toThrow(/bad\.json: .*unknown field "conversaton"/);
    expect(() =>
      loadCase({ ...good, expect: { ...good.expect, outcome: { status: "completed", code: "NOT_ELIGIBLE" } } }, "bad.json", today),
    ).toThrow(/expect\.outcome\.code: code is for status rejected/);
    expect(() => loadCase({ ...good, conversation: ["on {{tomorrow}}"] }, "bad.json", today)).toThrow(
      /conversation\[0\] has a placeholder other than/,
    );
    expect(() => loadCase({ ...good, fixture: { orders: [{ id: "SU-1" }] } }, "bad.json", today)).toThrow(CaseError);
    expect(() => loadCase({ ...good, fixture: { orders: [{ id: "SU-1" }] } }, "bad.json", today)).toThrow(
      /fixture: Fixture is invalid at orders\[0\] \(SU-1\)/,
    );
  });

  it("every case in eval/cases loads: its dates fill in and its fixture passes the seeder's own validation", async () => {
    const { cases, errors } = await loadCases(casesDir, today);
    expect(errors.map((e) => e.message)).toEqual([]);
    expect(cases.length).toBe((await caseFiles()).length);
  });
});

describe("what the case set covers", () => {
  it("every tool, every NOT_ELIGIBLE reason, each rejection code a conversation can meet, every fault kind, every principal", async () => {
    const cases = (await caseFiles()).map((f) => f.json);
    const called = new Set(cases.flatMap((c) => (c.script ?? []).flatMap((s) => ("call" in s ? [s.call] : []))));
    // The controller asks get_operation_status itself whenever a change's outcome is unknown.
    if (
      cases.some((c) =>
        c.faults?.some(
          (f) =>
            (f.kind === "lose_response" || f.kind === "service_error_before_commit") &&
            (f.tool === undefined || (changeToolNames as readonly string[]).includes(f.tool)),
        ),
      )
    ) {
      called.add("get_operation_status");
    }
    expect([...called].sort()).toEqual(expect.arrayContaining(["search_orders", "get_order", ...changeToolNames, "get_operation_status"]));

    const reasons = new Set(cases.map((c) => c.expect.outcome.reason).filter(Boolean));
    expect([...reasons].sort()).toEqual([...notEligibleReasons].sort());

    const codes = new Set(cases.map((c) => c.expect.outcome.code).filter(Boolean));
    // UNAUTHENTICATED, OPERATION_IN_PROGRESS, IDEMPOTENCY_KEY_REUSED and INTERNAL cannot arise here: a case's token
    // has full scopes, the controller sends one request per intent at a time under ids it makes. FORBIDDEN does, for
    // a seller's cancel or note: a tool a seller may not use.
    expect([...codes].sort()).toEqual([
      "FORBIDDEN",
      "INVALID_INPUT",
      "NOT_ELIGIBLE",
      "NO_PICKUP_SLOT",
      "ORDER_NOT_FOUND",
      "OUT_OF_STOCK",
      "RATE_LIMITED",
      "SELLER_SUSPENDED",
      "VERSION_CONFLICT",
    ]);

    const faults = new Set(cases.flatMap((c) => (c.faults ?? []).map((f) => f.kind)));
    expect([...faults].sort()).toEqual(["lose_response", "lose_status", "service_error_before_commit", "set_before_dispatch"]);

    expect(cases.filter((c) => c.support !== undefined).length).toBeGreaterThanOrEqual(5);
    // The seller: its own returns and replacements, completed and refused; another seller's orders; a suspended
    // seller; the search limits; the tools it may not use; a lost response.
    const sellerCases = cases.filter((c) => c.seller !== undefined);
    expect(sellerCases.length).toBeGreaterThanOrEqual(22);
    const sellerOutcomes = new Set(
      sellerCases.map((c) => `${c.expect.outcome.tool ?? ""} ${c.expect.outcome.status} ${c.expect.outcome.code ?? ""}`.trim()),
    );
    for (const outcome of [
      "start_return completed",
      "offer_replacement completed",
      "start_return rejected ORDER_NOT_FOUND",
      "offer_replacement rejected SELLER_SUSPENDED",
      "cancel_order rejected FORBIDDEN",
      "add_delivery_note rejected FORBIDDEN",
    ]) {
      expect(sellerOutcomes, outcome).toContain(outcome);
    }
    expect(sellerCases.some((c) => c.faults?.some((f) => f.kind === "lose_response"))).toBe(true);
    expect(
      sellerCases.some((c) =>
        c.script?.some((s) => "call" in s && s.call === "search_orders" && (s.input as { email?: string }).email !== undefined),
      ),
    ).toBe(true);
    expect(new Set(cases.map((c) => c.expect.reply))).toEqual(
      new Set(["confirmation", "rejection", "uncertainty", "clarification", "confirmation_request", "information"]),
    );
    const ids = new Set(cases.map((c) => c.id));
    const core = [
      ...["own-eligible-order", "someone-elses-order", "it-two-orders", "ships-before-commit", "lost-response"].map((c) => `cancel-${c}`),
      ...["own-order", "someone-elses-order", "stale-version", "reused-operation-id", "lost-response", "lost-response-and-status"].map(
        (c) => `note-${c}`,
      ),
    ];
    for (const id of core) expect(ids, `the core case ${id}`).toContain(id);
  });
});
