import type { StatusRule } from "#core/eligibility";
import type { JsonValue, ToolError } from "#core/errors";
import type { Order } from "#core/order";

export type Json = { [key: string]: JsonValue };

/** Placeholders for a store condition; the store implements it, so the domain states conditions without AWS types. */
export interface ConditionParts {
  name(attribute: string): string;
  value(value: unknown): string;
  equals(attribute: string, value: unknown): string;
  oneOf(attribute: string, values: readonly unknown[]): string;
}

/** Another item written in the same transaction as the order, with what its failed condition means. */
export interface LinkedWrite {
  /** `Put`, `Update` or `ConditionCheck`, in the document client's shape; the store fills in the table name. */
  write:
    | { kind: "update"; key: Record<string, string>; update: string; condition: string; values: Record<string, unknown>; names?: Record<string, string> }
    | { kind: "conditionCheck"; key: Record<string, string>; condition: string; values: Record<string, unknown>; names?: Record<string, string> }
    | { kind: "put"; item: Record<string, unknown>; condition: string; names?: Record<string, string> };
  explain(current: Record<string, unknown> | undefined): ToolError;
}

/** What a change writes, for the order version it will commit. */
export interface ChangePlan {
  /** Attributes the change sets on the order, besides version, updatedAt and the activity entry. */
  set: Record<string, unknown>;
  /** Extra conditions on the order, beyond ownership, the status rule and the version. */
  conditions?: (parts: ConditionParts) => string[];
  /** One line for the order's activity log, plus any details worth keeping with it. */
  activity: { summary: string } & Record<string, unknown>;
  linkedWrites?: LinkedWrite[];
  /** The tool's own fields of the success body. */
  result: Json;
}

/**
 * A proposed change to one order, as a use case describes it. The store commits it in one transaction with
 * the operation record, conditioned on ownership, `rule`, the version and the plan's own conditions.
 */
export interface OrderChange {
  orderId: string;
  /** The caller's expectedVersion. When absent, one consistent read supplies the version to condition on. */
  expectedVersion?: number;
  rule: StatusRule;
  /** Explains a failed order condition that the status rule does not, from the order as it is. */
  explain?(order: Order): ToolError | undefined;
  plan(input: { committedVersion: number; now: Date; order?: Order }): ChangePlan;
}
