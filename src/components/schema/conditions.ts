// The schema of an object as it applies to its current value: if/then/else branches (allOf) whose
// condition holds add their constraints, and `x-conditional` fields show only while a holding
// branch names them. The server applies the same rules through ajv.
import type { ConditionalSchema, FieldSchema } from '../../schemas/model.ts';

type Branch = NonNullable<ConditionalSchema['then']>;
type Value = Record<string, unknown> | undefined;

function holds(condition: NonNullable<ConditionalSchema['if']>, value: Value): boolean {
  if (!value) return false;
  if (!(condition.required ?? []).every((field) => value[field] !== undefined && value[field] !== null)) return false;
  return Object.entries(condition.properties ?? {}).every(([field, rule]) => {
    const actual = value[field];
    if (actual === undefined) return true;
    if ('const' in rule) return actual === rule.const;
    if (rule.enum) return rule.enum.includes(actual);
    return true;
  });
}

export interface EffectiveSchema {
  properties: Record<string, FieldSchema>;
  required: Set<string>;
  /** Fields to show now. */
  visible: Set<string>;
}

export function effectiveSchema(schema: FieldSchema, value: Value): EffectiveSchema {
  const properties: Record<string, FieldSchema> = { ...(schema.properties ?? {}) };
  const required = new Set(schema.required ?? []);
  const named = new Set<string>();
  const apply = (branch: Branch | undefined) => {
    if (!branch) return;
    for (const [field, rule] of Object.entries(branch.properties ?? {})) {
      properties[field] = { ...properties[field], ...rule };
      named.add(field);
    }
    for (const field of branch.required ?? []) {
      required.add(field);
      named.add(field);
    }
  };
  for (const rule of schema.allOf ?? []) {
    if (rule.if) apply(holds(rule.if, value) ? rule.then : rule.else);
    else apply(rule);
  }
  const visible = new Set(Object.keys(properties).filter((field) => !properties[field]['x-conditional'] || named.has(field)));
  return { properties, required, visible };
}
