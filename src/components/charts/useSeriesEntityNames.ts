// The names of the entities a KPI answer's per-entity series belong to, in the interface
// language, read through refine (GET /entity-list?ids=…) for the chart's legend and tooltips.
import { useList } from '@refinedev/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';
import type { KpiDataAnswer } from '../../schemas/kpiDataQuery.ts';

export function useSeriesEntityNames(answer: KpiDataAnswer | undefined): Record<number, string> | undefined {
  const { i18n } = useTranslation();
  const ids = useMemo(
    () => [...new Set((answer?.series ?? []).flatMap((series) => (series.entity_id === null || series.entity_id === undefined ? [] : [series.entity_id])))].sort((a, b) => a - b),
    [answer],
  );
  const { result } = useList<EntityJson>({
    resource: 'entities',
    filters: [{ field: 'ids', operator: 'eq', value: ids }],
    pagination: { mode: 'off' },
    errorNotification: false,
    queryOptions: { enabled: ids.length > 0, staleTime: 60_000 },
  });
  return useMemo(
    () => (result.data?.length ? Object.fromEntries(result.data.map((entity) => [entity.id, pickLocalized(entity.name, i18n.language) || `#${entity.id}`])) : undefined),
    [result.data, i18n.language],
  );
}
