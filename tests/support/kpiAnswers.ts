// KPI data answers for the chart tests: series of points in the shape GET /kpi-data answers.
import type { KpiDataAnswer } from '../../src/schemas/kpiDataQuery.ts';

type Series = KpiDataAnswer['series'][number];

export const HOUR_MS = 3_600_000;
export const START = Date.UTC(2026, 2, 28, 0, 0, 0);

export function series(values: number[], fields: Partial<Series> = {}): Series {
  return {
    item: 0, label: 'Power', key: 'power', aggregation: 'avg', entity_id: null,
    data: values.map((value, index) => ({ ts: new Date(START + index * HOUR_MS).toISOString(), value })),
    ...fields,
  };
}

export function answer(...list: Series[]): KpiDataAnswer {
  return {
    id: 1, timezone: 'UTC', interval: '1h',
    from: new Date(START).toISOString(), to: new Date(START + 24 * HOUR_MS).toISOString(),
    series: list,
  };
}
