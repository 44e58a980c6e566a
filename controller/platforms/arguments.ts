import type { JsonSchema } from "#contract/json-schema";

/**
 * A model's arguments with every `null` it wrote for an optional field removed: strict function tools make
 * optional fields nullable, and a `null` there means "not given". A `null` for a required field, or for a field
 * the schema does not know, is kept, so the registry's validation reports it as the service would.
 */
export function withoutNullOptionals(value: unknown, schema: JsonSchema): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    return items !== null && typeof items === "object" ? value.map((item) => withoutNullOptionals(item, items as JsonSchema)) : value;
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined) return value;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const fieldSchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (field === null && fieldSchema !== undefined && !required.has(key)) continue;
    out[key] = fieldSchema !== undefined ? withoutNullOptionals(field, fieldSchema) : field;
  }
  return out;
}
