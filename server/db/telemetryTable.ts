// The partitioned telemetry table (created by migration 0001, hand-written: drizzle-kit does not
// make partitioned tables), described for typed queries; its value columns are shared with
// `telemetry_latest` (schema.ts). Written only by server/telemetry/telemetryWriter.ts.
import { boolean, doublePrecision, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** One value in typed columns (server/telemetry/telemetryPoint.ts maps values onto them). */
export const telemetryValueColumns = () => ({
  valueNum: doublePrecision('value_num'),
  valueText: text('value_text'),
  valueBool: boolean('value_bool'),
  valueJson: jsonb('value_json'),
});

export const telemetry = pgTable('telemetry', {
  tenantId: uuid('tenant_id').notNull(),
  entityId: integer('entity_id').notNull(),
  key: text('key').notNull(),
  ts: timestamp('ts', { withTimezone: true }).notNull(),
  ...telemetryValueColumns(),
});
