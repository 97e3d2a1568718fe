// A KPI's chart as the options of one @ant-design/plots component, per chart type (SPEC §3): pure
// functions of the chart model, so every value, colour and label decision is tested in jsdom.
// Series names reach the page only as canvas text and through tooltipContent's text nodes.
import { gaugeSegments, hasColourMapping, valueColour } from './chartColours.ts';
import { DEFAULT_CHART_HEIGHT, type ChartModel } from './chartModel.ts';
import { lastValueOfFirstSeries, usesBothAxes } from './chartSeries.ts';
import { tooltipContent } from './chartTooltip.ts';
import type { ChartRow, ChartType, ValueAxis } from './kpiTypes.ts';

export type PlotKind = 'Column' | 'Bar' | 'Line' | 'Pie' | 'Gauge' | 'DualAxes';
export type PlotOptions = Record<string, unknown>;

export interface PlotConfig {
  plot: PlotKind;
  options: PlotOptions;
  /** Series drawn, the comparison included. */
  seriesCount: number;
}

const COMPARE_DASH = [6, 4];
const firstOf = (datum: ChartRow | ChartRow[]): ChartRow | undefined => (Array.isArray(datum) ? datum[0] : datum);

/** Line marks pass their series' points, other marks one point: the comparison is dashed either way. */
export const compareDash = (datum: ChartRow | ChartRow[]): number[] | undefined => (firstOf(datum)?.compare ? COMPARE_DASH : undefined);

function commonOptions(model: ChartModel): PlotOptions {
  const { definition, series, colours, formatValue, formatTime } = model;
  return {
    data: model.rows,
    height: definition.height ?? DEFAULT_CHART_HEIGHT,
    autoFit: true,
    // no entry animation: a dashboard of charts is drawn at once, and every poll would animate again
    animate: false,
    legend: definition.legend === false ? false : { color: { position: 'bottom' } },
    scale: { color: { domain: series.map((item) => item.name), range: series.map((item) => colours.get(item.name)!) } },
    tooltip: {
      title: (row: ChartRow) => formatTime(row.ts),
      items: [(row: ChartRow) => ({ name: row.series, value: formatValue(row.value), color: model.pointColour(row) })],
    },
    interaction: { tooltip: { render: tooltipContent } },
  };
}

/** A value axis on its side (by default the chart's, definition.y_axis), split_number ticks, values with the KPI's decimals. */
function valueAxis(model: ChartModel, side: ValueAxis = model.definition.y_axis ?? 'left'): PlotOptions {
  const { definition } = model;
  return {
    title: false,
    position: side,
    labelFormatter: (value: number) => model.formatValue(value),
    ...(definition.split_number ? { tickCount: definition.split_number } : {}),
  };
}

/** The value scale: fixed to the caller's range when given (no "nice" widening), else fitted by the library. */
function valueScale(model: ChartModel): PlotOptions {
  return model.valueDomain ? { y: { domain: [...model.valueDomain], nice: false } } : {};
}

/** Marked instants' lines and labels: dark grey on the white plot, above any series colour. */
export const MARKER_COLOUR = '#434343';

/** A time-scale chart's marked instants, each a dashed vertical line with its label at the top. */
function markerAnnotations(model: ChartModel): PlotOptions {
  if (!model.markers.length) return {};
  return {
    annotations: [{
      type: 'lineX',
      data: model.markers.map((marker) => ({ time: marker.at, label: marker.label })),
      xField: 'time',
      tooltip: false,
      style: { stroke: MARKER_COLOUR, lineWidth: 1, lineDash: [4, 4] },
      labels: [{ text: 'label', position: 'top-right', textAlign: 'start', textBaseline: 'top', fill: MARKER_COLOUR, fontSize: 11, dx: 4, dy: 2 }],
    }],
  };
}

/** The most ticks a band axis (one category per bucket) draws: a year of days would be 365 labels to measure and hide. */
export const MAX_BAND_TICKS = 12;

/** A time axis; on a band of buckets (every type but time scale) every k-th bucket is a tick, at most MAX_BAND_TICKS. */
function timeAxis(model: ChartModel, band = true): PlotOptions {
  const step = band ? Math.ceil(new Set(model.rows.map((row) => row.ts)).size / MAX_BAND_TICKS) : 1;
  return {
    title: false,
    labelFormatter: (time: string | Date) => model.formatAxisTime(time),
    labelAutoRotate: false,
    labelAutoHide: true,
    ...(step > 1 ? { tickFilter: (_tick: unknown, index: number) => index % step === 0 } : {}),
  };
}

/** Bars: the comparison lighter with a dashed outline; with a mapping each bar takes its value's colour. */
function barStyle(model: ChartModel): PlotOptions {
  return {
    fill: (row: ChartRow) => model.pointColour(row),
    fillOpacity: (row: ChartRow) => (row.compare ? 0.55 : 1),
    stroke: (row: ChartRow) => (row.compare ? model.colours.get(row.series) : undefined),
    lineWidth: (row: ChartRow) => (row.compare ? 1 : 0),
    lineDash: compareDash,
  };
}

function barOptions(model: ChartModel, type: 'bar' | 'stacked-bar' | 'horizontal-bar'): PlotOptions {
  const common = commonOptions(model);
  return {
    ...common,
    xField: 'ts',
    yField: 'value',
    colorField: 'series',
    scale: { ...(common.scale as PlotOptions), ...valueScale(model) },
    ...(type === 'stacked-bar' ? { stack: true } : { group: true }),
    axis: { x: timeAxis(model), y: type === 'horizontal-bar' ? { ...valueAxis(model), position: undefined } : valueAxis(model) },
    style: barStyle(model),
  };
}

