// Public-API component: a component of public-API boards (/public-api-component-list?board_id=).
// A kpi component's answer carries its KPI's stored query and current data, so an API client
// draws it without reading KPIs itself, or reads why it has none.
import type { FromSchema } from 'json-schema-to-ts';
import { componentSchema } from './component.ts';

const module = ['public-api-dashboard'] as const;

export const publicApiComponentSchema = {
  ...componentSchema,
  $id: 'public_api_component',
  'x-labels-of': 'component',
  'x-access': {
    read: { modules: module },
    create: { modules: module, permission: 'public-api.board.edit' },
    update: { modules: module, permission: 'public-api.board.edit' },
    delete: { modules: module, permission: 'public-api.board.edit' },
  },
  'x-api': {
    rest: { list: '/public-api-component-list' },
    graphql: { create: 'public_api_create_component', update: 'public_api_update_component', delete: 'public_api_delete_component', type: 'PublicApiComponent' },
    listArguments: { board_id: 'board_ids' },
    deleteLinks: 'board_ids',
  },
  properties: {
    ...componentSchema.properties,
    /** A kpi component's KPI: its stored query list. */
    query: { type: ['array', 'null'], readOnly: true },
    /** A kpi component's KPI: its current data, as GET /kpi-data answers it (UTC). */
    data: { type: ['object', 'null'], readOnly: true },
    /** Why a kpi component carries no data (`{ code, message }`): its KPI could not be read or computed, or the answer had no more room. */
    data_error: { type: ['object', 'null'], readOnly: true },
  },
} as const;
export type PublicApiComponent = FromSchema<typeof publicApiComponentSchema>;
