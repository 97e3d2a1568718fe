// The partitioned telemetry table (created by migration 0001), described for typed queries.
import { boolean, doublePrecision, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const telemetry = pgTable('telemetry', {
  tenantId: uuid('tenant_id').notNull(),
  entityId: integer('entity_id').notNull(),
  key: text('key').notNull(),
  ts: timestamp('ts', { withTimezone: true }).notNull(),
  valueNum: doublePrecision('value_num'),
  valueText: text('value_text'),
  valueBool: boolean('value_bool'),
  valueJson: jsonb('value_json'),
});
