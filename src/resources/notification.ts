import { notificationSchema } from '../schemas/notification.ts';
import { defineResource } from './defineResource.ts';

export const notificationResource = defineResource(notificationSchema, { route: '/profile/notifications', titleKey: 'routes.notifications', settings: true });
