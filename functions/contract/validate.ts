import type { output, ZodMiniType } from "zod/mini";
import { type InputIssue, InvalidInputError } from "#core/errors";

function pathOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
    .join(".")
    .replace(/\.\[/g, "[");
}

function shapeKeys(schema: ZodMiniType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * The deepest nesting of arrays and objects accepted in any request body (a scalar is 0, `{}` is 1). No tool's
 * arguments come near it; 16 KiB of `[` would reach about 8,000, where JSON.stringify runs out of stack.
 */
export const maxNestingDepth = 32;

/** How deeply arrays and objects nest in a parsed JSON value, and under which top-level field; walked without recursion. */
function nestingOf(value: unknown): { depth: number; field: string } {
  let deepest = { depth: 0, field: "" };
  const pending: Array<{ value: unknown; depth: number; field: string }> = [{ value, depth: 0, field: "" }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.value === null || typeof next.value !== "object") continue;
    const depth = next.depth + 1;
    if (depth > deepest.depth) deepest = { depth, field: next.field };
    // The issue names the top-level field; a body that is itself a list has none, and is named as a whole.
    const children = Array.isArray(next.value) ? next.value.map((v) => ["", v] as const) : Object.entries(next.value);
    for (const [key, child] of children) pending.push({ value: child, depth, field: depth === 1 ? key : next.field });
  }
  return deepest;
}

/**
 * An issue when a parsed body nests deeper than {@link maxNestingDepth}, so that it is refused as INVALID_INPUT
 * before anything serialises it again (JSON.stringify recurses, and a deep enough value makes it throw).
 * `what` names the value in the message, e.g. "the body"; `remedy` says what would be right.
 */
export function nestingIssue(value: unknown, what: string, remedy = argumentsRemedy, limit = maxNestingDepth): InputIssue | undefined {
  const { depth, field } = nestingOf(value);
  if (depth <= limit) return undefined;
  return {
    path: field,
    message: `Arrays and objects nest ${depth} levels deep in ${what}${field ? ` (under ${field})` : ""}; at most ${limit} levels are accepted. ${remedy}`,
  };
}

const argumentsRemedy =
  'Send the tool\'s arguments as one JSON object with the fields its inputSchema lists, each a string, number, list or small object as described there, e.g. {"orderId": "SU-88421"}.';

/** Whether the value at `path` of `input` was given at all, so a wrong type is not reported as missing. */
function isPresent(input: unknown, path: readonly PropertyKey[]): boolean {
  let node: unknown = input;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key as string)) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node !== undefined;
}

/** At most this many issues are listed in one INVALID_INPUT answer. */
export const maxIssues = 20;

/**
 * Validates a tool's arguments against its strict schema. Every problem becomes an issue that says what
 * was wrong and what would be right; nothing is coerced, and an unknown field is never silently dropped.
 */
export function parseArguments<S extends ZodMiniType>(schema: S, tool: string, input: unknown): output<S> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new InvalidInputError([
      { path: "", message: `The arguments of ${tool} must be a JSON object with the fields ${shapeKeys(schema).join(", ")}.` },
    ]);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const allowed = shapeKeys(schema);
  const issues: InputIssue[] = result.error.issues.map((issue) => {
    const path = pathOf(issue.path);
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((k) => `'${k}'`).join(", ");
      return {
        path,
        message: `unknown field${issue.keys.length > 1 ? "s" : ""} ${keys}: ${tool} takes only ${allowed.join(", ")}. Who is calling comes from the session and the order's state from the store, never from arguments.`,
      };
    }
    if (issue.code === "invalid_type" && !isPresent(input, issue.path)) {
      return { path, message: `${path} is required. ${issue.message}` };
    }
    return { path, message: issue.message };
  });
  // A bad entry in each of many array elements would otherwise make the answer larger than the request.
  const listed =
    issues.length > maxIssues
      ? [
          ...issues.slice(0, maxIssues - 1),
          {
            path: "",
            message: `…and ${issues.length - maxIssues + 1} more problems of the same kinds; fix those above and send the request again to see any that remain.`,
          },
        ]
      : issues;
  const [first, ...rest] = listed;
  // zod reports at least one issue for a failed parse; the fallback only keeps the type honest.
  throw new InvalidInputError([first ?? { path: "", message: `The arguments do not match ${tool}'s schema.` }, ...rest]);
}
