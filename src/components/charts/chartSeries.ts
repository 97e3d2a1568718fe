// A /kpi-data answer as the series a chart draws: each with its one name (label or key, the
// entity's name for a per-entity series, the translated "(compared)" suffix for the comparison),
// and as rows of points. The comparison series stays a series of its own, never merged into the one it compares.
import type { KpiDataAnswer } from '../../schemas/kpiDataQuery.ts';
import type { ChartContext, ChartRow, KpiSeries, ValueAxis } from './kpiTypes.ts';

export interface DrawnSeries {
  name: string;
  /** The query item's label (else key), with the suffix for a comparison. */
  label: string;
  entity: string;
  entityId: number | null;
  key: string;
  compare: boolean;
  /** The value axis its query item is read on. */
  axis: ValueAxis;
  /** The name of the series a comparison compares (its own name for a main series). */
  mainName: string;
  data: KpiSeries['data'];
}

/** No series, or none with a point: the chart says 'No KPI data found'. */
export function isEmptyAnswer(answer: KpiDataAnswer | undefined): boolean {
  return !answer?.series?.some((series) => series.data.length > 0);
}

function entityNameOf(entityId: number | null, context: ChartContext): string {
  if (entityId === null || entityId === undefined) return '';
  return context.entityNames?.[entityId] ?? `#${entityId}`;
}

/** Makes a name unique among those already taken (two items with one label stay two series). */
function uniqueName(name: string, taken: Set<string>): string {
  let unique = name;
  for (let n = 2; taken.has(unique); n += 1) unique = `${name} (${n})`;
  taken.add(unique);
  return unique;
}

/** `axisOf` gives a query item's value axis (by its index); every series is on the left without it. */
export function drawnSeries(answer: KpiDataAnswer | undefined, context: ChartContext, axisOf: (item: number) => ValueAxis = () => 'left'): DrawnSeries[] {
  const taken = new Set<string>();
  const drawn: DrawnSeries[] = [];
  let lastMain: DrawnSeries | undefined;
  for (const series of answer?.series ?? []) {
    // the server names an unlabelled item by its key: that key reads in the interface language
    const label = !series.label || series.label === series.key ? context.attributeName?.(series.key) ?? series.key : series.label;
    const entity = entityNameOf(series.entity_id, context);
    const compare = series.compare === true;
    const ownName = entity ? `${label} · ${entity}` : label;
    const baseName = compare ? `${lastMain?.name ?? ownName} ${context.comparedSuffix}` : ownName;
    const name = uniqueName(baseName, taken);
    const item: DrawnSeries = {
      name, label: compare ? `${label} ${context.comparedSuffix}` : label, entity, entityId: series.entity_id ?? null, key: series.key, compare,
      axis: axisOf(series.item ?? 0),
      mainName: compare ? (lastMain?.name ?? name) : name, data: series.data,
    };
    if (!compare) lastMain = item;
    drawn.push(item);
  }
  return drawn;
}

export function chartRows(series: readonly DrawnSeries[]): ChartRow[] {
  return series.flatMap((item) => item.data.map((point): ChartRow => ({
    ts: point.ts,
    time: new Date(point.ts),
    value: point.value,
    series: item.name,
    label: item.label,
    entity: item.entity,
    entityId: item.entityId,
    key: item.key,
    compare: item.compare,
    axis: item.axis,
    ...(point.source_ts ? { sourceTime: new Date(point.source_ts) } : {}),
  })));
}

/** Whether the series are read on both value axes (a chart then draws two, each its own scale). */
export function usesBothAxes(series: readonly DrawnSeries[]): boolean {
  return series.some((item) => item.axis === 'left') && series.some((item) => item.axis === 'right');
}

/** The last value of the first main series (what a gauge shows), or undefined. */
export function lastValueOfFirstSeries(series: readonly DrawnSeries[]): number | undefined {
  const first = series.find((item) => !item.compare);
  return first?.data.at(-1)?.value;
}
