// A throw-away model using every widget of the engine: the end-to-end proof that a model is one
// schema, one table and one registration (docs/resources.md).
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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

export const gadgets = pgTable('gadgets', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  tenantId: uuid('tenant_id').notNull(),
  name: text('name').notNull(),
  title: jsonb('title'),
  notes: text('notes'),
  size: integer('size'),
  mode: text('mode').notNull(),
  expertSetting: text('expert_setting'),
  enabled: boolean('enabled').notNull().default(true),
  color: text('color'),
  startsAt: timestamp('starts_at', { withTimezone: true }),
  day: text('day'),
  at: text('at'),
  schedule: text('schedule'),
  entityIds: integer('entity_ids').array().notNull().default(sql`'{}'`),
  entityTypeIds: integer('entity_type_ids').array().notNull().default(sql`'{}'`),
  settings: jsonb('settings'),
  steps: jsonb('steps'),
  status: text('status').notNull().default('active'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The table with row-level security like every tenant table (migration 0001). */
export const gadgetsDdl = sql.raw(`
  CREATE TABLE gadgets (
    id integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY, tenant_id uuid NOT NULL REFERENCES tenants(id), name text NOT NULL, title jsonb, notes text,
    size integer, mode text NOT NULL, expert_setting text, enabled boolean NOT NULL DEFAULT true, color text, starts_at timestamptz, day text, at text,
    schedule text, entity_ids integer[] NOT NULL DEFAULT '{}', entity_type_ids integer[] NOT NULL DEFAULT '{}', settings jsonb, steps jsonb,
    status text NOT NULL DEFAULT 'active', updated_at timestamptz NOT NULL DEFAULT now());
  ALTER TABLE gadgets ENABLE ROW LEVEL SECURITY;
  CREATE POLICY tenant_isolation ON gadgets TO terrasight_app USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());
  GRANT SELECT, INSERT, UPDATE, DELETE ON gadgets TO terrasight_app;`);
