// Notification rule of one user: which logs reach them, through which channels (SPEC §3).
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { LOG_SOURCES, LOG_TYPES, NOTIFICATION_CHANNELS } from './enums.ts';
import { recordId, uuid } from './fields.ts';

export const notificationSchema = {
  $id: 'notification',
  type: 'object',
  additionalProperties: false,
  required: ['channels', 'log_filter'],
  // Every signed-in user manages their own rules (x-owner): nobody sees another's.
  'x-access': { read: {}, create: {}, update: {}, delete: {} },
  'x-owner': 'user_uuid',
  'x-api': {
    rest: { list: '/notification-list' },
    graphql: { one: 'notification', create: 'create_notification', update: 'update_notification', delete: 'delete_notification' },
  },
  'x-default-sort': { field: 'id', order: 'asc' },
  properties: {
    id: recordId,
    user_uuid: { ...uuid, readOnly: true },
    active: { type: 'boolean', default: true, 'x-widget': 'switch', 'x-column': true, 'x-tags': { true: 'green', false: 'default' }, 'x-order': 1 },
    channels: {
      type: 'array', minItems: 1, maxItems: NOTIFICATION_CHANNELS.length, uniqueItems: true, default: ['email'], 'x-widget': 'enum-multiple', 'x-column': true, 'x-order': 2,
      items: { type: 'string', enum: NOTIFICATION_CHANNELS },
    },
    log_filter: {
      type: 'object', additionalProperties: false, required: ['type'], 'x-order': 3, 'x-group': 'filter',
      properties: {
        type: { type: 'array', minItems: 1, maxItems: LOG_TYPES.length, uniqueItems: true, default: ['error'], 'x-widget': 'enum-multiple', items: { type: 'string', enum: LOG_TYPES } },
        sources: {
          type: 'array', maxItems: 50, default: [],
          items: {
            type: 'object', additionalProperties: false, required: ['model_name'],
            properties: { model_name: { type: 'string', enum: LOG_SOURCES, 'x-widget': 'enum' }, model_id: { ...idSchema, 'x-widget': 'number' } },
          },
        },
      },
    },
  },
} as const;
export type Notification = FromSchema<typeof notificationSchema>;
