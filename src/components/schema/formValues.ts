// Form values ↔ API records: empty optional values are left out, read-only fields never sent.
import type { FieldSchema } from '../../schemas/model.ts';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** The values of an object as its schema's writable fields, without empty optional values. */
export function cleanValues(schema: FieldSchema, values: Record<string, unknown> | undefined): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values ?? {})) {
    const fieldSchema = schema.properties?.[field];
    if (!fieldSchema || fieldSchema.readOnly || isEmpty(value)) continue;
    clean[field] = cleanValue(fieldSchema, value);
  }
  return clean;
}

function cleanValue(schema: FieldSchema, value: unknown): unknown {
  if (schema.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    const nested = cleanValues(schema, value as Record<string, unknown>);
    return schema['x-widget'] === 'multilingual' ? Object.fromEntries(Object.entries(nested).filter(([, text]) => !isEmpty(text))) : nested;
  }
  if (Array.isArray(value) && schema.items?.properties) return value.map((item) => cleanValues(schema.items!, item as Record<string, unknown>));
  return value;
}

/** A new record's starting values: every declared default, nested objects included, and as many items as a list needs at least. */
export function defaultsOf(schema: FieldSchema): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
    if (fieldSchema.readOnly) continue;
    if (fieldSchema.default !== undefined) values[field] = structuredClone(fieldSchema.default);
    else if (fieldSchema.minItems && fieldSchema.items?.properties) values[field] = Array.from({ length: fieldSchema.minItems }, () => defaultsOf(fieldSchema.items!));
    else if (fieldSchema.properties && fieldSchema['x-widget'] !== 'multilingual') {
      const nested = defaultsOf(fieldSchema);
      if (Object.keys(nested).length) values[field] = nested;
    }
  }
  return values;
}
