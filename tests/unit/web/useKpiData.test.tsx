// useKpiData: what it asks the data provider for (GET /kpi-data, POST /kpi-preview for a draft),
// polling, and what a failed read becomes — 'Bad kpi_data' with one toast per distinct failure, a
// 404 NO_KPI_DATA the empty chart.
import { Refine, type CustomParams, type DataProvider, type NotificationProvider, type OpenNotificationParams } from '@refinedev/core';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { useKpiData, type KpiDataRequest } from '../../../src/components/charts/useKpiData.ts';
import { ApiHttpError } from '../../../src/providers/httpError.ts';
import { answer, series } from '../../support/kpiAnswers.ts';

beforeAll(async () => {
  await setUpI18n('facility').changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A data provider whose `custom` answers with `reply` (or throws it) and records each call. */
function harness(reply: (call: CustomParams, index: number) => unknown) {
  const calls: CustomParams[] = [];
  const toasts: OpenNotificationParams[] = [];
  const dataProvider = {
    getApiUrl: () => '',
    getList: async () => ({ data: [], total: 0 }),
    custom: async (call: CustomParams) => {
      calls.push(call);
      const result = reply(call, calls.length - 1);
      if (result instanceof Error) throw result;
      return { data: result };
    },
  } as unknown as DataProvider;
  const notificationProvider: NotificationProvider = { open: (params) => toasts.push(params), close: () => {} };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <Refine dataProvider={dataProvider} notificationProvider={notificationProvider} options={{ reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } } }}>{children}</Refine>
  );
  return { calls, toasts, wrapper };
}

const request = (fields: Partial<KpiDataRequest>): KpiDataRequest => ({ maxPoints: 640, refreshSeconds: 0, enabled: true, ...fields });

describe('useKpiData', () => {
  it('reads a saved KPI with GET /kpi-data: id, entity_ids, the KPI\'s zone and max_points', async () => {
    const data = answer(series([1]));
    const { calls, wrapper } = harness(() => data);
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'Europe/Bratislava' } as Intl.ResolvedDateTimeFormatOptions);
    const { result } = renderHook(() => useKpiData(request({ id: 42, entityIds: [3, 5], definition: { timezone_shift: true }, maxPoints: 1 })), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual(data));
    expect(calls[0]).toMatchObject({ url: '/kpi-data', method: 'get', query: { id: 42, entity_ids: '3,5', timezone: 'Europe/Bratislava', max_points: 3 } });
    expect(result.current.error).toBeUndefined();
  });

  it('draws a draft with POST /kpi-preview: its query and definition, UTC without timezone shift', async () => {
    const { calls, wrapper } = harness(() => answer(series([1])));
    const draft = { query: [{ key: 'power', aggregation: 'avg' as const }], definition: { chart: 'line' as const } };
    const { result } = renderHook(() => useKpiData(request({ draft, maxPoints: 50_000 })), { wrapper });
    await waitFor(() => expect(result.current.data).toBeTruthy());
    expect(calls[0]).toMatchObject({ url: '/kpi-preview', method: 'post', payload: { ...draft, timezone: 'UTC', max_points: 10_000 } });
  });

  it('asks nothing while not enabled', async () => {
    const { calls, wrapper } = harness(() => answer());
    const { result } = renderHook(() => useKpiData(request({ id: 1, enabled: false })), { wrapper });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(0);
    expect(result.current.loading).toBe(false);
  });

  it('polls every refreshSeconds while visible, and not while hidden', async () => {
    const { calls, wrapper } = harness(() => answer(series([1])));
    const { rerender } = renderHook((props: { visible: boolean }) => useKpiData(request({ id: 1, refreshSeconds: 1, visible: props.visible })), { wrapper, initialProps: { visible: true } });
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2), { timeout: 2_500 });
    rerender({ visible: false });
    const seen = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls.length).toBe(seen);
  });

  it('turns a failed read into "Bad kpi_data" with one toast, however often the poll fails alike', async () => {
    const { calls, toasts, wrapper } = harness(() => new ApiHttpError('Too many requests at once. Try again in a moment.', 429, 'TOO_MANY_REQUESTS'));
    const { result } = renderHook(() => useKpiData(request({ id: 1, refreshSeconds: 1 })), { wrapper });
    await waitFor(() => expect(result.current.error).toBe('Bad kpi_data'));
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(3), { timeout: 3_500 });
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ type: 'error', message: 'Bad kpi_data', description: 'Too many requests at once. Try again in a moment.' });
  });

  it('toasts again for a different failure', async () => {
    const { toasts, wrapper } = harness((_call, index) => new ApiHttpError(index === 0 ? 'first' : 'second', 503, 'UNAVAILABLE'));
    renderHook(() => useKpiData(request({ id: 1, refreshSeconds: 1 })), { wrapper });
    await waitFor(() => expect(toasts.map((toast) => toast.description)).toEqual(['first', 'second']), { timeout: 2_500 });
  });

  it('takes 404 NO_KPI_DATA for an empty answer, not an error', async () => {
    const { toasts, wrapper } = harness(() => new ApiHttpError('No KPI data found', 404, 'NO_KPI_DATA'));
    const { result } = renderHook(() => useKpiData(request({ id: 99 })), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual({ series: [] }));
    expect(result.current.error).toBeUndefined();
    expect(toasts).toHaveLength(0);
  });
});
