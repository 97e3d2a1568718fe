// Log: an event of an entity, a watcher, a scheduler or the system, with its handling status (SPEC §3).
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { LOG_STATUSES, LOG_TYPES } from './enums.ts';
import { recordId, text, timestamp } from './fields.ts';

const logs = { modules: ['logs'] } as const;

export const logSchema = {
  $id: 'log',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  'x-access': { read: logs, update: logs },
  'x-api': { graphql: { list: 'log_list', one: 'log', update: 'update_log' }, pagedList: true },
  'x-title': 'message',
  'x-default-sort': { field: 'timestamp', order: 'desc' },
  'x-page-size': 20,
  properties: {
    id: recordId,
    timestamp: { ...timestamp, 'x-column': true, 'x-sort': true, 'x-filter': 'range', 'x-order': 1 },
    type: { type: 'string', enum: LOG_TYPES, readOnly: true, 'x-widget': 'enum', 'x-column': true, 'x-filter': true, 'x-sort': true, 'x-order': 2,
      'x-tags': { debug: 'default', informational: 'blue', notice: 'cyan', warning: 'gold', error: 'red', alert: 'volcano', emergency: 'magenta', critical: 'red' } },
    status: { type: 'string', enum: LOG_STATUSES, 'x-widget': 'enum', 'x-column': true, 'x-filter': true, 'x-sort': true, 'x-order': 3,
      'x-tags': { new: 'blue', seen: 'default', done: 'green' } },
    source: { ...text(100), readOnly: true, 'x-column': true, 'x-filter': true, 'x-sort': true, 'x-order': 4 },
    message: { ...text(2000), readOnly: true, 'x-column': true, 'x-search': true, 'x-widget': 'log-message', 'x-order': 5 },
    entity_id: { ...idSchema, type: ['integer', 'null'], readOnly: true, 'x-order': 6 },
    // the entity the log is about, by name, opening it on the map (computed from entity_id)
    entity: { type: ['object', 'null'], readOnly: true, 'x-widget': 'entity-link', 'x-column': true, 'x-order': 6 },
    message_data: { type: 'object', readOnly: true, 'x-widget': 'json', 'x-order': 7 },
    // who acknowledged (status seen) and resolved (status done) it, and when: set by the server
    acknowledged_by: { ...text(320), type: ['string', 'null'], readOnly: true, 'x-order': 8 },
    acknowledged_at: { ...timestamp, type: ['string', 'null'], readOnly: true, 'x-order': 9 },
    resolved_by: { ...text(320), type: ['string', 'null'], readOnly: true, 'x-order': 10 },
    resolved_at: { ...timestamp, type: ['string', 'null'], readOnly: true, 'x-order': 11 },
  },
} as const;
export type Log = FromSchema<typeof logSchema>;
