// A throw-away model using every widget of the engine: the end-to-end proof that a model is one
// schema, its storage line and one registration (docs/resources.md); its table is derived from
// the schema and created by the migration drizzle-kit's generator writes for it.
import { sql, type SQL } from 'drizzle-orm';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { modelTables } from '../../server/db/modelTables.ts';
import { tenants } from '../../server/db/schema.ts';
import { NO_NUL } from '../../src/schemas/bounds.ts';
import {
  colour, date, dateTime, entityIds, entityTypeIds, integer as integerField, longText, multilingualText, name, recordId, status, text as textField, timeOfDay, timestamp as timestampField,
} from '../../src/schemas/fields.ts';
import type { ModelSchema } from '../../src/schemas/model.ts';

export const gadgetSchema = {
  $id: 'gadget',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'mode'],
  'x-access': { read: {}, create: {}, update: {}, delete: {} },
  'x-api': { rest: { list: '/gadget-list', create: '/create-gadget', update: '/update-gadget', delete: '/delete-gadget' } },
  'x-title': 'name',
  properties: {
    id: recordId,
    name: { ...name, 'x-column': true, 'x-search': true, 'x-sort': true, 'x-order': 1 },
    title: { ...multilingualText, minProperties: 0, 'x-order': 2 },
    notes: { ...longText, 'x-order': 3 },
    size: { ...integerField(1, 10), 'x-column': true, 'x-order': 4 },
    mode: { type: 'string', enum: ['simple', 'advanced'], 'x-widget': 'enum', 'x-column': true, 'x-filter': true, 'x-order': 5 },
    expert_setting: { type: 'string', maxLength: 50, pattern: NO_NUL, 'x-widget': 'text', 'x-conditional': true, 'x-order': 6 },
    enabled: { type: 'boolean', default: true, 'x-widget': 'switch', 'x-order': 7 },
    color: { ...colour, 'x-order': 8 },
    starts_at: { ...dateTime, 'x-order': 9 },
    day: { ...date, 'x-order': 10 },
    at: { ...timeOfDay, 'x-order': 11 },
    schedule: { type: 'string', format: 'cron', maxLength: 100, 'x-widget': 'cron', 'x-errors': { format: 'CRON_INVALID' }, 'x-order': 12 },
    entity_ids: { ...entityIds, 'x-order': 13 },
    entity_type_ids: { ...entityTypeIds, 'x-order': 14 },
    settings: {
      type: 'object', additionalProperties: false, 'x-order': 15,
      properties: { label: textField(40), level: integerField(0, 100) },
    },
    steps: {
      type: 'array', maxItems: 3, default: [], 'x-order': 16,
      items: { type: 'object', additionalProperties: false, required: ['label'], properties: { label: { ...textField(40), minLength: 1 }, level: integerField(0, 100) } },
    },
    status: { ...status, 'x-order': 17 },
    updated_at: timestampField,
  },
  allOf: [{ if: { required: ['mode'], properties: { mode: { const: 'advanced' } } }, then: { required: ['expert_setting'] } }],
} as const satisfies ModelSchema;

/** Its tables, derived from the schema like every model's (server/db/modelTables.ts). */
export const gadgetTables = (schema: ModelSchema = gadgetSchema) => modelTables(schema, { table: 'gadgets', tenants: () => tenants.id });
export const gadgets = gadgetTables().table;

/** The SQL that drizzle-kit's generator (`npm run db:generate`) writes to go from `before` to `after`. */
export async function generatedMigration(before: Record<string, unknown>, after: Record<string, unknown>): Promise<string> {
  const statements = await generateMigration(generateDrizzleJson({ tenants, ...before }), generateDrizzleJson({ tenants, ...after }));
  return statements.join(';\n');
}

/** The migration that creates the gadget's table. */
export const gadgetsDdl = async (): Promise<SQL> => sql.raw(await generatedMigration({}, { gadgets }));
