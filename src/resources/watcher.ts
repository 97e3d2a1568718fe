import { watcherSchema } from '../schemas/watcher.ts';
import { defineResource } from './defineResource.ts';

export const watcherResource = defineResource(watcherSchema, { route: '/watcher', titleKey: 'routes.watcher' });
