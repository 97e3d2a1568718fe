// Maintenance window: a mode (notify-off, read-only, device maintenance) over the tenant, a region
// or a group, once or recurring in the tenant's time zone (SPEC §1, §2, §6: the modes a user may
// start come from the token's `maintenance_modes`). The server keeps its current or next
// occurrence (`current_start`–`current_end`); it is in force while now lies between them.
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { MAINTENANCE_MODES, MAINTENANCE_SCHEDULE_KINDS, MAINTENANCE_SCOPES } from './enums.ts';
import { dateTime, integer, lastUpdatedBy, name, recordId, timestamp } from './fields.ts';

/** Starting, changing or ending a window needs the token to allow at least one mode; its own mode is checked per record. */
const maintainers = { maintenanceModes: true } as const;
/** The longest recurring window: a week. */
export const MAX_RECURRING_MINUTES = 7 * 24 * 60;
/** The longest one-time window: a year. */
export const MAX_ONCE_DAYS = 366;
export const MAINTENANCE_READ_ONLY_TENANT_MESSAGE = 'Read-only maintenance covers the whole organisation.';

export const maintenanceWindowSchema = {
  $id: 'maintenance_window',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'mode', 'scope', 'schedule'],
  'x-access': { read: {}, create: maintainers, update: maintainers, delete: maintainers },
  'x-api': {
    rest: { list: '/maintenance-window-list', create: '/create-maintenance-window', update: '/update-maintenance-window', delete: '/delete-maintenance-window' },
    graphql: { list: 'maintenance_window_list', one: 'maintenance_window' },
  },
  // read-only maintenance stops every write but these: it can be ended
  'x-writes-during-read-only': true,
  'x-title': 'name',
  'x-default-sort': { field: 'current_start', order: 'asc' },
  properties: {
    id: recordId,
    name: { ...name, 'x-column': true, 'x-search': true, 'x-sort': true, 'x-order': 1 },
    mode: {
      type: 'string', enum: MAINTENANCE_MODES, default: 'notify-off', 'x-widget': 'enum', 'x-order': 2, 'x-column': true, 'x-filter': true, 'x-sort': true,
      'x-tags': { 'notify-off': 'blue', 'read-only': 'volcano', 'device-maintenance': 'gold' },
      // a user may choose only the modes its token lists
      'x-value-claim': 'maintenance_modes',
    },
    scope: { type: 'string', enum: MAINTENANCE_SCOPES, default: 'tenant', 'x-widget': 'enum', 'x-order': 3, 'x-column': true, 'x-filter': true },
    region_id: { ...idSchema, 'x-widget': 'entity', 'x-conditional': true, 'x-order': 4 },
    group_id: { ...idSchema, 'x-widget': 'group', 'x-conditional': true, 'x-order': 5 },
    schedule: {
      type: 'object', additionalProperties: false, required: ['kind'], 'x-order': 6, 'x-group': 'schedule',
      properties: {
        kind: { type: 'string', enum: MAINTENANCE_SCHEDULE_KINDS, default: 'once', 'x-widget': 'enum', 'x-order': 1 },
        starts_at: { ...dateTime, 'x-conditional': true, 'x-order': 2 },
        ends_at: { ...dateTime, 'x-conditional': true, 'x-order': 3 },
        expression: { type: 'string', format: 'cron', maxLength: 100, default: '0 22 * * 6', 'x-widget': 'cron', 'x-conditional': true, 'x-order': 4, 'x-errors': { format: 'CRON_INVALID' } },
        duration_minutes: { ...integer(1, MAX_RECURRING_MINUTES), default: 120, 'x-conditional': true, 'x-order': 5 },
      },
      allOf: [
        { if: { required: ['kind'], properties: { kind: { const: 'once' } } }, then: { required: ['starts_at', 'ends_at'] } },
        { if: { required: ['kind'], properties: { kind: { const: 'recurring' } } }, then: { required: ['expression', 'duration_minutes'] } },
      ],
    },
    // the occurrence in force or the next one (null: a one-time window that is over)
    current_start: { ...timestamp, type: ['string', 'null'], 'x-column': true, 'x-sort': true, 'x-order': 7 },
    current_end: { ...timestamp, type: ['string', 'null'], 'x-column': true, 'x-order': 8 },
    active: { type: 'boolean', readOnly: true, 'x-column': true, 'x-tags': { true: 'red', false: 'default' }, 'x-order': 9 },
    // while a device-maintenance window is in force: the entities it covers (the map marks them)
    covered_entity_ids: { type: 'array', items: idSchema, readOnly: true, 'x-form': false },
    last_updated_by: lastUpdatedBy,
    updated_at: { ...timestamp, 'x-sort': true },
    created_at: timestamp,
  },
  allOf: [
    { if: { required: ['scope'], properties: { scope: { const: 'region' } } }, then: { required: ['region_id'] } },
    { if: { required: ['scope'], properties: { scope: { const: 'group' } } }, then: { required: ['group_id'] } },
    // read-only stops the tenant's writes, which belong to no one region or group
    {
      if: { required: ['mode'], properties: { mode: { const: 'read-only' } } },
      then: { properties: { scope: { const: 'tenant', 'x-errors': { const: 'MAINTENANCE_READ_ONLY_TENANT' } } } },
    },
  ],
} as const;
export type MaintenanceWindow = FromSchema<typeof maintenanceWindowSchema>;
