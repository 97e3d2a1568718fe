// GET /kpi-data (docs/api.md "KPI data"): a KPI's time series. Parameters that do not fit the
// schema answer 400 `BAD_KPI_DATA` 'Bad kpi_data' (SPEC §8), naming the parameter.
// POST /kpi-preview: an unsaved KPI's series for the builder; its body is checked like a KPI
// being saved (the KPI schema's fields: 400 VALIDATION or the schema's codes, naming the field).
import type { FastifyInstance } from 'fastify';
import { kpiDataAnswerSchema, kpiDataQuerySchema, type KpiDataQuery } from '../../src/schemas/kpiDataQuery.ts';
import { kpiPreviewAnswerSchema, kpiPreviewBodySchema, MAX_PREVIEW_BODY_BYTES, type KpiPreviewBody } from '../../src/schemas/kpiPreview.ts';
import { authorizeKpiData, authorizeKpiPreview, badKpiData, type KpiDataService } from '../telemetry/kpiData.ts';
import { callerFrom } from './authenticate.ts';
import { bodySchema, errorResponses } from './openapi.ts';
import { checkAccessFirst } from './routeAccess.ts';

export function kpiDataRoutes(app: FastifyInstance, kpiData: KpiDataService) {
  app.get<{ Querystring: KpiDataQuery }>('/kpi-data', {
    onRequest: checkAccessFirst(authorizeKpiData),
    schema: {
      tags: ['kpi'], summary: 'A KPI\'s time series, bucketed in a time zone', security: [{ bearer: [] }],
      querystring: bodySchema(kpiDataQuerySchema), response: { ...errorResponses, 200: kpiDataAnswerSchema },
    },
    attachValidation: true,
  }, async (request) => {
    const caller = callerFrom(request);
    if (request.validationError) {
      const [issue] = (request.validationError.validation ?? []) as { instancePath?: string; params?: Record<string, unknown> }[];
      const extra = issue?.params?.additionalProperty ?? issue?.params?.missingProperty;
      const field = typeof extra === 'string' ? extra : issue?.instancePath?.replace(/^\//, '') || undefined;
      throw badKpiData(field?.slice(0, 64));
    }
    return kpiData.series(caller, request.query);
  });

  app.post<{ Body: KpiPreviewBody }>('/kpi-preview', {
    onRequest: checkAccessFirst(authorizeKpiPreview),
    // a preview reads only: served during read-only maintenance
    config: { duringReadOnly: true },
    bodyLimit: MAX_PREVIEW_BODY_BYTES,
    schema: {
      tags: ['kpi'], summary: 'An unsaved KPI\'s time series (the KPI builder\'s preview)', security: [{ bearer: [] }],
      body: kpiPreviewBodySchema, response: { ...errorResponses, 200: kpiPreviewAnswerSchema },
    },
  }, (request) => kpiData.preview(callerFrom(request), request.body));
}
