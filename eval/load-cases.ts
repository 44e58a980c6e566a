import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type * as z from "zod";
import { dayIn } from "#controller/text/days";
import { addDays, dayOf } from "#core/days";
import type { ShopSets } from "#core/order";
import { type Fixture, parseFixture } from "#store/fixture";
import { caseSchema, type EvalCase } from "#eval/case-schema";

/** A case as the runner uses it: validated, its dates filled in for today, its fixture parsed by the seeder's rules. */
export interface LoadedCase {
  /** The file it came from. */
  file: string;
  case: EvalCase;
  fixture: Fixture;
  /** The UTC day the dates were filled in for. */
  today: string;
}

export class CaseError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "CaseError";
  }
}

const placeholder = /\{\{\s*today\s*(?:([+-])\s*(\d{1,4}))?\s*\}\}/g;

/**
 * `{{today}}`, `{{today-4}}`, `{{today+2}}` → that UTC day (contract §8.3), wherever they stand in a string. The contract
 * names the fixture and the conversation; the script, faults and expected state take them too, so a case can
 * say "pickupDate {{today+3}}" or "deliveredAt {{today-1}}T…" and stay valid on any day.
 */
export function fillDates<T>(value: T, today: string, path = ""): T {
  if (typeof value === "string") {
    const filled = value.replace(placeholder, (_, sign: string | undefined, days: string | undefined) =>
      addDays(today, sign === undefined ? 0 : Number(`${sign}${days}`)),
    );
    if (filled.includes("{{")) {
      throw new Error(`${path || "a string"} has a placeholder other than {{today}}, {{today-N}} or {{today+N}}: ${JSON.stringify(value)}`);
    }
    return filled as T;
  }
  if (Array.isArray(value)) return value.map((v, i) => fillDates(v, today, `${path}[${i}]`)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDates(v, today, path ? `${path}.${k}` : k)])) as T;
  }
  return value;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.map(String).join(".") : "the top level";
  if (issue.code === "unrecognized_keys")
    return `${where}: unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")} (see eval/case-schema.json)`;
  return `${where}: ${issue.message}`;
}

/**
 * Validates one case (already parsed JSON) and fills in its dates; the error names the file and the field. Its
 * fixture is checked against the deployment's shop sets (`sets`; the environment's by default, as the seeder's).
 */
export function loadCase(json: unknown, file: string, now: Date = new Date(), sets?: ShopSets): LoadedCase {
  const parsed = caseSchema.safeParse(json);
  if (!parsed.success) throw new CaseError(file, `not a valid case: ${parsed.error.issues.slice(0, 3).map(describeIssue).join("; ")}`);
  // A case in a time zone has its days in that zone: "collected tomorrow" is the principal's tomorrow.
  const today = parsed.data.timeZone ? dayIn(now, parsed.data.timeZone) : dayOf(now);
  let filled: EvalCase;
  try {
    const { id, source, ...rest } = parsed.data;
    filled = { id, source, ...fillDates(rest, today) };
  } catch (error) {
    throw new CaseError(file, (error as Error).message);
  }
  let fixture: Fixture;
  try {
    fixture = parseFixture(filled.fixture, sets);
  } catch (error) {
    throw new CaseError(file, `fixture: ${(error as Error).message}`);
  }
  return { file, case: filled, fixture, today };
}

/** Every `*.json` in a directory, as cases, in file-name order. Ids must be unique. */
export async function loadCases(dir: string, now: Date = new Date()): Promise<{ cases: LoadedCase[]; errors: CaseError[] }> {
  const root = resolve(dir);
  let names: string[];
  try {
    names = (await readdir(root)).filter((name) => name.endsWith(".json")).sort();
  } catch (error) {
    throw new Error(`Cannot read the case directory ${root}: ${(error as Error).message}`);
  }
  if (names.length === 0) throw new Error(`${root} holds no case files (*.json).`);
  const cases: LoadedCase[] = [];
  const errors: CaseError[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = join(root, name);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, "utf8"));
    } catch (error) {
      errors.push(new CaseError(file, `not JSON: ${(error as Error).message}`));
      continue;
    }
    try {
      const loaded = loadCase(json, file, now);
      const earlier = seen.get(loaded.case.id);
      if (earlier) throw new CaseError(file, `id ${loaded.case.id} is already the id of ${earlier}; ids are unique`);
      seen.set(loaded.case.id, file);
      cases.push(loaded);
    } catch (error) {
      errors.push(error instanceof CaseError ? error : new CaseError(file, (error as Error).message));
    }
  }
  return { cases, errors };
}
