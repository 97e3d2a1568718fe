import { schedulerSchema } from '../schemas/scheduler.ts';
import { defineResource } from './defineResource.ts';

export const schedulerResource = defineResource(schedulerSchema, { route: '/studio/scheduler', titleKey: 'routes.scheduler' });
