// Share of a board with another user: owner, requester and scope (SPEC §3, §6). `resource` is the
// board's resource_uuid, `requester` a user; both must be the caller's tenant's.
import type { FromSchema } from 'json-schema-to-ts';
import { SHARE_SCOPES } from './enums.ts';
import { recordId, uuid } from './fields.ts';

const module = ['performance-dashboard'] as const;
/** A user's or a board's UUID, in the form PostgreSQL reads (anything else would fail in SQL, not as a 400). */

export const shareSchema = {
  $id: 'share',
  type: 'object',
  additionalProperties: false,
  required: ['resource', 'scope', 'requester'],
  'x-access': {
    read: { modules: module }, create: { modules: module, permission: 'performance.board.edit' }, delete: { modules: module, permission: 'performance.board.edit' },
  },
  'x-owner': 'owner',
  'x-api': { graphql: { list: 'share_list' } },
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
