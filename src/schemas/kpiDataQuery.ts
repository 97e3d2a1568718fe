// GET /kpi-data (SPEC §7 Reads): its query parameters and its answer (docs/api.md "KPI data").
import type { FromSchema } from 'json-schema-to-ts';
import { idListSchema, idSchema } from './bounds.ts';
import { KPI_AGGREGATIONS } from './enums.ts';

/**
 * An IANA time zone: `UTC` or an Area/Location name (`Europe/Bratislava`, `Etc/GMT+5`). Names
 * without a slash are left out on purpose: PostgreSQL reads some of them (`CET`, `EET`) as fixed
 * abbreviations while the tz database gives them summer time.
 */
export const TIME_ZONE_PATTERN = '^(UTC|[A-Za-z][A-Za-z_-]{0,30}(/[A-Za-z0-9_+-]{1,30}){1,2})$';

/** The most points a series of /kpi-data holds. */
export const MAX_POINTS_PER_SERIES = 10_000;

export const kpiDataQuerySchema = {
  $id: 'kpiDataQuery',
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: idSchema,
    /** Narrows the KPI's entities to these (comma-separated ids). */
    entity_ids: idListSchema,
    timezone: { type: 'string', minLength: 3, maxLength: 64, pattern: TIME_ZONE_PATTERN, default: 'UTC' },
    /** Points per series, at most (a chart sends its width in pixels): longer series are cut to their shape (LTTB). */
    max_points: { type: 'integer', minimum: 3, maximum: MAX_POINTS_PER_SERIES, default: MAX_POINTS_PER_SERIES },
  },
} as const;
export type KpiDataQuery = FromSchema<typeof kpiDataQuerySchema>;

export const kpiDataAnswerSchema = {
  type: 'object',
  required: ['id', 'timezone', 'interval', 'from', 'to', 'series'],
  properties: {
    id: idSchema,
    timezone: { type: 'string' },
    interval: { type: 'string' },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    /** The compared range (definition.compare), when the KPI has one. */
    compare_from: { type: 'string', format: 'date-time' },
    compare_to: { type: 'string', format: 'date-time' },
    series: {
      type: 'array',
      items: {
        type: 'object',
        required: ['item', 'label', 'key', 'aggregation', 'entity_id', 'data'],
        properties: {
          /** The index of the query item the series answers (its y_axis, its label). */
          item: { type: 'integer' },
          label: { type: 'string' },
          key: { type: 'string' },
          aggregation: { type: 'string', enum: KPI_AGGREGATIONS },
          entity_id: { type: ['integer', 'null'] },
          /** The comparison series of the one before it: its points moved onto the chart's range. */
          compare: { type: 'boolean' },
          /** More buckets than max_points: the points kept are LTTB's choice of them. */
          downsampled: { type: 'boolean' },
          data: {
            type: 'array',
            items: {
              type: 'object', required: ['ts', 'value'],
              properties: { ts: { type: 'string', format: 'date-time' }, value: { type: 'number' }, source_ts: { type: 'string', format: 'date-time' } },
            },
          },
        },
      },
    },
  },
} as const;
export type KpiDataAnswer = FromSchema<typeof kpiDataAnswerSchema>;
