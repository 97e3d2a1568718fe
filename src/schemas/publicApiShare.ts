// Share of a public-API board: as a performance board's share (share.ts), and the requester may be
// an API user of the tenant as well as a user.
import type { FromSchema } from 'json-schema-to-ts';
import { shareSchema } from './share.ts';

const module = ['public-api-dashboard'] as const;

export const publicApiShareSchema = {
  ...shareSchema,
  $id: 'public_api_share',
  'x-labels-of': 'share',
  'x-access': {
    read: { modules: module }, create: { modules: module, permission: 'public-api.board.edit' }, delete: { modules: module, permission: 'public-api.board.edit' },
  },
  'x-api': {
    graphql: {
      list: 'public_api_share_list', one: 'public_api_share', create: 'public_api_share_board', delete: 'public_api_remove_share_board',
      type: 'PublicApiShare', arguments: { scopeName: 'scope', ticket_id: 'id' },
    },
  },
} as const;
export type PublicApiShare = FromSchema<typeof publicApiShareSchema>;
