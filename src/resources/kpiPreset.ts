// A user's KPI presets: the dashboard's KPI widgets read and keep them through this resource (any
// user of the dashboard, the model's rule); the profile's settings list them to check, re-order or
// reset, for users with settings like the other settings pages (SPEC §2).
import { kpiPresetSchema } from '../schemas/kpiPreset.ts';
import { defineResource } from './defineResource.ts';

export const kpiPresetResource = defineResource(kpiPresetSchema, { route: '/profile/kpi-presets', titleKey: 'routes.kpiPresets', settings: true });
