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
    | {
        kind: "update";
        key: Record<string, string>;
        update: string;
        condition: string;
        values: Record<string, unknown>;
        names?: Record<string, string>;
      }
    | {
        kind: "conditionCheck";
        key: Record<string, string>;
        condition: string;
        values: Record<string, unknown>;
        names?: Record<string, string>;
      }
    | { kind: "put"; item: Record<string, unknown>; condition: string; names?: Record<string, string> };
  /**
   * What the failed condition means, from the item as it is now: a rejection, or `"replan"` when the write lost
   * a race that planning again can avoid (e.g. another caller took the last unit of a pickup slot, and the plan
   * has another candidate). The plan is then made again with `replans` one higher; it decides when to stop.
   */
  explain(current: Record<string, unknown> | undefined): ToolError | "replan";
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
  /**
   * Why the order refused this plan's conditions, from the order as it is now, in the change's own words (it
   * may name items and dates the status rule cannot). Asked after ownership and before the status rule;
   * undefined falls through to the status rule, then the version.
   */
  explain?(order: Order): ToolError | undefined;
}

/**
 * A change that cannot go ahead for a reason outside the order as read (no pickup capacity left, an item the
 * order does not have). Nothing is written but the rejection's operation record, in one transaction with a
 * ConditionCheck of everything the order itself must satisfy (ownership, status rule, version, `conditions`):
 * if that check fails, its diagnosis is the outcome instead, so the order's own rejections come first.
 */
export interface Refusal {
  refusal: ToolError;
  conditions?: ChangePlan["conditions"];
  explain?: ChangePlan["explain"];
}

/**
 * A proposed change to one order, as a use case describes it. The store commits it in one transaction with
 * the operation record, conditioned on ownership, `rule`, the version and the plan's own conditions.
 */
export interface OrderChange {
  orderId: string;
  /** The caller's expectedVersion. When absent, the version read is the one the write is conditioned on. */
  expectedVersion?: number;
  /** Counts against the customer's hourly cap on cancellations, returns and replacements (contract §7). */
  capped?: boolean;
  /**
   * The plan needs the order itself (its lines, its seller): it is read whole and given to the plan. Otherwise the
   * store reads only what the write is conditioned on, and the plan gets no order.
   */
  readsOrder?: boolean;
  rule: StatusRule;
  /**
   * `order` is the order as read, only for a change that `readsOrder` and only when the caller may access it.
   * `replans` counts the times a linked write asked to plan again within this operation. A plan may need I/O (a
   * policy, pickup slots): it may be async.
   */
  plan(input: {
    committedVersion: number;
    now: Date;
    order?: Order;
    replans: number;
  }): ChangePlan | Refusal | Promise<ChangePlan | Refusal>;
}
