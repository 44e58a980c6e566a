/**
 * Builds DynamoDB expressions from named parts, so every write states its condition in readable pieces
 * and placeholders never collide.
 */
export class Expression {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  #count = 0;

  /** A placeholder for an attribute name. */
  name(attribute: string): string {
    const key = `#${attribute.replace(/[^A-Za-z0-9_]/g, "_")}`;
    this.names[key] = attribute;
    return key;
  }

  /** A placeholder for a value. */
  value(value: unknown): string {
    const key = `:v${this.#count++}`;
    this.values[key] = value;
    return key;
  }

  /** `#attr IN (:a, :b, …)` */
  oneOf(attribute: string, values: readonly unknown[]): string {
    return `${this.name(attribute)} IN (${values.map((v) => this.value(v)).join(", ")})`;
  }

  equals(attribute: string, value: unknown): string {
    return `${this.name(attribute)} = ${this.value(value)}`;
  }

  /** Names and values in the shape the document client takes; empty maps are left out. */
  attributes(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
    return {
      ...(Object.keys(this.names).length ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}
