// Watcher: an alarm on an attribute condition of entities (SPEC §3, §4).
import type { FromSchema } from 'json-schema-to-ts';
import { NO_NUL } from './bounds.ts';
import { KPI_AGGREGATIONS, THRESHOLD_KINDS, WATCHER_CONDITIONS, WATCHER_SEVERITIES } from './enums.ts';
import { entityIds, entityTypeIds, integer, lastUpdatedBy, longText, name, recordId, status, text, timestamp } from './fields.ts';

/** The threshold's value takes the type its kind names; `null` and `now` need no value. */
const thresholdValue = (field: 'value' | 'value_to') => [
  { if: { required: ['kind'], properties: { kind: { const: 'number' } } }, then: { required: [field], properties: { [field]: { type: 'number', 'x-widget': 'number' } } } },
  { if: { required: ['kind'], properties: { kind: { const: 'string' } } }, then: { required: [field], properties: { [field]: { type: 'string', minLength: 1, 'x-widget': 'text' } } } },
  { if: { required: ['kind'], properties: { kind: { const: 'boolean' } } }, then: { required: [field], properties: { [field]: { type: 'boolean', 'x-widget': 'switch' } } } },
  { if: { required: ['kind'], properties: { kind: { const: 'date' } } }, then: { required: [field], properties: { [field]: { type: 'string', format: 'date-time', 'x-widget': 'datetime' } } } },
] as const;

export const watcherSchema = {
  $id: 'watcher',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'query', 'condition'],
  'x-access': { read: {}, create: { permission: 'watcher.*' }, update: { permission: 'watcher.*' }, delete: { permission: 'watcher.*' } },
  'x-api': {
    rest: { list: '/watcher-list', create: '/create-watcher', update: '/update-watcher', delete: '/delete-watcher' },
    graphql: { list: 'watcher_list', one: 'watcher' },
  },
  'x-title': 'name',
  'x-default-sort': { field: 'name', order: 'asc' },
  properties: {
    id: recordId,
    name: { ...name, 'x-column': true, 'x-search': true, 'x-sort': true, 'x-order': 1 },
    query: {
      type: 'object', additionalProperties: false, required: ['key', 'aggregation'], 'x-order': 2, 'x-group': 'query',
      properties: {
        key: { ...text(100), minLength: 1 },
        aggregation: { type: 'string', enum: KPI_AGGREGATIONS, default: 'latest-value', 'x-widget': 'enum' },
      },
    },
    condition: {
      type: 'object', additionalProperties: false, required: ['operator', 'kind'], 'x-order': 3, 'x-group': 'condition',
      properties: {
        operator: { type: 'string', enum: WATCHER_CONDITIONS, default: '>', 'x-widget': 'enum' },
        kind: { type: 'string', enum: THRESHOLD_KINDS, default: 'number', 'x-widget': 'enum' },
        value: { type: ['number', 'string', 'boolean', 'null'], maxLength: 200, pattern: NO_NUL, minimum: -1e12, maximum: 1e12, 'x-conditional': true },
        value_to: { type: ['number', 'string', 'null'], maxLength: 200, pattern: NO_NUL, minimum: -1e12, maximum: 1e12, 'x-conditional': true },
      },
      allOf: [
        ...thresholdValue('value'),
        // between takes two values of the same kind
        { if: { required: ['operator'], properties: { operator: { const: 'between' } } }, then: { required: ['value_to'] } },
        { if: { required: ['operator', 'kind'], properties: { operator: { const: 'between' }, kind: { const: 'date' } } }, then: { properties: { value_to: { type: 'string', format: 'date-time', 'x-widget': 'datetime' } } } },
        { if: { required: ['operator', 'kind'], properties: { operator: { const: 'between' }, kind: { const: 'number' } } }, then: { properties: { value_to: { type: 'number', 'x-widget': 'number' } } } },
      ],
    },
    definition: {
      type: 'object', additionalProperties: false, 'x-order': 6, 'x-group': 'notification',
      properties: {
        severity: { type: 'string', enum: WATCHER_SEVERITIES, default: 'warning', 'x-widget': 'enum' },
        email_body: longText,
      },
    },
    entity_ids: { ...entityIds, 'x-order': 4 },
    entity_type_ids: { ...entityTypeIds, 'x-order': 5 },
    interval: { ...integer(10, 86_400), default: 60, 'x-order': 7, 'x-column': true, 'x-sort': true },
    // The condition must hold this long (seconds) before the watch alerts; 0 alerts at once.
    for_seconds: { ...integer(0, 86_400), default: 0, 'x-order': 8 },
    status: { ...status, 'x-order': 9 },
    alert: { type: 'boolean', default: false, readOnly: true, 'x-column': true, 'x-tags': { true: 'error', false: 'success' }, 'x-filter': true },
    triggered_at: { ...timestamp, type: ['string', 'null'], 'x-column': true, 'x-sort': true },
    result: { readOnly: true },
    last_updated_by: lastUpdatedBy,
    updated_at: { ...timestamp, 'x-sort': true },
  },
} as const;
export type Watcher = FromSchema<typeof watcherSchema>;
