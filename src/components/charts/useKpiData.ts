// A KPI's data for its chart, through refine's data provider: a saved KPI by id (GET /kpi-data), a
// draft being edited by its query and definition (POST /kpi-preview). Polled every
// refreshSeconds (0: never) while the chart is visible — the caller's `visible` (useInView), and
// react-query pauses intervals while the page is hidden (document.visibilityState).
// A failed read: 'Bad kpi_data' inline and one error toast per distinct failure, not one per poll;
// 404 NO_KPI_DATA is no error: the chart shows 'No KPI data found'.
import { useCustom, useNotification, type HttpError } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPaths } from '../../resources/apiMap.ts';
import { MAX_POINTS_PER_SERIES, type KpiDataAnswer } from '../../schemas/kpiDataQuery.ts';
import { kpiTimeZone } from './kpiTimeZone.ts';
import type { KpiDefinition, KpiQueryItem } from './kpiTypes.ts';

const MIN_POINTS = 3;

export interface KpiDataRequest {
  /** A saved KPI. */
  id?: number;
  /** The saved KPI's definition: its timezone_shift chooses the zone the answer is in. */
  definition?: Pick<KpiDefinition, 'timezone_shift'>;
  /** A KPI being edited, drawn before it is saved. */
  draft?: { query: KpiQueryItem[]; definition: KpiDefinition };
  /** Only these of the KPI's entities. */
  entityIds?: number[];
  /** Points per series at most: the chart's width in pixels. */
  maxPoints: number;
  refreshSeconds: number;
  enabled: boolean;
  /** The chart is on screen (useInView); polling stops while it is not. */
  visible?: boolean;
}

export interface KpiDataState {
  data: KpiDataAnswer | undefined;
  loading: boolean;
  /** The text to show instead of the chart. */
  error: string | undefined;
}

/** An answer without series: what the chart draws for 404 NO_KPI_DATA. */
const NO_SERIES = { series: [] } as unknown as KpiDataAnswer;

const isNoKpiData = (error: HttpError | null): boolean =>
  error?.statusCode === 404 && (error as { code?: string }).code === 'NO_KPI_DATA';

export function useKpiData({ id, definition, draft, entityIds, maxPoints, refreshSeconds, enabled, visible = true }: KpiDataRequest): KpiDataState {
  const { t } = useTranslation();
  const { open } = useNotification();
  const timezone = kpiTimeZone(draft?.definition ?? definition);
  const max_points = Math.min(MAX_POINTS_PER_SERIES, Math.max(MIN_POINTS, Math.round(maxPoints)));
  const entity_ids = entityIds?.length ? entityIds.join(',') : undefined;
  const { query } = useCustom<KpiDataAnswer>({
    url: draft ? apiPaths.kpiPreview : apiPaths.kpiData,
    method: draft ? 'post' : 'get',
    config: draft
      ? { payload: { query: draft.query, definition: draft.definition, ...(entityIds?.length ? { entity_ids: entityIds } : {}), timezone, max_points } }
      : { query: { id, entity_ids, timezone, max_points } },
    errorNotification: false,
    queryOptions: {
      enabled: enabled && (draft !== undefined || id !== undefined),
      refetchInterval: refreshSeconds > 0 && visible ? refreshSeconds * 1000 : false,
      refetchIntervalInBackground: false,
    },
  });
  const error = query.error && !isNoKpiData(query.error) ? query.error : null;

  // one toast per distinct failure: a poll failing the same way again stays quiet
  const notified = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!error) {
      if (query.isSuccess) notified.current = undefined;
      return;
    }
    const failure = `${error.statusCode}:${(error as { code?: string }).code ?? ''}:${error.message}`;
    if (notified.current === failure) return;
    notified.current = failure;
    open?.({ type: 'error', key: `kpi-data-${id ?? 'draft'}`, message: t('charts.badData'), description: error.message });
  }, [error, query.isSuccess, open, t, id]);

  return {
    data: query.data?.data ?? (query.error && isNoKpiData(query.error) ? NO_SERIES : undefined),
    loading: query.isLoading,
    error: error ? t('charts.badData') : undefined,
  };
}
