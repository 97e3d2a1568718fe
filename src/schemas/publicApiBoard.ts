// Public-API board: a board of its own kind, read and written by the public API's clients (API
// users) and by tenant users with the public-API dashboard (SPEC §3, §6, §7). It has the fields of
// a performance board and, for its reader, the share it reaches them by and its first group.
import type { FromSchema } from 'json-schema-to-ts';
import { boardSchema } from './board.ts';

const module = ['public-api-dashboard'] as const;

export const publicApiBoardSchema = {
  ...boardSchema,
  $id: 'public_api_board',
  'x-labels-of': 'board',
  'x-access': {
    read: { modules: module },
    create: { modules: module, permission: 'public-api.board.create' },
    update: { modules: module, permission: 'public-api.board.edit' },
    delete: { modules: module, permission: 'public-api.board.delete' },
  },
  'x-api': {
    rest: { list: '/public-api-board-list' },
    graphql: {
      list: 'public_api_board_list', one: 'public_api_board', create: 'public_api_create_board', update: 'public_api_update_board',
      delete: 'public_api_delete_board', type: 'PublicApiBoard',
    },
    listArguments: { group: 'group_ids' },
  },
  properties: {
    ...boardSchema.properties,
    /** The reader's share of the board (null for its owner): { id, owner, ownerName, requester, requesterName, scopeName }. */
    share: { type: ['object', 'null'], readOnly: true },
    /** The board's first group: { id, name, attributes }. */
    group: { type: ['object', 'null'], readOnly: true },
  },
} as const;
export type PublicApiBoard = FromSchema<typeof publicApiBoardSchema>;
