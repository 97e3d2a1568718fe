import { logSchema } from '../schemas/log.ts';
import { defineResource } from './defineResource.ts';

export const logResource = defineResource(logSchema, { route: '/logs', titleKey: 'routes.logs', detail: 'drawer', bulkField: 'status' });
