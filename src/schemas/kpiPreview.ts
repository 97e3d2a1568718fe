// POST /kpi-preview (docs/api.md "KPI data"): an unsaved KPI's series, for the KPI builder. The
// draft's `query` and `definition` are the KPI schema's own fields; the rest and the answer are
// GET /kpi-data's, without the KPI's id.
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';
import { kpiSchema } from './kpi.ts';
import { kpiDataAnswerSchema, kpiDataQuerySchema } from './kpiDataQuery.ts';

/** The largest preview body: a builder's draft is a few kB; 64 kB still holds thousands of entity ids. */
export const MAX_PREVIEW_BODY_BYTES = 64 * 1024;

export const kpiPreviewBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['query', 'definition'],
  properties: {
    query: kpiSchema.properties.query,
    definition: kpiSchema.properties.definition,
    /** Narrows the draft's entities to these (no default: absent means all of them). */
    entity_ids: { type: 'array', maxItems: 500, uniqueItems: true, items: idSchema },
    timezone: kpiDataQuerySchema.properties.timezone,
    max_points: kpiDataQuerySchema.properties.max_points,
  },
} as const;
export type KpiPreviewBody = FromSchema<typeof kpiPreviewBodySchema>;

const { id: _id, ...answerProperties } = kpiDataAnswerSchema.properties;
export const kpiPreviewAnswerSchema = {
  ...kpiDataAnswerSchema,
  required: kpiDataAnswerSchema.required.filter((field) => field !== 'id'),
  properties: answerProperties,
};
