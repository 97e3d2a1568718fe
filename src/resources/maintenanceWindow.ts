import { maintenanceWindowSchema } from '../schemas/maintenanceWindow.ts';
import { defineResource } from './defineResource.ts';

export const maintenanceWindowResource = defineResource(maintenanceWindowSchema, { route: '/maintenance', titleKey: 'routes.maintenanceMode', listPageAction: 'create' });
