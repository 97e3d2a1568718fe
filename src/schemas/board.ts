// Performance board: a named grid of components, seen by its owner and the users it is shared
// with (SPEC §3, §6). Its answers say what the reader may do with it: `is_owner`, `scopes`.
import type { FromSchema } from 'json-schema-to-ts';
import { BOARD_SCOPES } from './enums.ts';
import { attributes, groupIds, multilingualText, recordId, timestamp, uuid } from './fields.ts';

const module = ['performance-dashboard'] as const;

/** What a board's answer tells its reader besides the board: the tenant, the key it is shared by, and what the reader may do. */
export const boardReaderFields = {
  tenant_id: { ...uuid, readOnly: true },
  /** What share_board names as the `resource`. */
  resource_uuid: { ...uuid, readOnly: true },
  is_owner: { type: 'boolean', readOnly: true },
  /** ["owner"], ["view", "edit"] or ["view"]: what the reader may do with the board. */
  scopes: {
    type: 'array', readOnly: true, maxItems: 3, items: { type: 'string', enum: BOARD_SCOPES },
    'x-column': true, 'x-tags': { owner: 'gold', edit: 'blue', view: 'default' },
  },
} as const;

export const boardSchema = {
  $id: 'board',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  'x-access': {
    read: { modules: module },
    create: { modules: module, permission: 'performance.board.create' },
    update: { modules: module, permission: 'performance.board.edit' },
    delete: { modules: module, permission: 'performance.board.delete' },
  },
  'x-api': {
    rest: { list: '/board-list' },
    graphql: { list: 'board_list', one: 'board', create: 'create_board', update: 'update_board', delete: 'delete_board' },
    listArguments: { group: 'group_ids' },
  },
  'x-title': 'name',
  'x-default-sort': { field: 'id', order: 'asc' },
  properties: {
    id: recordId,
    name: { ...multilingualText, 'x-column': true, 'x-search': true, 'x-order': 1 },
    description: { ...multilingualText, minProperties: 0, 'x-column': true, 'x-order': 2 },
    group_ids: { ...groupIds, 'x-filter': true, 'x-order': 3 },
    attributes: { ...attributes, 'x-order': 4 },
    created_at: { ...timestamp, 'x-column': true, 'x-sort': true },
    updated_at: timestamp,
    ...boardReaderFields,
  },
} as const;
export type Board = FromSchema<typeof boardSchema>;
