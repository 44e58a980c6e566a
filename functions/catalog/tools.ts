import type { z } from "zod";
import { type TableAccess, idempotencyActions } from "#catalog/access";
import * as schemas from "#catalog/schemas";
import { type Scope, scopes } from "#core/principal";

export interface ToolRoute {
  method: "GET" | "POST";
  path: string;
}

/**
 * Everything there is to know about one tool, written once: the catalogue, OpenAPI and MCP publish it,
 * handlers validate with it, and the CDK stack makes one function and its routes and grants from it.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  kind: "read" | "change";
  scope: Scope;
  input: z.ZodType;
  output: z.ZodType;
  annotations: { readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean };
  /** The handler module, relative to the repository root; it exports `handler`. */
  entry: string;
  routes: readonly ToolRoute[];
  access: TableAccess;
}

/** What a changing tool's transaction touches in the orders table. */
const changeActions = ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"] as const;

export const tools = [
  {
    name: "cancel_order",
    description:
      "Cancel an order that has not shipped (status placed, processing or dispatching). Send a new operationId per intended cancellation and the same one when retrying it; expectedVersion is optional, since eligibility is checked when the cancellation is written. A shipped order cannot be cancelled: start_return applies once it is delivered.",
    kind: "change",
    scope: scopes.write,
    input: schemas.cancelOrderInput,
    output: schemas.cancelOrderOutput,
    annotations: { idempotentHint: true, destructiveHint: true },
    entry: "functions/tools/cancel-order.ts",
    routes: [{ method: "POST", path: "/v1/tools/cancel_order" }],
    access: { orders: changeActions, idempotency: idempotencyActions },
  },
  {
    name: "add_delivery_note",
    description:
      "Give the carrier delivery instructions for an order that has not started dispatch (placed or processing). The note replaces any earlier one and is stored verbatim as text the customer wrote. Needs the order's current version from get_order.",
    kind: "change",
    scope: scopes.write,
    input: schemas.addDeliveryNoteInput,
    output: schemas.addDeliveryNoteOutput,
    annotations: { idempotentHint: true },
    entry: "functions/tools/add-delivery-note.ts",
    routes: [{ method: "POST", path: "/v1/tools/add_delivery_note" }],
    // expectedVersion is required, so the change itself reads nothing first; GetItem serves the reuse diagnosis.
    access: { orders: changeActions, idempotency: idempotencyActions },
  },
  {
    name: "get_operation_status",
    description:
      "Find out what became of a change you requested, by its operationId: completed (with the original result), rejected (with the original error), pending (still running), or not found (it did not take effect; resubmit the identical request with the same operationId).",
    kind: "read",
    scope: scopes.read,
    input: schemas.operationStatusInput,
    output: schemas.operationStatusOutput,
    annotations: { readOnlyHint: true },
    entry: "functions/tools/get-operation-status.ts",
    routes: [
      { method: "POST", path: "/v1/tools/get_operation_status" },
      { method: "GET", path: "/v1/operations/{operationId}" },
    ],
    access: { orders: ["dynamodb:GetItem"], idempotency: ["dynamodb:GetItem"] },
  },
] as const satisfies readonly ToolDefinition[];

export type ToolName = (typeof tools)[number]["name"];

export function toolNamed(name: ToolName): ToolDefinition {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`No tool ${name} in the registry`);
  return tool;
}
