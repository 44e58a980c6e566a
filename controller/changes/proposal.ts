import type { z } from "zod";
import { type ChangeToolName, changeToolNamed, isChangeTool, type ToolName, toolNamed } from "#contract/tools";
import { parseArguments } from "#contract/validate";
import { InvalidInputError } from "#core/errors";
import { newOperationId } from "#controller/intents/intent";
import type { ToolCall } from "#controller/model/types";
import { withoutNullOptionals } from "#controller/platforms/arguments";
import { applicationField, type ModelTool } from "#contract/model-tools";

/**
 * What a model's proposal is, once checked with the very schemas the service validates with: an unknown tool,
 * invalid arguments (answered with the service's own INVALID_INPUT body, and nothing sent), a read, or a
 * change — the latter with the operationId the application made for it, which the model never sees.
 */
export type Proposal =
  | { kind: "unknown_tool"; body: Record<string, unknown> }
  | { kind: "invalid"; tool: ToolName; body: Record<string, unknown> }
  | { kind: "read"; tool: ToolName; input: Record<string, unknown> }
  | { kind: "change"; tool: ChangeToolName; request: Record<string, unknown>; orderId: string };

export function checkProposal(call: ToolCall, tools: readonly ModelTool[], makeOperationId: () => string = newOperationId): Proposal {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) {
    return {
      kind: "unknown_tool",
      body: {
        error: {
          code: "UNKNOWN_TOOL",
          message: `There is no tool ${JSON.stringify(call.name)}. The tools are: ${tools.map((t) => t.name).join(", ")}.`,
          retryable: false,
        },
      },
    };
  }
  const invalid = (error: InvalidInputError): Proposal => ({
    kind: "invalid",
    tool: tool.name,
    body: error.toJSON() as unknown as Record<string, unknown>,
  });
  if (call.input === undefined) {
    return invalid(
      new InvalidInputError([
        {
          path: "",
          message: `The arguments are not valid JSON (${JSON.stringify((call.rawArguments ?? "").slice(0, 60))}); send the tool's arguments as a JSON object.`,
        },
      ]),
    );
  }
  const input = withoutNullOptionals(call.input, tool.inputSchema);
  const isObject = input !== null && typeof input === "object" && !Array.isArray(input);
  if (tool.kind === "change" && isObject && Object.hasOwn(input, applicationField)) {
    return invalid(
      new InvalidInputError([
        {
          path: applicationField,
          message: `${applicationField} is created by the application for each intended change; leave it out of the arguments.`,
        },
      ]),
    );
  }
  // A change is validated as the service will see it: with the operationId the application adds.
  const request =
    tool.kind === "change" && isObject ? { [applicationField]: makeOperationId(), ...(input as Record<string, unknown>) } : input;
  try {
    parseArguments(toolNamed(tool.name).input as z.ZodType, tool.name, request);
  } catch (error) {
    if (error instanceof InvalidInputError) return invalid(error);
    throw error;
  }
  const body = request as Record<string, unknown>;
  if (tool.kind === "read") return { kind: "read", tool: tool.name, input: body };
  if (!isChangeTool(tool.name))
    throw new Error(`${tool.name} is offered to the model as a change, but the registry has no such changing tool`);
  return { kind: "change", tool: tool.name, request: body, orderId: String(body.orderId) };
}

/**
 * Whether two requests of a changing tool are the same change: equal on every field of the tool's same-change key
 * (contract entry `sameChange`), a list compared as a set ("ITM-2, ITM-1" is "ITM-1, ITM-2").
 */
export function sameChange(tool: ChangeToolName, a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return changeToolNamed(tool).sameChange.every((field) => sameValue(a[field], b[field]));
}

const sameValue = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) || Array.isArray(b) ? JSON.stringify(asSortedList(a)) === JSON.stringify(asSortedList(b)) : a === b;
const asSortedList = (value: unknown): unknown[] => (Array.isArray(value) ? [...value].sort() : []);
