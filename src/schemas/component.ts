// Board component: an iframe, image, KPI chart, rich text or video placed on boards (SPEC §3). It
// is reached through its boards: seen by whoever sees one of them, changed by whoever may edit one.
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { COMPONENT_TYPES } from './enums.ts';
import { integer, longText, name, recordId, timestamp } from './fields.ts';

const module = ['performance-dashboard'] as const;

export const componentSchema = {
  $id: 'component',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type'],
  'x-access': {
    read: { modules: module },
    create: { modules: module, permission: 'performance.board.edit' },
    update: { modules: module, permission: 'performance.board.edit' },
    delete: { modules: module, permission: 'performance.board.edit' },
  },
  'x-api': {
    rest: { list: '/component-list' },
    graphql: { create: 'create_component', update: 'update_component', delete: 'delete_component' },
    listArguments: { board_id: 'board_ids' },
    deleteLinks: 'board_ids',
  },
  'x-title': 'name',
  properties: {
    id: recordId,
    name: { ...name, 'x-column': true, 'x-search': true, 'x-order': 1 },
    type: { type: 'string', enum: COMPONENT_TYPES, 'x-widget': 'enum', 'x-column': true, 'x-filter': true, 'x-order': 2 },
    description: { ...longText, 'x-order': 3 },
    // free JSON, but the KPI a kpi component shows is declared: it must be the tenant's
    definition: { type: 'object', maxProperties: 50, default: {}, 'x-widget': 'json', 'x-order': 4, properties: { kpi_id: idSchema } },
    layout: {
      type: 'object', additionalProperties: false, default: { x: 0, y: 0, w: 12, h: 8 }, 'x-order': 5,
      properties: { x: integer(0, 23), y: integer(0, 10_000), w: integer(1, 24), h: integer(1, 200) },
    },
    board_ids: { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema, default: [], 'x-filter': true, 'x-order': 6 },
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;
export type Component = FromSchema<typeof componentSchema>;
