import type { z } from "zod";
import { type InputIssue, InvalidInputError } from "#core/errors";

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(/\.\[/g, "[");
}

function shapeKeys(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Validates a tool's arguments against its strict schema. Every problem becomes an issue that says what
 * was wrong and what would be right; nothing is coerced, and an unknown field is never silently dropped.
 */
export function parseArguments<S extends z.ZodType>(schema: S, tool: string, input: unknown): z.output<S> {
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
    if (issue.code === "invalid_type" && issue.input === undefined) {
      return { path, message: `${path} is required. ${issue.message}` };
    }
    return { path, message: issue.message };
  });
  const [first, ...rest] = issues;
  // zod reports at least one issue for a failed parse; the fallback only keeps the type honest.
  throw new InvalidInputError([first ?? { path: "", message: `The arguments do not match ${tool}'s schema.` }, ...rest]);
}