function lineOptions(model: ChartModel, timeScale: boolean): PlotOptions {
  const common = commonOptions(model);
  return {
    ...common,
    xField: timeScale ? 'time' : 'ts',
    yField: 'value',
    colorField: 'series',
    scale: { ...(common.scale as PlotOptions), ...valueScale(model), ...(timeScale ? { x: { type: 'time' } } : {}) },
    ...(timeScale ? { area: { style: { fillOpacity: 0.15 } }, ...markerAnnotations(model) } : {}),
    axis: { x: timeAxis(model, !timeScale), y: valueAxis(model) },
    ...lineMarks(model),
  };
}

/** The line marks' style: the comparison dashed; with a mapping, points in their value's colour. */
function lineMarks(model: ChartModel): PlotOptions {
  return {
    style: { lineWidth: 2, lineDash: compareDash },
    ...(hasColourMapping(model.definition) ? { point: { shapeField: 'circle', sizeField: 3, style: { fill: (row: ChartRow) => model.pointColour(row), stroke: (row: ChartRow) => model.pointColour(row) } } } : {}),
  };
}

/**
 * Series on both value axes (query items with their own y_axis): one view, a mark per side, each
 * side its own scale and axis. Bars on two sides would hide each other, so on a bar chart the left
 * side keeps its bars and the right side's series are lines over them.
 */
function dualAxesOptions(model: ChartModel, type: ChartType): PlotOptions {
  const timeScale = type === 'time-scale';
  const bars = type === 'bar' || type === 'stacked-bar';
  const side = (axis: ValueAxis): PlotOptions => {
    // each mark names its colour field: the library would colour a mark without one by its y field
    const mark = { data: model.rows.filter((row) => row.axis === axis), colorField: 'series', axis: { y: valueAxis(model, axis) } };
    if (bars && axis === 'left') {
      return { ...mark, type: 'interval', style: barStyle(model), transform: [{ type: type === 'stacked-bar' ? 'stackY' : 'dodgeX' }] };
    }
    return { ...mark, type: 'line', ...lineMarks(model) };
  };
  const common = commonOptions(model);
  return {
    ...common,
    xField: timeScale ? 'time' : 'ts',
    yField: 'value',
    ...(timeScale ? { scale: { ...(common.scale as PlotOptions), x: { type: 'time' } } } : {}),
    axis: { x: timeAxis(model, !timeScale) },
    children: [side('left'), side('right')],
  };
}

/** Pie and donut: one slice per series, its last value (a comparison is a slice of its own, lighter). */
function pieOptions(model: ChartModel, donut: boolean): PlotOptions {
  const common = commonOptions(model);
  const slices = model.series.flatMap((item) => {
    const last = item.data.at(-1);
    return last ? [model.rows.find((row) => row.series === item.name && row.ts === last.ts)!] : [];
  });
  return {
    ...common,
    data: slices,
    angleField: 'value',
    colorField: 'series',
    ...(donut ? { innerRadius: 0.6 } : {}),
    label: { text: (row: ChartRow) => model.formatValue(row.value), position: 'outside' },
    style: { fill: (row: ChartRow) => model.pointColour(row), fillOpacity: (row: ChartRow) => (row.compare ? 0.55 : 1) },
  };
}

export interface GaugeReading {
  value: number | undefined;
  /** The centre text and its colour: colourOf the value. */
  text: string;
  textColour: string | undefined;
}

export function gaugeReading(model: ChartModel): GaugeReading {
  const value = lastValueOfFirstSeries(model.series);
  const key = model.series.find((item) => !item.compare)?.key;
  return {
    value,
    text: value === undefined ? '' : model.formatValue(value),
    textColour: value === undefined ? undefined : valueColour(value, model.definition, key),
  };
}

function gaugeOptions(model: ChartModel): PlotOptions {
  const { definition } = model;
  const key = model.series.find((item) => !item.compare)?.key;
  const segments = gaugeSegments(definition, key);
  const reading = gaugeReading(model);
  return {
    height: definition.height ?? DEFAULT_CHART_HEIGHT,
    autoFit: true,
    animate: false,
    legend: false,
    data: { target: reading.value ?? 0, total: definition.max, thresholds: segments.map((segment) => segment.to) },
    scale: { color: { range: segments.map((segment) => segment.colour) } },
    style: {
      textContent: () => reading.text,
      ...(reading.textColour ? { textFill: reading.textColour } : {}),
    },
  };
}

/** The types with a value axis beside a time axis: those that can draw two value axes. */
const DUAL_AXES_TYPES: ReadonlySet<ChartType> = new Set(['bar', 'stacked-bar', 'line', 'time-scale']);

/** The plot of a chart type; the data table is no plot (KpiDataTable draws it). */
export function plotConfigOf(type: ChartType, model: ChartModel): PlotConfig | undefined {
  const seriesCount = model.series.length;
  if (DUAL_AXES_TYPES.has(type) && usesBothAxes(model.series)) return { plot: 'DualAxes', options: dualAxesOptions(model, type), seriesCount };
  switch (type) {
    case 'bar': case 'stacked-bar': return { plot: 'Column', options: barOptions(model, type), seriesCount };
    case 'horizontal-bar': return { plot: 'Bar', options: barOptions(model, type), seriesCount };
    case 'line': return { plot: 'Line', options: lineOptions(model, false), seriesCount };
    case 'time-scale': return { plot: 'Line', options: lineOptions(model, true), seriesCount };
    case 'pie': case 'donut': return { plot: 'Pie', options: pieOptions(model, type === 'donut'), seriesCount };
    case 'gauge': return { plot: 'Gauge', options: gaugeOptions(model), seriesCount: Math.min(seriesCount, 1) };
    default: return undefined;
  }
}
