// What every chart type builds on: a KPI's answer as named series and rows, their colours and the
// KPI's number and time formats. Pure, so the configs built on it are tested without drawing.
import type { KpiDataAnswer } from '../../schemas/kpiDataQuery.ts';
import { chartRows, drawnSeries, type DrawnSeries } from './chartSeries.ts';
import { seriesColours, valueColour } from './chartColours.ts';
import { axisTimeFormatter, timeFormatter, valueFormatter } from './chartFormat.ts';
import { kpiTimeZone } from './kpiTimeZone.ts';
import type { ChartContext, ChartMarker, ChartRow, KpiDefinition, KpiQueryItem } from './kpiTypes.ts';

export const DEFAULT_CHART_HEIGHT = 300;
export const DEFAULT_PAGE_SIZE = 10;

export interface ChartModel {
  definition: KpiDefinition;
  series: DrawnSeries[];
  rows: ChartRow[];
  /** Series name → its colour (the legend's). */
  colours: Map<string, string>;
  formatValue: (value: number) => string;
  formatTime: (time: Date | string | number) => string;
  /** A time axis tick: as short as the buckets allow. */
  formatAxisTime: (time: Date | string | number) => string;
  /** A point's colour: the mapping's for its value, else its series'. */
  pointColour: (row: ChartRow) => string;
  /** The value axis' fixed range, when the caller gives one. */
  valueDomain?: readonly [number, number];
  markers: readonly ChartMarker[];
  /** The zone its times are shown in (a time line's ticks fall on its whole hours and days). */
  timeZone: string;
}

/** `query` is the KPI's query list: each item's y_axis, else the chart's, places its series. */
export function chartModel(definition: KpiDefinition, answer: KpiDataAnswer | undefined, context: ChartContext, query: readonly KpiQueryItem[] = []): ChartModel {
  const series = drawnSeries(answer, context, (item) => query[item]?.y_axis ?? definition.y_axis ?? 'left');
  const colours = seriesColours(series);
  const timeZone = context.timeZone ?? kpiTimeZone(definition);
  return {
    definition,
    series,
    rows: chartRows(series),
    colours,
    formatValue: valueFormatter(context.language, definition.decimals),
    formatTime: timeFormatter(context.language, timeZone),
    formatAxisTime: axisTimeFormatter(context.language, timeZone, answer),
    pointColour: (row) => valueColour(row.value, definition, row.key) ?? colours.get(row.series) ?? '#000000',
    valueDomain: context.valueDomain,
    markers: context.markers ?? [],
    timeZone,
  };
}
