import { kpiSchema } from '../schemas/kpi.ts';
import { defineResource } from './defineResource.ts';

// The studio lists KPI definitions; creating and editing one is the KPI builder (the same schema
// form beside a live preview of the chart: src/pageTable.tsx).
export const kpiResource = {
  ...defineResource(kpiSchema, {
    route: '/studio/kpi', titleKey: 'routes.kpi', listErrorPrefix: 'GetKpiList',
  }),
  modules: ['factory-studio'],
};
