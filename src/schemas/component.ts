// Board component: an iframe, image, KPI chart, rich text or video placed on boards (SPEC §3). It
// is reached through its boards: seen by whoever sees one of them, changed by whoever may edit one.
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { COMPONENT_TYPES } from './enums.ts';
import { integer, longText, name, recordId, timestamp } from './fields.ts';
import { mediaUrlSchema } from './mediaUrl.ts';

const module = ['performance-dashboard'] as const;

/** Rich text is kept as HTML, sanitised on every render (src/components/richtext/sanitizeHtml.ts). */
export const RICH_TEXT_MAX_LENGTH = 20_000;

/** A component's place on a grid of 24 columns (SPEC §9). */
const gridCell = {
  type: 'object', additionalProperties: false, required: ['x', 'y', 'w', 'h'],
  properties: { x: integer(0, 23), y: integer(0, 10_000), w: integer(1, 24), h: integer(1, 200) },
  examples: [{ x: 0, y: 0, w: 12, h: 8 }],
} as const;

/** The definition field a type needs (the form shows it while the type is chosen). */
const needs = (types: readonly (typeof COMPONENT_TYPES)[number][], field: string) => ({
  if: { required: ['type'], properties: { type: { enum: types } } },
  then: { required: ['definition'], properties: { definition: { allOf: [{ type: 'object', required: [field] }] } } },
}) as const;

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
    // what the type shows: the KPI (the tenant's), the URL (src/schemas/mediaUrl.ts; an image's or
    // a video's may be a file stored with the board, src/schemas/boardMedia.ts) or the HTML;
    // other keys stay free
    definition: {
      type: 'object', maxProperties: 50, default: {}, 'x-order': 4,
      properties: {
        kpi_id: { ...idSchema, 'x-widget': 'kpi', 'x-conditional': true },
        url: { ...mediaUrlSchema, 'x-widget': 'media-url', 'x-conditional': true },
        html: { type: 'string', maxLength: RICH_TEXT_MAX_LENGTH, 'x-widget': 'richtext', 'x-conditional': true },
      },
    },
    // {x, y, w, h} is the place on any screen; `breakpoints` the place on screens of one width
    // class, kept apart so that arranging a board on one does not move it on the others
    layout: {
      type: 'object', additionalProperties: false, default: { x: 0, y: 0, w: 12, h: 8 }, 'x-order': 5, 'x-form': false,
      properties: {
        ...gridCell.properties,
        breakpoints: { type: 'object', additionalProperties: false, properties: { lg: gridCell, md: gridCell, sm: gridCell } },
      },
    },
    board_ids: { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema, default: [], 'x-filter': true, 'x-order': 6, 'x-form': false },
    created_at: timestamp,
    updated_at: timestamp,
  },
  allOf: [needs(['kpi'], 'kpi_id'), needs(['image', 'video', 'iframe'], 'url'), needs(['richtext'], 'html')],
} as const;
export type Component = FromSchema<typeof componentSchema>;
