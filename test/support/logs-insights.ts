/**
 * The part of CloudWatch Logs Insights' query language the runbook's queries use, run over JSON log lines as the
 * local stack writes them, so a test can run docs/operations.md's queries as written. Anything else is refused
 * with what was not understood: a query the runbook changes to use more of the language fails its test until
 * this learns it, rather than passing without being run.
 *
 * Commands, separated by `|` or new lines: `fields a, b.c, @timestamp`; `filter <condition>` with `=`, `!=`,
 * `and`, `or`, parentheses and `ispresent(field)`; `sort <field> asc|desc`; `limit <n>`. Comments start with `#`.
 * As in CloudWatch, a JSON line's nested keys are fields named with dots (`error.name`), `@timestamp` is the
 * event's time (here the line's own `timestamp`), `@message` the line as written.
 */

export type LogRecord = Record<string, unknown>;
type Row = Record<string, unknown>;

type Condition =
  | { kind: "compare"; field: string; op: "=" | "!="; value: string | number | boolean }
  | { kind: "present"; field: string }
  | { kind: "and" | "or"; left: Condition; right: Condition };

type Command =
  | { kind: "fields"; fields: string[] }
  | { kind: "filter"; condition: Condition }
  | { kind: "sort"; field: string; descending: boolean }
  | { kind: "limit"; count: number };

/** A value of a field of one line, by CloudWatch's naming. */
function fieldOf(record: LogRecord, line: string, field: string): unknown {
  if (field === "@message") return line;
  if (field === "@timestamp") return record.timestamp;
  let value: unknown = record;
  for (const part of field.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const fieldPattern = /^@?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /\s*("(?:[^"\\]|\\.)*"|!=|=|\(|\)|,|[^\s()=!,"]+)/gy;
  let match = pattern.exec(text);
  while (match) {
    tokens.push(match[1] as string);
    if (pattern.lastIndex >= text.length) break;
    match = pattern.exec(text);
  }
  if (tokens.join("").replace(/\s/g, "") !== text.replace(/\s/g, "")) throw new Error(`Cannot read the condition ${JSON.stringify(text)}.`);
  return tokens;
}

function parseCondition(text: string): Condition {
  const tokens = tokenize(text);
  let at = 0;
  const next = () => tokens[at++];
  const peek = () => tokens[at];
  const literal = (token: string | undefined): string | number | boolean => {
    if (token === undefined) throw new Error(`The condition ${JSON.stringify(text)} ends too early.`);
    if (token.startsWith('"')) return JSON.parse(token) as string;
    if (/^-?\d+(\.\d+)?$/.test(token)) return Number(token);
    if (token === "true" || token === "false") return token === "true";
    throw new Error(
      `${JSON.stringify(token)} in ${JSON.stringify(text)} is not a value this reader knows (a "string", a number, true, false).`,
    );
  };
  const primary = (): Condition => {
    const token = next();
    if (token === "(") {
      const inner = disjunction();
      if (next() !== ")") throw new Error(`Unbalanced parentheses in ${JSON.stringify(text)}.`);
      return inner;
    }
    if (token === "ispresent") {
      if (next() !== "(") throw new Error(`ispresent needs (field) in ${JSON.stringify(text)}.`);
      const field = next() ?? "";
      if (!fieldPattern.test(field) || next() !== ")") throw new Error(`ispresent needs one field in ${JSON.stringify(text)}.`);
      return { kind: "present", field };
    }
    if (token === undefined || !fieldPattern.test(token))
      throw new Error(`Expected a field in ${JSON.stringify(text)}, found ${JSON.stringify(token)}.`);
    const op = next();
    if (op !== "=" && op !== "!=")
      throw new Error(`Only = and != comparisons are understood here, not ${JSON.stringify(op)} in ${JSON.stringify(text)}.`);
    return { kind: "compare", field: token, op, value: literal(next()) };
  };
  const conjunction = (): Condition => {
    let left = primary();
    while (peek()?.toLowerCase() === "and") {
      next();
      left = { kind: "and", left, right: primary() };
    }
    return left;
  };
  const disjunction = (): Condition => {
    let left = conjunction();
    while (peek()?.toLowerCase() === "or") {
      next();
      left = { kind: "or", left, right: conjunction() };
    }
    return left;
  };
  const condition = disjunction();
  if (at !== tokens.length) throw new Error(`Cannot read ${JSON.stringify(tokens.slice(at).join(" "))} in ${JSON.stringify(text)}.`);
  return condition;
}

/** The commands of a query, comments dropped. */
export function parseQuery(query: string): Command[] {
  const text = query
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join("\n");
  return text
    .split(/\||\n/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part): Command => {
      const [name = "", ...rest] = part.split(/\s+/);
      const argument = part.slice(name.length).trim();
      switch (name) {
        case "fields": {
          const fields = argument.split(",").map((f) => f.trim());
          const bad = fields.filter((f) => !fieldPattern.test(f));
          if (bad.length) throw new Error(`Not fields: ${bad.join(", ")}.`);
          return { kind: "fields", fields };
        }
        case "filter":
          return { kind: "filter", condition: parseCondition(argument) };
        case "sort": {
          const [field = "", order = "asc", ...extra] = rest;
          if (!fieldPattern.test(field) || !["asc", "desc"].includes(order) || extra.length)
            throw new Error(`sort takes a field and asc or desc, not ${JSON.stringify(argument)}.`);
          return { kind: "sort", field, descending: order === "desc" };
        }
        case "limit": {
          const count = Number(argument);
          if (!Number.isInteger(count) || count < 1) throw new Error(`limit takes a whole number, not ${JSON.stringify(argument)}.`);
          return { kind: "limit", count };
        }
        default:
          throw new Error(`The command ${JSON.stringify(name)} is not one this reader knows (fields, filter, sort, limit).`);
      }
    });
}

function holds(condition: Condition, value: (field: string) => unknown): boolean {
  switch (condition.kind) {
    case "present":
      return value(condition.field) !== undefined && value(condition.field) !== null;
    case "compare": {
      const equal = value(condition.field) === condition.value;
      return condition.op === "=" ? equal : !equal && value(condition.field) !== undefined;
    }
    case "and":
      return holds(condition.left, value) && holds(condition.right, value);
    case "or":
      return holds(condition.left, value) || holds(condition.right, value);
  }
}

/** Runs a query over JSON log lines (each a JSON object; other lines are not log events and are skipped). */
export function runQuery(query: string, lines: readonly string[]): Row[] {
  const commands = parseQuery(query);
  let events = lines.filter((line) => line.trim().startsWith("{")).map((line) => ({ line, record: JSON.parse(line) as LogRecord }));
  let fields: string[] | undefined;
  let limit: number | undefined;
  for (const command of commands) {
    switch (command.kind) {
      case "fields":
        fields = [...(fields ?? []), ...command.fields];
        break;
      case "filter":
        events = events.filter((e) => holds(command.condition, (field) => fieldOf(e.record, e.line, field)));
        break;
      case "sort": {
        const key = (e: (typeof events)[number]) => String(fieldOf(e.record, e.line, command.field) ?? "");
        events = [...events].sort((a, b) => key(a).localeCompare(key(b)) * (command.descending ? -1 : 1));
        break;
      }
      case "limit":
        limit = command.count;
    }
  }
  const rows = events.slice(0, limit ?? 10_000);
  return rows.map((e) =>
    Object.fromEntries((fields ?? ["@timestamp", "@message"]).map((field) => [field, fieldOf(e.record, e.line, field)])),
  );
}
