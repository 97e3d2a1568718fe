// share_user_list(kind): the users a board of a kind may be shared with (the tenant's other users
// holding the kind's module), readable by whoever may share such a board — a board's owner needs
// no `users.list` to pick whom to share it with.
import type { FromSchema } from 'json-schema-to-ts';
import { BOARD_KIND_NAMES } from './enums.ts';

/** Each kind's module and the permission sharing its boards needs (the share models' create rule). */
export const SHARE_USER_KINDS = {
  performance: { module: 'performance-dashboard', permission: 'performance.board.edit' },
  public_api: { module: 'public-api-dashboard', permission: 'public-api.board.edit' },
} as const;

export const shareUserArgsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: { kind: { type: 'string', enum: BOARD_KIND_NAMES } },
} as const;
export type ShareUserArgs = FromSchema<typeof shareUserArgsSchema>;
