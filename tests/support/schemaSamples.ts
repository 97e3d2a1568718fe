// Records made from a model schema for contract tests: a valid sample (filled until the schema's
// own validator accepts it) and, for each constraint of each field, the sample with that one
// constraint broken.
import { createAjv } from '../../src/schemas/ajvInstance.ts';
import { NO_NUL } from '../../src/schemas/bounds.ts';
import { MEDIA_URL_PATTERN } from '../../src/schemas/mediaUrl.ts';
import { createInputSchema, type FieldSchema, type ModelSchema } from '../../src/schemas/model.ts';

const ajv = createAjv();
const typesOf = (schema: FieldSchema) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []).filter((t) => t !== 'null');

/** A valid value of one field. */
export function sampleValue(schema: FieldSchema): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.enum) return schema.enum.find((value) => value !== null);
  if (schema['x-widget'] === 'multilingual') return { en: 'Sample' };
  const [type] = typesOf(schema);
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 0, Math.min(1, schema.maximum ?? 1));
  if (type === 'boolean') return true;
  if (type === 'array') return schema.minItems ? Array.from({ length: schema.minItems }, () => sampleValue(schema.items ?? {})) : [];
  if (type === 'object') return sampleObject(schema);
  if (schema.format === 'date-time') return '2030-01-01T06:00:00.000Z';
  if (schema.format === 'date') return '2030-01-01';
  if (schema.format === 'cron') return '0 6 * * 1';
  if (schema.pattern?.startsWith('^([01]')) return '08:00';
  if (schema.pattern?.startsWith('^#')) return '#336699';
  if (schema.pattern?.startsWith('^[0-9a-fA-F]{8}-')) return '00000000-0000-4000-8000-000000000001';
  if (schema.pattern === MEDIA_URL_PATTERN) return '/branding/city/logo.svg';
  return 'Sample'.padEnd(schema.minLength ?? 1, 'x');
}

/** The object's required fields, then whatever its validator still asks for. */
export function sampleObject(schema: FieldSchema): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of schema.required ?? []) value[field] = sampleValue(schema.properties![field]);
  const validate = ajv.compile({ ...schema, $id: undefined });
  for (let round = 0; round < 20 && !validate(structuredClone(value)); round += 1) {
    const [error] = validate.errors!;
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    const path = error.instancePath.split('/').filter(Boolean);
    let target = value as Record<string, any>;
    for (const key of path) target = target[key];
    const parentSchema = error.parentSchema as FieldSchema;
    // a conditional branch may name the field without its type (`else: { properties: { from: {} } }`): the field's own schema first
    if (missing) target[missing] = sampleValue({ ...lookup(schema, [...path, missing]), ...(parentSchema.properties ?? {})[missing] });
    else throw new Error(`cannot make a valid ${JSON.stringify(schema).slice(0, 60)}: ${error.instancePath} ${error.message}`);
  }
  return value;
}

/** The field schema at a path (with the conditional branches' narrower types). */
function lookup(schema: FieldSchema, path: string[]): FieldSchema {
  let node: FieldSchema = schema;
  for (const key of path) {
    const branches = (node.allOf ?? []).map((rule) => rule.then?.properties?.[key]).filter(Boolean) as FieldSchema[];
    node = { ...node.properties?.[key], ...branches[0] };
  }
  return node;
}

export interface Violation { path: string[]; constraint: string; value: unknown; message: RegExp }

/** For each field of the create body and each of its constraints: a breaking value and the message it gets. */
export function violations(model: ModelSchema): Violation[] {
  const result: Violation[] = [];
  // Inside an optional object with required fields of its own (a geometry), a violation replaces
  // the whole object: its `examples[0]` with the one value broken, so that only that value is wrong.
  let within: { path: string[]; example: Record<string, unknown> } | undefined;
  const push = (violation: Violation) => {
    if (!within) return result.push(violation);
    const inner = violation.path.slice(within.path.length);
    result.push({ ...violation, path: within.path, value: withValue(within.example, inner, violation.value) });
  };
  const walk = (schema: FieldSchema, path: string[]) => {
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
      const at = [...path, field];
      const [type] = typesOf(fieldSchema);
      const name = field;
      if (typesOf(fieldSchema).length === 1 && type !== 'object') {
        // an object, for a list: the validator would wrap a scalar into a one-item list (coerceTypes 'array')
        push({ path: at, constraint: 'type', value: type === 'string' || type === 'array' ? { not: type } : 'not-a-number', message: /must be/ });
      }
      if (fieldSchema.maximum !== undefined && fieldSchema.maximum < 1e12) push({ path: at, constraint: 'maximum', value: fieldSchema.maximum + 1, message: new RegExp(`^The ${name} field must be ${fieldSchema.maximum} or less$`) });
      if (fieldSchema.minimum !== undefined && fieldSchema.minimum > -1e12) push({ path: at, constraint: 'minimum', value: fieldSchema.minimum - 1, message: new RegExp(`^The ${name} field must be ${fieldSchema.minimum} or more$`) });
      if (fieldSchema.enum) push({ path: at, constraint: 'enum', value: 'not-one-of-them', message: /must be equal to one of the allowed values/ });
      if (fieldSchema.maxLength !== undefined && type === 'string' && !fieldSchema.enum) push({ path: at, constraint: 'maxLength', value: 'a'.repeat(fieldSchema.maxLength + 1), message: /must NOT have more than|must match/ });
      if (fieldSchema.pattern === NO_NUL && fieldSchema.type === 'string') {
        push({ path: at, constraint: 'pattern', value: `${'a'.repeat(fieldSchema.minLength ?? 1)}\u0000`, message: /must not contain NUL/ });
      }
      if (fieldSchema.maxItems !== undefined && fieldSchema.maxItems < 200) {
        const item = fieldSchema.items?.enum ? undefined : sampleValue(fieldSchema.items ?? {});
        const items = fieldSchema.items?.enum ? [...fieldSchema.items.enum, ...fieldSchema.items.enum] : Array.from({ length: fieldSchema.maxItems + 1 }, (_v, i) => (typeof item === 'number' ? i + 1 : structuredClone(item)));
        push({ path: at, constraint: 'maxItems', value: items, message: /must NOT have more than|It is not possible to create more than|must NOT have duplicate items/ });
      }
      if (fieldSchema.properties && type === 'object' && fieldSchema['x-widget'] !== 'multilingual') {
        const example = (fieldSchema as { examples?: Record<string, unknown>[] }).examples?.[0];
        if (example && !within) within = { path: at, example };
        walk(fieldSchema, at);
        if (within?.path === at) within = undefined;
      }
    }
  };
  walk(createInputSchema(model) as FieldSchema, []);
  return result;
}

/** `record` with `value` at `path`. */
export function withValue(record: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(record);
  let target = copy as Record<string, any>;
  for (const key of path.slice(0, -1)) target = target[key] ??= {};
  target[path[path.length - 1]] = value;
  return copy;
}

/** `record` without the field at `path`. */
export function without(record: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const copy = structuredClone(record);
  let target = copy as Record<string, any>;
  for (const key of path.slice(0, -1)) target = target[key];
  delete target[path[path.length - 1]];
  return copy;
}
