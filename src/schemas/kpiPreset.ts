// KPI preset: which KPIs one user's dashboard shows, in which order (the order of `items`) and how
// wide (SPEC §3 "Dashboard state: … KPI list and presets"). Kept on the server per user and module;
// a KPI deleted from the tenant is taken out of every preset (the KPI rules, in the same transaction).
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { integer, recordId, timestamp, uuid } from './fields.ts';
import { DASHBOARD_MODULES } from './modules.ts';

/** The widest KPI widget: the dashboard's grid has 24 columns (SPEC §3: 24 = 100%, 12 = 50%). */
export const KPI_PRESET_COLUMNS = 24;
export const KPI_PRESET_MAX_ITEMS = 50;

// The operator keeps their own preset though they cannot edit KPIs: any user of the map dashboard.
const dashboardUsers = { modules: ['factory-dashboard'] } as const;

export const kpiPresetSchema = {
  $id: 'kpi_preset',
  type: 'object',
  additionalProperties: false,
  // Every row is the caller's own (x-owner): nobody sees or changes another user's preset.
  'x-access': { read: dashboardUsers, create: dashboardUsers, update: dashboardUsers, delete: dashboardUsers },
  'x-owner': 'user_uuid',
  'x-api': {
    rest: { list: '/kpi-preset-list' },
    graphql: { list: 'kpi_preset_list', one: 'kpi_preset', create: 'create_kpi_preset', update: 'update_kpi_preset', delete: 'delete_kpi_preset' },
  },
  'x-default-sort': { field: 'id', order: 'asc' },
  properties: {
    id: recordId,
    user_uuid: { ...uuid, readOnly: true },
    // One preset per user and dashboard (unique in the table: kpi_presets_user_module_unique).
    module: { type: 'string', enum: DASHBOARD_MODULES, default: 'factory-dashboard', 'x-widget': 'enum', 'x-column': true, 'x-filter': true, 'x-order': 1 },
    items: {
      type: 'array', maxItems: KPI_PRESET_MAX_ITEMS, default: [], 'x-order': 2,
      items: {
        type: 'object', additionalProperties: false, required: ['kpi_id'],
        properties: {
          kpi_id: { ...idSchema, 'x-widget': 'number', 'x-order': 1 },
          width: { ...integer(1, KPI_PRESET_COLUMNS), default: 12, 'x-order': 2 },
        },
      },
    },
    updated_at: { ...timestamp, 'x-column': true, 'x-sort': true },
  },
} as const;
export type KpiPreset = FromSchema<typeof kpiPresetSchema>;
