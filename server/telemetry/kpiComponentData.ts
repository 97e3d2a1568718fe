// A public-API KPI component's answer carries its KPI's stored query and current data (GET
// /kpi-data's computation, in UTC): an API client draws it without the KPI doors, which the public
// API does not offer. Nothing else of the KPI is told, and a KPI that is gone leaves both null.
import { MAX_POINTS_PER_SERIES } from '../../src/schemas/kpiDataQuery.ts';
import { ApiError } from '../errors.ts';
import type { AnswerCompletion, ResourceService } from '../resources/resourceService.ts';
import type { KpiDataService } from './kpiData.ts';

/** What a component's KPI cannot answer leaves it without data (a 4xx); anything else fails the read. */
const unlessRefused = <T>(read: Promise<T>): Promise<T | null> =>
  read.catch((error: unknown) => {
    if (error instanceof ApiError && error.statusCode < 500 && error.statusCode !== 429) return null;
    throw error;
  });

export function kpiComponentData(resources: ResourceService, kpiData: KpiDataService): AnswerCompletion {
  return async (caller, records) => {
    for (const record of records) {
      const kpiId = record.type === 'kpi' ? (record.definition as { kpi_id?: number } | undefined)?.kpi_id : undefined;
      const kpi = kpiId ? await unlessRefused(resources.get(caller, 'kpi', kpiId)) : null;
      record.query = kpi?.query ?? null;
      record.data = kpi ? await unlessRefused(kpiData.series(caller, { id: kpiId!, timezone: 'UTC', max_points: MAX_POINTS_PER_SERIES })) : null;
    }
  };
}
