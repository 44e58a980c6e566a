import { toolJsonSchema, type JsonSchema } from "#contract/json-schema";
import { type ToolDefinition, type ToolName, tools as registry } from "#contract/tools";

/**
 * The tools as a model sees them (contract §8.1): the registry's names, descriptions and input schemas, minus
 * `operationId`. The application creates the operationId once per intended change, so a model never sees or
 * chooses one. get_operation_status is left out for the same reason: its only argument is an operationId, and
 * the controller reconciles outcomes itself and tells the model what it found.
 */
export interface ModelTool {
  name: ToolName;
  description: string;
  kind: ToolDefinition["kind"];
  /** JSON Schema (draft 2020-12) of the arguments the model writes: an object, without `$schema`. */
  inputSchema: JsonSchema;
}

/** Tools the controller keeps to itself (see above). */
export const controllerOnlyTools: readonly ToolName[] = ["get_operation_status"];

/** The argument the application adds to every changing tool's request. */
export const applicationField = "operationId";

export function modelTools(tools: readonly ToolDefinition[] = registry): ModelTool[] {
  return tools
    .filter((tool) => !controllerOnlyTools.includes(tool.name as ToolName))
    .map((tool) => ({
      name: tool.name as ToolName,
      description: withoutApplicationField(tool.description),
      kind: tool.kind,
      inputSchema: modelInputSchema(tool),
    }));
}

/** The registry's input schema without `operationId` (property and `required` entry) and without `$schema`. */
export function modelInputSchema(tool: ToolDefinition): JsonSchema {
  const { $schema: _dialect, ...schema } = toolJsonSchema(tool.input, "input");
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  delete properties[applicationField];
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) => name !== applicationField);
  const result: JsonSchema = { ...schema, properties };
  if (required.length > 0) result.required = required;
  else delete result.required;
  return result;
}

/**
 * A description with every clause that tells the caller about operationId taken out: the model cannot act on
 * it. Clauses are sentences, or the parts of a sentence between semicolons; the rest is kept word for word.
 */
export function withoutApplicationField(description: string): string {
  if (!description.includes(applicationField)) return description;
  return description
    .split(/(?<=\.)\s+/)
    .map((sentence) => {
      if (!sentence.includes(applicationField)) return sentence;
      const end = sentence.endsWith(".") ? "." : "";
      const clauses = (end ? sentence.slice(0, -1) : sentence).split(/;\s*/).filter((clause) => !clause.includes(applicationField));
      return clauses.length === 0 ? "" : `${clauses.join("; ")}${end}`;
    })
    .filter((sentence) => sentence !== "")
    .join(" ");
}
