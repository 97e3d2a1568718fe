// Scheduler: a single or periodic (cron) aggregation job writing a target attribute (SPEC §3).
import type { FromSchema } from 'json-schema-to-ts';
import { SCHEDULER_AGGREGATIONS, SCHEDULER_KINDS, SCHEDULER_RESULTS, SCHEDULER_TIME_SLOTS } from './enums.ts';
import { dateTime, entityIds, entityTypeIds, lastUpdatedBy, longText, name, number, recordId, status, text, timestamp } from './fields.ts';

export const COMPLEX_QUERY_PERMISSION = 'scheduler.complex_query';
const access = { modules: ['factory-studio'], permission: 'scheduler.*' } as const;

export const schedulerSchema = {
  $id: 'scheduler',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'definition'],
  'x-access': { read: access, create: access, update: access, delete: access },
  'x-api': {
    rest: { list: '/scheduler-list', create: '/create-scheduler', update: '/update-scheduler', delete: '/delete-scheduler' },
    graphql: { list: 'scheduler_list', one: 'scheduler' },
  },
  'x-title': 'name',
  'x-default-sort': { field: 'name', order: 'asc' },
  properties: {
    id: recordId,
    name: { ...name, 'x-column': true, 'x-search': true, 'x-sort': true, 'x-order': 1 },
    status: { ...status, 'x-order': 2 },
    definition: {
      type: 'object', additionalProperties: false, required: ['kind', 'aggregation', 'time_slot', 'target_attribute'], 'x-order': 3, 'x-group': 'job',
      properties: {
        kind: { type: 'string', enum: SCHEDULER_KINDS, default: 'periodic', 'x-widget': 'enum', 'x-order': 1 },
        run_at: { ...dateTime, 'x-conditional': true, 'x-order': 2 },
        expression: { type: 'string', format: 'cron', maxLength: 100, default: '0 6 * * 1', 'x-widget': 'cron', 'x-conditional': true, 'x-order': 3, 'x-errors': { format: 'CRON_INVALID' } },
        aggregation: {
          type: 'string', enum: SCHEDULER_AGGREGATIONS, default: 'avg', 'x-widget': 'enum', 'x-order': 4,
          'x-value-permissions': { 'complex-query': COMPLEX_QUERY_PERMISSION },
        },
        key: { ...text(100), 'x-conditional': true, 'x-order': 5 },
        value: { ...number(-1e12, 1e12), 'x-conditional': true, 'x-order': 6 },
        query: { ...longText, 'x-widget': 'complex-query', 'x-conditional': true, 'x-order': 7 },
        time_slot: { type: 'string', enum: SCHEDULER_TIME_SLOTS, default: 'last-week', 'x-widget': 'enum', 'x-order': 8 },
        target_attribute: { ...text(100), minLength: 1, 'x-order': 9 },
      },
      allOf: [
        { if: { required: ['kind'], properties: { kind: { const: 'single' } } }, then: { required: ['run_at'] } },
        { if: { required: ['kind'], properties: { kind: { const: 'periodic' } } }, then: { required: ['expression'] } },
        { if: { required: ['aggregation'], properties: { aggregation: { const: 'static-value' } } }, then: { required: ['value'] } },
        { if: { required: ['aggregation'], properties: { aggregation: { const: 'complex-query' } } }, then: { required: ['query'], properties: { query: { type: 'string', minLength: 1 } } } },
        {
          if: { required: ['aggregation'], properties: { aggregation: { enum: ['avg', 'latest-value', 'max', 'min', 'sum'] } } },
          then: { required: ['key'], properties: { key: { type: 'string', minLength: 1 } } },
        },
      ],
    },
    entity_ids: { ...entityIds, 'x-order': 4 },
    entity_type_ids: { ...entityTypeIds, 'x-order': 5 },
    next_run_at: { ...timestamp, type: ['string', 'null'], 'x-column': true, 'x-sort': true },
    result: { type: ['string', 'null'], enum: [...SCHEDULER_RESULTS, null], readOnly: true, 'x-column': true, 'x-tags': { ok: 'success', nok: 'error', null: 'default' } },
    last_updated_by: lastUpdatedBy,
    updated_at: { ...timestamp, 'x-sort': true },
    created_at: timestamp,
  },
} as const;
export type Scheduler = FromSchema<typeof schedulerSchema>;
