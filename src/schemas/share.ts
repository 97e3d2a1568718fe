// Share of a board with another user: owner, requester and scope (SPEC §3, §6). `resource` is the
// board's resource_uuid, `requester` a user of the tenant; only the board's owner shares it, once
// per requester (sharing again changes the scope). A share is seen by its owner and its requester;
// the list answers the caller's own (SPEC §4), and either of them may remove it.
import type { FromSchema } from 'json-schema-to-ts';
import { SHARE_SCOPES } from './enums.ts';
import { recordId, uuid } from './fields.ts';

const module = ['performance-dashboard'] as const;

export const shareSchema = {
  $id: 'share',
  type: 'object',
  additionalProperties: false,
  required: ['resource', 'scope', 'requester'],
  'x-access': {
    read: { modules: module }, create: { modules: module, permission: 'performance.board.edit' }, delete: { modules: module, permission: 'performance.board.edit' },
  },
  'x-api': {
    // share_board(resource, requester, scopeName), remove_share_board(ticket_id): the ticket is the share's id
    graphql: { list: 'share_list', create: 'share_board', delete: 'remove_share_board', arguments: { scopeName: 'scope', ticket_id: 'id' } },
  },
  properties: {
    id: recordId,
    owner: { ...uuid, readOnly: true },
    resource: { ...uuid, 'x-widget': 'text', 'x-column': true },
    scope: { type: 'string', enum: SHARE_SCOPES, default: 'view', 'x-widget': 'enum', 'x-column': true },
    granted: { type: 'boolean', default: false, readOnly: true, 'x-column': true },
    requester: { ...uuid, 'x-widget': 'text', 'x-column': true },
  },
} as const;
export type Share = FromSchema<typeof shareSchema>;
