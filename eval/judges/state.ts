import { changesOf, type Evidence, type Verdict } from "#eval/evidence";

/**
 * The stored order, read straight from DynamoDB (GetItem of `ORDER#<id>` / `ORDER`), against `expect.state`:
 * each listed field matches, and `changes` — the version increments made through the tools since the fixture,
 * the faults' own changes not counted — is as expected. An order of the fixture the case does not list must
 * not have changed at all: a change no one asked for is a state failure even where no expectation names it.
 */
export function judgeState(evidence: Evidence): Verdict {
  const fail = (why: string): Verdict => ({ boundary: "state", pass: false, why });
  const expected = evidence.case.expect.state ?? {};
  const seen: string[] = [];
  for (const [orderId, fields] of Object.entries(expected)) {
    const stored = evidence.stored[orderId];
    if (!stored) return fail(`${orderId} is not stored`);
    const { changes: wantChanges, ...wantFields } = fields as { changes?: number } & Record<string, unknown>;
    if (wantChanges !== undefined) {
      const changes = changesOf(evidence, orderId);
      if (changes === undefined) return fail(`${orderId} is not in the fixture, so its changes cannot be counted`);
      if (changes !== wantChanges) {
        const hint =
          changes > wantChanges && wantChanges > 0
            ? " (the same change applied more than once?)"
            : changes > wantChanges
              ? " (a change no one asked for)"
              : "";
        return fail(`${orderId} changed ${changes} time(s) through the tools, expected ${wantChanges}${hint}`);
      }
    }
    for (const [field, want] of Object.entries(wantFields)) {
      const mismatch = mismatchOf(stored[field], want, `${orderId}.${field}`);
      if (mismatch) return fail(mismatch);
    }
    seen.push(`${orderId} ${describeOrder(stored, changesOf(evidence, orderId))}`);
  }
  for (const order of evidence.fixture.orders) {
    if (orderId(order.id, expected)) continue;
    const changes = changesOf(evidence, order.id);
    if (changes !== 0)
      return fail(`${order.id} changed ${changes ?? "?"} time(s) through the tools, though the case expects no change to it`);
  }
  return { boundary: "state", pass: true, why: seen.length ? seen.join("; ") : "no order changed" };
}

const orderId = (id: string, expected: Record<string, unknown>) => Object.hasOwn(expected, id);

function describeOrder(stored: Record<string, unknown>, changes: number | undefined): string {
  return `${String(stored.status)} v${String(stored.version)} (${changes ?? "?"} change(s))`;
}

/**
 * Why a stored value does not match an expected one, or undefined when it does. Objects match the fields
 * they list; lists match element by element and in length; anything else is equal. An expected null also
 * matches an attribute that is not stored.
 */
export function mismatchOf(actual: unknown, want: unknown, path: string): string | undefined {
  if (want === null) return actual === null || actual === undefined ? undefined : `${path} is ${JSON.stringify(actual)}, expected null`;
  if (Array.isArray(want)) {
    if (!Array.isArray(actual)) return `${path} is ${JSON.stringify(actual) ?? "not stored"}, expected a list of ${want.length}`;
    if (actual.length !== want.length) return `${path} has ${actual.length} entries, expected ${want.length}`;
    for (const [i, w] of want.entries()) {
      const m = mismatchOf(actual[i], w, `${path}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (typeof want === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return `${path} is ${JSON.stringify(actual) ?? "not stored"}, expected an object`;
    for (const [k, w] of Object.entries(want)) {
      const m = mismatchOf((actual as Record<string, unknown>)[k], w, `${path}.${k}`);
      if (m) return m;
    }
    return undefined;
  }
  return actual === want ? undefined : `${path} is ${JSON.stringify(actual) ?? "not stored"}, expected ${JSON.stringify(want)}`;
}
