// KPI definition: what to aggregate (the query list) and how to chart it (SPEC §3). The visual
// KPI builder edits the same schema.
import type { FromSchema } from 'json-schema-to-ts';
import { MODULES } from './modules.ts';
import { CALENDAR_TIME_RANGES, CHART_TYPES, COMPARE_SHIFTS, KPI_AGGREGATIONS, ROLLING_TIME_RANGES } from './enums.ts';
import { attributes, colour, dateTime, entityIds, entityTypeIds, groupIds, integer, multilingualText, recordId, text, timestamp, uuid } from './fields.ts';

const readModules = ['factory-dashboard', 'factory-studio', 'performance-dashboard', 'public-api-dashboard'] as const;
const write = { modules: ['factory-studio'] } as const;
const Y_AXES = ['left', 'right'] as const;
const bound = { type: 'number', minimum: -1e12, maximum: 1e12, 'x-widget': 'number' } as const;

export const kpiSchema = {
  $id: 'kpi',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'query', 'definition'],
  'x-access': { read: { modules: readModules }, create: write, update: write, delete: write },
  'x-api': {
    rest: { list: '/kpi-list' },
    graphql: { list: 'kpi_list', one: 'kpi', create: 'create_kpi', update: 'update_kpi', delete: 'delete_kpi' },
    listArguments: { group: 'group_ids' },
  },
  'x-title': 'name',
  'x-default-sort': { field: 'id', order: 'asc' },
  properties: {
    id: recordId,
    tenant_id: { ...uuid, readOnly: true },
    name: { ...multilingualText, 'x-column': true, 'x-search': true, 'x-order': 1 },
    category: { ...text(100), 'x-column': true, 'x-filter': true, 'x-sort': true, 'x-order': 2 },
    module: { type: 'string', enum: MODULES, default: 'factory-dashboard', 'x-widget': 'enum', 'x-filter': true, 'x-order': 3 },
    group_ids: { ...groupIds, 'x-filter': true, 'x-order': 4 },
    attributes: { ...attributes, 'x-order': 20 },
    query: {
      type: 'array', minItems: 1, maxItems: 20, 'x-order': 5, 'x-group': 'query',
      items: {
        type: 'object', additionalProperties: false, required: ['key', 'aggregation'],
        properties: {
          label: text(100),
          key: { ...text(100), minLength: 1, 'x-widget': 'telemetry-key' },
          aggregation: { type: 'string', enum: KPI_AGGREGATIONS, default: 'avg', 'x-widget': 'enum' },
          entity_ids: entityIds,
          entity_type_ids: entityTypeIds,
          // This item's value axis; left empty, the chart's (definition.y_axis). Items on both sides
          // give a chart two value axes, each scaled to its own series.
          y_axis: { type: 'string', enum: Y_AXES, 'x-widget': 'enum' },
        },
      },
    },
    definition: {
      type: 'object', additionalProperties: false, required: ['chart'], 'x-order': 6, 'x-group': 'chart',
      properties: {
        chart: { type: 'string', enum: CHART_TYPES, default: 'line', 'x-widget': 'enum' },
        legend: { type: 'boolean', default: true, 'x-widget': 'switch' },
        height: { ...integer(100, 2000), default: 300 },
        width: { ...integer(1, 24), default: 24 },
        time_interval: { type: 'string', enum: ['1m', '5m', '15m', '1h', '1d', '1w', '1M'], default: '1h', 'x-widget': 'enum' },
        // Rolling (ending now) or calendar (a whole day, week, month or year in the reader's zone).
        // Precedence: date_range > a calendar time_range > floating_start > a rolling time_range.
        time_range: { type: 'string', enum: [...ROLLING_TIME_RANGES, ...CALENDAR_TIME_RANGES], default: '24h', 'x-widget': 'enum' },
        time_shift: integer(-8760, 8760),
        // A fixed range instead of the rolling time_range: both ends, from before to (checked on
        // save by the KPI rules and on read; left empty, the rolling range applies).
        date_range: { type: 'object', additionalProperties: false, properties: { from: dateTime, to: dateTime } },
        // The range starts at the start of the current day, week (Monday), month or year in the
        // reader's time zone and ends now; `none` keeps the rolling time_range.
        floating_start: { type: 'string', enum: ['none', 'day', 'week', 'month', 'year'], default: 'none', 'x-widget': 'enum' },
        // With a floating start, the whole period (to the end of the day, week, month or year) rather than until now.
        floating_window: { type: 'boolean', default: false },
        // One series per query item over all its entities, or one per query item and entity.
        series: { type: 'string', enum: ['aggregated', 'per_entity'], default: 'aggregated', 'x-widget': 'enum' },
        // One comparison series (SPEC §5): the same query over an earlier range, drawn over this one.
        compare: {
          type: 'object', additionalProperties: false,
          properties: {
            compare_shift: { type: 'string', enum: COMPARE_SHIFTS, default: 'none', 'x-widget': 'enum' },
            compare_by: { ...integer(1, 100), 'x-conditional': true },
            compare_from: { ...dateTime, 'x-conditional': true },
          },
          allOf: [
            { if: { required: ['compare_shift'], properties: { compare_shift: { enum: ['days', 'weeks', 'months', 'years'] } } }, then: { required: ['compare_by'] } },
            { if: { required: ['compare_shift'], properties: { compare_shift: { const: 'date' } } }, then: { required: ['compare_from'] } },
          ],
        },
        refresh_interval: { ...integer(0, 86_400), default: 60 },
        page_size: integer(1, 100),
        y_axis: { type: 'string', enum: Y_AXES, default: 'left', 'x-widget': 'enum' },
        decimals: { ...integer(0, 10), default: 1 },
        split_number: integer(1, 50),
        timezone_shift: { type: 'boolean', default: false, 'x-widget': 'switch' },
        max: { ...bound, 'x-conditional': true },
        // Ranges [from, to) of a property's values with their colour (SPEC §5); the rules that
        // compare ranges are colourMapping.ts's, checked on save by the KPI rules and the form.
        colour_mapping: {
          type: 'array', maxItems: 20, default: [],
          items: {
            type: 'object', additionalProperties: false, required: ['color', 'measure', 'property', 'label'],
            allOf: [{ required: ['from', 'to'], 'x-errors': { required: 'KPI_CONDITIONS_EMPTY' } }],
            properties: {
              from: { ...bound, 'x-order': 1 },
              to: { ...bound, 'x-order': 2 },
              color: { ...colour, 'x-order': 3 },
              property: { ...text(100), minLength: 1, 'x-order': 4 },
              measure: { ...text(20), minLength: 1, 'x-order': 5 },
              label: { ...text(100), minLength: 1, 'x-order': 6 },
            },
          },
        },
        out_of_bounds_color: colour,
      },
      allOf: [{ if: { required: ['chart'], properties: { chart: { const: 'gauge' } } }, then: { required: ['max'] } }],
    },
    group: { type: ['object', 'null'], readOnly: true },
    updated_at: { ...timestamp, 'x-column': true, 'x-sort': true },
  },
} as const;
export type Kpi = FromSchema<typeof kpiSchema>;
