import { kpiSchema } from '../schemas/kpi.ts';
import { defineResource } from './defineResource.ts';

// The studio edits KPI definitions; the visual builder will reuse the same form.
export const kpiResource = { ...defineResource(kpiSchema, { route: '/studio/kpi', titleKey: 'routes.kpi', listErrorPrefix: 'GetKpiList' }), modules: ['factory-studio'] };
