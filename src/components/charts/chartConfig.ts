// Which plot draws a chart type (SPEC §3): pure, so every type's choice is tested without drawing.
// The layouts (cartesianLayout.ts, roundLayout.ts) place its marks; KpiPlot draws them.
import { gaugeSegments, valueColour, type ColourSegment } from './chartColours.ts';
import type { ChartModel } from './chartModel.ts';
import { lastValueOfFirstSeries, usesBothAxes } from './chartSeries.ts';
import type { ChartType } from './kpiTypes.ts';

/**
 * columns: vertical bars side by side (stacked with `stacked`); bars: horizontal ones; lines: over
 * the buckets, or on a true time line with an area under (`timeLine`); pie (donut with `hole`); gauge.
 */
export type PlotKind = 'columns' | 'bars' | 'lines' | 'pie' | 'gauge';

export interface PlotConfig {
  plot: PlotKind;
  type: ChartType;
  model: ChartModel;
  stacked: boolean;
  timeLine: boolean;
  /** The donut's hole, as a share of its radius. */
  hole: number;
  /** 2 when the series are read on both value axes, each side its own scale. */
  valueAxes: 1 | 2;
  /** Series drawn, the comparison included. */
  seriesCount: number;
  /** Series the reader hid by their legend item: left out of the plot and its scales, kept in the legend. */
  hidden?: ReadonlySet<string>;
}

/** The comparison's dash, on lines and the outline of its lighter bars. */
export const COMPARE_DASH = '6 4';
/** How opaque a comparison's bars and slices are. */
export const COMPARE_OPACITY = 0.55;
export const DONUT_HOLE = 0.6;
/** Marked instants' lines and labels: dark grey on the white plot, above any series colour. */
export const MARKER_COLOUR = '#434343';
/** The most ticks a band axis (one category per bucket) labels: a year of days would be 365 labels. */
export const MAX_BAND_TICKS = 12;

/** The types with a value axis beside a time axis: those that can draw two value axes. */
const DUAL_AXES_TYPES: ReadonlySet<ChartType> = new Set(['bar', 'stacked-bar', 'line', 'time-scale']);
const KINDS: Partial<Record<ChartType, PlotKind>> = {
  bar: 'columns', 'stacked-bar': 'columns', 'horizontal-bar': 'bars', line: 'lines', 'time-scale': 'lines', pie: 'pie', donut: 'pie', gauge: 'gauge',
};

/** The plot of a chart type; the data table is no plot (KpiDataTable draws it). */
export function plotConfigOf(type: ChartType, model: ChartModel): PlotConfig | undefined {
  const plot = type ? KINDS[type] : KINDS.line;
  if (!plot) return undefined;
  const chart = type ?? 'line';
  return {
    plot,
    type: chart,
    model,
    stacked: chart === 'stacked-bar',
    timeLine: chart === 'time-scale',
    hole: chart === 'donut' ? DONUT_HOLE : 0,
    valueAxes: DUAL_AXES_TYPES.has(chart) && usesBothAxes(model.series) ? 2 : 1,
    seriesCount: plot === 'gauge' ? Math.min(model.series.length, 1) : model.series.length,
  };
}

export interface GaugeReading {
  value: number | undefined;
  /** The centre text and its colour: colourOf the value. */
  text: string;
  textColour: string | undefined;
  /** The arc from 0 to definition.max, cut at the mapping's bounds. */
  segments: ColourSegment[];
}

/** What a gauge shows: the last value of the first series against definition.max. */
export function gaugeReading(model: ChartModel): GaugeReading {
  const value = lastValueOfFirstSeries(model.series);
  const key = model.series.find((item) => !item.compare)?.key;
  return {
    value,
    text: value === undefined ? '' : model.formatValue(value),
    textColour: value === undefined ? undefined : valueColour(value, model.definition, key),
    segments: gaugeSegments(model.definition, key),
  };
}
